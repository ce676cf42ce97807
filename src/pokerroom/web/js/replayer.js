// @ts-check
// A table's hand history: the player's hands here in the side panel, and a replayer that
// plays one of them back on a felt of its own, drawn by the table's own felt.js from frames
// the server built (/api/hands/{id}/replay): step back and forward, play and pause, speed.

import { api, download } from "./api.js";
import { $, el } from "./dom.js";
import { seedOption, shufflePanel } from "./fairness.js";
import { renderCenter, renderSeats } from "./felt.js";
import { amountsOf } from "./format.js";
import { number, t } from "./i18n.js";
import { handRow } from "./handlist.js";
import { app } from "./state.js";
import { replayLine } from "./texts.js";

const STEP_MS = 1200; // one step at 1x

export function bindReplayer(view) {
  const r = view.root;
  $(".rp-first", r).addEventListener("click", () => { pause(view); step(view, -Infinity); });
  $(".rp-prev", r).addEventListener("click", () => { pause(view); step(view, -1); });
  $(".rp-next", r).addEventListener("click", () => { pause(view); step(view, 1); });
  $(".rp-last", r).addEventListener("click", () => { pause(view); step(view, Infinity); });
  $(".rp-play", r).addEventListener("click", () => (view.replay?.timer ? pause(view) : play(view)));
  $(".rp-speed", r).addEventListener("change", () => { if (view.replay?.timer) play(view); });
  $(".rp-close", r).addEventListener("click", () => closeReplay(view));
  speedOptions(view);
}

export async function loadHistory(view) {
  seedOption(view);
  const list = $(".history-list", view.root);
  if (!app.token) { list.replaceChildren(el("li", { class: "muted", text: t("history.log_in") })); return; }
  let hands = [];
  try {
    hands = await api(`/api/hands?table=${encodeURIComponent(view.id)}&limit=30`);
  } catch (error) {
    list.replaceChildren(el("li", { class: "error", text: error.message }));
    return;
  }
  if (!hands.length) { list.replaceChildren(el("li", { class: "muted", text: t("history.none") })); return; }
  list.replaceChildren(...hands.filter((h) => h.status !== "running").map((h) => handRow(h, () => openReplay(view, h.id))));
}

// ``floor``: the back office's replay of any hand, every card shown (operators only).
export async function openReplay(view, handId, { floor = false } = {}) {
  let replay;
  try {
    replay = await api(floor ? `/api/floor/hands/${handId}/replay` : `/api/hands/${handId}/replay`);
  } catch (error) {
    view.error(error.message);
    return;
  }
  pause(view);
  const r = view.root;
  const stage = $(".replayer", r);
  $(".replay-stage", stage).replaceChildren(replayFelt());
  // What felt.js draws from: a table view's shape, its frames made from the replay's.
  view.replay = { ...replay, step: 0, timer: null, stage: { root: stage, replaying: true, state: null, previous: null, lastResult: null } };
  stage.hidden = false;
  r.classList.add("replaying");
  stage.dataset.hand = String(handId);
  // Named as trackers' importers look for them (HH first), by the hand's one number.
  $(".dl-phh", r).onclick = (event) => { event.preventDefault(); download(`/api/hands/${handId}.phh`, `HH${handId}.phh`); };
  $(".dl-txt", r).onclick = (event) => { event.preventDefault(); download(`/api/hands/${handId}.txt`, `HH${handId}.txt`); };
  shufflePanel(view, handId);
  step(view, -Infinity);
  $(".rp-play", r).focus();
}

function closeReplay(view) {
  pause(view);
  view.replay = null;
  const stage = $(".replayer", view.root);
  stage.hidden = true;
  // Nothing of the replayed hand stays behind (no second felt, no second seat of yours).
  $(".replay-stage", stage).replaceChildren();
  $(".replayer-lines", stage).replaceChildren();
  view.root.classList.remove("replaying");
}

// The replayer's felt, the same parts as the table's own (felt.js draws both), made while
// a hand is replayed and removed after.
function replayFelt() {
  return el("div", { class: "felt-wrap replay-felt" },
    el("div", { class: "felt" },
      el("div", { class: "center" },
        el("div", { class: "pot-total", hidden: true }),
        el("div", { class: "pots" }),
        el("div", { class: "bomb-pot-mark", hidden: true }),
        el("div", { class: "board" }),
        el("div", { class: "second-board", hidden: true }),
        el("div", { class: "banner", role: "status", "aria-live": "polite" })),
      el("div", { class: "seats" })));
}

// A replay frame as a table frame: every seat of the table (those not in the hand empty),
// the hand in progress, or at the end the result with its shown hands and awards.
function tableFrame(view, replay, frame) {
  const count = Math.max(replay.max_seats || 0, view.state?.seats.length || 0, ...frame.seats.map((s) => s.seat));
  /** @type {any[]} the seats as a table frame lists them */
  const seats = Array.from({ length: count }, (_, k) => ({ seat: k + 1, empty: true }));
  for (const s of frame.seats) {
    seats[s.seat - 1] = {
      seat: s.seat, empty: false, name: s.name || t("table.seat", { seat: s.seat }), stack: s.stack, bet: s.bet,
      folded: s.folded, cards: s.cards, card_count: s.card_count, in_hand: true, connected: true,
      status: "playing", all_in: s.all_in, last_action: s.last_action, missed_big: false, missed_small: false,
    };
  }
  const hand = frame.result ? null : {
    number: replay.number, board: frame.board, second_board: frame.second_board || [], pots: frame.pots, collected: frame.collected,
    button: replay.button, small_blind_seat: replay.small_blind_seat, big_blind_seat: replay.big_blind_seat,
    actor: frame.actor, legal: null,
  };
  // A tournament hand's amounts are chips (format.js's amountsOf reads ``tournament``).
  return { version: replay.step, seats, you: frame.seats.find((s) => s.you)?.seat ?? null, hand, tournament: replay.tournament || null };
}

/** The replayer shown again as it is (after a change of language). */
export function renderReplay(view) {
  speedOptions(view);
  labelPlay(view);
  step(view, 0);
}

function step(view, delta) {
  const rp = view.replay;
  if (!rp) return;
  $(".replayer-title", view.root).textContent = t("history.hand_title", { number: rp.id, game: rp.game });
  const last = rp.frames.length - 1;
  rp.step = delta === -Infinity ? 0 : delta === Infinity ? last : Math.max(0, Math.min(last, rp.step + delta));
  const frame = rp.frames[rp.step];
  const stage = rp.stage;
  stage.previous = stage.state;
  stage.state = tableFrame(view, rp, frame);
  stage.lastResult = frame.result;
  renderSeats(stage);
  renderCenter(stage);
  const r = view.root;
  const root = stage.root;
  root.dataset.step = String(rp.step);
  // Each line in the page's language (``items``), or as the server wrote it in English.
  const { show } = amountsOf(stage.state);
  const said = (f) => (f.items ? f.items.map((item) => replayLine(item, show)) : f.lines);
  if (!frame.result) {
    // The pot on the felt is the hand's; what just happened is the banner.
    $(".banner", root).textContent = said(frame).at(-1) || "";
  }
  $(".rp-step", r).textContent = t("history.step", { step: number(rp.step + 1), steps: number(rp.frames.length) });
  $(".rp-prev", r).disabled = $(".rp-first", r).disabled = rp.step === 0;
  $(".rp-next", r).disabled = $(".rp-last", r).disabled = rp.step === last;
  const lines = rp.frames.slice(0, rp.step + 1).flatMap(said);
  const list = $(".replayer-lines", r);
  list.replaceChildren(...lines.map((line, n) => el("li", { class: n >= lines.length - frame.lines.length ? "new" : "", text: line })));
  list.scrollTop = list.scrollHeight;
  if (rp.step === last) pause(view);
}

// Play from here (from the start when at the end), a step every STEP_MS / speed.
function play(view) {
  const rp = view.replay;
  if (!rp) return;
  clearInterval(rp.timer);
  if (rp.step === rp.frames.length - 1) step(view, -Infinity);
  const speed = Number($(".rp-speed", view.root).value) || 1;
  rp.timer = setInterval(() => step(view, 1), STEP_MS / speed);
  labelPlay(view);
}

function pause(view) {
  const rp = view.replay;
  if (rp) { clearInterval(rp.timer); rp.timer = null; }
  labelPlay(view);
}

// Play or Pause, pressed while playing.
function labelPlay(view) {
  const playing = Boolean(view.replay?.timer);
  const button = $(".rp-play", view.root);
  button.textContent = t(playing ? "replay.pause" : "replay.play");
  button.setAttribute("aria-pressed", String(playing));
}

// The speeds, "0.5×" to "4×" as the page's language writes the numbers.
const SPEEDS = [0.5, 1, 2, 4];

function speedOptions(view) {
  const select = $(".rp-speed", view.root);
  const chosen = select.value || "1";
  select.replaceChildren(...SPEEDS.map((speed) => el("option", { value: String(speed) }, `${number(speed)}\u00d7`)));
  select.value = chosen;
}

export function disposeReplay(view) { pause(view); }

// A table's hand history side panel: the player's hands here, and a step-by-step replayer of
// one of them (frames built by the server, /api/hands/{id}/replay).

import { api, download } from "./api.js";
import { $, cardEl, el } from "./dom.js";
import { seedOption, shufflePanel } from "./fairness.js";
import { money } from "./format.js";
import { number, t } from "./i18n.js";
import { handRow } from "./handlist.js";
import { app } from "./state.js";
import { replayLine } from "./texts.js";

export function bindReplayer(view) {
  const r = view.root;
  $(".rp-first", r).addEventListener("click", () => step(view, -Infinity));
  $(".rp-prev", r).addEventListener("click", () => step(view, -1));
  $(".rp-next", r).addEventListener("click", () => step(view, 1));
  $(".rp-last", r).addEventListener("click", () => step(view, Infinity));
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

async function openReplay(view, handId) {
  try {
    view.replay = await api(`/api/hands/${handId}/replay`);
  } catch (error) {
    view.error(error.message);
    return;
  }
  view.replay.step = view.replay.frames.length - 1;
  const r = view.root;
  $(".replayer", r).hidden = false;
  $(".dl-phh", r).onclick = (event) => { event.preventDefault(); download(`/api/hands/${handId}.phh`, `hand-${handId}.phh`); };
  $(".dl-txt", r).onclick = (event) => { event.preventDefault(); download(`/api/hands/${handId}.txt`, `hand-${handId}.txt`); };
  shufflePanel(view, handId);
  step(view, -Infinity);
}

/** The replayer's hand shown again as it is (after a change of language). */
export const renderReplay = (view) => step(view, 0);

function step(view, delta) {
  const rp = view.replay;
  if (!rp) return;
  $(".replayer-title", view.root).textContent = t("history.hand_title", { number: rp.number, game: rp.game });
  const last = rp.frames.length - 1;
  rp.step = delta === -Infinity ? 0 : delta === Infinity ? last : Math.max(0, Math.min(last, rp.step + delta));
  const frame = rp.frames[rp.step];
  const r = view.root;
  $(".rp-step", r).textContent = t("history.step", { step: number(rp.step + 1), steps: number(rp.frames.length) });
  $(".replayer-board", r).replaceChildren(...frame.board.map((c) => cardEl(c)));
  $(".replayer-seats", r).replaceChildren(...frame.seats.map((seat) =>
    el("li", { class: `${seat.folded ? "folded" : ""} ${frame.actor === seat.seat ? "acting" : ""} ${seat.you ? "you" : ""}` },
      el("span", { class: "name", text: `${seat.name || t("table.seat", { seat: seat.seat })}${seat.seat === rp.button ? ` (${t("badge.dealer")})` : ""}` }),
      el("span", { class: "hole" }, ...(seat.cards ? seat.cards.map((c) => cardEl(c)) : Array.from({ length: seat.folded ? 0 : seat.card_count }, () => cardEl(null)))),
      el("span", { class: "num", text: money(seat.stack) }),
      seat.bet ? el("span", { class: "bet-inline", text: ` ${t("history.bet", { amount: money(seat.bet) })}` }) : null)));
  // Each line in the page's language (``items``), or as the server wrote it in English.
  const said = (f) => (f.items ? f.items.map(replayLine) : f.lines);
  const lines = rp.frames.slice(0, rp.step + 1).flatMap(said);
  const list = $(".replayer-lines", r);
  list.replaceChildren(...lines.map((line, n) => el("li", { class: n >= lines.length - frame.lines.length ? "new" : "", text: line })));
  list.scrollTop = list.scrollHeight;
}

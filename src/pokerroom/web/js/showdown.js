// @ts-check
// The end of a hand, one award at a time: side pots first (the last one first),
// then the main pot, the high half of a hi-lo pot before the low. Each step names the pot,
// tags the half (Hi / Lo), flies the chips to the winners and highlights the winning five
// cards: gold for a high hand, blue for a low. The steps run on the page's own timers and
// stop when the next hand's frame comes: the game never waits for them.

import { $, el } from "./dom.js";
import { amountsOf } from "./format.js";
import { t } from "./i18n.js";
import { handName } from "./texts.js";

const STEP_MS = 900;
const SHARE_ORDER = { whole: 0, high: 0, low: 1 };
const runTag = (award) => (award.run ? t("runout.run", { run: award.run }) : "");
export const potLabel = (n) => (n === 0 ? t("award.main_pot") : t("award.side_pot", { pot: n }));
const TAGS = { high: "award.high", low: "award.low" };

export function awardsOf(result) {
  // Run twice (R-RIT-1): each pot's first run's half, then its second's.
  return [...(result?.pots || [])].sort((a, b) => b.pot - a.pot || (a.run || 0) - (b.run || 0) || SHARE_ORDER[a.share] - SHARE_ORDER[b.share]);
}

// Start showing ``result``: the first award now, the next ones a step apart.
export function startAwards(view, result, render) {
  stopAwards(view);
  const awards = awardsOf(result);
  view.awardStep = Math.min(1, awards.length);
  render();
  flyChips(view, awards[0]);
  const next = () => {
    if (view.lastResult !== result || view.awardStep >= awards.length) { view.awardTimer = null; return; }
    view.awardStep += 1;
    render();
    flyChips(view, awards[view.awardStep - 1]);
    view.awardTimer = setTimeout(next, STEP_MS);
  };
  view.awardTimer = setTimeout(next, STEP_MS);
}

export function stopAwards(view) {
  clearTimeout(view.awardTimer);
  view.awardTimer = null;
}

// What the awards shown so far mean at the seats: each winner's chips so far, and the cards
// to highlight (the current award's winners while stepping; every winner's at the end).
export function shownSoFar(view) {
  const result = view.lastResult;
  const awards = awardsOf(result);
  const done = awards.slice(0, view.awardStep ?? awards.length);
  const winners = new Map();
  for (const award of done) for (const w of award.winners) winners.set(w.seat, (winners.get(w.seat) || 0) + w.amount);
  const lit = done.length === awards.length ? done : done.slice(-1);
  const byseat = new Map((result?.shown || []).map((x) => [x.seat, x]));
  const high = new Set();
  const low = new Set();
  for (const award of lit) {
    if (award.run === 2) continue; // the shown hands' best five are the first board's
    for (const w of award.winners) {
      const shown = byseat.get(w.seat);
      if (!shown) continue;
      if (award.share === "low") for (const c of shown.low_best || []) low.add(c);
      else for (const c of shown.best || []) high.add(c);
    }
  }
  return { winners, high, low, awards, done: done.length };
}

export function cardMarks(code, { high, low }) {
  return [high.has(code) ? "best" : "", low.has(code) ? "best-low" : ""].join(" ").trim();
}

// The pots in the middle as a list, one row an award: pending, or who won it and with what.
export function renderAwards(view, pots, banner) {
  const s = view.state;
  const { awards, done } = shownSoFar(view);
  const name = (seat) => s.seats[seat - 1]?.name || t("table.seat", { seat });
  const { show } = amountsOf(s);
  pots.classList.add("result");
  pots.replaceChildren(...awards.map((award, n) => {
    const state = n < done - 1 || (n === done - 1 && done === awards.length) ? "awarded" : n === done - 1 ? "awarded current" : "pending";
    const who = award.winners.map((w) => `${name(w.seat)} ${show(w.amount)}`).join(", ");
    return el("div", { class: `pot award ${state}`, "data-chips": award.amount, "data-pot": award.pot, "data-share": award.share, "data-run": award.run || 0, title: sentence(award, name, show) },
      el("span", { class: "label", text: potLabel(award.pot) }),
      award.run ? el("span", { class: "tag run", text: runTag(award) }) : null,
      TAGS[award.share] ? el("span", { class: `tag ${award.share}`, text: t(TAGS[award.share]) }) : null,
      el("span", { class: "amount", text: show(award.amount) }),
      n < done ? el("span", { class: "who", text: `\u2192 ${who}${awardHand(award) ? ` \u00b7 ${awardHand(award)}` : ""}` }) : null);
  }));
  const current = awards[done - 1];
  banner.textContent = current ? sentence(current, name, show) : "";
}

function sentence(award, name, show) {
  let pot = TAGS[award.share] ? t("award.pot_half", { pot: potLabel(award.pot), half: t(TAGS[award.share]) }) : potLabel(award.pot);
  if (award.run) pot = `${pot} (${runTag(award)})`;
  const who = award.winners.map((w) => t("award.wins", { name: name(w.seat), amount: show(w.amount) })).join(", ");
  const hand = awardHand(award);
  return hand ? t("award.sentence_hand", { pot, who, hand }) : t("award.sentence", { pot, who });
}

// The winning hand an award names, when it was shown: its high hand's name, its low
// ("8-6-4-2-A"), or both.
function awardHand(award) {
  return [award.hand ? handName(award.hand) : "", award.low || ""].filter(Boolean).join(", ");
}

// A chip with the amount flies from the pot's row to each winner's seat (under the text).
function flyChips(view, award) {
  const felt = $(".felt", view.root);
  if (!felt || !award) return;
  const rows = [...view.root.querySelectorAll(".pots .award")];
  const row = rows.find((r) => Number(r.dataset.pot) === award.pot && r.dataset.share === award.share && Number(r.dataset.run) === (award.run || 0)) || $(".center", view.root);
  const from = row.getBoundingClientRect();
  const base = felt.getBoundingClientRect();
  for (const w of award.winners) {
    const seat = $(`.seat[data-seat="${w.seat}"] .plate`, view.root);
    if (!seat) continue;
    const to = seat.getBoundingClientRect();
    const chip = el("div", { class: "flying-chip", "aria-hidden": "true", text: amountsOf(view.state).show(w.amount) });
    chip.style.left = `${from.left - base.left + from.width / 2}px`;
    chip.style.top = `${from.top - base.top + from.height / 2}px`;
    felt.append(chip);
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    chip.animate([{ transform: "translate(-50%,-50%)", opacity: 0.9 }, { transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px))`, opacity: 0 }],
      { duration: 700, easing: "ease-in-out" }).finished.then(() => chip.remove(), () => chip.remove());
  }
}

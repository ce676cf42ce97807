// @ts-check
// At a tournament table: under the level line (level, blinds and ante, the next
// level, your place / players left, which ticks every second between frames) the payouts,
// hand-for-hand, and the room's last message for this event in a live region (you were
// moved, hand-for-hand started, you finished in a place and won): and Deal at the final table.
// A move: the new table opens and the ones the player sat at close, whatever came first.

import { api } from "./api.js";
import { openDeal, refreshDealSoon } from "./deal.js";
import { $, el, showToast } from "./dom.js";
import { money, tournamentLine } from "./format.js";
import { number, t } from "./i18n.js";
import { closeTable, focusTable, openTable } from "./nav.js";
import { app } from "./state.js";
import { errorText } from "./texts.js";

// The tables of tournament ``id`` open in this page ("<id>-<number>").
export const viewsOf = (id) => [...app.tables.values()].filter((v) => v.id.startsWith(`${id}-`) && /^\d+$/.test(v.id.slice(id.length + 1)));

/** The room moved the player (or sat them again) at ``table`` of tournament ``id``: it opens
 * and shows, and every other table of the event they sat at closes, its frames stopped. The
 * old table's last frame (without them) may have come before this notice: what counts is
 * that they sat there, not that its last frame says so. */
export function moveTo(id, table) {
  const left = viewsOf(id).filter((v) => v.id !== table && v.satHere);
  openTable(table);
  for (const view of left) closeTable(view.id);
}

/** A frame of tournament ``id``'s tables: while the player sits at one of its open tables,
 * each other one they sat at and sit at no more closes. This follows a move whose notice
 * came before the old table's frames or was never seen here (the socket was down then). */
export function followSeat(id) {
  const views = viewsOf(id);
  const seat = views.find((v) => v.state?.you);
  if (!seat) return;
  for (const view of views.filter((v) => v.satHere && !v.state?.you)) {
    const shown = app.active === view.id;
    closeTable(view.id);
    if (shown) focusTable(seat.id);
  }
}

/** The level line with the time to the next level as of now (the frame said it when sent). */
export function levelLine(view) {
  const s = view.state;
  const info = s.tournament;
  const elapsed = (performance.now() - (view.tournamentAt || performance.now())) / 1000;
  const left = info.next_level_seconds === null ? null : Math.max(0, info.next_level_seconds - elapsed);
  return `${s.game} \u00b7 ${tournamentLine({ ...info, next_level_seconds: left }, s.you)}`;
}

export function renderTournamentInfo(view) {
  const box = $(".tournament-info", view.root);
  const info = view.state?.tournament;
  box.hidden = !info;
  if (!info) return;
  if (view.tournamentVersion !== view.state.version) {
    view.tournamentVersion = view.state.version;
    view.tournamentAt = performance.now();
  }
  const payouts = info.payouts.map((amount, k) => t("tournaments.payout_place", { place: number(k + 1), prize: money(amount) })).join(" \u00b7 ");
  setText($(".t-payouts", box), payouts ? t("tournaments.table_payouts", { list: payouts }) : t("tournaments.payouts_later_short"));
  $(".t-h4h", box).hidden = !info.hand_for_hand;
  const notes = app.tournamentNotes.get(info.id) || [];
  const shown = $(".t-notice", box);
  // A log: only what is new is added (and so said), the oldest lines go.
  const last = Number(shown.dataset.last || 0);
  for (const note of notes.filter((n) => n.id > last)) shown.append(el("p", { text: errorText(note.said) }));
  shown.dataset.last = String(notes.length ? notes[notes.length - 1].id : last);
  while (shown.children.length > 3) shown.firstElementChild.remove();
  box.classList.toggle("finished", notes.some((n) => n.kind === "finished" || n.kind === "won"));
  const deal = $(".deal-open", box);
  deal.hidden = !(info.final_table && view.state.you);
  deal.onclick = () => openDeal(info.id);
  refreshDealSoon(info.id);
}

/** A new language: the messages are written again in it. */
export function resetTournamentLog(view) {
  const shown = $(".t-notice", view.root);
  shown.replaceChildren();
  delete shown.dataset.last;
}

// Set only when it changes: a live region says again what is written into it again.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// The countdown moves between frames (a table waiting for its next hand sends none).
setInterval(() => {
  for (const view of app.tables.values()) {
    if (!view.state?.tournament || view.root.hidden) continue;
    const line = $(".table-game", view.root);
    const text = levelLine(view);
    if (line.textContent !== text) line.textContent = text;
  }
}, 1000);

/** A busted player's answer to the rebuy offered in the rebuy period: rebuy (stay in) or
 * decline (out at once; else out when the time shown runs out). */
export async function answerRebuy(view, rebuy) {
  const id = view.state?.tournament?.id;
  if (!id) return;
  const key = crypto.getRandomValues(new Uint32Array(4)).join("");
  const path = `/api/tournaments/${id}/${rebuy ? "rebuy" : "rebuy/decline"}`;
  try {
    await api(path, { method: "POST", body: rebuy ? { request: key } : undefined });
  } catch (error) {
    showToast(error.message);
  }
}

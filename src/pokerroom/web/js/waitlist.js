// @ts-check
// The waiting list: join or leave a table's list from the lobby, your place in
// line, and the seat held for you when one opens (a prompt with its countdown: take it with a
// buy-in, or let it go). The words the lobby and the waiting list show are all here, in TEXT
// (their keys in the catalogues, src/pokerroom/web/i18n).

import { askBuyIn } from "./buyin.js";
import { $, el, showToast } from "./dom.js";
import { number, t } from "./i18n.js";
import { openTable } from "./nav.js";
import { send } from "./socket.js";
import { app, setLobbyWaiting, setOffer } from "./state.js";
import { errorText } from "./texts.js";

export const TEXT = {
  waitingFor: (ready, needed) => t("table.waiting_for", { ready: number(ready), needed: number(needed) }),
  joinList: () => t("lobby.join_list"),
  leaveList: () => t("lobby.leave_list"),
  inLine: (position) => t("lobby.in_line", { position: number(position) }),
  waitingCount: (n) => (n ? t("lobby.waiting_count", { count: number(n) }) : ""),
  heldFor: (name) => t("table.held_for", { name }),
  takeYourSeat: () => t("table.take_your_seat"),
  offerTitle: () => t("offer.title"),
  offerText: (table, seat, seconds) => t("offer.text", { table, seat: number(seat), seconds: number(seconds) }),
  takeSeat: () => t("offer.take"),
  letGo: () => t("offer.let_go"),
};

// Whether a table that cannot deal says so (the server's `ready` of `needed`).
export function waitingForPlayers(state) {
  if (typeof state.ready !== "number" || typeof state.needed !== "number") return null;
  return state.ready < state.needed ? TEXT.waitingFor(state.ready, state.needed) : null;
}

export function joinList(tableId) { send({ type: "waiting_list", table: tableId, action: "join" }); }
export function leaveList(tableId) { send({ type: "waiting_list", table: tableId, action: "leave" }); }

// The seat held for you at a table, if any: {seat, until} (until on this page's clock).
export function offerAt(tableId) {
  const offer = app.offers.get(tableId);
  return offer && offer.until > performance.now() ? offer : null;
}

// A `waiting` frame: your place on one table's list changed.
/** @param {import("./protocol").WaitingFrame} frame @param {() => void} rerender */
export function onWaiting(frame, rerender) {
  setLobbyWaiting(frame.table, frame.position);
  if (frame.offer) {
    setOffer(frame.table, { seat: frame.offer.seat, until: performance.now() + frame.offer.seconds * 1000 });
    showOffer(frame.table);
  } else {
    setOffer(frame.table, null);
    closeOffer(frame.table);
  }
  if (frame.note) showToast(() => errorText({ message: frame.note, code: frame.code, params: frame.params }), { info: true });
  rerender();
}

function tableName(tableId) {
  return app.lobby.find((t) => t.id === tableId)?.name || app.tables.get(tableId)?.state?.name || tableId;
}

function closeOffer(tableId) {
  const prompt = $(`.seat-offer[data-table="${tableId}"]`);
  if (prompt) { clearInterval(prompt.timer); prompt.remove(); }
}

function showOffer(tableId) {
  closeOffer(tableId);
  const offer = app.offers.get(tableId);
  const text = el("p", {});
  const take = el("button", {
    type: "button", class: "primary take-seat", text: TEXT.takeSeat(),
    onclick: () => { closeOffer(tableId); openTable(tableId); askBuyIn(tableId, offer.seat); },
  });
  const letGo = el("button", {
    type: "button", class: "let-go", text: TEXT.letGo(),
    onclick: () => { closeOffer(tableId); leaveList(tableId); },
  });
  const prompt = el("div", { class: "seat-offer", role: "alertdialog", "aria-label": TEXT.offerTitle(), "data-table": tableId },
    el("strong", { text: TEXT.offerTitle() }), text, el("div", { class: "row" }, take, letGo));
  const tick = () => {
    const left = Math.max(0, Math.ceil((offer.until - performance.now()) / 1000));
    text.textContent = TEXT.offerText(tableName(tableId), offer.seat, left);
    if (!left) closeOffer(tableId);
  };
  tick();
  prompt.timer = setInterval(tick, 1000);
  document.body.append(prompt);
}

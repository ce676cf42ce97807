// @ts-check
// The buy-in dialog: sit down, or add chips to (rebuy) a stack already at the table. The range
// is the server's: the table's minimum and maximum to sit down, and for adding chips the
// seated frame's `buy_in` (what the table accepts on top of the stack). Only the balance the
// server reported caps it further.

import { refreshMe } from "./api.js";
import { $ } from "./dom.js";
import { money, toCents, toDollars } from "./format.js";
import { t } from "./i18n.js";
import { show } from "./nav.js";
import { send } from "./socket.js";
import { app, nextJoinRequest } from "./state.js";

const TABLE_WAIT_MS = 10_000; // the longest a buy-in waits for its table's first frame
let pending = null; // {tableId, timer}: a buy-in submitted before its table had loaded

// The submitted buy-in stops waiting (sent, cancelled, or given up on).
function stopWaiting(okEnabled = true) {
  if (pending) clearTimeout(pending.timer);
  pending = null;
  $("#buyin-status").textContent = "";
  if (okEnabled) $("#buyin-ok").disabled = false;
}

// A table's first frame arrived (table.js): a buy-in waiting for it is submitted, once.
export function tableLoaded(tableId) {
  if (!pending || pending.tableId !== tableId) return;
  stopWaiting();
  if ($("#buyin").open) $("#buyin-form").requestSubmit();
}

function limits(tableId, topUp) {
  const view = app.tables.get(tableId);
  const info = app.lobby.find((t) => t.id === tableId) || view?.state;
  if (!info) return null;
  if (!topUp) return { info, min: info.min_buy_in, most: info.max_buy_in, have: 0 };
  const range = view?.state?.buy_in;
  const me = view?.mySeat();
  if (!range || !me) return null;
  return { info, min: range.min, most: range.max, have: me.stack };
}

export function askBuyIn(tableId, seat, topUp = false) {
  if (!app.token) { show("auth"); return; }
  const found = limits(tableId, topUp);
  if (!found) return;
  const { info, min, most, have } = found;
  const dialog = $("#buyin");
  stopWaiting(false);
  dialog.onclose = () => stopWaiting(false);
  const balance = app.me ? money(app.me.balance) : "?";
  const max = Math.min(most, app.me ? app.me.balance : most);
  const rebuy = topUp && app.tables.get(tableId)?.mySeat()?.status === "busted";
  $("#buyin-title").textContent = t(rebuy ? "buyin.rebuy_at" : topUp ? "buyin.add_chips_at" : "buyin.buy_in_at", { table: info.name });
  $("#buyin-limits").textContent = topUp
    ? t("buyin.top_up_limits", { stack: money(have), min: money(info.min_buy_in), max: money(info.max_buy_in), balance })
    : t("buyin.limits", { min: money(info.min_buy_in), max: money(info.max_buy_in), balance });
  $("#buyin-ok").textContent = t(rebuy ? "table.rebuy" : topUp ? "table.add_chips" : "buyin.sit_down");
  const range = $("#buyin-range");
  const amount = $("#buyin-amount");
  range.min = String(min); range.max = String(Math.max(min, max)); range.step = String(info.big_blind || 1);
  const start = Math.max(min, Math.min(max, info.big_blind * 100));
  range.value = String(start);
  amount.min = toDollars(min); amount.max = toDollars(Math.max(min, max));
  amount.value = toDollars(start);
  range.oninput = () => { amount.value = toDollars(Number(range.value)); };
  amount.oninput = () => { range.value = String(toCents(amount.value)); };
  $("#buyin-error").textContent = most < min ? t("buyin.at_maximum")
    : max < min ? t("buyin.balance_too_low") : "";
  $("#buyin-ok").disabled = max < min;
  $("#buyin-cancel").onclick = () => dialog.close("cancel");
  $("#buyin-form").onsubmit = (event) => {
    event.preventDefault();
    if (pending) return; // already submitted: it goes when the table has loaded
    const cents = toCents(amount.value);
    if (!(cents >= min && cents <= most)) {
      $("#buyin-error").textContent = t("buyin.choose", { min: money(min), max: money(most) });
      return;
    }
    $("#buyin-error").textContent = "";
    const request = `web-${Date.now()}-${nextJoinRequest()}`;
    if (topUp) {
      send({ type: "add_chips", table: tableId, amount: cents, request });
      dialog.close("ok");
      setTimeout(refreshMe, 500);
      return;
    }
    const view = app.tables.get(tableId);
    if (seat == null && !view?.state) {
      // The table's first frame is not here yet: a seat guessed from the lobby may be taken.
      // Say so, and submit once when it comes (tableLoaded), or give up after a while.
      const timer = setTimeout(() => {
        stopWaiting();
        $("#buyin-error").textContent = t("buyin.not_loaded");
      }, TABLE_WAIT_MS);
      pending = { tableId, timer };
      $("#buyin-status").textContent = t("buyin.waiting");
      $("#buyin-ok").disabled = true;
      return;
    }
    const chosen = seat ?? view?.firstEmptySeat();
    if (!chosen) { $("#buyin-error").textContent = t("buyin.full"); return; }
    view?.rememberJoin(chosen, cents);
    send({ type: "join", table: tableId, seat: chosen, buy_in: cents, request });
    dialog.close("ok");
    setTimeout(refreshMe, 500);
  };
  if (!dialog.open) dialog.showModal();
}

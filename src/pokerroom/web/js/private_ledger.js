// @ts-check
// A private game's books on its page: each player's buy-ins, top-ups, cash-outs and net (the
// room's ledger, to the chip), every entry, what is on the table now, the CSV download; and
// the game's hands, each opening in the replayer beside the table.

import { download } from "./api.js";
import { $, el } from "./dom.js";
import { money, signedMoney } from "./format.js";
import { locale, t } from "./i18n.js";
import { openTable } from "./nav.js";
import { openReplay } from "./replayer.js";
import { app } from "./state.js";

const FIELDS = ["buy_ins", "top_ups", "cash_outs", "net"];
const last = { book: null, hands: null, game: null }; // as last drawn: drawn again in a new language
const time = (iso) => new Date(iso).toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit" });

/** ``book``: GET /ledger's answer, null when the player may not read it. */
export function renderLedger(book) {
  last.book = book;
  const rows = book ? book.players : [];
  $("#pg-ledger-rows").replaceChildren(...(rows.length
    ? rows.map((p) => el("tr", { "data-account": String(p.account), "data-name": p.name },
      el("th", { scope: "row" }, p.name, p.seated ? el("span", { class: "badge you-sit", text: t("private.seated") }) : null),
      ...FIELDS.map((field) => el("td", {
        "data-field": field, "data-cents": String(p[field]),
        class: field === "net" ? (p.net > 0 ? "won" : p.net < 0 ? "lost" : null) : null,
        text: field === "net" ? signedMoney(p.net) : money(p[field]),
      }))))
    : [el("tr", {}, el("td", { colspan: "5", class: "muted", text: t(book ? "private.ledger_empty" : "private.members_only") }))]));
  const onTable = $("#pg-on-table");
  onTable.textContent = book ? t("private.on_table", { amount: money(book.on_table) }) : "";
  onTable.dataset.cents = book ? String(book.on_table) : "";
  $("#pg-csv").hidden = !book;
  $("#pg-entries").replaceChildren(...(book ? book.entries : []).map((e) => el("li", { "data-kind": e.kind, "data-cents": String(e.amount) },
    el("time", { datetime: e.at, text: `${time(e.at)} ` }),
    t(`private.entry_${e.kind}`, { name: e.name, amount: money(e.amount) }))));
  $("#pg-entries").closest("details").hidden = !book;
}

/** ``hands``: GET /hands's list, newest first (null: not the player's to read). */
export function renderHands(hands, game) {
  last.hands = hands;
  last.game = game;
  const list = $("#pg-hands");
  if (!hands || !hands.length) {
    list.replaceChildren(el("li", { class: "muted", text: t(hands ? "private.no_hands" : "private.members_only") }));
    return;
  }
  const me = app.me?.account_id;
  list.replaceChildren(...hands.map((hand) => {
    const mine = (hand.players || []).find((p) => p.account === me);
    const who = (hand.players || []).map((p) => (typeof p.net === "number" ? `${p.name} ${signedMoney(p.net)}` : p.name)).join(", ");
    return el("li", { class: "hand-row pg-hand", "data-hand": String(hand.id) },
      el("button", { type: "button", class: "link", "data-hand": String(hand.id), onclick: () => replay(game, hand.id), text: `#${hand.id}` }),
      el("time", { datetime: hand.started_at, text: time(hand.started_at) }),
      el("span", { class: "hl-table muted small", text: who }),
      mine && typeof mine.net === "number"
        ? el("span", { class: `hl-net ${mine.net > 0 ? "won" : mine.net < 0 ? "lost" : "muted"}`, text: signedMoney(mine.net) })
        : null);
  }));
}

/** A new language: the books and hands drawn again from what the room last said. */
export function rerenderLedger() {
  renderLedger(last.book);
  if (last.game) renderHands(last.hands, last.game);
}

function replay(game, handId) {
  openTable(game.table || game.id);
  openReplay(app.tables.get(game.table || game.id), handId);
}

export function bindLedger(current) {
  $("#pg-csv").addEventListener("click", (event) => {
    event.preventDefault();
    const id = current();
    if (id && app.privateGames.has(id)) download(`/api/private-games/${encodeURIComponent(id)}/ledger.csv`, `${id}-ledger.csv`);
  });
}

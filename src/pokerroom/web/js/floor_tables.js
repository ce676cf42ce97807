// @ts-check
// The back office's live tables (GET /api/floor/tables): hands per hour, players and faults
// of each; a table's live view with who sits there and the floor's acts on it (void the hand
// in progress, close the table, suspend a player), and the acts by number (suspend an
// account, correct a finished hand's result), each behind a reason and a confirmation.

import { api } from "./api.js";
import { $, el, replaceKeepingFocus } from "./dom.js";
import { number, t } from "./i18n.js";
import { money, stakesLabel, toCents } from "./format.js";
import { openTable } from "./nav.js";
import { button, confirmAct, said, suspendAccount } from "./floor_ui.js";

let tables = [];
let chosen = null; // the table whose live view is open
let failure = "";

const COLUMNS = ["backoffice.col_table", "backoffice.col_game", "backoffice.col_players", "backoffice.col_hands_hour", "backoffice.col_hand", "backoffice.col_faults"];

export function tablesPart() {
  return el("div", {},
    el("p", { class: "error", id: "floor-tables-error", role: "alert" }),
    el("div", { class: "table-scroll" },
      el("table", { class: "floor-table", id: "floor-tables-list" },
        el("thead", {}, el("tr", {}, ...COLUMNS.map((key) => said("th", key, { scope: "col" })))),
        el("tbody", { id: "floor-tables-rows" }))),
    el("div", { id: "floor-table-view", class: "floor-table-view", hidden: true }));
}

export async function loadFloorTables() {
  try {
    tables = await api("/api/floor/tables");
    failure = "";
  } catch (error) {
    failure = error.message;
  }
  renderFloorTables();
}

export function renderFloorTables() {
  if (!$("#floor-tables-rows")) return;
  $("#floor-tables-error").textContent = failure;
  const rows = tables.map((table) => el("tr", { "data-table": table.id, class: table.id === chosen ? "chosen" : null },
    el("th", { scope: "row" }, el("button", { type: "button", class: "link floor-open", text: table.name, onclick: () => choose(table.id) })),
    el("td", { text: `${table.game} ${stakesLabel(table)}` }),
    el("td", { class: "num", text: `${number(table.seated)}/${number(table.seats)}` }),
    el("td", { class: "num", text: number(table.hands_per_hour) }),
    el("td", { class: "num", text: table.hand === null ? t("backoffice.no_hand") : `#${table.hand}` }),
    el("td", { class: table.faults ? "num error" : "num", text: number(table.faults) })));
  if (!rows.length) rows.push(el("tr", {}, said("td", "backoffice.no_tables", { colspan: String(COLUMNS.length) })));
  replaceKeepingFocus($("#floor-tables-rows"), rows, "data-table");
  renderView();
}

async function choose(id) {
  chosen = id;
  await loadFloorTables(); // the table as it is now: its hand may have moved on
  $("#floor-table-view").scrollIntoView({ block: "nearest" });
}

// One table, live: its hand, its players (each with a suspend act), its acts.
function renderView() {
  const box = $("#floor-table-view");
  const table = tables.find((x) => x.id === chosen);
  box.hidden = !table;
  if (!table) return;
  const players = table.accounts.map((a) => el("li", { "data-account": String(a.id) },
    el("span", { text: t("backoffice.seat_line", { seat: a.seat, name: a.name, stack: money(a.stack) }) }), " ",
    button("backoffice.suspend", () => suspendAccount(a.id).then(loadFloorTables), { class: "link floor-suspend" })));
  box.replaceChildren(
    el("h3", { text: table.name }),
    el("p", { class: "muted", text: t("backoffice.table_line", { id: table.id, hand: table.hand ?? "-", faults: table.faults }) }),
    players.length ? el("ol", { class: "floor-players" }, ...players) : said("p", "backoffice.nobody", { class: "muted" }),
    el("div", { class: "row" },
      button("backoffice.watch", () => openTable(table.id), { class: "floor-watch" }),
      button("backoffice.void", () => act(table, "void", "backoffice.void"), { class: "floor-void", disabled: table.hand === null }),
      button("backoffice.close", () => act(table, "close", "backoffice.close"), { class: "floor-close danger" })));
}

async function act(table, kind, key) {
  const what = t(kind === "void" ? "backoffice.void_what" : "backoffice.close_what", { table: table.name, hand: table.hand ?? "-" });
  await confirmAct(t(key), what, (reason) => api(`/api/floor/tables/${encodeURIComponent(table.id)}/${kind}`, { body: { reason } }));
  loadFloorTables();
}

// The acts by number: an account to suspend, a finished hand's result to correct.
export function actsPart() {
  const field = (key, attrs) => el("label", {}, said("span", key), " ", el("input", { required: true, ...attrs }));
  const suspend = el("form", { class: "floor-form", id: "floor-suspend-form" },
    field("backoffice.account_id", { id: "floor-suspend-account", type: "number", min: "1", inputmode: "numeric" }),
    said("button", "backoffice.suspend", { class: "danger" }));
  suspend.addEventListener("submit", (event) => {
    event.preventDefault();
    suspendAccount(Number($("#floor-suspend-account").value)).then(loadFloorTables);
  });
  const correct = el("form", { class: "floor-form", id: "floor-correct-form" },
    field("backoffice.hand_id", { id: "floor-correct-hand", type: "number", min: "1", inputmode: "numeric" }),
    field("backoffice.account_id", { id: "floor-correct-account", type: "number", min: "1", inputmode: "numeric" }),
    field("backoffice.amount", { id: "floor-correct-amount", type: "number", step: "0.01", inputmode: "decimal" }),
    said("button", "backoffice.correct", { class: "danger" }));
  correct.addEventListener("submit", (event) => {
    event.preventDefault();
    const hand = Number($("#floor-correct-hand").value);
    const account = Number($("#floor-correct-account").value);
    const amount = toCents($("#floor-correct-amount").value);
    const what = t("backoffice.correct_what", { hand, id: account, amount: money(amount, { signed: true }) });
    confirmAct(t("backoffice.correct"), what, (reason) =>
      api(`/api/floor/hands/${hand}/correct`, { body: { account_id: account, amount, reason } }));
  });
  return el("div", { class: "floor-acts" }, suspend, correct);
}

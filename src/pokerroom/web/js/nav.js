// @ts-check
// Which screen shows: sign-in, the lobby, My results or the tables (one at a time or tiled), and the tabs.
// The screens and the table's view sit above this module: the page's entry (main.js) gives
// their parts to `configureNav`, so that any view may open a table or a screen.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { send } from "./socket.js";
import { updateTitle } from "./sound.js";
import { addTable, app, isOperator, removeTable, setActive, toggleTiled } from "./state.js";

/** @typedef {import("./table.js").TableView} TableView */
/** @typedef {"auth" | "lobby" | "tables" | "results" | "private" | "backoffice"} Screen */

/**
 * @typedef {object} NavParts
 * @property {(id: string) => TableView} newTable a table's view, built (not yet in the page)
 * @property {(view: TableView) => void} opened told of a table's view once it is in the page
 * @property {Partial<Record<Screen, () => void>>} loaders what a screen loads when it is shown
 * @property {(which: Screen) => void} shown told of every screen shown
 */

/** @type {NavParts} */
let parts = { newTable: () => { throw new Error("configureNav first"); }, opened: () => {}, loaders: {}, shown: () => {} };

/** @param {NavParts} given */
export function configureNav(given) { parts = given; }

/** @param {Screen} which */
export function show(which) {
  $("#auth").hidden = which !== "auth";
  $("#lobby").hidden = which !== "lobby";
  $("#tables").hidden = which !== "tables";
  $("#results").hidden = which !== "results";
  $("#backoffice").hidden = which !== "backoffice" || !isOperator();
  $("#results-open").hidden = !app.token; // a guest has no results
  $("#private").hidden = which !== "private";
  if (which !== "tables" && which !== "auth") setActive(null);
  parts.loaders[which]?.();
  parts.shown(which);
  renderTabs();
  updateTitle(); // the table on screen names the browser's tab
}

export function renderTabs() {
  const tabs = [el("button", {
    type: "button", class: "tab", "aria-current": $("#lobby").hidden ? null : "page",
    onclick: () => show("lobby"), text: t("lobby.title"),
  })];
  for (const [id, view] of app.tables) {
    const current = !$("#tables").hidden && (app.tiled || app.active === id);
    tabs.push(el("button", {
      type: "button", class: `tab${view.yourTurn ? " your-turn" : ""}`, "data-tab": id,
      "aria-current": current ? "page" : null, onclick: () => focusTable(id), text: view.shortName(),
    }));
  }
  if (isOperator()) { // the floor's own tab: an operator's account only
    tabs.push(el("button", {
      type: "button", class: "tab backoffice-tab", "aria-current": $("#backoffice").hidden ? null : "page",
      onclick: () => show("backoffice"), text: t("backoffice.title"),
    }));
  }
  if (app.tables.size > 1) {
    tabs.push(el("button", {
      type: "button", class: "tab tile-toggle", "aria-pressed": String(app.tiled),
      onclick: () => { toggleTiled(); layoutTables(); }, text: app.tiled ? t("tabs.one_table") : t("tabs.tile"),
    }));
  }
  $("#tabs").replaceChildren(...tabs);
  // The table on screen keeps its tab in view when the strip scrolls (at phone width).
  $("#tabs .tab[data-tab][aria-current='page']")?.scrollIntoView({ block: "nearest", inline: "nearest" });
}

export function openTable(id, { focus = true } = {}) {
  if (!app.tables.has(id)) {
    const view = parts.newTable(id);
    addTable(id, view);
    $("#tables").append(view.root);
    parts.opened(view);
    view.resubscribe();
  }
  if (focus) focusTable(id);
}

// After a reload or a log-in: open every table where the player sits, and show the first
// one unless a table is already on screen (a reconnect keeps what the player looks at).
export function reopenSeats(ids) {
  const fresh = ids.filter((id) => !app.tables.has(id));
  for (const id of fresh) openTable(id, { focus: false });
  if (fresh.length && $("#tables").hidden) focusTable(fresh[0]);
  else renderTabs();
}

export function focusTable(id) {
  setActive(id);
  show("tables");
  layoutTables();
  updateTitle();
}

export function layoutTables() {
  $("#tables").classList.toggle("tiled", app.tiled);
  $("#tables").dataset.count = String(app.tables.size); // more than two tiled: no side panel
  for (const [id, view] of app.tables) {
    view.root.hidden = !app.tiled && id !== app.active;
    view.root.classList.toggle("focused", id === app.active);
  }
  renderTabs();
}

// Closed: its view goes and its frames stop (the room keeps sending those of a seat or a
// waiting-list place there, which this page then ignores until the table is opened again).
export function closeTable(id) {
  const view = app.tables.get(id);
  if (!view) return;
  send({ type: "unwatch", table: id });
  view.root.remove();
  view.dispose();
  removeTable(id);
  updateTitle();
  if (app.active) layoutTables(); else show("lobby");
}

// Which screen shows: sign-in, the lobby, My results or the tables (one at a time or tiled), and the tabs.

import { isOperator, loadBackoffice } from "./backoffice.js";
import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { refreshLobby } from "./lobby.js";
import { loadMyHands } from "./myhands.js";
import { privateShown } from "./private.js";
import { decorate } from "./private_table.js";
import { loadResults } from "./results.js";
import { send } from "./socket.js";
import { updateTitle } from "./sound.js";
import { app } from "./state.js";
import { TableView } from "./table.js";

export function show(which) {
  $("#auth").hidden = which !== "auth";
  $("#lobby").hidden = which !== "lobby";
  $("#tables").hidden = which !== "tables";
  $("#results").hidden = which !== "results";
  $("#backoffice").hidden = which !== "backoffice" || !isOperator();
  $("#results-open").hidden = !app.token; // a guest has no results
  if (which === "lobby") { app.active = null; refreshLobby(); loadMyHands(); }
  if (which === "results") { app.active = null; loadResults(); }
  $("#private").hidden = which !== "private";
  if (which === "private") app.active = null;
  privateShown(which === "private");
  if (which === "backoffice") { app.active = null; loadBackoffice(); }
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
      onclick: () => { app.tiled = !app.tiled; layoutTables(); }, text: app.tiled ? t("tabs.one_table") : t("tabs.tile"),
    }));
  }
  $("#tabs").replaceChildren(...tabs);
  // The table on screen keeps its tab in view when the strip scrolls (at phone width).
  $("#tabs .tab[data-tab][aria-current='page']")?.scrollIntoView({ block: "nearest", inline: "nearest" });
}

export function openTable(id, { focus = true } = {}) {
  if (!app.tables.has(id)) {
    const view = new TableView(id);
    app.tables.set(id, view);
    $("#tables").append(view.root);
    decorate(view); // a private game's bar
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
  app.active = id;
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
  app.tables.delete(id);
  updateTitle();
  if (app.active === id) app.active = app.tables.keys().next().value ?? null;
  if (app.active) layoutTables(); else show("lobby");
}

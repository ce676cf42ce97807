// @ts-check
// What each server frame does in the page: the handlers the socket hub (socket.js) calls,
// registered once by the page's entry (main.js), and the connection's banner.

import { refreshMe } from "./api.js";
import { $, showToast } from "./dom.js";
import { onReveal, onStaleSeed, onTable } from "./fairness.js";
import { t } from "./i18n.js";
import { refreshLobby, renderLobby } from "./lobby.js";
import { reopenSeats } from "./nav.js";
import { onPrivateFrame } from "./private.js";
import { onConnection, onFrame, send } from "./socket.js";
import { app, endSession, noteSeated, setSeated } from "./state.js";
import { errorText } from "./texts.js";
import { onTournamentNotice } from "./tournaments.js";
import { onWaiting } from "./waitlist.js";

/** @param {{ table?: string | null }} frame */
const viewOf = (frame) => (frame.table ? app.tables.get(frame.table) : null);

export function registerFrameHandlers() {
  onConnection(renderConnection);
  onFrame("hello", (frame) => { // logged in: the tables where the account sits open at once
    setSeated(frame.seated || []);
    reopenSeats(frame.seated || []);
    renderLobby();
  });
  onFrame("table", (frame) => {
    const view = viewOf(frame);
    if (view) view.update(frame);
    // Whether the frame changed where the player sits (the lobby marks those tables).
    if (noteSeated(frame.table, Boolean(frame.you))) renderLobby();
    onTable(frame, send);
  });
  onFrame("deck_reveal", onReveal);
  onFrame("hand_result", (frame) => { viewOf(frame)?.result(frame); refreshMe(); });
  onFrame("chat", (frame) => viewOf(frame)?.chat(frame));
  onFrame("waiting", (frame) => {
    const view = viewOf(frame);
    onWaiting(frame, () => { renderLobby(); refreshLobby(); if (view) view.render(); });
  });
  onFrame("tournament", onTournamentNotice);
  onFrame("private_game", onPrivateFrame);
  onFrame("private_request", onPrivateFrame);
  onFrame("error", (frame) => {
    if (frame.request === "hello") { endSession(); return; }
    // A seed late for its shuffle is the page's own race with the deal, not the player's
    // doing: nothing to show, the next shuffle gets one.
    if (frame.code === "seed.stale") { onStaleSeed(frame); return; }
    // An error about a table shows on that table (S-INPUT-1), never on another one open.
    const view = viewOf(frame);
    if (view) view.error(() => errorText(frame));
    else if (!frame.table && app.active && app.tables.get(app.active)) app.tables.get(app.active).error(() => errorText(frame));
    else showToast(() => errorText(frame));
  });
}

let bannerTimer = 0;

// The connection's state, shown the moment it changes: a banner while it is down (each table
// then shows its actions disabled and its clock stopped), "connected again" once it is back.
// An action sent just before the drop, with no frame since, may not have reached the table.
function renderConnection() {
  const banner = $("#connection");
  clearTimeout(bannerTimer);
  document.body.classList.toggle("offline", !app.socketReady);
  if (!app.socketReady) {
    banner.dataset.state = "lost";
    banner.hidden = false;
  } else if (app.everDown) {
    banner.dataset.state = "back";
    banner.hidden = false;
    bannerTimer = setTimeout(() => { banner.hidden = true; }, 3000);
  }
  relabelConnection();
  for (const view of app.tables.values()) {
    if (!app.socketReady && view.pendingAct) view.error(() => t("connection.maybe_lost"), { keep: true });
    view.pendingAct = false;
    view.connectionChanged();
  }
}

// The connection's banner in the page's language (again after a change of language).
export function relabelConnection() {
  const banner = $("#connection");
  if (banner.dataset.state) banner.textContent = t(banner.dataset.state === "lost" ? "connection.lost" : "connection.back");
}

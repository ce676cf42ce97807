// The one WebSocket every open table shares, reconnecting with back-off, and where each frame
// the server sends goes.

import { forgetSession, refreshMe } from "./api.js";
import { $, showToast } from "./dom.js";
import { onReveal, onTable } from "./fairness.js";
import { refreshLobby, renderLobby } from "./lobby.js";
import { reopenSeats } from "./nav.js";
import { onPrivateFrame } from "./private.js";
import { app } from "./state.js";
import { t } from "./i18n.js";
import { errorText } from "./texts.js";
import { onTournamentNotice } from "./tournaments.js";
import { onWaiting } from "./waitlist.js";

export function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  app.socket = socket;
  socket.addEventListener("open", () => {
    app.socketReady = true;
    app.retry = 0;
    renderConnection();
    hello();
    for (const view of app.tables.values()) view.resubscribe();
  });
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    app.socketReady = false;
    app.everDown = true;
    renderConnection();
    const delay = Math.min(5000, 250 * 2 ** app.retry++);
    setTimeout(connect, delay); // reconnect; the server keeps the seat (R-TIME-3)
  });
}

// Whether the message went out: while the connection is down nothing is queued (a decision
// sent late could act on a hand that moved on), and the caller says so to the player.
export function send(message) {
  if (!app.socketReady) return false;
  app.socket.send(JSON.stringify(message));
  return true;
}

// The connection's state, shown the moment it changes: a banner while it is down (each table
// then shows its actions disabled and its clock stopped), "connected again" once it is back.
// An action sent just before the drop, with no frame since, may not have reached the table.
function renderConnection() {
  const banner = $("#connection");
  clearTimeout(app.connectionTimer);
  document.body.classList.toggle("offline", !app.socketReady);
  if (!app.socketReady) {
    banner.dataset.state = "lost";
    banner.hidden = false;
  } else if (app.everDown) {
    banner.dataset.state = "back";
    banner.hidden = false;
    app.connectionTimer = setTimeout(() => { banner.hidden = true; }, 3000);
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

export function hello() {
  if (app.token && app.socketReady) send({ type: "hello", token: app.token });
}

function onMessage(message) {
  const view = message.table ? app.tables.get(message.table) : null;
  switch (message.type) {
    case "hello": // logged in: the tables where the account sits open at once
      app.seated = new Set(message.seated || []);
      reopenSeats(message.seated || []);
      renderLobby();
      break;
    case "table":
      if (view) view.update(message);
      if (noteSeated(message)) renderLobby();
      onTable(message, send);
      break;
    case "deck_reveal": onReveal(message); break;
    case "hand_result": if (view) view.result(message); refreshMe(); break;
    case "chat": if (view) view.chat(message); break;
    case "waiting": onWaiting(message, () => { renderLobby(); refreshLobby(); if (view) view.render(); }); break;
    case "tournament": onTournamentNotice(message); break;
    case "private_game": case "private_request": onPrivateFrame(message); break;
    case "error":
      if (message.request === "hello") { forgetSession(); break; }
      // An error about a table shows on that table (S-INPUT-1), never on another one open.
      if (view) view.error(() => errorText(message));
      else if (!message.table && app.active && app.tables.get(app.active)) app.tables.get(app.active).error(() => errorText(message));
      else showToast(() => errorText(message));
      break;
    default: break;
  }
}

// Whether a table frame changed where the player sits (the lobby marks those tables).
function noteSeated(frame) {
  const sits = Boolean(frame.you);
  if (sits === app.seated.has(frame.table)) return false;
  if (sits) app.seated.add(frame.table); else app.seated.delete(frame.table);
  return true;
}

// @ts-check
// The pokerroom browser client, native ES modules with no build step, served by the room:
// sign-up / log-in, then the lobby, tables over one WebSocket, and the hand history replayer.

import { api, refreshMe, renderMe } from "./api.js";
import { bindBackoffice, loadBackoffice, renderBackoffice } from "./backoffice.js";
import { buildPresets, onKey } from "./controls.js";
import { $, relabelToasts } from "./dom.js";
import { clearShuffle } from "./fairness.js";
import { onLanguage } from "./i18n.js";
import { accountPreferences, startLanguage } from "./language.js";
import { bindDeal, refreshDeal } from "./deal.js";
import { bindLobbySort, renderLobby, refreshLobby } from "./lobby.js";
import { registerFrameHandlers, relabelConnection } from "./frames.js";
import { bindMyHands, loadMyHands, renderMyHands } from "./myhands.js";
import { closeTable, configureNav, renderTabs, show } from "./nav.js";
import { bindOptions } from "./options.js";
import { loadHistory, renderReplay } from "./replayer.js";
import { bindPrivate, forgetPrivate, onPrivateChange, privateShown, readRoute, renderPrivate, resumePrivate } from "./private.js";
import { decorate, renderBars } from "./private_table.js";
import { bindResults, loadResults, renderResults } from "./results.js";
import { connect, hello } from "./socket.js";
import { bindMute, renderMute } from "./sound.js";
import { app, endSession, onSessionEnd, startSession } from "./state.js";
import { TableView } from "./table.js";
import { resetTournamentLog } from "./tournament_table.js";
import { bindTournaments, renderTournaments } from "./tournaments.js";

// Log in or sign up: Enter submits with the form's default button, the first one, so the
// chosen mode's button goes first (and is the primary one). Clicking either button submits
// with it and makes its mode the chosen one: after a failed sign-up, Enter signs up again.
function setAuthMode(mode) {
  const primary = $(mode === "signup" ? "#signup" : "#login");
  const other = $(mode === "signup" ? "#login" : "#signup");
  primary.classList.add("primary");
  other.classList.remove("primary");
  primary.parentElement.prepend(primary);
  $("#mode-login").setAttribute("aria-pressed", String(mode === "login"));
  $("#mode-signup").setAttribute("aria-pressed", String(mode === "signup"));
  $("#password").autocomplete = mode === "signup" ? "new-password" : "current-password";
}

function setupAuth() {
  const form = $("#auth-form");
  $("#mode-login").addEventListener("click", () => setAuthMode("login"));
  $("#mode-signup").addEventListener("click", () => setAuthMode("signup"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const mode = event.submitter?.value === "signup" ? "signup" : "login";
    setAuthMode(mode);
    $("#auth-error").textContent = "";
    try {
      const session = await api(`/api/${mode}`, {
        body: { username: $("#username").value.trim(), password: $("#password").value },
        anonymous: true,
      });
      startSession(session.token);
      await refreshMe();
      await accountPreferences(); // the account's language and options follow it to this page
      show("lobby");
      hello(); // its answer opens the tables where the player sits
      resumePrivate(); // an invite link opened before logging in
    } catch (error) {
      $("#auth-error").textContent = error.message;
    }
  });
  $("#browse").addEventListener("click", () => show("lobby"));
  $("#logout").addEventListener("click", async () => {
    try { await api("/api/logout", { method: "POST" }); } catch { /* already gone */ }
    for (const id of [...app.tables.keys()]) closeTable(id); // the next log-in reopens them
    endSession();
    forgetPrivate();
    accountPreferences(); // logged out: the defaults (the language chosen here stays)
    if (app.socket) app.socket.close();
  });
}

// A new language: everything the client wrote itself, written again (static text is done by
// i18n.js from the page's data-i18n attributes).
function relabel() {
  renderMute();
  renderLobby();
  renderTournaments();
  renderMyHands();
  renderResults();
  renderPrivate();
  refreshDeal(); // when open
  renderTabs();
  renderMe();
  renderBackoffice();
  relabelConnection(); // what is shown for a while, said again in the new language
  relabelToasts();
  for (const view of app.tables.values()) {
    view.relabelError();
    $(".announcer", view.root).replaceChildren(); // what was said, said in the old language
    resetTournamentLog(view);
    buildPresets(view);
    view.render();
    renderReplay(view);
    clearShuffle(view);
    if (!$(".side-history", view.root).hidden) loadHistory(view); // times, results, labels
  }
}

// The screens and the table's view, given to the navigation (nav.js sits below them).
function wireNavigation() {
  configureNav({
    newTable: (id) => new TableView(id),
    opened: decorate, // a private game's bar
    loaders: {
      lobby: () => { refreshLobby(); loadMyHands(); },
      results: loadResults,
      backoffice: loadBackoffice,
    },
    shown: (which) => privateShown(which === "private"),
  });
  onPrivateChange(renderBars); // a private game's bar on its open table
  onSessionEnd(() => {
    $("#account").hidden = true;
    show("auth");
  });
}

async function start() {
  window.pokerroom = app; // for the browser console and the browser tests
  wireNavigation();
  registerFrameHandlers();
  await startLanguage();
  onLanguage(relabel);
  setupAuth();
  bindOptions();
  bindMute();
  for (const id of ["#filter-game", "#filter-stakes", "#filter-open"]) $(id).addEventListener("change", renderLobby);
  bindLobbySort();
  bindTournaments();
  bindDeal();
  bindMyHands();
  bindResults();
  bindPrivate();
  readRoute();
  bindBackoffice();
  $("#results-open").addEventListener("click", (event) => { event.preventDefault(); show("results"); });
  $("#results-back").addEventListener("click", () => show("lobby"));
  document.addEventListener("keydown", onKey);
  $(".brand").addEventListener("click", (event) => { event.preventDefault(); show("lobby"); });
  connect();
  if (app.token) {
    await refreshMe();
    await accountPreferences();
    // The hello's answer may already have reopened the player's tables: keep them shown.
    if (!app.token) show("auth");
    else if ($("#tables").hidden) show("lobby");
    resumePrivate();
  } else {
    show("auth");
  }
  setInterval(() => { if (!$("#lobby").hidden) refreshLobby(); }, 5000);
}

start();

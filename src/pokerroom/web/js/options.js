// The player's options, saved with the account (GET/PUT /api/preferences): the deck's colours,
// auto-muck (the server applies it at the showdowns of the player's seats), keyboard
// shortcuts, and the bet-size buttons in percent of the pot. The server checks every value.

import { api } from "./api.js";
import { $, $$ } from "./dom.js";
import { buildPresets } from "./controls.js";
import { app, DEFAULT_PREFS as DEFAULTS } from "./state.js";

// The account's preferences, read after a log-in or a reload (the defaults without one).
export async function loadPreferences() {
  if (!app.token) { usePreferences({ ...DEFAULTS }); return; }
  try {
    usePreferences(await api("/api/preferences"));
  } catch {
    /* kept as they were: the next log-in reads them again */
  }
}

export function usePreferences(prefs) {
  app.prefs = { ...DEFAULTS, ...prefs };
  document.body.classList.toggle("deck-two", app.prefs.deck === "two");
  document.body.classList.toggle("no-hotkeys", !app.prefs.hotkeys);
  for (const view of app.tables.values()) {
    buildPresets(view);
    if (view.state) view.render();
  }
}

function fill() {
  const prefs = app.prefs;
  for (const radio of $$("#options [name='deck']")) radio.checked = radio.value === prefs.deck;
  $("#opt-auto-muck").checked = prefs.auto_muck;
  $("#opt-hotkeys").checked = prefs.hotkeys;
  $$(".opt-preset").forEach((input, n) => { input.value = prefs.bet_presets[n] ?? ""; });
  $("#options-error").textContent = "";
}

// What the form asks for; the empty bet boxes are left out (one at least stays).
function chosen() {
  return {
    deck: $("#options [name='deck']:checked")?.value ?? app.prefs.deck,
    auto_muck: $("#opt-auto-muck").checked,
    hotkeys: $("#opt-hotkeys").checked,
    bet_presets: $$(".opt-preset").map((input) => input.value.trim()).filter(Boolean).map(Number),
  };
}

export function bindOptions() {
  const dialog = $("#options");
  $("#options-open").addEventListener("click", () => { fill(); dialog.showModal(); });
  $("#options-cancel").addEventListener("click", () => dialog.close("cancel"));
  $("#options-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      usePreferences(await api("/api/preferences", { method: "PUT", body: chosen() }));
      dialog.close("ok");
    } catch (error) {
      $("#options-error").textContent = error.message; // the server names the bad field
    }
  });
}

// @ts-check
// The player's options, saved with the account by preferences.js: the deck's
// colours, auto-muck (the server applies it at the showdowns of the player's seats), keyboard
// shortcuts, and the bet-size buttons in percent of the pot. The server checks every value.

import { $, $$ } from "./dom.js";
import { buildPresets } from "./controls.js";
import { loadPreferences, onPreferences, savePreferences } from "./preferences.js";
import { app } from "./state.js";

// The page as the preferences say, whenever they are read or changed.
function usePreferences(prefs) {
  document.body.classList.toggle("deck-two", prefs.deck === "two");
  document.body.classList.toggle("no-hotkeys", !prefs.hotkeys);
  for (const view of app.tables.values()) {
    buildPresets(view);
    if (view.state) view.render();
  }
}

function fill() {
  const prefs = app.preferences;
  for (const radio of $$("#options [name='deck']")) radio.checked = radio.value === prefs.deck;
  $("#opt-auto-muck").checked = prefs.auto_muck;
  $("#opt-hotkeys").checked = prefs.hotkeys;
  for (const radio of $$("#options [name='free-check-f']")) radio.checked = radio.value === prefs.free_check_f;
  $$(".opt-preset").forEach((input, n) => { input.value = prefs.bet_presets[n] ?? ""; });
  $("#options-error").textContent = "";
}

// What the form asks for; the empty bet boxes are left out.
function chosen() {
  return {
    deck: $("#options [name='deck']:checked")?.value ?? app.preferences.deck,
    auto_muck: $("#opt-auto-muck").checked,
    hotkeys: $("#opt-hotkeys").checked,
    free_check_f: $("#options [name='free-check-f']:checked")?.value ?? app.preferences.free_check_f,
    bet_presets: $$(".opt-preset").map((input) => input.value.trim()).filter(Boolean).map(Number),
  };
}

export function bindOptions() {
  onPreferences(usePreferences);
  usePreferences(app.preferences);
  const dialog = $("#options");
  // Open at once, so that the dialog has the keyboard from the click (a key pressed while
  // the preferences are read must not act at a table), then filled from the account's
  // preferences as the server has them now (another device may have changed them, or the
  // first read may still be on its way); the form takes no input until then.
  $("#options-open").addEventListener("click", async () => {
    const form = $("#options-form");
    fill();
    form.inert = true;
    if (!dialog.open) dialog.showModal();
    try {
      await loadPreferences();
      fill();
    } finally {
      form.inert = false;
    }
  });
  $("#options-cancel").addEventListener("click", () => dialog.close("cancel"));
  // Log out from here too (at phone width the header has no room for it).
  $("#options-logout").addEventListener("click", () => { dialog.close("cancel"); $("#logout").click(); });
  $("#options-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await savePreferences(chosen());
      dialog.close("ok");
    } catch (error) {
      $("#options-error").textContent = error.message; // the server names the bad field
    }
  });
}

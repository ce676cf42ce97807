// @ts-check
// The account's preferences, kept by the server (GET/PUT /api/preferences):
// language, deck, auto_muck, bet_presets, hotkeys, free_check_f. Before log-in (or if the server cannot be
// reached) the defaults; a change is sent as the part that changed and the server answers the
// whole object, which every listener is given.

import { api } from "./api.js";
import { app, setPreferences } from "./state.js";

export const DEFAULTS = Object.freeze({ language: null, deck: "four", auto_muck: true, bet_presets: [50, 75, 100], hotkeys: true, free_check_f: "ask" });
const listeners = [];
let asked = 0; // requests sent: only the answer to the latest one is kept (they may cross)

setPreferences({ ...DEFAULTS });

/** Call ``listener(preferences)`` whenever they are loaded or changed. */
export const onPreferences = (listener) => { listeners.push(listener); };

function settle(preferences) {
  setPreferences({ ...DEFAULTS, ...preferences });
  for (const listener of listeners) listener(app.preferences);
  return app.preferences;
}

/** The logged-in account's preferences (the defaults when logged out). */
export async function loadPreferences() {
  if (!app.token) return settle(DEFAULTS);
  const mine = ++asked;
  try {
    const answer = await api("/api/preferences");
    return mine === asked ? settle(answer) : app.preferences;
  } catch {
    return app.preferences;
  }
}

/** Save part of the preferences for the account; rejects (with the server's reason, in the
 * page's language) when the server refuses it, and then nothing changed. */
export async function savePreferences(change) {
  if (!app.token) return settle({ ...app.preferences, ...change });
  const mine = ++asked;
  const answer = await api("/api/preferences", { method: "PUT", body: change });
  return mine === asked ? settle(answer) : app.preferences;
}

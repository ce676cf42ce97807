// @ts-check
// The language selector in the header: the account's saved language after log-in,
// this browser's choice before it, else the browser's own languages. A choice is kept in this
// browser and, logged in, saved for the account (PUT /api/preferences).

import { $ } from "./dom.js";
import { language, onLanguage, setLanguage, storedChoice } from "./i18n.js";
import { loadPreferences, savePreferences } from "./preferences.js";
import { app } from "./state.js";

// At phone width the selector shows the chosen language's code ("EN", "SV"; the page's own
// when it follows the browser): a whole name does not fit, and its first letters ("Bro")
// say nothing. The list it opens keeps the whole names.
const PHONE = window.matchMedia("(max-width: 820px)");

function labelLanguage() {
  const select = $("#language");
  for (const option of select.options) option.removeAttribute("label");
  const chosen = select.selectedOptions[0];
  if (PHONE.matches && chosen) chosen.label = (chosen.value || language()).toUpperCase();
}

/** The page in the language chosen before (or the browser's), and the selector bound. */
export async function startLanguage() {
  const select = $("#language");
  select.value = storedChoice();
  try {
    await setLanguage(select.value, { remember: false });
  } catch { /* no catalogue reached: the page's own English stays */ }
  labelLanguage();
  onLanguage(labelLanguage);
  PHONE.addEventListener("change", labelLanguage);
  select.addEventListener("change", async () => {
    const choice = select.value;
    labelLanguage();
    await setLanguage(choice);
    if (app.token) {
      try { await savePreferences({ language: choice || null }); } catch { /* kept in this browser */ }
    }
  });
}

/** After log-in or on reload with a session: the account's preferences, and its language
 * (one chosen in this browser before logging in is saved for an account that has none). */
export async function accountPreferences() {
  const preferences = await loadPreferences();
  if (!app.token) return;
  const select = $("#language");
  if (preferences.language) {
    if (select.value !== preferences.language || storedChoice() !== preferences.language) {
      select.value = preferences.language;
      labelLanguage();
      await setLanguage(preferences.language);
    }
  } else if (storedChoice()) {
    try { await savePreferences({ language: storedChoice() }); } catch { /* kept here */ }
  }
}

// @ts-check
// The client's languages: English, Norwegian Bokmål, Danish, Swedish and Hungarian.
// Every text the page shows is a key of the message catalogues in /static/i18n/<lang>.json,
// looked up with t(key, params): "{name}" in a message is params.name. Static HTML names its
// key in data-i18n (its text), data-i18n-aria-label, data-i18n-title, data-i18n-placeholder.
// The language is the account's preference (PUT /api/preferences), else this browser's choice
// before log-in (localStorage), else the first of navigator.languages the room speaks.

export const LANGUAGES = ["en", "nb", "da", "sv", "hu"];
// The locale numbers, money and times are formatted for (Intl).
const LOCALES = { en: "en-US", nb: "nb-NO", da: "da-DK", sv: "sv-SE", hu: "hu-HU" };
const STORED = "pokerroom.language"; // this browser's choice before log-in ("" = automatic)
const ATTRIBUTES = ["aria-label", "title", "placeholder"];

const state = { language: "en", messages: {}, english: {}, listeners: [] };
const loaded = new Map(); // language -> its catalogue

/** The room's language for a list of the browser's (navigator.languages): nb for any Norwegian. */
export function pickLanguage(preferred = navigator.languages || [navigator.language]) {
  for (const tag of preferred) {
    const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
    const found = ["no", "nn", "nb"].includes(base) ? "nb" : base;
    if (LANGUAGES.includes(found)) return found;
  }
  return "en";
}

export const language = () => state.language;
export const locale = () => LOCALES[state.language];

/** The language chosen in this browser ("" = follow the browser). */
export const storedChoice = () => {
  const value = localStorage.getItem(STORED) || "";
  return LANGUAGES.includes(value) ? value : "";
};

async function catalogue(lang) {
  if (!loaded.has(lang)) {
    const response = await fetch(`/static/i18n/${lang}.json`);
    if (!response.ok) throw new Error(`no catalogue for ${lang}`);
    loaded.set(lang, await response.json());
  }
  return loaded.get(lang);
}

/** Switch to ``choice`` ("" = the browser's language): load its catalogue, translate the page
 * and tell every part of the client to render again. */
export async function setLanguage(choice, { remember = true } = {}) {
  const lang = LANGUAGES.includes(choice) ? choice : pickLanguage();
  if (remember) localStorage.setItem(STORED, LANGUAGES.includes(choice) ? choice : "");
  state.english = await catalogue("en");
  state.messages = await catalogue(lang);
  state.language = lang;
  numbers.clear();
  document.documentElement.lang = lang;
  translatePage();
  for (const listener of state.listeners) listener(lang);
  return lang;
}

/** Call ``listener`` after each change of language (to render what it built again). */
export const onLanguage = (listener) => { state.listeners.push(listener); };

/** The message ``key`` in the current language with ``params`` put in; the English one if the
 * catalogue lacks it (a test checks that none does), the key itself if English does too. */
export function t(key, params = {}) {
  const template = state.messages[key] ?? state.english[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether a catalogue has ``key`` (e.g. an error code sent by the server). */
export const has = (key) => key in state.messages || key in state.english;

/** Every static text of ``root`` in the current language, by its data-i18n* attributes. */
/** @param {ParentNode} [root] */
export function translatePage(root = document) {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) node.textContent = t(node.dataset.i18n);
  for (const attribute of ATTRIBUTES) {
    for (const node of root.querySelectorAll(`[data-i18n-${attribute}]`)) {
      node.setAttribute(attribute, t(node.getAttribute(`data-i18n-${attribute}`)));
    }
  }
  // The table template's clones are translated as they are made; the template itself too.
  if (root === document) for (const template of document.querySelectorAll("template")) translatePage(template.content);
}

const numbers = new Map(); // formatter options -> Intl.NumberFormat of the current locale

export function numberFormat(options = {}) {
  const key = JSON.stringify(options);
  if (!numbers.has(key)) numbers.set(key, new Intl.NumberFormat(locale(), options));
  return numbers.get(key);
}

/** A count as the language writes it: "1,180", "1 180", "1.180". */
export const number = (value) => numberFormat().format(value);

// @ts-check
// Building the page: element shorthands and a card's element.

import { t } from "./i18n.js";

// The page's elements are of many kinds (inputs, dialogs, templates): each caller knows which
// it asked for, so these two answer `any` rather than a bare `Element`.
/** @param {string} selector @param {ParentNode} [root] @returns {any} */
export const $ = (selector, root = document) => root.querySelector(selector);
/** @param {string} selector @param {ParentNode} [root] @returns {any[]} */
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const RANKS = { T: "10" };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
const SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };

// A card as a screen reader says it: "As" -> "Ace of spades" (in the page's language).
export const cardName = (code) => t("card.name", { rank: t(`rank.${RANK_NAMES[code[0]]}`), suit: t(`suit.${SUIT_NAMES[code[1]]}`) });

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function cardEl(code, extra = "") {
  if (!code) return el("span", { class: `card back ${extra}`, role: "img", "aria-label": t("card.face_down") });
  const rank = RANKS[code[0]] ?? code[0];
  const suit = code[1];
  return el(
    "span",
    { class: `card suit-${suit} ${extra}`, "data-card": code, role: "img", "aria-label": cardName(code) },
    el("span", { class: "rank", "aria-hidden": "true", text: rank }),
    el("span", { class: "pip", "aria-hidden": "true", text: SUITS[suit] }),
  );
}

// Controls are replaced when they differ, never patched: their listeners (added by `el`)
// belong to what they were built for.
const CONTROLS = new Set(["BUTTON", "INPUT", "SELECT", "TEXTAREA", "A", "DETAILS"]);

// ``old`` brought to read as ``fresh`` in place, every node that reads as it did kept (the
// node to put where ``old`` was is returned). A click pressed on a button and released after
// a refresh is lost if the button was replaced in between, and a lobby row changes with every
// hand its table deals.
/** @param {any} old @param {any} fresh @returns {any} */
function morph(old, fresh) {
  if (old.isEqualNode(fresh)) return old;
  if (old.nodeType !== fresh.nodeType || old.nodeName !== fresh.nodeName || CONTROLS.has(old.nodeName)) return fresh;
  if (old.nodeType === Node.TEXT_NODE) { old.nodeValue = fresh.nodeValue; return old; }
  if (old.nodeType !== Node.ELEMENT_NODE) return fresh;
  for (const name of old.getAttributeNames()) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  for (const name of fresh.getAttributeNames()) {
    if (old.getAttribute(name) !== fresh.getAttribute(name)) old.setAttribute(name, fresh.getAttribute(name));
  }
  const before = [...old.childNodes];
  placeInOrder(old, [...fresh.childNodes].map((child, at) => (before[at] ? morph(before[at], child) : child)));
  return old;
}

// ``parent``'s children made ``nodes``, in order, moving none that is in its place already.
/** @param {any} parent @param {any[]} nodes */
function placeInOrder(parent, nodes) {
  nodes.forEach((node, at) => {
    if (parent.childNodes[at] !== node) parent.insertBefore(node, parent.childNodes[at] || null);
  });
  while (parent.childNodes.length > nodes.length) parent.lastChild.remove();
}

// Rebuild ``container``'s rows without losing the keyboard's place: the refresh every few
// seconds would otherwise drop focus to the page (a screen reader starts again from the top).
// A row whose key was shown is changed in place (morph), so its controls that read as they
// did stay the same elements; the focused control is found again by its row's ``data-*`` key
// and its class if it was replaced.
export function replaceKeepingFocus(container, rows, key) {
  const focused = document.activeElement;
  const row = focused && container.contains(focused) ? focused.closest(`[${key}]`) : null;
  const before = new Map([...container.children].map((old) => [old.getAttribute(key), old]));
  placeInOrder(container, rows.map((fresh) => {
    const old = before.get(fresh.getAttribute(key));
    return old ? morph(old, fresh) : fresh;
  }));
  if (!row || !focused.className || container.contains(focused)) return;
  const again = container.querySelector(`[${key}="${CSS.escape(row.getAttribute(key))}"]`);
  const control = again && again.querySelector(`.${[...focused.classList].map(CSS.escape).join(".")}`);
  if (control) control.focus();
}

// ``info``: a notice (a tournament started, a seat held), shown as information, not in the
// error's red.
// ``text``: a string, or a function that says it in the page's language of the moment (said
// again by ``relabelToasts`` if the language changes while it shows).
const toasts = new Map(); // a toast shown -> what says it
export function showToast(text, { info = false } = {}) {
  const say = typeof text === "function" ? text : null;
  const toast = el("div", { class: info ? "toast info" : "toast", role: info ? "status" : "alert", text: say ? say() : text });
  if (say) toasts.set(toast, say);
  document.body.append(toast);
  setTimeout(() => { toast.remove(); toasts.delete(toast); }, 4000);
}

export function relabelToasts() {
  for (const [toast, say] of toasts) toast.textContent = say();
}

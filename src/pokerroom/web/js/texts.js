// @ts-check
// What the server says in English, said in the page's language: error frames and responses
// (by their `code` and `params`, server/sockets/errors.py), the replayer's lines (`items`, the keys of
// server/tables/replayer.py) and the names of shown hands ("Full House, Kings over Sevens").

import { money } from "./format.js";
import { has, t } from "./i18n.js";

const RANKS = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"];
const PLURALS = Object.fromEntries(RANKS.map((r) => [r === "Six" ? "Sixes" : `${r}s`, r.toLowerCase()]));
const SINGULAR = Object.fromEntries(RANKS.map((r) => [r, r.toLowerCase()]));
const R = RANKS.join("|");
const P = Object.keys(PLURALS).join("|");
// The names pokerroom/evaluation/classes.py gives, each with its key and which ranks it names.
/** @type {Array<[RegExp, string, string[]]>} */
const HANDS = [
  [/^Royal Flush$/, "hand.royal_flush", []],
  [new RegExp(`^Straight Flush, (${R}) high$`), "hand.straight_flush", ["rank"]],
  [new RegExp(`^Four of a Kind, (${P})$`), "hand.four_of_a_kind", ["ranks"]],
  [new RegExp(`^Full House, (${P}) over (${P})$`), "hand.full_house", ["ranks", "over"]],
  [new RegExp(`^Flush, (${R}) high$`), "hand.flush", ["rank"]],
  [new RegExp(`^Straight, (${R}) high$`), "hand.straight", ["rank"]],
  [new RegExp(`^Three of a Kind, (${P})$`), "hand.three_of_a_kind", ["ranks"]],
  [new RegExp(`^Two Pair, (${P}) and (${P})$`), "hand.two_pair", ["ranks", "and"]],
  [new RegExp(`^Pair of (${P})$`), "hand.pair", ["ranks"]],
  [new RegExp(`^(?:High Card, )?(${R}) high$`), "hand.high_card", ["rank"]],
];

/** A shown hand's name in the page's language (a name it does not know, as sent). */
export function handName(name) {
  if (!name) return "";
  for (const [pattern, key, names] of HANDS) {
    const found = pattern.exec(name);
    if (!found) continue;
    const params = {};
    names.forEach((param, k) => {
      const word = found[k + 1];
      params[param] = param === "rank" ? t(`rank.${SINGULAR[word]}`) : t(`ranks.${PLURALS[word]}`);
    });
    return t(key, params);
  }
  return name;
}

// "seat 3" as the engine names a seat with no player's name.
const seatName = (who) => {
  const found = /^seat (\d+)$/.exec(String(who));
  return found ? t("table.seat", { seat: found[1] }) : who;
};

const AMOUNTS = new Set(["amount", "total", "min", "max", "bet", "call", "balance", "posted"]);

/** An error the server sent (a frame, or an HTTP error's body), in the page's language. */
export function errorText(error) {
  const code = error?.code;
  const fallback = typeof error?.message === "string" ? error.message : typeof error?.detail === "string" ? error.detail : t("error.error.unknown", { message: "" });
  if (!code || !has(`error.${code}`)) return fallback;
  const params = { ...(error.params || {}) };
  for (const [name, value] of Object.entries(params)) {
    if (AMOUNTS.has(name) && typeof value === "number") params[name] = money(value);
    else if (name === "name" || name === "who") params[name] = seatName(value);
    else if (name === "action" && has(`verb.${String(value).replace(/ /g, "_")}`)) params[name] = t(`verb.${String(value).replace(/ /g, "_")}`);
    else if (name === "street" && has(`street.${value}`)) params[name] = t(`street.${value}`);
    else if (name === "phase" && has(`phase.${value}`)) params[name] = t(`phase.${value}`);
    else if (name === "kind" && has(`deal.kind_${value}`)) params[name] = t(`deal.kind_${value}`);
  }
  return t(`error.${code}`, params);
}

/** @typedef {Error & { code?: string, params?: object, status?: number }} RequestError */

/**
 * An Error for a refused HTTP request: its message in the page's language, its code kept.
 * @returns {RequestError}
 */
export function apiError(body, status) {
  /** @type {RequestError} */
  const error = new Error(body ? errorText(body) : status);
  error.code = body?.code;
  error.params = body?.params;
  return error;
}

/** One line of the replayer (a frame's `items`), in the page's language; ``show`` writes its
 * amounts (money, or a tournament's chips). */
export function replayLine({ key, params }, show = money) {
  const shown = {};
  for (const [name, value] of Object.entries(params || {})) {
    if (name === "amount") shown[name] = show(value);
    else if (name === "who") shown[name] = seatName(value);
    else if (name === "street") shown[name] = t(`street.${value}`);
    else if (name === "high" || name === "hand") shown[name] = handName(value);
    else if (name === "winners") shown[name] = value.map((winner) => replayLine({ key: "replay.wins", params: winner }, show)).join(", ");
    else if (name === "line") shown[name] = replayLine({ key: value[0], params: value[1] }, show);
    else shown[name] = value;
  }
  return t(key, shown);
}

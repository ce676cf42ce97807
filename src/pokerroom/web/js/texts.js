// @ts-check
// What the server says in English, said in the page's language: error frames and responses
// (by their `code` and `params`, server/sockets/errors.py), the replayer's lines (`items`, the keys of
// server/tables/replayer.py) and the names of shown hands (their category and ranks).

import { money } from "./format.js";
import { has, t } from "./i18n.js";

// The parameters each category's catalogue message takes, in the order of the name's
// `ranks` (server/sockets/protocol.py HandName): a rank ("{rank} high") or ranks ("{ranks}").
/** @type {Record<string, string[]>} */
const HAND_PARAMS = {
  royal_flush: [], straight_flush: ["rank"], four_of_a_kind: ["ranks"], full_house: ["ranks", "over"],
  flush: ["rank"], straight: ["rank"], three_of_a_kind: ["ranks"], two_pair: ["ranks", "and"],
  pair: ["ranks"], high_card: ["rank"],
};

/** A shown hand's name ({category, ranks} from the server) in the page's language. */
export function handName(name) {
  const names = HAND_PARAMS[name?.category];
  if (!names) return "";
  const params = {};
  names.forEach((param, k) => {
    params[param] = t(`${param === "rank" ? "rank" : "ranks"}.${name.ranks[k]}`);
  });
  return t(`hand.${name.category}`, params);
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

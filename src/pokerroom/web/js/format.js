// Money, in ONE formatter for the whole client. Amounts are integer cents everywhere; only
// what is shown (and what a number box holds) divides by 100. Shown in the page's language
// with Intl: "$1,234.50", "1 234,50 $", "1.234,50 $"; a result is signed before the amount
// ("-$6.00", "−6,00 $"), never "$-6".

import { numberFormat, t } from "./i18n.js";

function moneyFormat(cents, signed) {
  const whole = !signed && cents % 100 === 0;
  return numberFormat({
    style: "currency",
    currency: "USD",
    currencyDisplay: "narrowSymbol",
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
    signDisplay: signed ? "exceptZero" : "auto",
  });
}

export const money = (cents, { signed = false } = {}) => moneyFormat(cents, signed).format(cents / 100);

// A result: "+$6.00", "-$6.00" (never "$-6"), "$0.00".
export const signedMoney = (cents) => money(cents, { signed: true });

// Dollars as a number box holds them, and back to cents (NaN for what is not a number).
export const toDollars = (cents) => String(cents / 100);

export function toCents(text) {
  const value = Number(text);
  return Number.isFinite(value) ? Math.round(value * 100) : NaN;
}

// "$1/$2"; where the sign follows the amount, once: "1/2 $".
export function stakesLabel(table) {
  const [low, high] = table.stakes || [table.small_blind, table.big_blind];
  const parts = moneyFormat(low, false).formatToParts(low / 100);
  const at = (type) => parts.findIndex((part) => part.type === type);
  if (at("currency") < at("integer")) return `${money(low)}/${money(high)}`;
  const bare = parts.filter((part) => part.type !== "currency" && part.type !== "literal");
  return `${bare.map((part) => part.value).join("")}/${money(high)}`;
}

// What a seat last did ("Raise to" 600, from the server in English) in the page's language.
const ACTIONS = {
  Fold: "action.fold", Check: "action.check", Call: "action.call", Bet: "action.bet",
  "Raise to": "action.raise_to", "All-in": "action.all_in", SB: "action.sb", BB: "action.bb",
  Ante: "action.ante", "BB ante": "action.bb_ante", Straddle: "action.straddle", Post: "action.post",
};

export function actionLabel(action) {
  if (!action) return "";
  const text = ACTIONS[action.text] ? t(ACTIONS[action.text]) : action.text;
  return action.amount === null || action.amount === undefined ? text : `${text} ${money(action.amount)}`;
}

// @ts-check
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

// Tournament chips are not money: a count in the page's language ("1,500", "1 500", "1.500").
export const chips = (count) => numberFormat({ maximumFractionDigits: 0 }).format(count);

// A result in chips: "+1,510", "-1,510", "0".
export const signedChips = (count) => numberFormat({ maximumFractionDigits: 0, signDisplay: "exceptZero" }).format(count);

const toChips = (text) => {
  const value = Number(text);
  return Number.isFinite(value) ? Math.round(value) : NaN;
};

// How a table shows its amounts and what its number boxes hold: a tournament table's in chips
// (stacks, bets, pots), a cash table's in money (cents shown as dollars).
export function amountsOf(state) {
  return state?.tournament
    ? { show: chips, signed: signedChips, toBox: String, fromBox: toChips }
    : { show: (cents) => money(cents), signed: signedMoney, toBox: toDollars, fromBox: toCents };
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

// What a seat last did (its `action`, protocol.ActionKind: "raise_to" 600) in the page's language.
export function actionLabel(action, show = money) {
  if (!action) return "";
  const text = t(`action.${action.action}`);
  return action.amount === null || action.amount === undefined ? text : `${text} ${show(action.amount)}`;
}

// A tournament table's level line: "Level 3: 25/50/50 · next level in 4:12 · 2 of 5 left".
export function tournamentLine(info, you) {
  const ante = info.ante || info.big_blind_ante;
  const blinds = `${chips(info.small_blind)}/${chips(info.big_blind)}${ante ? `/${chips(ante)}` : ""}`;
  const parts = [t("tournaments.line_level", { level: info.level, blinds })];
  if (info.next_level_seconds !== null) {
    const time = clock(info.next_level_seconds);
    parts.push(t(info.on_break ? "tournaments.line_break" : "tournaments.line_next", { time }));
  }
  const rank = (info.ranks.find(([seat]) => seat === you) || [])[1];
  parts.push(rank
    ? t("tournaments.line_place", { rank, left: info.players_left })
    : t("tournaments.line_left", { left: info.players_left }));
  return parts.join(" \u00b7 ");
}

function clock(seconds) {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

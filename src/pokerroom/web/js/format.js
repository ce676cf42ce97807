// Money, in ONE formatter for the whole client. Amounts are integer cents everywhere; only
// what is shown (and what a number box holds) divides by 100.

export function money(cents, { signed = false } = {}) {
  const whole = !signed && cents % 100 === 0;
  const text = "$" + (Math.abs(cents) / 100).toLocaleString("en-US", {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  });
  if (cents < 0) return `-${text}`;
  return signed && cents > 0 ? `+${text}` : text;
}

// A result: "+$6.00", "-$6.00" (never "$-6"), "$0.00".
export const signedMoney = (cents) => money(cents, { signed: true });

// Dollars as a number box holds them, and back to cents (NaN for what is not a number).
export const toDollars = (cents) => String(cents / 100);

export function toCents(text) {
  const value = Number(text);
  return Number.isFinite(value) ? Math.round(value * 100) : NaN;
}

export function stakesLabel(table) {
  const [low, high] = table.stakes || [table.small_blind, table.big_blind];
  return `${money(low)}/${money(high)}`;
}

export function actionLabel(action) {
  if (!action) return "";
  return action.amount === null || action.amount === undefined ? action.text : `${action.text} ${money(action.amount)}`;
}

// A tournament table's level line: "Level 3 · 25/50 ante 50 · next 4:12 · 2nd of 5 left".
export function tournamentLine(info, you) {
  const ante = info.ante || info.big_blind_ante;
  const next = info.next_level_seconds === null ? "" : ` \u00b7 ${info.on_break ? "break, " : ""}next ${clock(info.next_level_seconds)}`;
  const rank = (info.ranks.find(([seat]) => seat === you) || [])[1];
  const place = rank ? `${rank} of ${info.players_left} left` : `${info.players_left} left`;
  return `Level ${info.level} \u00b7 ${info.small_blind}/${info.big_blind}${ante ? ` ante ${ante}` : ""}${next} \u00b7 ${place}`;
}

function clock(seconds) {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

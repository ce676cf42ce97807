// @ts-check
// One line of the hand history list: the hand's number (the one its downloads carry), when,
// where, which game, the player's own cards and the result, signed by the one formatter of
// its amounts: money at a cash table ("-$6.00", never "$-6"), chips in a tournament ("-1,510").

import { cardEl, el } from "./dom.js";
import { amountsOf } from "./format.js";
import { locale, t } from "./i18n.js";

export function handRow(hand, open) {
  const started = new Date(hand.started_at);
  const time = started.toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit" });
  // A tournament hand says its event, its id and its table: "Sunday Cup (mtt-3), table 2".
  const where = hand.event ? t("myhands.event", { name: hand.event.name, event: hand.event.id, table: hand.event.table }) : null;
  const table = where || (hand.table_name || hand.table).split(" (")[0];
  const result = hand.net > 0 ? "won" : hand.net < 0 ? "lost" : "muted";
  return el("li", { class: "hand-row", "data-net": hand.net },
    el("button", { type: "button", class: "link", "data-hand": hand.id, onclick: open, text: `#${hand.id}` }),
    el("time", { datetime: hand.started_at, title: started.toLocaleString(locale()), text: time }),
    el("span", { class: "hl-table", "data-kind": hand.kind || "cash", title: where || hand.table_name || hand.table, text: table }),
    el("span", { class: "hl-game muted", text: hand.game || "" }),
    el("span", { class: "hl-cards", "aria-label": t("history.your_cards", { cards: (hand.cards || []).join(" ") }) }, ...(hand.cards || []).map((c) => cardEl(c, "mini"))),
    el("span", { class: `hl-net ${result}`, text: hand.status === "cancelled" ? t("history.cancelled") : amountsOf(hand).signed(hand.net) }));
}

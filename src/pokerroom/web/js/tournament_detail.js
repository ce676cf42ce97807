// @ts-check
// The selected tournament in the lobby: its structure (levels and breaks), entrants,
// prize pool and payouts, the level now with a live countdown to the next, players left,
// average stack, its tables (to watch) and its players with their stacks, places and prizes
// (sortable); the player's buttons (Register, Unregister, Rebuy, Add-on, Open my table).

import { $, $$, el } from "./dom.js";
import { chips, money } from "./format.js";
import { locale, number, t } from "./i18n.js";
import { openTable } from "./nav.js";
import { app, sortBy } from "./state.js";

const clock = { deadline: null, timer: null }; // the countdown to the next level

// The sortable columns of the players' list and what each sorts by.
const PLAYER_SORT = {
  name: (p) => p.name.toLowerCase(),
  stack: (p) => (p.stack === null ? -1 : p.stack),
  table: (p) => p.table || "",
  place: (p) => (p.place === null ? Infinity : p.place),
  prize: (p) => p.prize || 0,
};

export const blindsText = (sb, bb, ante) => `${chips(sb)}/${chips(bb)}${ante ? `/${chips(ante)}` : ""}`;

export function countdown(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** The detail panel of ``event`` (a lobby entry, or null to hide it) with ``buttons`` (the
 * player's buttons for it, built by tournaments.js from their entry). */
export function renderDetail(event, buttons) {
  const panel = $("#tournament-detail");
  if (!event) { panel.hidden = true; stopClock(); return; }
  panel.hidden = false;
  panel.dataset.tournament = event.id;
  $("#td-title").textContent = `${event.name} \u00b7 ${t(`tournaments.${event.status}`)}`;
  $("#td-actions").replaceChildren(...buttons);
  $("#td-facts").replaceChildren(...facts(event));
  $("#td-levels").replaceChildren(...levelRows(event));
  $("#td-payouts").replaceChildren(...payoutRows(event));
  $("#td-payouts-note").textContent = event.payouts.length
    ? t("tournaments.paid_places", { paid: number(event.payouts.length), entrants: number(event.entrants) })
    : t("tournaments.payouts_later", { min: number(event.min_entrants) });
  $("#td-payouts").closest("table").hidden = event.payouts.length === 0;
  $("#td-tables").replaceChildren(...tableRows(event));
  $("#td-tables").closest("table").hidden = event.tables.length === 0;
  $("#td-no-tables").hidden = event.tables.length > 0;
  $("#td-players").replaceChildren(...playerRows(event));
  $("#td-no-players").hidden = event.players.length > 0;
  startClock(event);
}

function fact(key, value, attrs = {}) {
  return el("div", { class: "td-fact" }, el("dt", { text: t(key) }), el("dd", attrs, value));
}

function facts(e) {
  const s = e.structure;
  const out = [
    fact("tournaments.buy_in", `${money(s.buy_in)}+${money(s.fee)}`),
    fact("tournaments.starting_stack", chips(s.starting_stack)),
    fact("tournaments.entrants", `${number(e.entrants)}/${number(e.max_entrants)}`),
    fact("tournaments.prize_pool", money(e.prize_pool)),
  ];
  if (e.guarantee) out.push(fact("tournaments.guarantee", e.overlay ? t("tournaments.guarantee_overlay", { amount: money(e.guarantee), overlay: money(e.overlay) }) : money(e.guarantee)));
  if (e.starts_at && e.status === "registering") {
    const at = new Date(e.starts_at * 1000).toLocaleString(locale(), { dateStyle: "short", timeStyle: "short" });
    out.push(fact("tournaments.starts", at));
  }
  if (e.level) {
    const [sb, bb, ante] = e.blinds;
    out.push(fact("tournaments.level", t("tournaments.line_level", { level: number(e.level), blinds: blindsText(sb, bb, ante) }), { class: "td-level" }));
    // role=timer: a screen reader does not read it out every second, the eye sees it move
    out.push(fact(e.on_break ? "tournaments.break_ends" : "tournaments.next_level", el("span", { class: "td-countdown", role: "timer" })));
    out.push(fact("tournaments.players_left", `${number(e.players_left)}/${number(e.entrants)}`));
    out.push(fact("tournaments.average_stack", chips(e.average_stack)));
  }
  if (e.hand_for_hand) out.push(fact("tournaments.phase", t("tournaments.hand_for_hand")));
  if (s.late_registration_levels) out.push(fact("tournaments.late_registration", t("tournaments.until_level", { level: number(s.late_registration_levels) })));
  if (s.rebuy) {
    const [price, stack, max] = s.rebuy;
    out.push(fact("tournaments.rebuys", t("tournaments.rebuy_terms", { price: money(price), chips: chips(stack), max: number(max) })));
  }
  if (s.bounty) {
    const [amount, progressive] = s.bounty;
    out.push(fact("tournaments.bounty", t(progressive ? "tournaments.bounty_progressive" : "tournaments.bounty_plain", { amount: money(amount) })));
    if (e.bounties) out.push(fact("tournaments.bounties_paid", money(e.bounties.paid)));
  }
  if (s.addon) {
    const [price, stack] = s.addon;
    out.push(fact("tournaments.addon", t("tournaments.addon_terms", { price: money(price), chips: chips(stack) })));
  }
  return out;
}

function levelRows(e) {
  const s = e.structure;
  const breaks = new Map(s.breaks.map(([after, minutes]) => [after, minutes]));
  const rows = [];
  s.levels.forEach(([sb, bb, ante, minutes], k) => {
    const level = k + 1;
    const current = e.level === level && !e.on_break;
    rows.push(el("tr", { class: current ? "current" : null, "aria-current": current ? "true" : null },
      el("td", { class: "num", text: number(level) }),
      el("td", { class: "num", text: chips(sb) }),
      el("td", { class: "num", text: chips(bb) }),
      el("td", { class: "num", text: ante ? chips(ante) : "\u2013" }),
      el("td", { class: "num", text: number(minutes) })));
    if (breaks.has(level)) {
      const now = e.level === level && e.on_break;
      rows.push(el("tr", { class: `break${now ? " current" : ""}`, "aria-current": now ? "true" : null },
        el("td", { colspan: "5", text: t("tournaments.break_row", { minutes: number(breaks.get(level)) }) })));
    }
  });
  return rows;
}

function payoutRows(e) {
  return e.payouts.map((amount, k) => el("tr", {},
    el("td", { class: "num", text: number(k + 1) }),
    el("td", { class: "num", text: money(amount) })));
}

function tableRows(e) {
  const mine = myTable(e);
  return e.tables.map((table) => el("tr", { "data-tournament-table": table.id },
    el("td", {}, t("tournaments.table_number", { number: table.id.split("-").pop() }),
      table.id === mine ? el("span", { class: "badge you-sit", text: t("lobby.you_sit_here") }) : null),
    el("td", { class: "num", text: number(table.players) }),
    el("td", { class: "row-buttons" },
      el("button", { type: "button", class: "watch", onclick: () => openTable(table.id), text: t("lobby.watch"),
        "aria-label": t("tournaments.watch_table", { number: table.id.split("-").pop() }) }))));
}

function myTable(e) {
  if (!app.me) return null;
  const me = String(app.me.account_id);
  const entry = e.players.filter((p) => p.entry === me || p.entry.startsWith(`${me}#`)).pop();
  return entry?.table || null;
}

function playerRows(e) {
  const { key, dir } = app.tournamentSort;
  const value = PLAYER_SORT[key] || PLAYER_SORT.place;
  for (const th of $$("#td-players-table th[data-sort]")) {
    if (th.dataset.sort === key) th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    else th.removeAttribute("aria-sort");
  }
  const me = app.me ? String(app.me.account_id) : null;
  const players = [...e.players].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return (x < y ? -1 : x > y ? 1 : 0) * dir || a.name.localeCompare(b.name);
  });
  return players.map((p) => {
    const you = me !== null && (p.entry === me || p.entry.startsWith(`${me}#`));
    return el("tr", { "data-entry": p.entry, class: you ? "seated" : null },
      el("td", {}, p.name, you ? el("span", { class: "badge you-sit", text: t("tournaments.you") }) : null,
        p.bounty ? el("span", { class: "badge bounty", "data-bounty": p.bounty, text: t("tournaments.bounty_on_head", { amount: money(p.bounty) }) }) : null),
      el("td", { class: "num", text: p.stack === null ? t("tournaments.out") : p.table ? chips(p.stack) : "" }),
      el("td", { text: p.table ? t("tournaments.table_number", { number: p.table.split("-").pop() }) : "" }),
      el("td", { class: "num", text: p.place ? number(p.place) : "" }),
      el("td", { class: "num", text: p.prize ? money(p.prize) : "" },
        p.bounties_won ? el("span", { class: "bounties-won", text: ` ${t("tournaments.bounties_won", { amount: money(p.bounties_won) })}` }) : null));
  });
}

/** Click a column of the players' list to sort by it, again to reverse (aria-sort says so). */
export function bindPlayerSort(render) {
  for (const th of $$("#td-players-table th[data-sort]")) {
    $("button", th).addEventListener("click", () => {
      const ascending = th.dataset.sort === "name" || th.dataset.sort === "table" || th.dataset.sort === "place";
      sortBy("tournament", th.dataset.sort, ascending ? 1 : -1);
      render();
    });
  }
}

function startClock(e) {
  stopClock();
  if (e.next_level_seconds === null || e.next_level_seconds === undefined || e.status !== "running") return;
  clock.deadline = performance.now() + e.next_level_seconds * 1000;
  const tick = () => {
    const shown = $("#td-facts .td-countdown");
    if (!shown) return;
    shown.textContent = countdown((clock.deadline - performance.now()) / 1000);
  };
  tick();
  clock.timer = setInterval(tick, 1000);
}

function stopClock() {
  if (clock.timer) clearInterval(clock.timer);
  clock.timer = null;
}

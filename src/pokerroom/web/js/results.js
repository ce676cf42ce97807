// @ts-check
// My results: the player's own hands added up by the room (GET /api/me/results), cash and
// tournament apart: the profit over hands or by day with its all-in adjusted line (uPlot,
// vendored, loaded when first shown), the chart's numbers in a table beside it, and the
// statistics overall and by position; for tournaments also the events finished (ITM, ROI,
// best finishes, each event's finish and money). A point of the chart, a row of its table
// and an event open their last hand in the replayer. Filters: kind, game, stakes, dates,
// position.

import { api } from "./api.js";
import { $, el } from "./dom.js";
import { number, numberFormat, t } from "./i18n.js";
import { chips, money, signedChips, signedMoney, stakesLabel } from "./format.js";
import { app } from "./state.js";
import { openTable } from "./nav.js";
import { openReplay } from "./replayer.js";
import { loadUplot } from "./uplot.js";

// Position names are the same in every language (poker's own abbreviations), table order.
const POSITIONS = ["SB", "BB", "UTG", "UTG+1", "UTG+2", "UTG+3", "LJ", "HJ", "CO", "BTN"];
// PHH's game codes, by the lobby's variant and structure.
const CODES = {
  holdem: { fixed_limit: "FT", pot_limit: "PT", no_limit: "NT" },
  omaha: { fixed_limit: "FO", pot_limit: "PO", no_limit: "NO" },
  omaha_hilo: { fixed_limit: "FO/8", pot_limit: "PO/8", no_limit: "NO/8" },
};
// The statistics shown, each with its label's key: percentages, then amounts.
const RATES = [
  ["vpip", "results.vpip"], ["pfr", "results.pfr"], ["three_bet", "results.three_bet"],
  ["fold_to_three_bet", "results.fold_to_three_bet"], ["cbet", "results.cbet"], ["wtsd", "results.wtsd"],
  ["wsd", "results.wsd"], ["won_without_showdown", "results.won_without_showdown"],
];
const AMOUNTS = [["net", "results.net"], ["all_in_net", "results.all_in_net"], ["rake_paid", "results.rake_paid"]];

let page = null; // the last page fetched: {cash|tournament: {...}}
let chart = null;

const kind = () => $("#results-kind").value;
const amount = (value) => (kind() === "tournament" ? chips(value) : money(value));
const signed = (value) => (kind() === "tournament" ? signedChips(value) : signedMoney(value));
const rate = (value) => (value === null || value === undefined
  ? "\u2013" : `${numberFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value)}%`);

// The game and stakes choices, from the room's tables (the lobby's list).
function fillChoices() {
  const games = new Map();
  const stakes = new Map();
  for (const table of app.lobby || []) {
    const code = CODES[table.variant]?.[table.structure];
    if (code) games.set(code, table.game);
    stakes.set(table.big_blind, stakesLabel(table));
  }
  refill($("#results-game"), [...games].sort((a, b) => a[1].localeCompare(b[1])));
  refill($("#results-stakes"), [...stakes].sort((a, b) => a[0] - b[0]));
  const position = $("#results-position");
  if (position.options.length === 1) position.append(...POSITIONS.map((p) => el("option", { value: p, text: p })));
}

function refill(select, pairs) {
  const current = select.value;
  select.replaceChildren(select.options[0], ...pairs.map(([value, label]) => el("option", { value: String(value), text: label })));
  select.value = pairs.some(([value]) => String(value) === current) ? current : "";
}

function query() {
  const params = new URLSearchParams({ kind: kind() });
  for (const name of ["game", "big_blind", "since", "until", "position"]) {
    const value = $("#results-filters").elements[name].value;
    if (value) params.set(name, value);
  }
  return params;
}

export async function loadResults() {
  if (!app.token) { $("#results-error").textContent = t("history.log_in"); return; }
  fillChoices();
  $("#results-error").textContent = "";
  try {
    const [fetched] = await Promise.all([api(`/api/me/results?${query()}`), loadUplot()]);
    page = fetched;
  } catch (error) {
    $("#results-error").textContent = error.message;
    return;
  }
  renderResults();
}

export function renderResults() {
  if (!page || $("#results").hidden) return;
  const shown = page[kind()];
  if (!shown) return;
  const overall = shown.overall;
  const facts = [
    ["results.hands", number(overall.hands), "hands", overall.hands],
    ["results.net", signed(overall.net), "net", overall.net],
    ["results.all_in_net", signed(overall.all_in_net), "all_in_net", overall.all_in_net],
    ["results.bb_per_100", overall.bb_per_100 === null ? "\u2013" : numberFormat({ maximumFractionDigits: 2 }).format(overall.bb_per_100), "bb_per_100", overall.bb_per_100],
    ["results.vpip", rate(overall.vpip), "vpip", overall.vpip],
    ["results.rake_paid", amount(overall.rake_paid), "rake_paid", overall.rake_paid],
  ];
  $("#results-summary").replaceChildren(...facts.flatMap(([key, text, name, value]) => [
    el("dt", { text: t(key) }),
    el("dd", { "data-stat": name, "data-value": value === null ? "" : String(value), text }),
  ]));
  const points = shown[line()];
  renderData(points);
  renderStats(shown);
  drawChart(points);
  renderEvents(kind() === "tournament" ? shown.events : null);
}

const line = () => $("#results-line").value;
const byDay = () => line() === "by_day";
const dayLabel = (iso) => new Date(`${iso}T00:00:00Z`).toLocaleDateString(undefined, { timeZone: "UTC" });

// A hand of the player's in the replayer beside its table (as All my hands opens one).
function replay(hand, table) {
  if (!hand || !table) return;
  openTable(table);
  openReplay(app.tables.get(table), hand);
}

function replayButton(hand, table) {
  if (!hand || !table) return el("td", { text: "\u2013" });
  return el("td", {}, el("button", {
    type: "button", class: "link results-replay", "data-hand": String(hand),
    onclick: () => replay(hand, table), text: `#${hand}`,
  }));
}

// The chart's numbers: one row per point of the line (a point is one hand, or a run of
// hands once there are more than the line has points; or a day), each with its last hand.
function renderData(points) {
  $("#results-data-rows").replaceChildren(...(points.length
    ? points.map((p) => el("tr", { "data-hands": String(p.hands), ...(p.day ? { "data-day": p.day } : {}) },
      el("th", { scope: "row", text: p.day && byDay() ? dayLabel(p.day) : number(p.hands) }),
      el("td", { text: signed(p.net) }),
      el("td", { text: signed(p.all_in_net) }),
      el("td", { text: signed(p.net_showdown) }),
      replayButton(p.hand, p.table)))
    : [el("tr", { class: "empty" }, el("td", { colspan: "5", class: "muted", text: t("results.none") }))]));
}

// The events finished: totals (in money, not chips), the best finishes and every event.
function renderEvents(events) {
  const part = $("#results-events");
  part.hidden = !events;
  if (!events) return;
  const roi = events.roi === null ? "\u2013" : `${numberFormat({ maximumFractionDigits: 1 }).format(events.roi)}%`;
  const facts = [
    ["results.played", number(events.played), "played", events.played],
    ["results.itm", `${number(events.itm)} (${rate(events.itm_rate)})`, "itm", events.itm],
    ["results.roi", roi, "roi", events.roi],
    ["results.cost", money(events.cost), "cost", events.cost],
    ["results.won", money(events.won), "won", events.won],
    ["results.bounties", money(events.bounties), "bounties", events.bounties],
    ["results.profit", signedMoney(events.profit), "profit", events.profit],
  ];
  $("#results-events-summary").replaceChildren(...facts.flatMap(([key, text, name, value]) => [
    el("dt", { text: t(key) }),
    el("dd", { "data-event-stat": name, "data-value": value === null ? "" : String(value), text }),
  ]));
  const byId = new Map(events.events.map((e) => [e.id, e]));
  const best = events.best.map((id) => byId.get(id)).filter(Boolean);
  $("#results-best").replaceChildren(...(best.length
    ? best.map((e) => el("li", { "data-event": e.id, text: t("results.best_line", { place: placeOf(e), name: e.name, won: money(e.won) }) }))
    : [el("li", { class: "muted", text: t("results.no_events") })]));
  $("#results-events-rows").replaceChildren(...(events.events.length
    ? events.events.map((e) => el("tr", { "data-event": e.id, class: e.in_the_money ? "itm" : "" },
      el("td", { text: new Date(e.finished_at).toLocaleDateString() }),
      el("th", { scope: "row", text: e.name }),
      el("td", { "data-place": e.place === null ? "" : String(e.place), text: placeOf(e) }),
      el("td", { text: money(e.cost) }),
      el("td", { text: e.ticket ? `${money(e.prize + e.ticket)} (${t("results.ticket")})` : money(e.prize) }),
      el("td", { text: money(e.bounties) }),
      el("td", { "data-profit": String(e.profit), text: signedMoney(e.profit) }),
      replayButton(e.hand, e.table)))
    : [el("tr", { class: "empty" }, el("td", { colspan: "8", class: "muted", text: t("results.no_events") }))]));
}

const placeOf = (e) => (e.place === null ? "\u2013" : t("results.place_of", { place: number(e.place), entries: number(e.entries) }));

function renderStats(shown) {
  const columns = [["overall", t("results.overall"), shown.overall],
    ...POSITIONS.filter((p) => shown.by_position[p]).map((p) => [p, p, shown.by_position[p]])];
  $("#results-stats-head").replaceChildren(
    el("th", { scope: "col", text: t("results.statistic") }),
    ...columns.map(([id, label]) => el("th", { scope: "col", "data-column": id, text: label })),
  );
  const row = (key, name, show) => el("tr", { "data-stat": name },
    el("th", { scope: "row", text: t(key) }),
    ...columns.map(([id, , results]) => el("td", { "data-column": id, text: show(results[name]) })));
  $("#results-stats-rows").replaceChildren(
    row("results.hands", "hands", number),
    ...RATES.map(([name, key]) => row(key, name, rate)),
    ...AMOUNTS.map(([name, key]) => row(key, name, name === "rake_paid" ? amount : signed)),
  );
}

function drawChart(points) {
  const box = $("#results-chart");
  if (chart) { chart.destroy(); chart = null; }
  box.setAttribute("aria-label", t(byDay() ? "results.chart_label_days" : "results.chart_label", { points: points.length }));
  // The line's title, its table's caption and first column say hands or days (their keys
  // change, so a language chosen later translates them too).
  const title = byDay() ? "results.chart_title_days" : "results.chart_title";
  for (const node of [$("#results-chart-title"), $("#results-data-caption")]) relabel(node, title);
  relabel($("#results-data thead th"), byDay() ? "results.day" : "results.hands");
  if (!points.length || !window.uPlot) { box.replaceChildren(); return; }
  // Over hands the line starts at 0 before the first hand; by day each point is a day's end.
  const days = byDay();
  const hands = days ? points.map((p, k) => k + 1) : [0, ...points.map((p) => p.hands)];
  const start = days ? [] : [0];
  const net = [...start, ...points.map((p) => p.net)];
  const adjusted = [...start, ...points.map((p) => p.all_in_net)];
  const xLabel = days ? t("results.day") : t("results.hands");
  const xValues = days
    ? (u, ticks) => ticks.map((v) => (Number.isInteger(v) && points[v - 1] ? dayLabel(points[v - 1].day) : ""))
    : (u, ticks) => ticks.map((v) => number(v));
  const grid = { stroke: "#2c3742", width: 1 };
  const axis = { stroke: "#a9b4bf", grid, ticks: grid };
  chart = new window.uPlot({
    width: chartWidth(box),
    height: 260,
    scales: { x: { time: false } },
    legend: { live: false },
    series: [
      { label: xLabel, value: (u, v) => (v === null ? "" : days ? dayLabel(points[v - 1]?.day ?? "") : number(v)) },
      { label: t("results.net"), stroke: "#56d364", width: 2, value: (u, v) => (v === null ? "" : signed(v)) },
      { label: t("results.all_in_net"), stroke: "#f2c94c", width: 2, dash: [6, 4], value: (u, v) => (v === null ? "" : signed(v)) },
    ],
    axes: [
      { ...axis, label: xLabel, values: xValues },
      { ...axis, size: 80, values: (u, ticks) => ticks.map((v) => amount(v)) },
    ],
  }, [hands, net, adjusted], box);
  // A click on the chart opens the last hand of the point under the cursor.
  chart.over.addEventListener("click", () => {
    const k = chart.cursor.idx;
    const point = k === null || k === undefined ? null : points[days ? k : k - 1];
    if (point) replay(point.hand, point.table);
  });
}

function relabel(node, key) {
  node.dataset.i18n = key;
  node.textContent = t(key);
}

const chartWidth = (box) => Math.max(240, box.clientWidth || 320);

export function bindResults() {
  $("#results-filters").addEventListener("change", loadResults);
  $("#results-line").addEventListener("change", renderResults);
  $("#results-filters").addEventListener("submit", (event) => { event.preventDefault(); loadResults(); });
  window.addEventListener("resize", () => {
    if (chart && !$("#results").hidden) chart.setSize({ width: chartWidth($("#results-chart")), height: 260 });
  });
}

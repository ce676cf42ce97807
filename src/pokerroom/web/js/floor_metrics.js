// @ts-check
// The room's metrics of the last hour (GET /api/floor/metrics: sampled by the server every
// 30 s): players, tables, sockets, hands, HTTP responses and faults per minute, the mean
// time of an action and of a commit, each a small chart (uPlot) with its numbers in a table.

import { api } from "./api.js";
import { $, el } from "./dom.js";
import { locale, numberFormat, t } from "./i18n.js";
import { said } from "./floor_ui.js";
import { loadUplot } from "./uplot.js";

const SERIES = ["players", "tables", "sockets", "hands", "http", "faults", "action_ms", "commit_ms"];
const HEIGHT = 120;
const HOUR = 3600;
let history = null;
let failure = "";
const charts = new Map();

export function metricsPart() {
  return el("div", {},
    el("p", { class: "error", id: "floor-metrics-error", role: "alert" }),
    el("div", { class: "floor-charts" }, ...SERIES.map((name) => el("figure", { class: "floor-chart", "data-metric": name },
      said("figcaption", `backoffice.metric_${name}`),
      el("div", { class: "floor-plot", role: "img" }),
      el("details", {}, said("summary", "backoffice.chart_data"),
        el("div", { class: "table-scroll", tabindex: "0" }, el("table", { class: "floor-table floor-data" },
          el("thead", {}, el("tr", {}, said("th", "backoffice.time", { scope: "col" }), said("th", `backoffice.metric_${name}`, { scope: "col" }))),
          el("tbody", {}))))))));
}

export async function loadMetrics() {
  try {
    [history] = await Promise.all([api("/api/floor/metrics"), loadUplot()]);
    failure = "";
  } catch (error) {
    failure = error.message;
  }
  renderMetrics();
}

const time = (seconds, second) => new Date(seconds * 1000).toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit", second });
const clock = (seconds) => time(seconds, "2-digit");
const value = (v) => (v === null ? "\u2013" : numberFormat({ maximumFractionDigits: 2 }).format(v));

export function renderMetrics() {
  if (!$("#floor-metrics-error")) return;
  $("#floor-metrics-error").textContent = failure;
  if (!history) return;
  for (const name of SERIES) {
    const figure = $(`.floor-chart[data-metric="${name}"]`);
    const values = history.series[name];
    $("tbody", figure).replaceChildren(...history.times.map((time, k) => el("tr", {},
      el("td", { text: clock(time) }), el("td", { class: "num", text: value(values[k]) }))).reverse());
    draw(name, $(".floor-plot", figure), history.times, values);
  }
}

function draw(name, box, times, values) {
  box.setAttribute("aria-label", t("backoffice.chart_label", { metric: t(`backoffice.metric_${name}`), points: times.length }));
  charts.get(name)?.destroy();
  charts.delete(name);
  if (!window.uPlot || !times.length) return;
  const grid = { stroke: "#2c3742", width: 1 };
  const axis = { stroke: "#a9b4bf", grid, ticks: grid, size: 40 };
  charts.set(name, new window.uPlot({
    width: Math.max(200, box.clientWidth || 280),
    height: HEIGHT,
    legend: { show: false },
    cursor: { show: false },
    series: [{}, { stroke: "#56d364", width: 2, spanGaps: true }],
    // The whole last hour, however few samples there are yet.
    scales: { x: { time: true, range: (u, low, high) => [Math.min(low, high - HOUR), high] } },
    axes: [{ ...axis, space: 70, values: (u, ticks) => ticks.map((tick) => time(tick)) }, { ...axis, values: (u, ticks) => ticks.map(value) }],
  }, [times, values], box));
}

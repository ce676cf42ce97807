// @ts-check
// The back office: the floor in the browser, for operators only (the tab shows for an
// account whose role is "operator"; every route behind it answers 403 to anyone else).
// One page of parts, each its own module: live tables and the floor's acts, the audit,
// the tournament hall, the integrity reports and the metrics of the last hour.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { isOperator } from "./state.js";
import { said } from "./floor_ui.js";
import { auditPart } from "./floor_audit.js";
import { eventsPart, loadEvents, renderEvents } from "./floor_events.js";
import { loadMetrics, metricsPart, renderMetrics } from "./floor_metrics.js";
import { loadReports, reportsPart, renderReports } from "./floor_reports.js";
import { actsPart, loadFloorTables, renderFloorTables, tablesPart } from "./floor_tables.js";

const REFRESH_MS = 5000;
let built = false;


function build() {
  const parts = [
    ["floor-tables", "backoffice.tables", tablesPart()],
    ["floor-acts", "backoffice.acts", actsPart()],
    ["floor-audit", "backoffice.audit", auditPart()],
    ["floor-events", "backoffice.events", eventsPart()],
    ["floor-reports", "backoffice.reports", reportsPart()],
    ["floor-metrics", "backoffice.metrics", metricsPart()],
  ];
  const jumps = el("nav", { class: "floor-jumps", "aria-label": t("backoffice.parts"), "data-i18n-aria-label": "backoffice.parts" },
    ...parts.map(([id, key]) => said("a", key, { href: `#${id}`, onclick: (event) => { event.preventDefault(); $(`#${id}`).scrollIntoView(); } })));
  $("#backoffice").append(jumps, ...parts.map(([id, key, body]) =>
    el("section", { id, class: "floor-part", "aria-labelledby": `${id}-title` }, said("h2", key, { id: `${id}-title` }), body)));
  built = true;
}

/** Shown: everything fetched anew. */
export function loadBackoffice() {
  if (!isOperator()) return;
  if (!built) build();
  loadFloorTables();
  loadEvents();
  loadReports();
  loadMetrics();
}

/** Written again in a new language (static labels follow by their data-i18n keys). */
export function renderBackoffice() {
  if (!built) return;
  renderFloorTables();
  renderEvents();
  renderReports();
  renderMetrics();
}

export function bindBackoffice() {
  setInterval(() => {
    if (!$("#backoffice").hidden) { loadFloorTables(); loadMetrics(); }
  }, REFRESH_MS);
}

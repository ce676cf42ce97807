// @ts-check
// The floor's integrity reports (GET /api/floor/reports, the last 7 days): chip dumping,
// shared address or device, soft play, each a ranked list of pairs of accounts with the
// numbers behind the rank and its supporting hands, each opening in the replayer.

import { api } from "./api.js";
import { $, el } from "./dom.js";
import { number, t } from "./i18n.js";
import { linkTo, said } from "./floor_ui.js";

const NAMES = ["chip_dumping", "shared_connections", "soft_play"];
const HANDS_SHOWN = 12;
let body = null;
let failure = "";

export function reportsPart() {
  return el("div", {}, el("p", { class: "error", id: "floor-reports-error", role: "alert" }), el("div", { id: "floor-reports-list" }));
}

export async function loadReports() {
  try {
    body = await api("/api/floor/reports?limit=20");
    failure = "";
  } catch (error) {
    failure = error.message;
  }
  renderReports();
}

export function renderReports() {
  const box = $("#floor-reports-list");
  if (!box) return;
  $("#floor-reports-error").textContent = failure;
  if (!body) { box.replaceChildren(); return; }
  box.replaceChildren(
    el("p", { class: "muted", text: t("backoffice.reports_period", { since: body.since, until: body.until }) }),
    ...NAMES.map((name) => report(name, body.reports[name])));
}

function report(name, r) {
  const rows = r.rows.map((row, rank) => el("li", { "data-report-row": String(rank + 1) },
    el("span", { class: "floor-score", text: t("backoffice.score", { score: number(row.score), threshold: number(r.threshold) }) }), " ",
    ...row.accounts.map((id) => linkTo({ kind: "account", id })),
    el("span", { class: "muted small", text: Object.entries(row.numbers).map(([k, v]) => `${k}: ${number(v)}`).join(", ") }),
    el("span", { class: "floor-hands" }, ...row.hands.slice(0, HANDS_SHOWN).map((id) => linkTo({ kind: "hand", id })))));
  return el("section", { class: "floor-report", "data-report": name },
    said("h3", `backoffice.report_${name}`),
    el("p", { class: "muted", text: t("backoffice.flagged", { flagged: number(r.flagged), pairs: number(r.pairs) }) }),
    rows.length ? el("ol", { class: "floor-ranked" }, ...rows) : said("p", "backoffice.nothing_flagged", { class: "muted" }));
}

// @ts-check
// The audit from the page (GET /api/floor/audit: what `pokerroom audit` checks, on the
// room's database now): the chip totals and every difference, each linked to the table,
// account, hand or tournament it names.

import { api } from "./api.js";
import { $, el } from "./dom.js";
import { number, t } from "./i18n.js";
import { money } from "./format.js";
import { button, linkTo, said } from "./floor_ui.js";

const KINDS = ["player", "table", "tournament", "house", "bank"]; // the rows add up to zero

export function auditPart() {
  return el("div", {},
    button("backoffice.run_audit", runAudit, { id: "floor-audit-run", class: "primary" }),
    el("div", { id: "floor-audit-result", "aria-live": "polite" }));
}

async function runAudit() {
  const box = $("#floor-audit-result");
  $("#floor-audit-run").disabled = true;
  box.replaceChildren(said("p", "backoffice.audit_running", { class: "muted" }));
  try {
    box.replaceChildren(...shown(await api("/api/floor/audit")));
  } catch (error) {
    box.replaceChildren(el("p", { class: "error", role: "alert", text: error.message }));
  } finally {
    $("#floor-audit-run").disabled = false;
  }
}

function shown(report) {
  const verdict = report.ok
    ? said("p", "backoffice.audit_ok", { class: "floor-verdict ok", "data-problems": "0" })
    : el("p", { class: "floor-verdict error", "data-problems": String(report.problems.length), text: t("backoffice.audit_problems", { count: report.problems.length }) });
  const totals = el("div", { class: "table-scroll" }, el("table", { class: "floor-table floor-totals" },
    el("caption", { text: t("backoffice.audit_totals") }),
    el("tbody", {}, ...KINDS.map((kind) => el("tr", {},
      el("th", { scope: "row", text: t(`backoffice.kind_${kind}`) }),
      el("td", { class: "num", text: money(report.totals[kind] ?? 0) }))))));
  const figures = el("p", { class: "muted", text: t("backoffice.audit_figures", {
    tables: number(report.tables), seated: money(report.seated), transfers: number(report.transfers),
    acts: number(report.floor_acts), tournaments: number(report.tournaments), circulation: money(report.in_circulation),
  }) });
  const problems = el("ol", { class: "floor-problems", id: "floor-audit-problems" },
    ...report.problems.map((p) => el("li", {}, el("span", { class: "floor-problem", text: p.text }), " ", ...p.links.map(linkTo))));
  return [verdict, totals, figures, problems];
}

// @ts-check
// The tournament hall from the back office: create an event from a shipped structure, start
// a registering event now (with its minimum of entrants), cancel one not started (every
// buy-in and fee refunded), each act recorded by the floor.

import { api } from "./api.js";
import { $, el, showToast } from "./dom.js";
import { number, t } from "./i18n.js";
import { button, confirmAct, said } from "./floor_ui.js";

let events = [];
let structures = [];

export function eventsPart() {
  const form = el("form", { class: "floor-form", id: "floor-event-form" },
    el("label", {}, said("span", "backoffice.structure"), " ", el("select", { id: "floor-event-structure", required: true })),
    el("label", {}, said("span", "backoffice.event_name"), " ", el("input", { id: "floor-event-name", maxlength: "64" })),
    said("button", "backoffice.create_event", { class: "primary" }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("#floor-event-name").value.trim() || undefined;
    try {
      await api("/api/floor/tournaments", { body: { structure: $("#floor-event-structure").value, name } });
      $("#floor-event-name").value = "";
      loadEvents();
    } catch (error) {
      showToast(error.message);
    }
  });
  return el("div", {}, form, el("ul", { class: "floor-events", id: "floor-event-list" }));
}

export async function loadEvents() {
  try {
    [events, structures] = await Promise.all([api("/api/tournaments"), structures.length ? structures : api("/api/floor/tournaments/structures")]);
  } catch (error) {
    showToast(error.message);
    return;
  }
  renderEvents();
}

export function renderEvents() {
  const select = $("#floor-event-structure");
  if (!select) return;
  if (select.options.length !== structures.length) select.replaceChildren(...structures.map((s) => el("option", { value: s, text: s })));
  $("#floor-event-list").replaceChildren(...events.filter((e) => e.status === "registering" || e.status === "running").map((e) =>
    el("li", { "data-event": e.id },
      el("span", { text: t("backoffice.event_line", { name: e.name, status: t(`backoffice.status_${e.status}`), entrants: number(e.entrants), least: number(e.min_entrants) }) }), " ",
      button("backoffice.start", () => start(e), { class: "floor-start", disabled: e.status !== "registering" }),
      button("backoffice.cancel_event", () => cancel(e), { class: "floor-cancel danger", disabled: e.status !== "registering" }))));
}

async function start(e) {
  try {
    await api(`/api/floor/tournaments/${encodeURIComponent(e.id)}/start`, { method: "POST" });
  } catch (error) {
    showToast(error.message);
  }
  loadEvents();
}

async function cancel(e) {
  await confirmAct(t("backoffice.cancel_event"), t("backoffice.cancel_what", { name: e.name, entrants: e.entrants }),
    (reason) => api(`/api/floor/tournaments/${encodeURIComponent(e.id)}/cancel`, { body: { reason } }));
  loadEvents();
}

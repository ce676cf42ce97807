// @ts-check
// What the back office's parts share: a text element that follows the page's language,
// the floor's act dialog (a reason and a confirmation before any act), and the links from
// a finding to its table, account or hand.

import { api } from "./api.js";
import { $, el, showToast } from "./dom.js";
import { t } from "./i18n.js";
import { openTable } from "./nav.js";
import { openReplay } from "./replayer.js";
import { app } from "./state.js";

/** An element whose text is the message ``key`` (data-i18n: translated again on a switch). */
export const said = (tag, key, attrs = {}) => el(tag, { ...attrs, "data-i18n": key, text: t(key) });

/** A button that says ``key``. */
export const button = (key, onclick, attrs = {}) => said("button", key, { type: "button", ...attrs, onclick });

/** Ask for the act's reason and a confirmation, then do it: ``title`` and ``what`` say the
 * act and its target; ``run(reason)`` calls the floor (its error is shown in the dialog,
 * which stays open). Resolves to run's answer, or null when the operator cancels. */
export function confirmAct(title, what, run) {
  const dialog = $("#floor-act");
  $("#floor-act-title").textContent = title;
  $("#floor-act-what").textContent = what;
  $("#floor-act-reason").value = "";
  $("#floor-act-error").textContent = "";
  return new Promise((resolve) => {
    const form = $("#floor-act-form");
    const done = (value) => {
      form.removeEventListener("submit", submit);
      $("#floor-act-cancel").removeEventListener("click", cancel);
      dialog.close();
      resolve(value);
    };
    const cancel = () => done(null);
    const submit = async (event) => {
      event.preventDefault();
      $("#floor-act-error").textContent = ""; // this try's error only
      const reason = $("#floor-act-reason").value.trim();
      if (!reason) { $("#floor-act-error").textContent = t("backoffice.reason_needed"); return; }
      try {
        const answer = await run(reason);
        showToast(t("backoffice.done", { act: title }), { info: true });
        done(answer);
      } catch (error) {
        $("#floor-act-error").textContent = error.message;
      }
    };
    form.addEventListener("submit", submit);
    $("#floor-act-cancel").addEventListener("click", cancel);
    dialog.showModal();
    $("#floor-act-reason").focus();
  });
}

/** Suspend an account: its sessions end and its seats follow the floor. */
export const suspendAccount = (id) => confirmAct(
  t("backoffice.suspend"), t("backoffice.account", { id }),
  (reason) => api(`/api/floor/accounts/${id}/suspend`, { body: { reason } }),
);

/** A finished hand in the replayer, every card shown, on its table's view. */
export async function replayHand(id) {
  try {
    const hand = await api(`/api/floor/hands/${id}/replay`);
    openTable(hand.table);
    await openReplay(app.tables.get(hand.table), id, { floor: true });
  } catch (error) {
    showToast(error.message);
  }
}

// What a link leads to, by the kind the server names it with.
const LINKS = {
  table: (id) => ({ text: t("backoffice.table_link", { id }), open: () => openTable(id) }),
  account: (id) => ({ text: t("backoffice.account", { id }), open: () => suspendAccount(id) }),
  hand: (id) => ({ text: t("backoffice.hand_link", { id }), open: () => replayHand(id) }),
  tournament: (id) => ({ text: t("backoffice.tournament_link", { id }), open: () => document.querySelector("#floor-events")?.scrollIntoView() }),
};

/** A link to what a finding names ({kind, id}); plain text for a kind with nowhere to go. */
export function linkTo({ kind, id }) {
  const link = LINKS[kind]?.(id);
  if (!link) return el("span", { class: "floor-ref", text: `${kind} ${id}` });
  return el("button", { type: "button", class: "link floor-ref", "data-kind": kind, "data-id": String(id), text: link.text, onclick: link.open });
}

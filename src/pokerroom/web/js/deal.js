// @ts-check
// The deal at the final table: the room's two offers side by side (ICM and chip
// chop, computed by the room: GET /deal/offers), a proposal with who accepted and who is
// awaited (GET /deal), Propose, Accept and Decline, and the deal made. Kept current by the
// room's "deal" notices while it is open.

import { api } from "./api.js";
import { $, $$, el } from "./dom.js";
import { chips, money } from "./format.js";
import { t } from "./i18n.js";
import { app } from "./state.js";

// The event whose deal is shown, what the room said of it, and the names and stacks to show.
const deal = { id: null, view: null, offers: null, mine: null, names: {}, stacks: {}, soon: null };

export function openDeal(id) {
  deal.id = id;
  $("#deal-error").textContent = "";
  $("#deal-note").textContent = "";
  // Not modal: the player may have to act at the table while a proposal waits for a hand.
  if (!$("#deal").open) $("#deal").show();
  refreshDeal();
}

export function bindDeal() {
  // The money kept back (in the room's units, sent in cents) is played on for with the title.
  const keep = () => Math.max(0, Math.round(Number($("#deal-keep").value || 0) * 100)) || 0;
  $("#deal-icm").addEventListener("click", () => send("", { kind: "icm", keep: keep() }));
  $("#deal-chip").addEventListener("click", () => send("", { kind: "chip", keep: keep() }));
  $("#deal-accept").addEventListener("click", () => send("/accept"));
  $("#deal-decline").addEventListener("click", () => send("/decline"));
  $("#deal-close").addEventListener("click", () => $("#deal").close());
}

async function send(path, body) {
  $("#deal-error").textContent = "";
  try {
    deal.view = await api(`/api/tournaments/${deal.id}/deal${path}`, { method: "POST", body });
  } catch (error) {
    $("#deal-error").textContent = error.message;
  }
  refreshDeal();
}

export async function refreshDeal() {
  if (!deal.id || !$("#deal").open) return;
  const base = `/api/tournaments/${deal.id}`;
  try {
    const [view, event, mine] = await Promise.all([api(`${base}/deal`), api(base), app.token ? api(`${base}/me`) : null]);
    deal.view = view;
    deal.mine = mine;
    deal.names = Object.fromEntries(event.players.map((p) => [p.entry, p.name]));
    deal.stacks = Object.fromEntries(event.players.map((p) => [p.entry, p.stack]));
  } catch (error) {
    $("#deal-error").textContent = error.message;
    return;
  }
  let why = "";
  try {
    deal.offers = await api(`${base}/deal/offers`);
  } catch (error) {
    deal.offers = null; // in a hand, or no longer possible: said, not alerted
    if (!deal.view.made) why = error.message;
  }
  if ($("#deal-note").textContent !== why) $("#deal-note").textContent = why;
  render();
}

/** Look again soon (a table's frame came: a hand may have ended, the amounts may be due). */
export function refreshDealSoon(id) {
  if (deal.id !== id || !$("#deal").open || deal.soon) return;
  deal.soon = setTimeout(() => { deal.soon = null; refreshDeal(); }, 500);
}

function render() {
  const { view, offers, mine } = deal;
  const proposal = view.proposal;
  const entries = offers ? offers.players.map((p) => p.entry) : Object.keys(view.amounts || {}).length ? Object.keys(view.amounts) : proposal ? proposal.accepted.concat(proposal.waiting) : [];
  const stacks = offers ? Object.fromEntries(offers.players.map((p) => [p.entry, p.stack])) : deal.stacks;
  const kind = view.made ? null : proposal?.kind;
  const rows = entries.map((entry) => {
    const you = mine?.entry === entry;
    const icm = kind === "icm" && view.amounts ? view.amounts[entry] : offers?.icm[entry];
    const chip = kind === "chip" && view.amounts ? view.amounts[entry] : offers?.chip[entry];
    return el("tr", { "data-entry": entry, class: you ? "seated" : null },
      el("td", { text: deal.names[entry] || entry }),
      el("td", { class: "num", text: stacks[entry] === null || stacks[entry] === undefined ? "" : chips(stacks[entry]) }),
      el("td", { class: `num offer${kind === "icm" ? " chosen" : ""}`, text: icm === undefined ? "" : money(icm) }),
      el("td", { class: `num offer${kind === "chip" ? " chosen" : ""}`, text: chip === undefined ? "" : money(chip) }),
      el("td", { class: "num agreed", text: view.made ? money(view.amounts[entry]) : "" }));
  });
  $("#deal-rows").replaceChildren(...rows);
  // Made: what each takes; else the two offers.
  $("#deal-made-col").hidden = !view.made;
  $("#deal-icm-col").hidden = $("#deal-chip-col").hidden = view.made;
  for (const cell of $$("#deal-rows td.agreed")) cell.hidden = !view.made;
  for (const cell of $$("#deal-rows td.offer")) cell.hidden = view.made;
  const waiting = proposal ? proposal.waiting : [];
  const status = view.made
    ? t("deal.made", { amount: mine?.entry && view.amounts[mine.entry] !== undefined ? money(view.amounts[mine.entry]) : "" })
    : proposal
      ? t("deal.proposed", {
        kind: t(`deal.kind_${proposal.kind}`),
        who: deal.names[proposal.by] || proposal.by,
        accepted: proposal.accepted.map((e) => deal.names[e] || e).join(", "),
        waiting: waiting.map((e) => deal.names[e] || e).join(", "),
      }) + (proposal.seconds_left === null || proposal.seconds_left === undefined ? "" : ` ${t("deal.seconds_left", { seconds: Math.ceil(proposal.seconds_left) })}`)
      : offers ? t("deal.none") : "";
  if ($("#deal-status").textContent !== status) $("#deal-status").textContent = status;
  const left = Boolean(mine?.entry) && !mine.out;
  // A proposal may be made during a hand: its amounts come when the hand ends.
  $("#deal-icm").hidden = $("#deal-chip").hidden = view.made || Boolean(proposal) || !left;
  $("#deal-keep-row").hidden = $("#deal-icm").hidden;
  const asked = Boolean(proposal) && waiting.includes(mine?.entry);
  $("#deal-accept").hidden = $("#deal-decline").hidden = !asked;
  $("#deal-accept").disabled = !view.amounts; // the amounts come when the hand in play ends
}

// @ts-check
// Tournaments in the lobby: each event with its buy-in, entrants, prize pool,
// level and players left; Details opens its panel (tournament_detail.js). Register,
// Unregister, Rebuy, Add-on (when the room allows them now, with their price) and Open my
// table, which asks the room where the player sits now, so it follows moves. The room's
// notices (you were moved, hand-for-hand, your place) show at the tournament's table (and as
// a toast when that table is not on screen); a move opens the new table and closes the old.

import { api, refreshMe } from "./api.js";
import { refreshDeal } from "./deal.js";
import { $, $$, el, replaceKeepingFocus, showToast } from "./dom.js";
import { chips, money } from "./format.js";
import { t as tr } from "./i18n.js";
import { openTable } from "./nav.js";
import { addTournamentNote, app, setTournament, setTournamentMine, setTournaments } from "./state.js";
import { errorText } from "./texts.js";
import { bindPlayerSort, renderDetail } from "./tournament_detail.js";
import { moveTo, renderTournamentInfo, viewsOf } from "./tournament_table.js";

export async function refreshTournaments() {
  try {
    setTournaments(await api("/api/tournaments"));
  } catch {
    return;
  }
  await refreshMine();
  renderTournaments();
}

async function refreshMine() {
  const id = app.tournament;
  if (!id || !app.token) { setTournamentMine(null); return; }
  try {
    setTournamentMine(await api(`/api/tournaments/${id}/me`));
  } catch {
    setTournamentMine(null);
  }
}

function myEntry(event) {
  if (!app.me) return null;
  const me = String(app.me.account_id);
  return event.players.filter((p) => p.entry === me || p.entry.startsWith(`${me}#`)).pop() || null;
}

const RETRIES = 3;

/** A request with its key (register, rebuy, add-on) is sent again, the same, when no answer
 * came or the event was changing node (409): the room applies it once and answers the same.
 * A new click is a new key: one on a view out of date is refused, not taken for a retry. */
async function act(path, body) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await api(path, { method: "POST", body });
      break;
    } catch (error) {
      const lost = error.status === undefined || (error.status === 409 && error.code !== "tournament.elsewhere");
      if (!(body?.request && lost && attempt < RETRIES)) {
        showToast(error.message);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }
  refreshTournaments();
  refreshMe(); // a buy-in paid or refunded: the header's balance as it is now
}

async function openMine(event) {
  let mine = null;
  try {
    mine = await api(`/api/tournaments/${event.id}/table`);
  } catch (error) {
    showToast(error.message);
    return;
  }
  if (mine.table) openTable(mine.table);
  else showToast(() => tr("tournaments.no_seat", { name: event.name }), { info: true });
}

/** The structure in words, in the page's language (the data file's English description is
 * for operators). */
function describe(s) {
  const minutes = s.levels.length ? s.levels[0][3] : 0;
  const line = tr(`tournaments.describe_${s.kind}`, { players: s.table_size, minutes });
  const extras = [s.rebuy ? tr("tournaments.with_rebuys") : null, s.re_entries ? tr("tournaments.with_reentry") : null];
  return [`${s.game_name}: ${line}`, ...extras.filter(Boolean)].join(", ");
}

const requestKey = () => crypto.getRandomValues(new Uint32Array(4)).join("");

/** The player's buttons for ``event``; ``detail``: the panel's, with prices and Rebuy/Add-on. */
function buttons(event, detail) {
  const entry = myEntry(event);
  const mine = detail && app.tournamentMine?.tournament === event.id ? app.tournamentMine : null;
  const s = event.structure;
  const out = [];
  const reEntry = entry && entry.stack === null && s.re_entries > 0; // out: may enter again
  if (event.registration_open && (!entry || reEntry)) {
    const price = `${money(s.buy_in)}+${money(s.fee)}`;
    out.push(el("button", {
      type: "button", class: "register primary", disabled: !app.token,
      onclick: () => act(`/api/tournaments/${event.id}/register`, { request: requestKey() }),
      text: detail ? tr("tournaments.register_price", { price }) : tr("tournaments.register"),
    }));
  }
  if (entry && event.status === "registering") {
    out.push(el("button", { type: "button", class: "unregister", onclick: () => act(`/api/tournaments/${event.id}/unregister`), text: tr("tournaments.unregister") }));
  }
  if (mine?.can_rebuy && s.rebuy) {
    out.push(el("button", { type: "button", class: "rebuy", onclick: () => act(`/api/tournaments/${event.id}/rebuy`, { number: mine.rebuys + 1, request: requestKey() }), text: tr("tournaments.rebuy_price", { price: money(s.rebuy[0]), chips: chips(s.rebuy[1]) }) }));
  }
  if (mine && mine.rebuy_offer_seconds !== null && mine.rebuy_offer_seconds !== undefined) {
    // Busted in the rebuy period: the seat waits for the rebuy, until a refusal or the time.
    out.push(el("button", { type: "button", class: "decline-rebuy", onclick: () => act(`/api/tournaments/${event.id}/rebuy/decline`), text: tr("tournaments.decline_rebuy") }));
  }
  if (mine?.can_addon && s.addon) {
    out.push(el("button", { type: "button", class: "addon", onclick: () => act(`/api/tournaments/${event.id}/addon`, { request: requestKey() }), text: tr("tournaments.addon_price", { price: money(s.addon[0]), chips: chips(s.addon[1]) }) }));
  }
  if (entry && entry.table) {
    out.push(el("button", { type: "button", class: "open primary", onclick: () => openMine(event), text: tr("tournaments.open_table") }));
  }
  if (entry && entry.place) {
    const won = entry.prize ? tr("tournaments.place_won", { place: entry.place, prize: money(entry.prize) }) : tr("tournaments.place", { place: entry.place });
    out.push(el("span", { class: "badge place", text: won }));
  }
  return out;
}

// A scheduled run's countdown to its start, from the server's time (the lobby's clock skew
// is small next to minutes).
function startsIn(at) {
  const seconds = Math.max(0, Math.floor(at - Date.now() / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return tr("tournaments.starts_in", { time: h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}` });
}

setInterval(() => {
  for (const node of $$("#tournament-rows [data-starts-at]")) {
    const text = startsIn(Number(node.dataset.startsAt));
    if (node.textContent !== text) node.textContent = text;
  }
}, 1000);

function select(id) {
  setTournament(app.tournament === id ? null : id);
  renderTournaments();
  refreshTournaments(); // the player's own entry (/me) for the buttons
  if (app.tournament) $("#tournament-detail").scrollIntoView({ block: "nearest" });
}

// Running and open events first; finished and cancelled ones after them, listed for their
// results, with no level or players left.
const ORDER = { running: 0, registering: 1, finished: 2, cancelled: 3 };

export function renderTournaments() {
  const events = [...(app.tournaments || [])].sort((a, b) => (ORDER[a.status] ?? 1) - (ORDER[b.status] ?? 1));
  if (app.tournament && !events.some((e) => e.id === app.tournament)) setTournament(null);
  const rows = events.map((t) => {
    const level = t.level ? `${t.level} (${chips(t.blinds[0])}/${chips(t.blinds[1])})` : "";
    const open = app.tournament === t.id;
    return el("tr", { "data-tournament": t.id, class: open ? "selected" : null },
      el("td", {}, el("strong", { text: t.name }), el("div", { class: "muted small", text: describe(t.structure) }),
        t.guarantee ? el("div", { class: "guarantee small", text: tr("tournaments.guaranteed", { amount: money(t.guarantee) }) }) : null,
        t.status === "registering" && t.starts_at ? el("div", { class: "starts-in small", "data-starts-at": String(t.starts_at), role: "timer", text: startsIn(t.starts_at) }) : null),
      el("td", { text: tr(`tournaments.${t.status}`) }),
      el("td", { class: "num", text: `${money(t.structure.buy_in)}+${money(t.structure.fee)}` }),
      el("td", { class: "num", text: `${t.entrants}/${t.max_entrants}` }),
      el("td", { class: "num", text: money(t.prize_pool) }),
      el("td", { class: "num", text: level }),
      el("td", { class: "num", text: t.status === "running" ? String(t.players_left) : "" }),
      el("td", { class: "row-buttons" },
        el("button", {
          type: "button", class: "details", "aria-expanded": String(open), "aria-controls": "tournament-detail",
          "aria-label": tr("tournaments.details_of", { name: t.name }), onclick: () => select(t.id), text: tr("tournaments.details"),
        }),
        ...buttons(t, false)),
    );
  });
  replaceKeepingFocus($("#tournament-rows"), rows, "data-tournament");
  const chosen = events.find((e) => e.id === app.tournament) || null;
  renderDetail(chosen, chosen ? buttons(chosen, true) : []);
}

export function bindTournaments() {
  bindPlayerSort(renderTournaments);
}

/** @param {import("./protocol").TournamentNotice} notice */
export function onTournamentNotice(notice) {
  const said = { message: notice.text, code: notice.code, params: notice.params };
  addTournamentNote(notice.tournament, notice.kind, said); // said again in a new language
  const views = viewsOf(notice.tournament);
  const seen = !$("#tables").hidden && views.some((v) => !v.root.hidden);
  if (!seen) showToast(() => errorText(said), { info: true });
  // The table follows the player: the new one opens, the one they sat at closes.
  if (notice.table && notice.kind === "moved") moveTo(notice.tournament, notice.table);
  else if (notice.table && notice.kind === "started") openTable(notice.table);
  for (const view of viewsOf(notice.tournament)) renderTournamentInfo(view);
  if (notice.kind === "deal") refreshDeal();
  refreshTournaments();
  refreshMe(); // a prize, a refund, a deal's payout: the balance as it is now
}

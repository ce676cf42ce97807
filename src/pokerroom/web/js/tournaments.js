// Tournaments in the lobby (issue 14): each event with its buy-in, entrants, prize pool,
// level and players left; Register, Unregister and Open my table. The room's notices (you
// were moved, hand-for-hand, your place) show as toasts, and a move opens the new table.

import { api } from "./api.js";
import { $, el, showToast } from "./dom.js";
import { chips, money } from "./format.js";
import { t as tr } from "./i18n.js";
import { openTable } from "./nav.js";
import { app } from "./state.js";
import { errorText } from "./texts.js";

export async function refreshTournaments() {
  try {
    app.tournaments = await api("/api/tournaments");
  } catch {
    return;
  }
  renderTournaments();
}

function myEntry(event) {
  if (!app.me) return null;
  const me = String(app.me.account_id);
  return event.players.filter((p) => p.entry === me || p.entry.startsWith(`${me}#`)).pop() || null;
}

async function act(path, body) {
  try {
    await api(path, { method: "POST", body });
  } catch (error) {
    showToast(error.message);
  }
  refreshTournaments();
}

async function openMine(event) {
  const mine = await api(`/api/tournaments/${event.id}/table`);
  if (mine.table) openTable(mine.table);
  else showToast(tr("tournaments.no_seat", { name: event.name }));
}

/** The structure in words, in the page's language (the data file's English description is
 * for operators). */
function describe(s) {
  const minutes = s.levels.length ? s.levels[0][3] : 0;
  const line = tr(`tournaments.describe_${s.kind}`, { players: s.table_size, minutes });
  const extras = [s.rebuy ? tr("tournaments.with_rebuys") : null, s.re_entries ? tr("tournaments.with_reentry") : null];
  return [line, ...extras.filter(Boolean)].join(", ");
}

export function renderTournaments() {
  const rows = (app.tournaments || []).map((t) => {
    const entry = myEntry(t);
    const key = () => crypto.getRandomValues(new Uint32Array(4)).join("");
    const level = t.level ? `${t.level} (${chips(t.blinds[0])}/${chips(t.blinds[1])})` : "";
    return el("tr", { "data-tournament": t.id },
      el("td", {}, el("strong", { text: t.name }), el("div", { class: "muted small", text: describe(t.structure) })),
      el("td", { text: tr(`tournaments.${t.status}`) }),
      el("td", { class: "num", text: `${money(t.structure.buy_in)}+${money(t.structure.fee)}` }),
      el("td", { class: "num", text: `${t.entrants}/${t.max_entrants}` }),
      el("td", { class: "num", text: money(t.prize_pool) }),
      el("td", { class: "num", text: level }),
      el("td", { class: "num", text: t.status === "registering" ? "" : String(t.players_left) }),
      el("td", { class: "row-buttons" },
        t.registration_open && !entry
          ? el("button", { type: "button", class: "register primary", disabled: !app.token,
            onclick: () => act(`/api/tournaments/${t.id}/register`, { request: key() }), text: tr("tournaments.register") })
          : null,
        entry && t.status === "registering"
          ? el("button", { type: "button", class: "unregister",
            onclick: () => act(`/api/tournaments/${t.id}/unregister`), text: tr("tournaments.unregister") })
          : null,
        entry && entry.table
          ? el("button", { type: "button", class: "open primary", onclick: () => openMine(t), text: tr("tournaments.open_table") })
          : null,
        entry && entry.place ? el("span", { class: "badge", text: tr("tournaments.place", { place: entry.place }) }) : null),
    );
  });
  $("#tournament-rows").replaceChildren(...rows);
}

export function onTournamentNotice(notice) {
  showToast(errorText({ message: notice.text, code: notice.code, params: notice.params }));
  if (notice.table && (notice.kind === "moved" || notice.kind === "started")) openTable(notice.table);
  refreshTournaments();
}

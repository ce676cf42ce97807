// @ts-check
// The lobby: every table with its game, stakes, seats, waiting list and the last 15 minutes'
// figures; filters, sortable columns, Watch, Join and the waiting list.

import { api } from "./api.js";
import { askBuyIn } from "./buyin.js";
import { $, $$, el, replaceKeepingFocus } from "./dom.js";
import { money, stakesLabel } from "./format.js";
import { number, t as i18n } from "./i18n.js";
import { openTable } from "./nav.js";
import { app, setLobby, sortBy } from "./state.js";
import { refreshTournaments } from "./tournaments.js";
import { joinList, leaveList, TEXT, waitingForPlayers } from "./waitlist.js";

export async function refreshLobby() {
  refreshTournaments();
  try {
    setLobby(await api("/api/lobby"));
  } catch {
    return;
  }
  const games = [...new Set(app.lobby.map((t) => t.game))].sort();
  const stakes = [...new Set(app.lobby.map(stakesLabel))];
  fillSelect($("#filter-game"), games, "lobby.all_games");
  fillSelect($("#filter-stakes"), stakes, "lobby.all_stakes");
  renderLobby();
}

function fillSelect(select, values, allKey) {
  const current = select.value;
  const known = [...select.options].slice(1).map((o) => o.value);
  if (known.length === values.length && known.every((v, i) => v === values[i])) return; // an open list stays open
  select.replaceChildren(el("option", { value: "", "data-i18n": allKey, text: i18n(allKey) }), ...values.map((v) => el("option", { value: v, text: v })));
  select.value = values.includes(current) ? current : "";
}

// The value each sortable column sorts on (the header's data-sort names it).
const SORT_KEYS = {
  name: (t) => t.name.toLowerCase(),
  game: (t) => t.game.toLowerCase(),
  stakes: (t) => t.big_blind,
  seated: (t) => t.seated,
  waiting: (t) => t.waiting.length,
  average_pot: (t) => t.average_pot,
  players_per_flop: (t) => t.players_per_flop,
  hands_per_hour: (t) => t.hands_per_hour,
};

// Click a header to sort by it; again to reverse (aria-sort says which and how).
export function bindLobbySort() {
  for (const th of $$(".lobby-table th[data-sort]")) {
    $("button", th).addEventListener("click", () => {
      sortBy("lobby", th.dataset.sort);
      renderLobby();
    });
  }
}

function sorted(tables) {
  const { key, dir } = app.lobbySort;
  for (const th of $$(".lobby-table th[data-sort]")) {
    if (th.dataset.sort === key) th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    else th.removeAttribute("aria-sort");
  }
  if (!key) return tables;
  const value = SORT_KEYS[key];
  return [...tables].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return (x < y ? -1 : x > y ? 1 : 0) * dir || a.name.localeCompare(b.name);
  });
}

function joinButtons(t, mine) {
  if (mine) return [el("button", { type: "button", class: "open primary", onclick: () => openTable(t.id), text: i18n("lobby.open") })];
  const full = t.seated >= t.seats || t.waiting.length > 0; // people waiting: the list first
  if (t.you_wait) {
    return [
      el("span", { class: "in-line muted small", text: TEXT.inLine(t.you_wait) }),
      el("button", { type: "button", class: "leave-list", onclick: () => leaveList(t.id), text: TEXT.leaveList() }),
    ];
  }
  if (full && app.token) {
    return [el("button", { type: "button", class: "join-list primary", onclick: () => joinList(t.id), text: TEXT.joinList() })];
  }
  return [el("button", {
    type: "button", class: "join primary", disabled: full || !app.token,
    onclick: () => { openTable(t.id); askBuyIn(t.id, null); }, text: i18n("lobby.join"),
  })];
}

export function renderLobby() {
  const game = $("#filter-game").value;
  const stakes = $("#filter-stakes").value;
  const open = $("#filter-open").checked;
  const tables = app.lobby
    .filter((t) => !t.closed)
    .filter((t) => !game || t.game === game)
    .filter((t) => !stakes || stakesLabel(t) === stakes)
    .filter((t) => !open || t.seated < t.seats);
  const rows = sorted(tables).map((t) => {
    const mine = app.seated.has(t.id); // the tables where you sit are marked
    const stalled = waitingForPlayers(t);
    return el("tr", { "data-table": t.id, class: mine ? "seated" : null },
      el("td", {},
        el("strong", { text: t.name }),
        mine ? el("span", { class: "badge you-sit", text: i18n("lobby.you_sit_here") }) : null,
        el("div", { class: "muted small", text: t.players.join(", ") || i18n("lobby.no_players") }),
        stalled ? el("div", { class: "small stalled", text: stalled }) : null),
      el("td", { text: t.game }),
      el("td", { text: stakesLabel(t) }),
      el("td", { class: "num", text: `${number(t.seated)}/${number(t.seats)}` }),
      el("td", { class: "num waiting", title: t.waiting.join(", "), text: TEXT.waitingCount(t.waiting.length) }),
      el("td", { class: "num", text: money(t.average_pot) }),
      el("td", { class: "num", text: `${number(t.players_per_flop)}%` }),
      el("td", { class: "num", text: number(t.hands_per_hour) }),
      el("td", { class: "row-buttons" },
        el("button", { type: "button", class: "watch", onclick: () => openTable(t.id), text: i18n("lobby.watch") }),
        ...joinButtons(t, mine)),
    );
  });
  replaceKeepingFocus($("#lobby-rows"), rows, "data-table");
  $("#lobby-empty").hidden = rows.length > 0;
}

// The lobby: every table with its game, stakes and seats, filters, Watch and Join.

import { api } from "./api.js";
import { askBuyIn } from "./buyin.js";
import { $, el } from "./dom.js";
import { money, stakesLabel } from "./format.js";
import { number, t as i18n } from "./i18n.js";
import { openTable } from "./nav.js";
import { app } from "./state.js";

export async function refreshLobby() {
  try {
    app.lobby = await api("/api/lobby");
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
  select.replaceChildren(el("option", { value: "", "data-i18n": allKey, text: i18n(allKey) }), ...values.map((v) => el("option", { value: v, text: v })));
  select.value = values.includes(current) ? current : "";
}

export function renderLobby() {
  const game = $("#filter-game").value;
  const stakes = $("#filter-stakes").value;
  const open = $("#filter-open").checked;
  const rows = app.lobby
    .filter((t) => !t.closed)
    .filter((t) => !game || t.game === game)
    .filter((t) => !stakes || stakesLabel(t) === stakes)
    .filter((t) => !open || t.seated < t.seats)
    .map((t) => {
      const mine = app.seated.has(t.id); // issue 16: the tables where you sit are marked
      return el("tr", { "data-table": t.id, class: mine ? "seated" : null },
        el("td", {},
          el("strong", { text: t.name }),
          mine ? el("span", { class: "badge you-sit", text: i18n("lobby.you_sit_here") }) : null,
          el("div", { class: "muted small", text: t.players.join(", ") || i18n("lobby.no_players") })),
        el("td", { text: t.game }),
        el("td", { text: stakesLabel(t) }),
        el("td", { class: "num", text: `${number(t.seated)}/${number(t.seats)}` }),
        el("td", { class: "num", text: money(t.average_pot) }),
        el("td", { class: "num", text: number(t.hands_per_hour) }),
        el("td", { class: "row-buttons" },
          el("button", { type: "button", class: "watch", onclick: () => openTable(t.id), text: i18n("lobby.watch") }),
          mine
            ? el("button", { type: "button", class: "open primary", onclick: () => openTable(t.id), text: i18n("lobby.open") })
            : el("button", {
              type: "button", class: "join primary", disabled: t.seated >= t.seats || !app.token,
              onclick: () => { openTable(t.id); askBuyIn(t.id, null); }, text: i18n("lobby.join"),
            })),
      );
    });
  $("#lobby-rows").replaceChildren(...rows);
  $("#lobby-empty").hidden = rows.length > 0;
}

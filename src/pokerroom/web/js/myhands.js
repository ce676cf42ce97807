// @ts-check
// All my hands, in the lobby: every hand the player played, at every table and in every
// tournament (its amounts in chips), searched by table, tournament, game, cards or number and
// shown by kind (cash, tournament); the hands shown download as one PokerStars-style file and
// one .phhs (trackers import whole files); a hand opens in the replayer beside its table.
// Beside them, the tournaments the player played: when, their place and prize.

import { api, download } from "./api.js";
import { $, el } from "./dom.js";
import { money } from "./format.js";
import { handRow } from "./handlist.js";
import { locale, t } from "./i18n.js";
import { openTable } from "./nav.js";
import { openReplay } from "./replayer.js";
import { app } from "./state.js";

let hands = [];

export async function loadMyHands() {
  const list = $("#my-hands-list");
  if (!app.token) {
    hands = [];
    list.replaceChildren(el("li", { class: "muted", text: t("history.log_in") }));
    $("#my-hands-count").textContent = "";
    $("#my-tournaments-rows").replaceChildren();
    for (const link of [$("#my-hands-txt"), $("#my-hands-phh")]) link.hidden = true;
    return;
  }
  let played;
  try {
    [hands, played] = await Promise.all([api("/api/hands?limit=500"), api("/api/my-tournaments")]);
    hands = hands.filter((h) => h.status !== "running");
  } catch (error) {
    list.replaceChildren(el("li", { class: "error", text: error.message }));
    return;
  }
  renderMyHands();
  renderMyTournaments(played);
}

// Each event played: its name (its id on hover), when it started, the place and the prize
// (money, not chips) once final.
// Texts carry their data-i18n key: a language chosen after the list came re-translates them.
function renderMyTournaments(played) {
  const day = (iso) => new Date(iso).toLocaleDateString(locale());
  $("#my-tournaments-rows").replaceChildren(...(played.length
    ? played.map((p) => el("tr", { "data-tournament": p.id },
      el("td", { title: p.id, text: p.name }),
      el("td", {}, el("time", { datetime: p.started_at, text: day(p.started_at) })),
      p.place
        ? el("td", { text: String(p.place) })
        : el("td", { "data-i18n": "myhands.in_play", text: t("myhands.in_play") }),
      el("td", { text: p.prize ? money(p.prize) : "" })))
    : [el("tr", {}, el("td", {
      colspan: 4, class: "muted", "data-i18n": "myhands.tournaments_none", text: t("myhands.tournaments_none"),
    }))]));
}

// The hands of the kind chosen whose number, table, tournament (name or id), kind, game or
// cards hold every word searched for.
function shown() {
  const words = $("#my-hands-search").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const kind = $("#my-hands-kind").value;
  return hands.filter((h) => {
    if (kind && (h.kind || "cash") !== kind) return false;
    const event = h.event ? [h.event.name, h.event.id] : [];
    const text = [`#${h.id}`, h.table_name, h.table, ...event, t(`myhands.kind_${h.kind || "cash"}`), h.game, ...(h.cards || [])].join(" ").toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

export function renderMyHands() {
  if (!app.token) return;
  const chosen = shown();
  $("#my-hands-list").replaceChildren(...(chosen.length
    ? chosen.map((h) => handRow(h, () => replayHand(h)))
    : [el("li", { class: "muted", text: t("history.none") })]));
  $("#my-hands-count").textContent = t("myhands.count", { count: chosen.length });
  for (const link of [$("#my-hands-txt"), $("#my-hands-phh")]) link.hidden = !chosen.length;
}

function replayHand(hand) {
  openTable(hand.table);
  openReplay(app.tables.get(hand.table), hand.id);
}

// The hands shown, oldest first, as one file named as trackers look for them (HH first).
function exportShown(event, extension) {
  event.preventDefault();
  const ids = shown().map((h) => h.id).sort((a, b) => a - b);
  if (!ids.length) return;
  download(`/api/my-hands.${extension}?ids=${ids.join(",")}`, `HH${ids[0]}-${ids.at(-1)}.${extension}`);
}

export function bindMyHands() {
  $("#my-hands-search").addEventListener("input", renderMyHands);
  $("#my-hands-kind").addEventListener("change", renderMyHands);
  $("#my-hands-refresh").addEventListener("click", loadMyHands);
  $("#my-hands-txt").addEventListener("click", (event) => exportShown(event, "txt"));
  $("#my-hands-phh").addEventListener("click", (event) => exportShown(event, "phhs"));
}

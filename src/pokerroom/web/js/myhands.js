// All my hands, in the lobby: every hand the player played, at every table and in every
// tournament, searched by table, game, cards or number; the hands shown download as one
// PokerStars-style file and one .phhs (trackers import whole files); a hand opens in the
// replayer beside its table.

import { api, download } from "./api.js";
import { $, el } from "./dom.js";
import { handRow } from "./handlist.js";
import { t } from "./i18n.js";
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
    for (const link of [$("#my-hands-txt"), $("#my-hands-phh")]) link.hidden = true;
    return;
  }
  try {
    hands = (await api("/api/hands?limit=500")).filter((h) => h.status !== "running");
  } catch (error) {
    list.replaceChildren(el("li", { class: "error", text: error.message }));
    return;
  }
  renderMyHands();
}

// The hands whose number, table, game or cards hold every word searched for.
function shown() {
  const words = $("#my-hands-search").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return hands.filter((h) => {
    const text = [`#${h.id}`, h.table_name, h.table, h.game, ...(h.cards || [])].join(" ").toLowerCase();
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
  $("#my-hands-refresh").addEventListener("click", loadMyHands);
  $("#my-hands-txt").addEventListener("click", (event) => exportShown(event, "txt"));
  $("#my-hands-phh").addEventListener("click", (event) => exportShown(event, "phhs"));
}

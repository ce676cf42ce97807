// @ts-check
// A private game's table: a bar below its controls (the actions stay first) saying it is private, paused, what the
// next hand's stakes and bomb pot are, the host's last acts (every player sees them), a link
// to the game's page, and for the host the host's controls.

import { $, el } from "./dom.js";
import { stakesLabel } from "./format.js";
import { number, t } from "./i18n.js";
import { actLine, hostControls } from "./private_host.js";
import { actTime, hostAct, loadLog, loadRequests, openPrivate } from "./private.js";
import { app } from "./state.js";

const LAST_ACTS = 3;

/** A table just opened (nav.js): a private game's gets its bar. */
export function decorate(view) {
  renderBars(view.id);
}

/** The bars of ``id``'s open table (every open private table without it). */
export function renderBars(id = null) {
  for (const [tableId, view] of app.tables) {
    if (id !== null && tableId !== id) continue;
    const game = app.privateGames.get(tableId);
    if (game) renderBar(view, game);
  }
}

function renderBar(view, game) {
  let bar = $(".private-bar", view.root);
  if (!bar) {
    bar = el("section", { class: "private-bar" },
      el("div", { class: "row pb-head" }), el("div", { class: "pb-host-box" }), el("ol", { class: "pb-log" }));
    $(".controls", view.root).append(bar);
    // New: the game's log (its players read it) and, for its host, who asked to sit.
    if (["host", "approved", "removed"].includes(game.you)) loadLog(game.id);
    if (game.you === "host" && !game.ended) loadRequests(game.id);
  }
  bar.setAttribute("aria-label", t("private.bar_label"));
  bar.dataset.paused = String(game.paused);
  bar.dataset.ended = String(game.ended);
  const state = [t("private.stakes_next", { stakes: stakesLabel(game) })];
  if (game.ended) state.unshift(t("private.status_ended"));
  else if (game.paused) state.unshift(t("private.paused"));
  if (!game.ended && game.bomb_pot_next) state.push(t("private.bomb_next", { bb: number(game.bomb_pot_next) }));
  $(".pb-head", bar).replaceChildren(
    el("span", { class: "badge private-badge", text: t("private.badge") }),
    el("span", { class: "pb-state", role: "status", text: state.join(" \u00b7 ") }),
    el("button", { type: "button", class: "link pb-page", onclick: () => openPrivate(game.id), text: t("private.game_page") }));
  const log = $(".pb-log", bar);
  log.setAttribute("aria-label", t("private.log"));
  log.replaceChildren(...(app.privateLogs.get(game.id) || []).slice(-LAST_ACTS)
    .map((act) => el("li", { "data-act": act.act }, actTime(act), actLine(act))));
  const box = $(".pb-host-box", bar);
  if (game.you !== "host" || game.ended) { box.replaceChildren(); return; }
  // Kept as it is while the host types in it: a redraw would lose the amount being typed.
  const typing = box.contains(document.activeElement) && document.activeElement.tagName === "INPUT";
  if (typing) return;
  const old = $(".pb-host", box);
  // Folded at first: the table's own buttons keep the first screen.
  const controls = el("details", { class: "pb-host", open: old?.open || null },
    el("summary", { text: t("private.host_controls") }),
    hostControls(game, app.privateRequests.get(game.id) || [], hostAct, { players: true }));
  // Controls that read as they did are kept: a click spanning a redraw would be lost.
  if (old && old.outerHTML === controls.outerHTML) return;
  box.replaceChildren(controls);
}

// A private game's table: a bar above its controls saying it is private, paused, what the
// next hand's stakes and bomb pot are, the host's last acts (every player sees them), a link
// to the game's page, and for the host the host's controls.

import { $, el } from "./dom.js";
import { stakesLabel } from "./format.js";
import { number, t } from "./i18n.js";
import { actLine, hostControls } from "./private_host.js";
import { actTime, games, loadLog, loadRequests, logOf, openPrivate, requestsOf } from "./private.js";
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
    const game = games.get(tableId);
    if (game) renderBar(view, game);
  }
}

function renderBar(view, game) {
  let bar = $(".private-bar", view.root);
  if (!bar) {
    bar = el("section", { class: "private-bar", "aria-label": t("private.bar_label") });
    $(".controls", view.root).prepend(bar);
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
  const head = el("div", { class: "row pb-head" },
    el("span", { class: "badge private-badge", text: t("private.badge") }),
    el("span", { class: "pb-state", role: "status", text: state.join(" \u00b7 ") }),
    el("button", { type: "button", class: "link pb-page", onclick: () => openPrivate(game.id), text: t("private.game_page") }));
  const acts = (logOf.get(game.id) || []).slice(-LAST_ACTS);
  const log = el("ol", { class: "pb-log", "aria-label": t("private.log") },
    ...acts.map((act) => el("li", { "data-act": act.act }, actTime(act), actLine(act))));
  const parts = [head];
  if (game.you === "host" && !game.ended) {
    // Kept as it is while the host types in it: a frame's redraw would lose the amount.
    const old = $(".pb-host", bar);
    if (old && old.contains(document.activeElement) && document.activeElement.tagName === "INPUT") parts.push(old);
    else {
      const details = el("details", { class: "pb-host", open: old ? old.open || null : true },
        el("summary", { text: t("private.host_controls") }),
        hostControls(game, requestsOf.get(game.id) || [], { players: true }));
      parts.push(details);
    }
  }
  parts.push(log);
  bar.replaceChildren(...parts);
}

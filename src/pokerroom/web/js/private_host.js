// @ts-check
// A private game's host's controls, the same on the game's page and at its table: pause or
// resume (between hands), the stakes from the next hand, a bomb pot for the next hand, the
// players (approve, turn down, remove: asked to confirm) and ending the game (confirmed). The
// host never moves chips: the room's routes have no such act. And each logged act as a line.

import { $, el } from "./dom.js";
import { money, stakesLabel, toCents, toDollars } from "./format.js";
import { number, t } from "./i18n.js";
import { app } from "./state.js";

/** @typedef {(id: string, rest: string, body: any, errorNode: HTMLElement | null) => Promise<boolean>} HostAct */

const BOMB_MAX = 20; // big blinds (docs/private-games.md)

/** Ask before an act that cannot be taken back; true if the player said yes. */
export function confirmAct(text) {
  const dialog = $("#private-confirm");
  $("#private-confirm-text").textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

/**
 * The controls for ``game``, acting with ``hostAct`` (private.js); ``players``: with the list of
 * who asked and who plays.
 * @param {any} game @param {readonly any[]} requests @param {HostAct} hostAct @param {{ players?: boolean }} [options]
 */
export function hostControls(game, requests, hostAct, { players = false } = {}) {
  const id = game.id;
  const error = el("p", { class: "error ph-error", role: "alert", text: app.hostErrors.get(id) || "" });
  const act = (rest, body) => hostAct(id, rest, body, error);
  const pause = el("button", {
    type: "button", class: game.paused ? "ph-resume primary" : "ph-pause",
    onclick: () => act(game.paused ? "/resume" : "/pause"),
    text: game.paused ? t("private.resume") : t("private.pause"),
  });
  const stakesBox = el("input", {
    type: "number", class: "ph-stakes-amount", inputmode: "decimal", min: "0.02", step: "0.01",
    value: toDollars(game.big_blind), "aria-label": t("private.new_big_blind"),
  });
  const stakes = el("form", {
    class: "row ph-stakes",
    onsubmit: (event) => { event.preventDefault(); act("/stakes", { big_blind: toCents(stakesBox.value) }); },
  }, el("label", { class: "check" }, el("span", { text: t("private.new_big_blind") }), stakesBox),
  el("button", { type: "submit", class: "ph-stakes-set", text: t("private.set_stakes") }));
  // A sit & go has no pause, stakes or bomb pot (its blinds are its levels): the host starts
  // it before it is full, and ending it before its start cancels it (every buy-in back).
  const sng = game.settings.kind === "sit_and_go";
  const parts = sng
    ? [el("div", { class: "row" }, el("button", {
      type: "button", class: "ph-start primary", hidden: game.event?.status !== "registering",
      onclick: () => act("/start"), text: t("private.start_now"),
    }))]
    : [
      el("div", { class: "row" }, pause, el("span", { class: "muted small", text: t("private.pause_note") })),
      stakes,
      el("p", { class: "muted small ph-stakes-note", text: t("private.stakes_note", { stakes: stakesLabel(game) }) }),
    ];
  if (game.settings.bomb_pot) parts.push(bombControls(game, act));
  if (players) parts.push(playerList(game, requests, act));
  parts.push(el("div", { class: "row" }, el("button", {
    type: "button", class: "ph-end danger",
    onclick: async () => { if (await confirmAct(t("private.end_confirm", { game: game.name }))) act("/end"); },
    text: t("private.end"),
  })), error);
  return el("div", { class: "host-controls", "data-game": id }, ...parts);
}

function bombControls(game, act) {
  const box = el("input", {
    type: "number", class: "ph-bomb-amount", min: "1", max: String(BOMB_MAX), step: "1",
    value: String(game.bomb_pot_next || 2), "aria-label": t("private.bomb_big_blinds"),
  });
  const form = el("form", {
    class: "row ph-bomb",
    onsubmit: (event) => { event.preventDefault(); act("/bomb-pot", { big_blinds: Number(box.value) }); },
  }, el("label", { class: "check" }, el("span", { text: t("private.bomb_big_blinds") }), box),
  el("button", { type: "submit", class: "ph-bomb-set", text: t("private.bomb_set") }));
  if (game.bomb_pot_next) {
    form.append(el("button", { type: "button", class: "ph-bomb-clear", onclick: () => act("/bomb-pot", { big_blinds: 0 }), text: t("private.bomb_clear") }));
  }
  return form;
}

// Who asked first (pending), then who plays; the host's own row has no buttons.
function playerList(game, requests, act) {
  const rows = requests.filter((r) => r.account !== game.host.account).map((r) => {
    const buttons = [];
    if (r.status === "pending" || r.status === "denied") {
      buttons.push(el("button", { type: "button", class: "approve primary", onclick: () => act(`/requests/${r.account}/approve`), text: t("private.approve") }));
    }
    if (r.status === "pending") {
      buttons.push(el("button", { type: "button", class: "deny", onclick: () => act(`/requests/${r.account}/deny`), text: t("private.deny") }));
    }
    if (r.status === "approved") {
      buttons.push(el("button", {
        type: "button", class: "remove",
        onclick: async () => { if (await confirmAct(t("private.remove_confirm", { name: r.name }))) act("/remove", { account: r.account }); },
        text: t("private.remove"),
      }));
    }
    return el("li", { "data-account": String(r.account), "data-status": r.status },
      el("strong", { text: r.name }), el("span", { class: "muted small", text: ` ${t(`private.status_${r.status}`)} ` }),
      el("span", { class: "row-buttons" }, ...buttons));
  });
  return el("section", { class: "ph-players" },
    el("h4", { text: t("private.players") }),
    el("ul", { class: "ph-player-list" }, ...(rows.length ? rows : [el("li", { class: "muted", text: t("private.no_requests") })])));
}

/** One logged act, in the page's language. */
export function actLine(act) {
  const host = act.host_name || "";
  const target = act.target_name || "";
  const detail = act.detail || {};
  switch (act.act) {
    case "stakes":
      return t("private.act_stakes", { host, stakes: `${money(detail.small_blind)}/${money(detail.big_blind)}` });
    case "bomb_pot":
      return detail.big_blinds
        ? t("private.act_bomb_pot", { host, bb: number(detail.big_blinds) })
        : t("private.act_bomb_pot_off", { host });
    case "create": case "approve": case "deny": case "pause": case "resume": case "remove": case "end": case "idle_close":
      return t(`private.act_${act.act}`, { host, target });
    default:
      return `${host} ${act.act} ${target}`.trim();
  }
}

// @ts-check
// A seated player's controls: Fold / Check-Call / Bet-Raise, the raise slider and its presets,
// pre-actions and table options, and the keyboard shortcuts. Every amount offered is the
// server's (`legal` in the frame): the client computes no bet size and no all-in.

import { $, $$, el } from "./dom.js";
import { amountsOf, money } from "./format.js";
import { number, t } from "./i18n.js";
import { send } from "./socket.js";
import { app } from "./state.js";

const legalOf = (view) => view.state?.hand?.legal ?? null;
// An option the player just changed is shown as asked until a frame agrees: frames built
// before the table read the message would otherwise flip the box back for a moment (and a
// click in that moment is lost). A frame that still disagrees after this long wins.
const ASKED_MS = 3000;

function ask(view, key, value) {
  view.asked[key] = { value, at: performance.now() };
}

function shown(view, key, server) {
  const asked = view.asked[key];
  if (!asked) return server;
  if (asked.value === server || performance.now() - asked.at > ASKED_MS) {
    delete view.asked[key];
    return server;
  }
  return asked.value;
}

const canRaise = (legal) => Boolean(legal) && legal.min_raise_to !== null && legal.min_raise_to !== undefined;

export function bindControls(view) {
  const r = view.root;
  $(".fold", r).addEventListener("click", () => act(view, "fold"));
  $(".call", r).addEventListener("click", () => act(view, "check_or_call"));
  $(".raise", r).addEventListener("click", () => act(view, "bet_or_raise", raiseAmount(view)));
  const range = $(".raise-range", r);
  const amount = $(".raise-amount", r);
  range.addEventListener("input", () => { amount.value = amountsOf(view.state).toBox(Number(range.value)); labelRaise(view); });
  amount.addEventListener("input", () => { range.value = String(amountsOf(view.state).fromBox(amount.value)); labelRaise(view); });
  // The wheel over the slider moves it a big blind a notch (the page does not scroll).
  range.addEventListener("wheel", (event) => {
    if (!canRaise(legalOf(view)) || event.deltaY === 0) return;
    event.preventDefault();
    setRaise(view, raiseAmount(view) + (event.deltaY < 0 ? 1 : -1) * view.state.big_blind);
  }, { passive: false });
  amount.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); act(view, "bet_or_raise", raiseAmount(view)); }
  });
  $(".presets", r).addEventListener("click", (event) => {
    const button = event.target.closest("[data-preset]");
    if (button) setRaise(view, presetAmount(legalOf(view), button));
  });
  buildPresets(view);
  for (const box of $$("[data-pre]", r)) {
    box.addEventListener("change", () => {
      for (const other of $$("[data-pre]", r)) if (other !== box) other.checked = false;
      const preAction = box.checked ? box.dataset.pre : "none";
      ask(view, "pre_action", preAction);
      send({ type: "options", table: view.id, pre_action: preAction });
    });
  }
  for (const box of $$("[data-option]", r)) {
    box.addEventListener("change", () => {
      ask(view, box.dataset.option, box.checked);
      send({ type: "options", table: view.id, [box.dataset.option]: box.checked });
    });
  }
  // R-STRADDLE-1: a toggle, kept until switched off (the server posts it left of the big blind).
  $(".straddle-toggle", r).addEventListener("click", () => {
    send({ type: "options", table: view.id, straddle: !view.state?.options?.straddle });
  });
  // R-RIT-1: the answer to the prompt; no answer in time is no (the server's clock).
  $(".runout-yes", r).addEventListener("click", () => answerRunout(view, "run_twice"));
  $(".runout-no", r).addEventListener("click", () => answerRunout(view, "run_once"));
}

function answerRunout(view, action) {
  const hand = view.state?.hand;
  if (!hand || !hand.runout_prompt) return;
  if (!send({ type: "act", table: view.id, action, hand: hand.number })) {
    view.error(() => t("connection.not_sent"), { keep: true });
    return;
  }
  $(".runout-prompt", view.root).hidden = true; // until the server's next frame
}

export function renderControls(view) {
  const s = view.state;
  const r = view.root;
  const me = view.mySeat();
  $(".leave", r).hidden = !me;
  const addChips = $(".add-chips", r);
  addChips.hidden = !me;
  const busted = Boolean(me && me.status === "busted");
  if (me) {
    addChips.textContent = busted ? t("table.rebuy") : t("table.add_chips");
    addChips.classList.toggle("primary", busted);
    // Nothing can be added to a stack already at the table's maximum (buy_in.max < min).
    const full = Boolean(s.buy_in && s.buy_in.max < s.buy_in.min);
    addChips.disabled = Boolean(me.in_hand && s.hand) || full;
    addChips.title = full ? t("table.stack_at_maximum", { max: money(s.max_buy_in) }) : "";
  }
  // R-STAKE-2: a busted player rebuys at least the minimum in time, or loses the seat.
  $(".rebuy-prompt", r).hidden = !busted;
  if (busted) {
    const text = s.tournament ? t("table.tournament_rebuy_text") : t("table.rebuy_text", { min: money(s.min_buy_in) });
    $(".rebuy-text", r).textContent = text;
    $(".rebuy-leave", r).textContent = s.tournament ? t("tournaments.decline_rebuy") : t("table.leave");
  }
  $(".sitout", r).hidden = !me;
  if (me) $(".sitout", r).textContent = me.status === "sitting_out" ? t("table.sit_in") : t("table.sit_out");
  const legal = legalOf(view);
  $(".actions", r).hidden = !legal;
  $(".runout-prompt", r).hidden = !s.hand?.runout_prompt;
  $(".preactions", r).hidden = !me;
  // The table options this table offers (RULES.md "Beyond the seeds"), the player's own.
  for (const offer of $$("[data-offer]", r)) offer.hidden = !me || !s.offers?.[offer.dataset.offer];
  const straddle = $(".straddle-toggle", r);
  const straddling = Boolean(s.options?.straddle);
  straddle.setAttribute("aria-pressed", String(straddling));
  straddle.classList.toggle("on", straddling);
  if (me && s.options) {
    for (const box of $$("[data-option]", r)) box.checked = Boolean(shown(view, box.dataset.option, Boolean(s.options[box.dataset.option])));
    // Waiting for the big blind only means something to a player who owes one.
    $("[data-option='wait_for_big_blind']", r).closest("label").hidden = !s.options.owes_blinds;
    const preAction = shown(view, "pre_action", s.options.pre_action);
    for (const box of $$("[data-pre]", r)) {
      box.checked = preAction === box.dataset.pre;
      box.closest("label").hidden = Boolean(legal) || !me.in_hand || me.folded;
    }
  }
  if (!legal) return;
  // While the connection is down the buttons say so (and a click on one is answered).
  const offline = !app.socketReady;
  for (const button of $$(".action-buttons button", r)) button.setAttribute("aria-disabled", String(offline));
  for (const control of $$(".sizing input, .presets button", r)) control.disabled = offline;
  const call = $(".call", r);
  call.replaceChildren(legal.can_check ? `${t("action.check")} ` : `${t(legal.call_all_in ? "action.call_all_in" : "action.call_amount", { amount: amountsOf(s).show(legal.call) })} `, el("kbd", { text: "C" }));
  call.dataset.amount = String(legal.call);
  const raising = canRaise(legal);
  $(".raise", r).hidden = !raising;
  $(".sizing", r).hidden = !raising || legal.min_raise_to === legal.max_raise_to;
  if (!raising) return;
  const range = $(".raise-range", r);
  const amount = $(".raise-amount", r);
  range.min = String(legal.min_raise_to);
  range.max = String(legal.max_raise_to);
  // A big blind a step (at fixed limit the big blind is the small bet): no odd-cent bets.
  const step = Math.max(1, s.big_blind);
  range.step = String(step);
  const { show, toBox } = amountsOf(s);
  amount.min = toBox(legal.min_raise_to);
  amount.max = toBox(legal.max_raise_to);
  amount.step = toBox(step);
  if (view.legalKey !== `${s.hand.number}:${s.version}`) {
    view.legalKey = `${s.hand.number}:${s.version}`;
    setRaise(view, legal.min_raise_to);
  } else labelRaise(view); // the same amount, labelled again (in a new language, say)
  for (const button of $$("[data-preset]", r)) {
    const value = presetAmount(legal, button);
    button.dataset.amount = String(value);
    button.title = show(value);
  }
  // The top of the range is all-in only when the server says so (not in pot limit, mostly).
  $("[data-preset='max']", r).textContent = legal.max_raise_to === legal.all_in_to ? t("preset.all_in") : t("preset.max");
}

// The bet-size buttons: Min, the player's own sizes in percent of the pot (their account's
// preference, 1 to 4 of them, on keys 1 to 4), and All-in or Max.
export function buildPresets(view) {
  const percents = app.preferences.bet_presets;
  const names = { 50: "half", 100: "pot" }; // the server's own ½ Pot and Pot
  $(".presets", view.root).replaceChildren(
    el("button", { type: "button", "data-preset": "min", text: t("preset.min") }),
    ...percents.map((percent, n) => el("button", {
      type: "button", "data-preset": names[percent] || `p${percent}`, "data-percent": percent,
      "aria-keyshortcuts": String(n + 1),
    }, percent === 100 ? t("preset.pot") : t("preset.percent", { percent: number(percent) }), el("kbd", { class: "hotkey", "aria-hidden": "true", text: String(n + 1) }))),
    el("button", { type: "button", "data-preset": "max", text: t("preset.all_in") }),
  );
  view.legalKey = null; // amounts for the new buttons at the next render
}

// A preset button's amount. Min, Max, ½ Pot and Pot are the server's; another share of the
// pot is that share of the pot after calling, on top of the current bet (as the server sizes
// ½ Pot and Pot), kept within the legal bounds.
function presetAmount(legal, button) {
  const which = button.dataset.preset;
  if (which === "min") return legal.min_raise_to;
  if (which === "max") return legal.max_raise_to;
  if (which === "half") return legal.half_pot_raise_to;
  if (which === "pot") return legal.pot_raise_to;
  const share = Math.floor(((legal.pot + legal.call) * Number(button.dataset.percent)) / 100);
  return clampRaise(legal, legal.current_bet + share);
}

// What the box may hold is the server's legal range; a typed amount outside it is brought in.
function clampRaise(legal, cents) {
  return Math.max(legal.min_raise_to, Math.min(legal.max_raise_to, cents));
}

export function setRaise(view, cents) {
  const legal = legalOf(view);
  if (!canRaise(legal)) return;
  const value = clampRaise(legal, cents);
  $(".raise-range", view.root).value = String(value);
  $(".raise-amount", view.root).value = amountsOf(view.state).toBox(value);
  labelRaise(view);
}

export function raiseAmount(view) {
  const legal = legalOf(view);
  const typed = amountsOf(view.state).fromBox($(".raise-amount", view.root).value);
  return Number.isFinite(typed) ? clampRaise(legal, typed) : legal.min_raise_to;
}

function labelRaise(view) {
  const legal = legalOf(view);
  if (!canRaise(legal)) return;
  const value = raiseAmount(view);
  const verb = value === legal.all_in_to ? t("action.all_in") : legal.is_bet ? t("action.bet") : t("action.raise_to");
  const button = $(".raise", view.root);
  button.replaceChildren(`${verb} ${amountsOf(view.state).show(value)} `, el("kbd", { text: "R" }));
  button.dataset.amount = String(value);
}

export function act(view, action, amount = 0) {
  const hand = view.state?.hand;
  if (!hand || !hand.legal) return;
  if (!send({ type: "act", table: view.id, action, amount, hand: hand.number })) {
    view.error(() => t("connection.not_sent"), { keep: true });
    return;
  }
  view.pendingAct = true;
  $(".actions", view.root).hidden = true; // until the server's next frame
}

// F when checking is free: checks, or (the default) asks first and folds at a second F in
// the same decision (Options, ``free_check_f``). The Fold button itself always folds.
function foldKey(view, legal) {
  if (!legal.can_check) { act(view, "fold"); return; }
  if (app.preferences.free_check_f === "check") { act(view, "check_or_call"); return; }
  const decision = `${view.state.hand.number}:${view.state.version}`;
  if (view.foldAsked === decision) { act(view, "fold"); return; }
  view.foldAsked = decision;
  view.error(() => t("table.free_check_ask"), { notice: true });
}

// The table the shortcuts act on: the one last clicked or shown; when tiled and that one
// does not need you, the table that does.
function keyTable() {
  const active = app.active ? app.tables.get(app.active) : null;
  if (!app.tiled || (active && legalOf(active))) return active;
  return [...app.tables.values()].find((view) => legalOf(view)) || active;
}

// The single-key shortcuts that act (or size a raise), which Options can switch off; the
// arrow keys only nudge the raise amount and stay on, as Enter in the amount box and Escape
// (the browser's own) closing a dialog do.
const ACTION_KEYS = new Set(["f", "c", "k", "r", "1", "2", "3", "4"]);

export function onKey(event) {
  const target = event.target;
  if (target instanceof HTMLInputElement && target.type !== "checkbox") return;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  // A dialog has the keyboard (a modal one, or the deal's with the focus in it), not the tables.
  if (target instanceof Element && target.closest("dialog")) return;
  if (document.querySelector("dialog:modal")) return;
  const key = event.key.toLowerCase();
  if (ACTION_KEYS.has(key) && !app.preferences.hotkeys) return; // switched off (Options)
  const view = keyTable();
  const legal = view ? legalOf(view) : null;
  if (!view || !legal) return;
  if (key === "f") foldKey(view, legal);
  else if (key === "c" || key === "k") act(view, "check_or_call");
  else if (key === "r" && canRaise(legal)) {
    const amount = $(".raise-amount", view.root);
    if ($(".sizing", view.root).hidden) act(view, "bet_or_raise", legal.min_raise_to);
    else { amount.focus(); amount.select(); }
  } else if (/^[1-4]$/.test(key) && canRaise(legal)) {
    const button = $$("[data-percent]", view.root)[Number(key) - 1];
    if (!button) return;
    setRaise(view, presetAmount(legal, button));
  } else if (key === "arrowup" || key === "arrowdown") {
    setRaise(view, raiseAmount(view) + (key === "arrowup" ? 1 : -1) * view.state.big_blind);
  } else return;
  event.preventDefault();
}

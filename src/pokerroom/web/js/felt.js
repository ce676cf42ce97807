// The felt of one table: seats round an ellipse with cards, stacks, bets and markers; the pots,
// board and banner in the middle; chips flying to the winners. Shown hands and their best five
// cards are the server's (`hand_result.shown[].best`).

import { askBuyIn } from "./buyin.js";
import { $, cardEl, el } from "./dom.js";
import { actionLabel, money } from "./format.js";
import { app } from "./state.js";

function seatPositions(view, count) {
  // Seats round an ellipse, the viewer's seat at the bottom centre.
  const you = view.state.you || 1;
  const positions = {};
  for (let n = 1; n <= count; n++) {
    const k = (n - you + count) % count;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / count;
    positions[n] = { x: 50 + 46 * Math.cos(angle), y: 50 + 42 * Math.sin(angle) };
  }
  return positions;
}

function betOffset(view, pos) {
  // Bets sit between the seat and the middle of the felt. Offsets are in units of the
  // felt's width, so a y percent counts by the felt's height-to-width ratio.
  const felt = $(".felt", view.root);
  const ratio = felt && felt.clientWidth ? felt.clientHeight / felt.clientWidth : 0.52;
  const dx = (50 - pos.x) * 0.42;
  const dy = (50 - pos.y) * 0.42 * ratio;
  return `transform:translate(calc(-50% + ${dx}cqw), calc(-50% + ${dy}cqw))`;
}

// What each winner took in the last result, and the best five cards of the winners' hands.
function winnings(result) {
  const winners = new Map();
  for (const pot of result?.pots || []) for (const w of pot.winners) winners.set(w.seat, (winners.get(w.seat) || 0) + w.amount);
  const best = new Set((result?.shown || []).filter((x) => winners.has(x.seat)).flatMap((x) => x.best || []));
  return { winners, best };
}

function badgesOf(hand, seat) {
  const badges = [];
  if (hand && hand.button === seat.seat) badges.push(el("span", { class: "badge dealer", title: "Dealer button", text: "D" }));
  if (hand && hand.small_blind_seat === seat.seat) badges.push(el("span", { class: "badge blind", title: "Small blind", text: "SB" }));
  if (hand && hand.big_blind_seat === seat.seat) badges.push(el("span", { class: "badge blind", title: "Big blind", text: "BB" }));
  if (seat.missed_big) badges.push(el("span", { class: "badge missed", title: "Missed the big blind", text: "ML" }));
  if (seat.missed_small) badges.push(el("span", { class: "badge missed", title: "Missed the small blind", text: "MS" }));
  return badges;
}

export function renderSeats(view) {
  const s = view.state;
  const hand = s.hand;
  const result = view.lastResult;
  const positions = seatPositions(view, s.seats.length);
  const shownBySeat = new Map((result?.shown || []).map((x) => [x.seat, x]));
  const { winners, best } = winnings(result);
  const nodes = s.seats.map((seat) => {
    const pos = positions[seat.seat];
    const style = `left:${pos.x}%;top:${pos.y}%`;
    if (seat.empty) {
      const canSit = app.token && !s.you;
      return el("div", { class: "seat empty", style, "data-seat": seat.seat },
        canSit ? el("button", { type: "button", class: "sit", onclick: () => askBuyIn(view.id, seat.seat), text: `Sit here` }) : el("span", { class: "muted", text: `Seat ${seat.seat}` }));
    }
    const shown = shownBySeat.get(seat.seat);
    let cards = null;
    if (shown) cards = shown.cards.map((c) => cardEl(c, best.has(c) ? "best" : ""));
    else if (seat.in_hand && !seat.folded) {
      cards = seat.cards ? seat.cards.map((c) => cardEl(c)) : Array.from({ length: seat.card_count || 2 }, () => cardEl(null));
    }
    const acting = Boolean(hand && hand.actor === seat.seat);
    const classes = ["seat"];
    if (seat.seat === s.you) classes.push("you");
    if (acting) classes.push("acting");
    if (seat.folded) classes.push("folded");
    if (!seat.connected) classes.push("away");
    if (seat.status === "sitting_out") classes.push("sitting-out");
    if (winners.has(seat.seat)) classes.push("winner");
    const status = !seat.connected ? "disconnected" : seat.status === "sitting_out" ? "sitting out" : seat.all_in ? "all-in" : actionLabel(seat.last_action);
    let ring = null;
    if (acting) {
      ring = el("div", { class: "ring", "aria-hidden": "true" });
      ring.innerHTML = '<svg viewBox="0 0 36 36"><circle cx="18" cy="18" r="16" class="ring-track"/><circle cx="18" cy="18" r="16" class="ring-left" pathLength="100"/></svg>';
    }
    return el("div", { class: classes.join(" "), style, "data-seat": seat.seat },
      el("div", { class: "hole" }, ...(cards || [])),
      el("div", { class: "plate" },
        ring,
        el("div", { class: "name", text: seat.name }),
        el("div", { class: "stack", "data-chips": seat.stack, text: money(seat.stack) }),
        el("div", { class: "status", text: winners.has(seat.seat) ? `wins ${money(winners.get(seat.seat))}` : status }),
        el("div", { class: "badges" }, ...badgesOf(hand, seat)),
        acting ? el("div", { class: "clock", "aria-label": "time left" }) : null,
      ),
      seat.bet ? el("div", { class: "bet", "data-chips": seat.bet, style: betOffset(view, pos) }, el("span", { class: "chip" }), money(seat.bet)) : null,
    );
  });
  $(".seats", view.root).replaceChildren(...nodes);
}

const potLabel = (n) => (n === 0 ? "Main pot" : `Side pot ${n}`);

export function renderCenter(view) {
  const s = view.state;
  const hand = s.hand;
  const result = view.lastResult;
  const pots = $(".pots", view.root);
  const board = $(".board", view.root);
  const banner = $(".banner", view.root);
  if (hand) {
    const collected = hand.collected || [];
    pots.replaceChildren(...collected.map((amount, n) =>
      el("div", { class: `pot ${n ? "side" : "main"}`, "data-chips": amount },
        el("span", { class: "label", text: potLabel(n) }), " ", money(amount))));
    const total = hand.pots.reduce((a, b) => a + b, 0);
    pots.dataset.total = String(total);
    if (total) pots.append(el("div", { class: "pot-total muted", text: `Total ${money(total)}` }));
    board.replaceChildren(...hand.board.map((c) => cardEl(c)));
    banner.textContent = hand.actor && hand.actor === s.you ? "Your turn" : "";
  } else if (result) {
    const { best } = winnings(result);
    board.replaceChildren(...result.board.map((c) => cardEl(c, best.has(c) ? "best" : "")));
    pots.replaceChildren(...result.pots.map((p) =>
      el("div", { class: `pot ${p.pot ? "side" : "main"}`, "data-chips": p.amount },
        el("span", { class: "label", text: `${potLabel(p.pot)}${p.share !== "whole" ? ` (${p.share})` : ""}` }), " ", money(p.amount))));
    pots.dataset.total = "0";
    banner.textContent = result.cancelled ? "Hand cancelled: every bet returned" : describeResult(result, s);
  } else {
    board.replaceChildren();
    pots.replaceChildren();
    pots.dataset.total = "0";
    const seated = s.seats.filter((x) => !x.empty).length;
    banner.textContent = seated < 2 ? "Waiting for players" : "Next hand soon";
  }
}

function describeResult(result, s) {
  const name = (seat) => s.seats[seat - 1]?.name || `Seat ${seat}`;
  return result.pots.map((p) => {
    const who = p.winners.map((w) => `${name(w.seat)} wins ${money(w.amount)}`).join(", ");
    return p.hand ? `${who} with ${p.hand}` : who;
  }).join(" \u00b7 ");
}

export function animateWinnings(view, result) {
  const felt = $(".felt", view.root);
  const center = $(".center", view.root);
  if (!felt || !center || result.cancelled) return;
  const from = center.getBoundingClientRect();
  const base = felt.getBoundingClientRect();
  for (const pot of result.pots) {
    for (const w of pot.winners) {
      const seat = $(`.seat[data-seat="${w.seat}"] .plate`, view.root);
      if (!seat) continue;
      const to = seat.getBoundingClientRect();
      const chip = el("div", { class: "flying-chip", text: money(w.amount) });
      chip.style.left = `${from.left - base.left + from.width / 2}px`;
      chip.style.top = `${from.top - base.top + from.height / 2}px`;
      felt.append(chip);
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      chip.animate([{ transform: "translate(-50%,-50%)" }, { transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px))`, opacity: 0.2 }],
        { duration: 900, easing: "ease-in-out" }).finished.then(() => chip.remove(), () => chip.remove());
    }
  }
}

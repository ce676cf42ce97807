// @ts-check
// The felt of one table: seats round an ellipse with cards, stacks, bets and markers; the pots,
// board and banner in the middle; at the end the awards one at a time (showdown.js). Shown
// hands, their names and their best five cards are the server's (`hand_result.shown`).

import { askBuyIn } from "./buyin.js";
import { $, cardEl, el } from "./dom.js";
import { actionLabel, amountsOf, money } from "./format.js";
import { t } from "./i18n.js";
import { awardsOf, cardMarks, potLabel, renderAwards, shownSoFar } from "./showdown.js";
import { app } from "./state.js";
import { handName } from "./texts.js";
import { offerAt, TEXT, waitingForPlayers } from "./waitlist.js";

// Nine and ten seats do not fit round the ellipse without touching: they sit in rows along
// the rails instead, two at each end, clockwise from the bottom centre (percent of the felt);
// on the square felt of a phone in a column of four down each side.
const BIG_TABLES = {
  9: [[50, 86.5], [27, 86.5], [9.5, 68], [9.5, 32], [35, 13.5], [65, 13.5], [90.5, 32], [90.5, 68], [73, 86.5]],
  10: [[50, 86.5], [27, 86.5], [9.5, 68], [9.5, 32], [27, 13.5], [50, 13.5], [73, 13.5], [90.5, 32], [90.5, 68], [73, 86.5]],
};
const BIG_TABLES_PHONE = {
  9: [[50, 86], [13, 86], [13, 62], [13, 38], [13, 14], [87, 14], [87, 38], [87, 62], [87, 86]],
  10: [[50, 86], [13, 86], [13, 62], [13, 38], [13, 14], [50, 14], [87, 14], [87, 38], [87, 62], [87, 86]],
};

function seatPositions(view, count) {
  // Seats round an ellipse (in rows at a big table), the viewer's seat at the bottom centre.
  // `phone` is where the seat goes on a phone's square felt, when that differs.
  const you = view.state.you || 1;
  const positions = {};
  for (let n = 1; n <= count; n++) {
    const k = (n - you + count) % count;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / count;
    const fixed = BIG_TABLES[count]?.[k];
    const phone = BIG_TABLES_PHONE[count]?.[k];
    positions[n] = fixed ? { x: fixed[0], y: fixed[1], phone: { x: phone[0], y: phone[1] } } : { x: 50 + 46 * Math.cos(angle), y: 50 + 42 * Math.sin(angle) };
  }
  return positions;
}

// A seat's place as CSS variables (style.css places it by them, --px/--py at phone width).
function placeStyle(pos) {
  const phone = pos.phone ? `;--px:${pos.phone.x}%;--py:${pos.phone.y}%` : "";
  return `--x:${pos.x}%;--y:${pos.y}%${phone}`;
}

function betOffset(view, pos) {
  // Bets sit between the seat and the middle of the felt. Offsets are in units of the
  // felt's width, so a y percent counts by the felt's height-to-width ratio (a table's view
  // keeps it as last laid out; the replayer's felt is measured).
  let ratio = view.feltRatio;
  if (ratio === undefined) {
    const felt = $(".felt", view.root);
    ratio = felt && felt.clientWidth ? felt.clientHeight / felt.clientWidth : 0.52;
  }
  const offset = (p) => `${(50 - p.x) * 0.42}cqw ${(50 - p.y) * 0.42 * ratio}cqw`;
  const phone = pos.phone ? `;--phone-bet:${offset(pos.phone)}` : "";
  return `--bet:${offset(pos)}${phone}`;
}

// The bets placed again for the felt's ratio of now (its size changed), the seats kept.
export function placeBets(view) {
  if (!view.state) return;
  const positions = seatPositions(view, view.state.seats.length);
  for (const bet of $(".felt", view.root).querySelectorAll(".seats > .seat > .bet")) {
    const pos = positions[Number(bet.parentElement.dataset.seat)];
    if (pos) bet.setAttribute("style", betOffset(view, pos));
  }
}

// The markers: short text on the felt ("D", "SB"), the whole name for a screen reader.
const MARKERS = {
  dealer: ["dealer", "badge.dealer", "badge.dealer_title"],
  small: ["blind", "badge.small_blind", "badge.small_blind_title"],
  big: ["blind", "badge.big_blind", "badge.big_blind_title"],
  missedBig: ["missed", "badge.missed_big", "badge.missed_big_title"],
  missedSmall: ["missed", "badge.missed_small", "badge.missed_small_title"],
  straddle: ["straddle", "badge.straddle", "badge.straddle_title"], // R-STRADDLE-1
};

function badge(which) {
  const [kind, short, name] = MARKERS[which];
  return el("span", { class: `badge ${kind}`, title: t(name), "data-marker": which },
    el("span", { "aria-hidden": "true", text: t(short) }), srText(t(name)));
}

function badgesOf(hand, seat) {
  const marks = [];
  if (hand && hand.button === seat.seat) marks.push("dealer");
  if (hand && hand.small_blind_seat === seat.seat) marks.push("small");
  if (hand && hand.big_blind_seat === seat.seat) marks.push("big");
  if (hand?.straddle && hand.straddle.seat === seat.seat) marks.push("straddle");
  if (seat.missed_big) marks.push("missedBig");
  if (seat.missed_small) marks.push("missedSmall");
  return marks.map(badge);
}

// Each seat is a region a screen reader can jump to, named by its number and player.
export function seatLabel(seat, you) {
  return t(seat.seat === you ? "seat.region_you" : "seat.region", { seat: seat.seat, name: seat.name });
}

const srText = (text) => el("span", { class: "sr-only", text });

export function renderSeats(view) {
  const s = view.state;
  const { show } = amountsOf(s);
  const hand = s.hand;
  const result = view.lastResult;
  const positions = seatPositions(view, s.seats.length);
  const shownBySeat = new Map((result?.shown || []).map((x) => [x.seat, x]));
  const awarded = shownSoFar(view); // the awards shown so far (showdown.js)
  const { winners } = awarded;
  const before = view.previous;
  const sameHand = Boolean(hand && before?.hand && before.hand.number === hand.number);
  const nodes = s.seats.map((seat) => {
    const pos = positions[seat.seat];
    const style = placeStyle(pos);
    if (seat.empty) {
      // A replayer's felt seats no one; a tournament's seats are drawn by the event (no buy-in).
      const canSit = !view.replaying && !s.tournament && app.token && !s.you;
      const mine = offerAt(view.id)?.seat === seat.seat; // held for you (the waiting list)
      const sit = (text) => el("button", { type: "button", class: "sit", onclick: () => askBuyIn(view.id, seat.seat), text });
      let inside = el("span", { class: "muted", text: t("table.seat", { seat: seat.seat }) });
      if (canSit && mine) inside = sit(TEXT.takeYourSeat());
      else if (seat.held_for) inside = el("span", { class: "muted held", text: TEXT.heldFor(seat.held_for) });
      else if (canSit && !(s.waiting || []).length) inside = sit(t("table.sit_here"));
      return el("div", { class: "seat empty", style, "data-seat": seat.seat, role: "region", "aria-label": t("seat.region_empty", { seat: seat.seat }) }, inside);
    }
    const shown = shownBySeat.get(seat.seat);
    const was = sameHand ? before.seats[seat.seat - 1] : null;
    let cards = null;
    if (shown) cards = shown.cards.map((c) => cardEl(c, cardMarks(c, awarded)));
    else if (seat.in_hand && !seat.folded) {
      // Dealt in this frame: the cards slide in (CSS only: nothing waits for it).
      const dealt = hand && !(was && was.in_hand) ? "dealt" : "";
      cards = seat.cards ? seat.cards.map((c) => cardEl(c, dealt)) : Array.from({ length: seat.card_count || 2 }, () => cardEl(null, dealt));
    }
    const acting = Boolean(hand && hand.actor === seat.seat);
    const classes = ["seat"];
    if (seat.seat === s.you) classes.push("you");
    if (acting) classes.push("acting");
    if (seat.folded) classes.push("folded");
    if (!seat.connected) classes.push("away");
    if (seat.status === "sitting_out") classes.push("sitting-out");
    if (winners.has(seat.seat)) classes.push("winner");
    const busted = seat.status === "busted";
    if (busted) classes.push("busted");
    const status = !seat.connected ? t("status.disconnected") : busted ? t("status.busted") : seat.status === "sitting_out" ? t("status.sitting_out") : seat.all_in ? t("status.all_in") : actionLabel(seat.last_action, show);
    // A bet that grew in this frame slides towards the middle (CSS only, never waited for).
    const betIn = seat.bet && (!was || was.bet !== seat.bet) ? " bet-in" : "";
    // A knockout event: the bounty on this player's head, in money (the frame's tournament info).
    const bounty = (s.tournament?.bounties || []).find(([n]) => n === seat.seat)?.[1];
    return el("div", { class: classes.join(" "), style, "data-seat": seat.seat, role: "region", "aria-label": seatLabel(seat, s.you) },
      el("div", { class: "hole" }, ...(cards || [])),
      el("div", { class: "plate" },
        el("div", { class: "name", title: seat.name, text: seat.name }), // cut with an ellipsis
        el("div", { class: "stack", "data-chips": seat.stack }, srText(`${t("seat.stack")} `), show(seat.stack)),
        bounty ? el("div", { class: "bounty", "data-bounty": bounty, text: t("tournaments.bounty_on_head", { amount: money(bounty) }) }) : null,
        acting ? srText(`${t("seat.to_act")} `) : null,
        el("div", { class: "status", text: winners.has(seat.seat) ? t("status.wins", { amount: show(winners.get(seat.seat)) }) : status }),
        busted ? el("div", { class: "rebuy-clock" }) : null,
        shown?.high ? el("div", { class: "shown-name", text: handName(shown.high) }) : null,
        shown?.low ? el("div", { class: "shown-low" }, el("span", { class: "tag low", text: t("award.low") }), ` ${shown.low}`) : null,
        el("div", { class: "badges" }, ...badgesOf(hand, seat)),
        acting && !view.replaying ? timeBar() : null,
        acting && !view.replaying ? el("div", { class: "clock", "aria-label": t("table.time_left") }) : null,
      ),
      seat.bet ? el("div", { class: `bet${betIn}`, "data-chips": seat.bet, style: betOffset(view, pos) }, el("span", { class: "chip", "aria-hidden": "true" }), srText(`${t("seat.bet")} `), show(seat.bet)) : null,
    );
  });
  $(".seats", view.root).replaceChildren(...nodes);
  $(".felt", view.root).classList.toggle("big", s.seats.length in BIG_TABLES);
}

// The decision clock as a bar (run down by the table's clock, TableView.startTimer).
export function timeBar() {
  return el("div", { class: "timebar", role: "progressbar", "aria-label": t("table.time_left"), "aria-valuemin": "0" },
    el("span", { class: "timebar-left" }));
}


export function renderCenter(view) {
  const s = view.state;
  const { show } = amountsOf(s);
  const hand = s.hand;
  const result = view.lastResult;
  const pots = $(".pots", view.root);
  const potTotal = $(".pot-total", view.root);
  const board = $(".board", view.root);
  const banner = $(".banner", view.root);
  pots.classList.remove("result");
  renderOptionMarks(view, hand, result);
  if (hand) {
    const collected = hand.collected || [];
    // The pots in the middle; one main pot alone is the "Pot" line above, not said twice.
    pots.replaceChildren(...collected.map((amount, n) =>
      el("div", { class: `pot ${n ? "side" : "main"}`, "data-chips": amount, hidden: collected.length === 1 },
        el("span", { class: "label", text: potLabel(n) }), " ", show(amount))));
    // Everything in play, bets in front of the seats included: "Pot: $X" from the blinds on.
    const total = hand.pots.reduce((a, b) => a + b, 0);
    pots.dataset.total = String(total);
    potTotal.hidden = false;
    potTotal.dataset.chips = String(total);
    potTotal.textContent = t("table.pot", { amount: show(total) });
    const dealtBefore = view.previous?.hand?.number === hand.number ? view.previous.hand.board.length : 0;
    board.replaceChildren(...hand.board.map((c, n) => cardEl(c, n >= dealtBefore ? "dealt" : "")));
    banner.textContent = hand.actor && hand.actor === s.you ? t("table.your_turn") : "";
    // R-RIT-1: the players still in are asked in turn whether to run it twice.
    if (hand.phase === "runout" && hand.actor && hand.actor !== s.you) {
      banner.textContent = t("runout.asking", { name: s.seats[hand.actor - 1]?.name || t("table.seat", { seat: hand.actor }) });
    }
  } else if (result) {
    potTotal.hidden = true;
    const awarded = shownSoFar(view);
    board.replaceChildren(...result.board.map((c) => cardEl(c, cardMarks(c, awarded))));
    pots.dataset.total = "0";
    if (result.cancelled) {
      pots.replaceChildren();
      banner.textContent = t("table.hand_cancelled");
    } else renderAwards(view, pots, banner);
    // Once every award is shown, a table that cannot deal says so, not the last award.
    const stalled = waitingForPlayers(s);
    if (stalled && (result.cancelled || shownSoFar(view).done >= awardsOf(result).length)) banner.textContent = stalled;
  } else {
    potTotal.hidden = true;
    board.replaceChildren();
    pots.replaceChildren();
    pots.dataset.total = "0";
    // A table that cannot deal says how many more it needs, never the last result forever.
    banner.textContent = waitingForPlayers(s) || t("table.next_hand");
  }
}

// The table options' marks in the middle: a bomb pot (R-BOMB-1), and the second board when the
// board ran twice (R-RIT-1), each board named by its run.
function renderOptionMarks(view, hand, result) {
  const center = $(".center", view.root);
  let bomb = $(".bomb-pot-mark", center);
  let second = $(".second-board", center);
  if (!bomb) { bomb = el("div", { class: "bomb-pot-mark", hidden: true }); $(".board", center).before(bomb); }
  if (!second) { second = el("div", { class: "second-board", hidden: true }); $(".board", center).after(second); }
  const source = hand || result;
  const bombPot = hand ? hand.bomb_pot?.big_blinds : result?.bomb_pot;
  bomb.hidden = !bombPot;
  bomb.textContent = bombPot ? t("table.bomb_pot", { big_blinds: bombPot }) : "";
  const cards = (source?.second_board || []);
  const twice = cards.length > 0 && !result?.cancelled;
  center.classList.toggle("two-boards", twice);
  second.hidden = !twice;
  const board = $(".board", center);
  board.dataset.label = twice ? t("runout.run", { run: 1 }) : "";
  second.dataset.label = twice ? t("runout.run", { run: 2 }) : "";
  if (!twice) { second.replaceChildren(); return; }
  // Only the first run's cards are lit: the shown hands' best five are the first board's.
  second.replaceChildren(...cards.map((c) => cardEl(c)));
}

// @ts-check
// One open table: its frames from the server, what it renders, its buttons, chat and clock.

import { refreshMe } from "./api.js";
import { askBuyIn, tableLoaded } from "./buyin.js";
import { bindControls, renderControls } from "./controls.js";
import { $, $$, cardName, el } from "./dom.js";
import { placeBets, renderCenter, renderSeats } from "./felt.js";
import { actionLabel, amountsOf, stakesLabel } from "./format.js";
import { t } from "./i18n.js";
import { closeTable, layoutTables, renderTabs } from "./nav.js";
import { bindReplayer, disposeReplay, loadHistory } from "./replayer.js";
import { startAwards, stopAwards } from "./showdown.js";
import { send } from "./socket.js";
import { playSound, updateTitle } from "./sound.js";
import { app, setActive } from "./state.js";
import { answerRebuy, followSeat, levelLine, renderTournamentInfo } from "./tournament_table.js";

/** @typedef {import("./protocol").TableFrame} TableFrame */
/** @typedef {import("./protocol").HandResult} HandResult */

export class TableView {
  /** @param {string} id */
  constructor(id) {
    this.id = id;
    /** @type {TableFrame | null} the table as its last frame showed it */
    this.state = null;
    /** @type {HandResult | null} */
    this.lastResult = null;
    // Kept here, written by the modules that draw the table's parts:
    /** @type {number | undefined} awards shown so far (showdown.js) */
    this.awardStep = undefined;
    /** @type {ReturnType<typeof setTimeout> | null | undefined} */
    this.awardTimer = undefined;
    /** @type {string | null | undefined} the decision the buttons' amounts were set for (controls.js) */
    this.legalKey = undefined;
    /** @type {boolean | undefined} an action sent and not yet answered (controls.js) */
    this.pendingAct = undefined;
    /** @type {Record<string, {value: unknown, at: number}>} options the player changed that no frame has shown yet (controls.js) */
    this.asked = {};
    /** @type {string | undefined} the decision a fold with nothing to call was asked at (controls.js) */
    this.foldAsked = undefined;
    /** @type {number | undefined} the frame version and time the tournament clock was read (tournament_table.js) */
    this.tournamentVersion = undefined;
    /** @type {number | undefined} */
    this.tournamentAt = undefined;
    this.yourTurn = false;
    this.timer = null;
    /** @type {Animation[]} the time bars running down */
    this.bars = [];
    this.joined = null; // {seat, buyIn} to reconnect with after a dropped socket
    this.satHere = false; // the player has had a seat here (a move then closes this view)
    this.replay = null;
    this.root = $("#table-template").content.firstElementChild.cloneNode(true);
    this.root.dataset.table = id;
    /** @type {number | undefined} the felt's height to its width as last laid out: felt.js
     * places the bets by it without laying the page out again at every frame */
    this.feltRatio = undefined;
    const felt = $(".felt", this.root);
    this.feltObserver = new ResizeObserver(() => {
      if (!felt.clientWidth) return; // not shown
      const ratio = felt.clientHeight / felt.clientWidth;
      if (ratio === this.feltRatio) return;
      this.feltRatio = ratio;
      placeBets(this); // in place: the seats stay the elements they are
    });
    this.feltObserver.observe(felt);
    this.root.addEventListener("pointerdown", () => { if (app.active !== id) { setActive(id); layoutTables(); } });
    this.bind();
    bindControls(this);
    bindReplayer(this);
  }

  shortName() {
    return this.tableName().split(" (")[0];
  }

  // The table's name; a tournament's table named in the page's language ("Sit & Go · Bord
  // 1"), not by the server's English.
  tableName() {
    const s = this.state;
    if (!s?.tournament) return s?.name || this.id;
    return `${s.tournament.name} \u00b7 ${t("tournaments.table_number", { number: this.id.split("-").pop() })}`;
  }

  resubscribe() {
    // A new connection may meet a restarted room whose versions count from zero again.
    if (this.state) this.state.version = -1;
    send({ type: "watch", table: this.id });
    if (this.joined && app.token) {
      // R-TIME-3: joining again while disconnected from the seat reconnects to it.
      send({ type: "join", table: this.id, seat: this.joined.seat, buy_in: this.joined.buyIn, request: `web-rejoin-${Date.now()}` });
    }
  }

  rememberJoin(seat, buyIn) { this.joined = { seat, buyIn }; }

  firstEmptySeat() {
    const empty = this.state?.seats.find((s) => s.empty);
    if (empty) return empty.seat;
    const info = app.lobby.find((t) => t.id === this.id);
    if (!info) return null;
    const taken = new Set(this.state ? this.state.seats.filter((s) => !s.empty).map((s) => s.seat) : []);
    for (let n = 1; n <= info.seats; n++) if (!taken.has(n)) return n;
    return null;
  }

  bind() {
    const r = this.root;
    $(".close-table", r).addEventListener("click", () => closeTable(this.id));
    const addChips = () => {
      const me = this.mySeat();
      if (me) askBuyIn(this.id, me.seat, true);
    };
    $(".add-chips", r).addEventListener("click", addChips);
    const leave = () => { send({ type: "leave", table: this.id }); this.joined = null; setTimeout(refreshMe, 600); };
    // At a tournament table the rebuy is the event's (its price, its chips), and declining
    // it is going out: the seat is the tournament's.
    const tournament = () => Boolean(this.state?.tournament);
    $(".rebuy", r).addEventListener("click", () => (tournament() ? answerRebuy(this, true) : addChips()));
    $(".leave", r).addEventListener("click", leave);
    $(".rebuy-leave", r).addEventListener("click", () => (tournament() ? answerRebuy(this, false) : leave()));
    $(".sitout", r).addEventListener("click", () => {
      const me = this.mySeat();
      send({ type: me && me.status === "sitting_out" ? "sit_in" : "sit_out", table: this.id });
    });
    $(".chat-form", r).addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $(".chat-input", r);
      const text = input.value.trim();
      if (text) send({ type: "chat", table: this.id, text });
      input.value = "";
    });
    for (const tab of $$("[data-side]", r)) {
      tab.addEventListener("click", () => {
        for (const t of $$("[data-side]", r)) t.setAttribute("aria-selected", String(t === tab));
        $(".side-chat", r).hidden = tab.dataset.side !== "chat";
        $(".side-history", r).hidden = tab.dataset.side !== "history";
        if (tab.dataset.side === "history") loadHistory(this);
      });
    }
  }

  mySeat() {
    if (!this.state || !this.state.you) return null;
    return this.state.seats[this.state.you - 1];
  }

  // ``text``: a string, or a function that says it in the page's language of the moment (said
  // again if the language changes while it shows). ``keep``: shown until the next message
  // (what happened to an action is not to vanish); ``notice``: information, not an error.
  error(text, { keep = false, notice = false } = {}) {
    const node = $(".table-error", this.root);
    this.errorSay = typeof text === "function" ? text : null;
    node.textContent = this.errorSay ? this.errorSay() : text;
    node.dataset.kind = notice ? "notice" : "error";
    clearTimeout(this.errorTimer);
    if (!keep) this.errorTimer = setTimeout(() => { node.textContent = ""; this.errorSay = null; }, 5000);
  }

  // The error or notice shown, said again in the page's new language.
  relabelError() {
    const node = $(".table-error", this.root);
    if (this.errorSay && node.textContent) node.textContent = this.errorSay();
  }

  // -------------------------------------------------------------- frames from the server

  /** @param {TableFrame} state */
  update(state) {
    const last = this.state ? this.state.version : -1;
    if (state.version < last) return; // stale frame
    // A version skipped: frames were lost between the room's nodes. Ask for the whole state
    // once (as lila-ws does); this frame is the whole table already, so it is shown meanwhile.
    if (last >= 0 && state.version > last + 1 && !this.resyncing) {
      this.resyncing = true;
      send({ type: "resync", table: this.id });
    } else if (state.version <= last + 1) this.resyncing = false;
    const previous = this.state;
    this.previous = previous;
    this.pendingAct = false; // the table answered after the last action
    this.state = state;
    if (!previous) tableLoaded(this.id); // a buy-in may wait for this first frame
    if (state.hand && state.hand.number !== previous?.hand?.number) {
      this.lastResult = null;
      stopAwards(this);
    }
    if (state.you) {
      this.satHere = true;
      const me = state.seats[state.you - 1];
      if (!this.joined) this.joined = { seat: state.you, buyIn: Math.max(state.min_buy_in, 1) };
      this.joined.seat = state.you;
      if (me && me.stack > 0) this.joined.buyIn = Math.max(state.min_buy_in, 1);
    } else if (this.joined && !state.seats.some((s) => !s.empty && s.seat === this.joined.seat)) {
      this.joined = null;
    }
    // R-STAKE-2: when each busted seat's rebuy window closes, on this page's clock.
    this.rebuyDeadlines = new Map(state.seats
      .filter((seat) => seat.status === "busted" && typeof seat.rebuy_seconds_left === "number")
      .map((seat) => [seat.seat, performance.now() + seat.rebuy_seconds_left * 1000]));
    this.render();
    announce(this, previous, state);
    if (previous) playSound(soundOf(previous, state));
    else renderTabs(); // the tab takes the table's name from its first frame
    if (state.tournament) followSeat(state.tournament.id); // last: it may close this view
  }

  /** @param {HandResult} message */
  result(message) {
    this.lastResult = message;
    startAwards(this, message, () => this.render()); // one award at a time (showdown.js)
    const you = this.state?.you;
    if (you && message.pots.some((pot) => pot.winners.some((w) => w.seat === you))) playSound("win");
  }

  /** @param {import("./protocol").ChatFrame} message */
  chat(message) {
    const log = $(".chat-log", this.root);
    // The server sends chat escaped; show it as text so nothing in it becomes markup.
    const decoded = new DOMParser().parseFromString(message.text, "text/html").documentElement.textContent;
    log.append(el("li", {}, el("strong", { text: `${message.from}: ` }), decoded));
    while (log.children.length > 100) log.firstElementChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  render() {
    const s = this.state;
    if (!s) return;
    const r = this.root;
    $(".table-name", r).textContent = this.tableName();
    $(".table-name", r).title = this.tableName(); // cut with an ellipsis at phone width
    renderTournamentInfo(this);
    $(".table-game", r).textContent = s.tournament ? levelLine(this) : `${s.game} \u00b7 ${stakesLabel(s)}`;
    r.classList.toggle("tournament", Boolean(s.tournament)); // seats drawn by the event: no cash controls
    r.dataset.version = String(s.version);
    r.dataset.resultHand = this.lastResult ? String(this.lastResult.hand) : "";
    r.dataset.awarded = this.lastResult ? String(this.awardStep ?? 0) : "";
    renderSeats(this);
    renderCenter(this);
    renderControls(this);
    const turn = Boolean(s.hand && s.hand.legal);
    if (turn !== this.yourTurn) {
      this.yourTurn = turn;
      this.root.classList.toggle("needs-you", turn); // outlined among tiled tables
      this.warned = false;
      if (turn) playSound("turn");
      renderTabs();
    }
    this.startTimer();
    this.startRebuyClock();
    updateTitle();
  }

  // The connection went or came back: the buttons and the clock say so (the felt as it is,
  // its cards not dealt again).
  connectionChanged() {
    if (!this.state) return;
    renderControls(this);
    this.startTimer();
  }

  // -------------------------------------------------------------- the decision clock

  // A time bar under the player to act (and above your own buttons), the seconds left and,
  // once it has started, the time bank. At the warning the player hears it and the page's
  // title says so (the server's frame at the warning does the same when this tab sleeps).
  startTimer() {
    this.stopTimer();
    const hand = this.state.hand;
    if (!hand || hand.seconds_left === null || hand.actor === null) return;
    if (!app.socketReady) { // the clock this page knew is no longer the server's: stopped
      for (const clock of $$(".seat.acting .clock, .actions .clock", this.root)) clock.textContent = t("connection.clock");
      return;
    }
    const now = performance.now();
    const deadline = now + hand.seconds_left * 1000;
    const warningAt = hand.warning_left === null || hand.warning_left === undefined ? null : now + hand.warning_left * 1000;
    const onBank = Boolean(hand.time_bank);
    if (!onBank) this.bankTotal = 0;
    else this.bankTotal = Math.max(this.bankTotal || 0, hand.seconds_left);
    // A run-it-twice prompt (R-RIT-1) has a few seconds of its own and never the time bank.
    const prompt = hand.phase === "runout";
    const total = onBank ? this.bankTotal : Math.max(prompt ? 0 : this.state.decision_seconds, hand.seconds_left);
    const bank = prompt ? 0 : Math.round(this.state.seats[hand.actor - 1]?.time_bank || 0); // what is left to start
    const bars = $$(".seat.acting .timebar, .actions .timebar", this.root);
    // The bar runs down as one animation the compositor plays: no layout or style work on
    // the page's thread each frame, and none to start it (a CSS transition would need the
    // page laid out at its starting width first, at every frame of a busy table). The words
    // and the colours change when a whole second passes or the warning comes, each on a
    // timer set for that moment.
    const left0 = Math.max(0, hand.seconds_left);
    const from = `scaleX(${total > 0 ? Math.min(1, left0 / total) : 0})`;
    for (const running of this.bars) running.cancel(); // (asking a bar for its own lays out styles)
    this.bars = [];
    for (const bar of bars) {
      const fill = bar.firstElementChild;
      fill.style.transform = "scaleX(0)"; // where the bar ends, and stays
      if (left0 > 0) this.bars.push(fill.animate([{ transform: from }, { transform: "scaleX(0)" }], { duration: left0 * 1000, easing: "linear" }));
    }
    const tick = () => {
      const at = performance.now();
      const left = Math.max(0, (deadline - at) / 1000);
      const warning = warningAt !== null && at >= warningAt;
      if (this.yourTurn && !this.warned && warning) this.warn();
      for (const bar of bars) {
        bar.classList.toggle("bank", onBank);
        bar.classList.toggle("low", !onBank && warning);
        bar.setAttribute("aria-valuenow", String(Math.ceil(left)));
        bar.setAttribute("aria-valuemax", String(Math.ceil(total)));
      }
      const text = onBank ? t("clock.time_bank", { seconds: Math.ceil(left) }) : bank ? t("clock.seconds_bank", { seconds: Math.ceil(left), bank }) : t("clock.seconds", { seconds: Math.ceil(left) });
      for (const clock of $$(".seat.acting .clock, .actions .clock", this.root)) clock.textContent = text;
      for (const clock of $$(".runout-prompt .clock", this.root)) clock.textContent = t("clock.seconds", { seconds: Math.ceil(left) });
      if (left <= 0) { this.timer = null; return; }
      // Next: the moment the whole seconds shown change, or the warning if it comes first.
      let next = deadline - (Math.ceil(left) - 1) * 1000;
      if (warningAt !== null && at < warningAt) next = Math.min(next, warningAt);
      this.timer = setTimeout(tick, Math.max(0, next - at) + 1);
    };
    if (this.yourTurn && !this.warned && hand.warning_left === 0) this.warn();
    tick();
  }

  warn() {
    this.warned = true;
    playSound("warning");
    updateTitle();
  }

  stopTimer() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  dispose() {
    this.stopTimer();
    this.feltObserver.disconnect();
    disposeReplay(this);
    stopAwards(this);
    clearInterval(this.rebuyTimer);
  }

  // -------------------------------------------------------------- the rebuy countdown

  startRebuyClock() {
    clearInterval(this.rebuyTimer);
    this.rebuyTimer = null;
    if (!this.rebuyDeadlines || !this.rebuyDeadlines.size) return;
    const tick = () => {
      for (const [seat, deadline] of this.rebuyDeadlines) {
        const text = rebuyText(deadline);
        for (const node of $$(`.seat[data-seat="${seat}"] .rebuy-clock`, this.root)) node.textContent = text;
        if (seat === this.state.you) $(".rebuy-clock-you", this.root).textContent = text;
      }
    };
    tick();
    this.rebuyTimer = setInterval(tick, 250);
  }
}

// Other players' actions and the cards dealt, said politely by a screen reader (the table's
// hidden log, aria-live="polite"); your own actions and your turn are said elsewhere.
const STREETS = { 3: "flop", 4: "turn", 5: "river" };

function announce(view, before, after) {
  const lines = [];
  const hand = after.hand;
  const same = Boolean(hand && before?.hand && before.hand.number === hand.number);
  if (hand && !same) lines.push(t("announce.hand", { number: hand.number }));
  if (hand && same) {
    for (const seat of after.seats) {
      const was = before.seats[seat.seat - 1];
      const action = seat.last_action;
      if (seat.seat === after.you || seat.empty || !action || !was) continue;
      if (JSON.stringify(action) !== JSON.stringify(was.last_action)) lines.push(t("announce.action", { name: seat.name, action: actionLabel(action, amountsOf(after).show) }));
    }
    const dealt = hand.board.slice(before.hand.board.length);
    if (dealt.length) lines.push(t("replay.board", { street: t(`street.${STREETS[hand.board.length]}`), cards: dealt.map(cardName).join(", ") }));
  }
  if (!lines.length) return;
  const log = $(".announcer", view.root);
  for (const line of lines) log.append(el("p", { text: line }));
  while (log.children.length > 20) log.firstElementChild.remove();
}

function rebuyText(deadline) {
  const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
  return left > 0 ? t("table.rebuy_within", { seconds: left }) : t("table.seat_lost");
}

// The sound of what changed between two frames: a new hand or board card is dealt, a seat
// checked or put chips in. One sound a frame at most.
function soundOf(before, after) {
  const hand = after.hand;
  if (!hand) return null;
  if (hand.number !== before.hand?.number || hand.board.length > (before.hand?.board.length ?? 0)) return "deal";
  for (const seat of after.seats) {
    const was = before.seats[seat.seat - 1];
    const action = seat.last_action;
    if (!action || !was || JSON.stringify(action) === JSON.stringify(was.last_action)) continue;
    if (action.text === "Check") return "check";
    if (action.amount) return "bet";
  }
  return null;
}

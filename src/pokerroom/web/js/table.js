// One open table: its frames from the server, what it renders, its buttons, chat and clock.

import { refreshMe } from "./api.js";
import { askBuyIn } from "./buyin.js";
import { bindControls, renderControls } from "./controls.js";
import { $, $$, el } from "./dom.js";
import { animateWinnings, renderCenter, renderSeats } from "./felt.js";
import { stakesLabel } from "./format.js";
import { closeTable, layoutTables, renderTabs } from "./nav.js";
import { bindReplayer, loadHistory } from "./replayer.js";
import { send } from "./socket.js";
import { app } from "./state.js";

export class TableView {
  constructor(id) {
    this.id = id;
    this.state = null;
    this.lastResult = null;
    this.yourTurn = false;
    this.timer = null;
    this.joined = null; // {seat, buyIn} to reconnect with after a dropped socket
    this.replay = null;
    this.root = $("#table-template").content.firstElementChild.cloneNode(true);
    this.root.dataset.table = id;
    this.root.addEventListener("pointerdown", () => { if (app.active !== id) { app.active = id; layoutTables(); } });
    this.bind();
    bindControls(this);
    bindReplayer(this);
  }

  shortName() {
    const name = this.state?.name || this.id;
    return name.split(" (")[0];
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
    $(".add-chips", r).addEventListener("click", () => {
      const me = this.mySeat();
      if (me) askBuyIn(this.id, me.seat, true);
    });
    $(".leave", r).addEventListener("click", () => { send({ type: "leave", table: this.id }); this.joined = null; setTimeout(refreshMe, 600); });
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

  error(text) {
    const node = $(".table-error", this.root);
    node.textContent = text;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => { node.textContent = ""; }, 5000);
  }

  // -------------------------------------------------------------- frames from the server

  update(state) {
    if (this.state && state.version < this.state.version) return; // stale frame
    const previousHand = this.state?.hand?.number;
    this.state = state;
    if (state.hand && state.hand.number !== previousHand) this.lastResult = null;
    if (state.you) {
      const me = state.seats[state.you - 1];
      if (!this.joined) this.joined = { seat: state.you, buyIn: Math.max(state.min_buy_in, 1) };
      this.joined.seat = state.you;
      if (me && me.stack > 0) this.joined.buyIn = Math.max(state.min_buy_in, 1);
    } else if (this.joined && !state.seats.some((s) => !s.empty && s.seat === this.joined.seat)) {
      this.joined = null;
    }
    this.render();
  }

  result(message) {
    this.lastResult = message;
    this.render();
    animateWinnings(this, message);
  }

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
    $(".table-name", r).textContent = s.name;
    $(".table-game", r).textContent = `${s.game} \u00b7 ${stakesLabel(s)}`;
    r.dataset.version = String(s.version);
    r.dataset.resultHand = this.lastResult ? String(this.lastResult.hand) : "";
    renderSeats(this);
    renderCenter(this);
    renderControls(this);
    this.startTimer();
    const turn = Boolean(s.hand && s.hand.legal);
    if (turn !== this.yourTurn) { this.yourTurn = turn; renderTabs(); }
  }

  // -------------------------------------------------------------- the decision clock

  startTimer() {
    this.stopTimer();
    const hand = this.state.hand;
    if (!hand || hand.seconds_left === null || hand.actor === null) return;
    const deadline = performance.now() + hand.seconds_left * 1000;
    const total = Math.max(this.state.decision_seconds, hand.seconds_left);
    const actor = this.state.seats[hand.actor - 1];
    const tick = () => {
      const left = Math.max(0, (deadline - performance.now()) / 1000);
      const clock = $(".seat.acting .clock", this.root);
      if (clock) clock.textContent = `${Math.ceil(left)}s${actor && actor.time_bank ? ` +${Math.round(actor.time_bank)}s bank` : ""}`;
      const ring = $(".seat.acting .ring-left", this.root);
      if (ring) {
        ring.style.strokeDashoffset = String(100 - (100 * left) / total);
        ring.classList.toggle("low", left < 10);
      }
      this.timer = left > 0 ? requestAnimationFrame(tick) : null;
    };
    tick();
  }

  stopTimer() {
    if (this.timer) cancelAnimationFrame(this.timer);
    this.timer = null;
  }
}

// The pokerroom browser client: lobby, tables over one WebSocket, hand history replayer.
// No build step: a plain ES module served by the room. Amounts are integer cents throughout;
// only the display divides by 100.

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const RANKS = { T: "10" };

const app = {
  token: localStorage.getItem("pokerroom.token"),
  me: null,
  lobby: [],
  socket: null,
  socketReady: false,
  retry: 0,
  tables: new Map(), // table id -> TableView
  active: null, // the table id keyboard shortcuts go to, or null for the lobby
  tiled: false,
  joinRequests: 0,
};

// ------------------------------------------------------------------ formatting

export function money(cents) {
  const whole = cents % 100 === 0;
  return "$" + (cents / 100).toLocaleString("en-US", {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  });
}

function toCents(text) {
  const value = Number(text);
  return Number.isFinite(value) ? Math.round(value * 100) : NaN;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function actionLabel(action) {
  if (!action) return "";
  return action.amount === null || action.amount === undefined ? action.text : `${action.text} ${money(action.amount)}`;
}

function cardEl(code, extra = "") {
  if (!code) return el("span", { class: `card back ${extra}`, "aria-label": "face-down card" });
  const rank = RANKS[code[0]] ?? code[0];
  const suit = code[1];
  return el(
    "span",
    { class: `card suit-${suit} ${extra}`, "data-card": code, "aria-label": code },
    el("span", { class: "rank", text: rank }),
    el("span", { class: "pip", text: SUITS[suit] }),
  );
}

// ------------------------------------------------------------------ REST

async function api(path, options = {}) {
  const headers = { ...(options.headers || {}) };
  if (app.token) headers.Authorization = `Bearer ${app.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: options.method || (options.body !== undefined ? "POST" : "GET"),
    headers,
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  if (response.status === 401 && app.token && !options.anonymous) {
    forgetSession();
  }
  if (!response.ok) {
    let message = response.statusText;
    try {
      const data = await response.json();
      message = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
    } catch { /* not JSON */ }
    throw new Error(message);
  }
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  return type.includes("json") ? response.json() : response.text();
}

async function refreshMe() {
  if (!app.token) return;
  try {
    app.me = await api("/api/me");
  } catch {
    return;
  }
  $("#account").hidden = false;
  $("#who").textContent = app.me.display_name;
  const balance = $("#balance");
  balance.textContent = money(app.me.balance);
  balance.dataset.chips = String(app.me.balance);
}

function forgetSession() {
  app.token = null;
  app.me = null;
  localStorage.removeItem("pokerroom.token");
  $("#account").hidden = true;
  show("auth");
}

// ------------------------------------------------------------------ sign up / log in

function setupAuth() {
  const form = $("#auth-form");
  let mode = "login";
  $("#login").addEventListener("click", () => { mode = "login"; });
  $("#signup").addEventListener("click", () => { mode = "signup"; });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("#auth-error").textContent = "";
    try {
      const session = await api(`/api/${mode}`, {
        body: { username: $("#username").value.trim(), password: $("#password").value },
        anonymous: true,
      });
      app.token = session.token;
      localStorage.setItem("pokerroom.token", session.token);
      await refreshMe();
      hello();
      show("lobby");
    } catch (error) {
      $("#auth-error").textContent = error.message;
    }
  });
  $("#browse").addEventListener("click", () => show("lobby"));
  $("#logout").addEventListener("click", async () => {
    try { await api("/api/logout", { method: "POST" }); } catch { /* already gone */ }
    forgetSession();
    if (app.socket) app.socket.close();
  });
}

// ------------------------------------------------------------------ lobby

async function refreshLobby() {
  try {
    app.lobby = await api("/api/lobby");
  } catch {
    return;
  }
  const games = [...new Set(app.lobby.map((t) => t.game))].sort();
  const stakes = [...new Set(app.lobby.map(stakesLabel))];
  fillSelect($("#filter-game"), games, "All games");
  fillSelect($("#filter-stakes"), stakes, "All stakes");
  renderLobby();
}

function stakesLabel(t) {
  const [low, high] = t.stakes || [t.small_blind, t.big_blind];
  return `${money(low)}/${money(high)}`;
}

function fillSelect(select, values, allLabel) {
  const current = select.value;
  select.replaceChildren(el("option", { value: "", text: allLabel }), ...values.map((v) => el("option", { value: v, text: v })));
  select.value = values.includes(current) ? current : "";
}

function renderLobby() {
  const game = $("#filter-game").value;
  const stakes = $("#filter-stakes").value;
  const open = $("#filter-open").checked;
  const rows = app.lobby
    .filter((t) => !t.closed)
    .filter((t) => !game || t.game === game)
    .filter((t) => !stakes || stakesLabel(t) === stakes)
    .filter((t) => !open || t.seated < t.seats)
    .map((t) =>
      el("tr", { "data-table": t.id },
        el("td", {}, el("strong", { text: t.name }), el("div", { class: "muted small", text: t.players.join(", ") || "empty" })),
        el("td", { text: t.game }),
        el("td", { text: stakesLabel(t) }),
        el("td", { class: "num", text: `${t.seated}/${t.seats}` }),
        el("td", { class: "num", text: money(t.average_pot) }),
        el("td", { class: "num", text: String(t.hands_per_hour) }),
        el("td", { class: "row-buttons" },
          el("button", { type: "button", class: "watch", onclick: () => openTable(t.id) , text: "Watch" }),
          el("button", {
            type: "button", class: "join primary", disabled: t.seated >= t.seats || !app.token,
            onclick: () => { openTable(t.id); askBuyIn(t.id, null); }, text: "Join",
          })),
      ));
  $("#lobby-rows").replaceChildren(...rows);
  $("#lobby-empty").hidden = rows.length > 0;
}

// ------------------------------------------------------------------ the socket

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  app.socket = socket;
  socket.addEventListener("open", () => {
    app.socketReady = true;
    app.retry = 0;
    hello();
    for (const view of app.tables.values()) view.resubscribe();
  });
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    app.socketReady = false;
    const delay = Math.min(5000, 250 * 2 ** app.retry++);
    setTimeout(connect, delay); // reconnect; the server keeps the seat (R-TIME-3)
  });
}

function send(message) {
  if (app.socketReady) app.socket.send(JSON.stringify(message));
}

function hello() {
  if (app.token && app.socketReady) send({ type: "hello", token: app.token });
}

function onMessage(message) {
  const view = message.table ? app.tables.get(message.table) : null;
  switch (message.type) {
    case "table": if (view) view.update(message); break;
    case "hand_result": if (view) view.result(message); refreshMe(); break;
    case "chat": if (view) view.chat(message); break;
    case "error":
      if (message.request === "hello") { forgetSession(); break; }
      // An error about a table shows on that table (S-INPUT-1), never on another one open.
      if (view) view.error(message.message);
      else if (!message.table && app.active && app.tables.get(app.active)) app.tables.get(app.active).error(message.message);
      else showToast(message.message);
      break;
    default: break;
  }
}

function showToast(text) {
  const toast = el("div", { class: "toast", role: "alert", text });
  document.body.append(toast);
  setTimeout(() => toast.remove(), 4000);
}

// ------------------------------------------------------------------ navigation

function show(which) {
  $("#auth").hidden = which !== "auth";
  $("#lobby").hidden = which !== "lobby";
  $("#tables").hidden = which !== "tables";
  if (which === "lobby") { app.active = null; refreshLobby(); }
  renderTabs();
}

function renderTabs() {
  const tabs = [el("button", {
    type: "button", class: "tab", "aria-current": $("#lobby").hidden ? null : "page",
    onclick: () => show("lobby"), text: "Lobby",
  })];
  for (const [id, view] of app.tables) {
    const current = !$("#tables").hidden && (app.tiled || app.active === id);
    tabs.push(el("button", {
      type: "button", class: `tab${view.yourTurn ? " your-turn" : ""}`, "data-tab": id,
      "aria-current": current ? "page" : null, onclick: () => focusTable(id), text: view.shortName(),
    }));
  }
  if (app.tables.size > 1) {
    tabs.push(el("button", {
      type: "button", class: "tab tile-toggle", "aria-pressed": String(app.tiled),
      onclick: () => { app.tiled = !app.tiled; layoutTables(); }, text: app.tiled ? "One table" : "Tile tables",
    }));
  }
  $("#tabs").replaceChildren(...tabs);
}

function openTable(id) {
  if (!app.tables.has(id)) {
    const view = new TableView(id);
    app.tables.set(id, view);
    $("#tables").append(view.root);
    view.resubscribe();
  }
  focusTable(id);
}

function focusTable(id) {
  app.active = id;
  show("tables");
  layoutTables();
}

function layoutTables() {
  $("#tables").classList.toggle("tiled", app.tiled);
  for (const [id, view] of app.tables) {
    view.root.hidden = !app.tiled && id !== app.active;
    view.root.classList.toggle("focused", id === app.active);
  }
  renderTabs();
}

function closeTable(id) {
  const view = app.tables.get(id);
  if (!view) return;
  view.root.remove();
  view.stopTimer();
  app.tables.delete(id);
  if (app.active === id) app.active = app.tables.keys().next().value ?? null;
  if (app.active) layoutTables(); else show("lobby");
}

// ------------------------------------------------------------------ buy-in

function askBuyIn(tableId, seat, stack = null) {
  // stack === null: sit down; otherwise top up (or rebuy) a stack already at the table.
  if (!app.token) { show("auth"); return; }
  const info = app.lobby.find((t) => t.id === tableId) || app.tables.get(tableId)?.state;
  if (!info) return;
  const dialog = $("#buyin");
  const have = stack ?? 0;
  const min = Math.max(1, info.min_buy_in - have);
  const most = info.max_buy_in - have;
  const max = Math.min(most, app.me ? app.me.balance : most);
  $("#buyin-title").textContent = stack === null ? `Buy in at ${info.name}` : `Add chips at ${info.name}`;
  $("#buyin-limits").textContent = stack === null
    ? `Minimum ${money(info.min_buy_in)}, maximum ${money(info.max_buy_in)}. Balance ${app.me ? money(app.me.balance) : "?"}.`
    : `Your stack is ${money(have)}; the table allows ${money(info.min_buy_in)} to ${money(info.max_buy_in)}. Balance ${app.me ? money(app.me.balance) : "?"}.`;
  $("#buyin-ok").textContent = stack === null ? "Sit down" : "Add chips";
  const range = $("#buyin-range");
  const amount = $("#buyin-amount");
  range.min = String(min); range.max = String(Math.max(min, max)); range.step = String(info.big_blind || 1);
  const start = Math.max(min, Math.min(max, info.big_blind * 100));
  range.value = String(start);
  amount.min = String(min / 100); amount.max = String(Math.max(min, max) / 100);
  amount.value = String(start / 100);
  range.oninput = () => { amount.value = String(Number(range.value) / 100); };
  amount.oninput = () => { range.value = String(toCents(amount.value)); };
  $("#buyin-error").textContent = most < min ? "Your stack is already at the table's maximum."
    : max < min ? "Your balance is below this table's minimum buy-in." : "";
  $("#buyin-ok").disabled = max < min;
  $("#buyin-cancel").onclick = () => dialog.close("cancel");
  $("#buyin-form").onsubmit = (event) => {
    event.preventDefault();
    const cents = toCents(amount.value);
    if (!(cents >= min && cents <= most)) {
      $("#buyin-error").textContent = `Choose an amount from ${money(min)} to ${money(most)}.`;
      return;
    }
    app.joinRequests += 1;
    const request = `web-${Date.now()}-${app.joinRequests}`;
    if (stack !== null) {
      send({ type: "add_chips", table: tableId, amount: cents, request });
      dialog.close("ok");
      setTimeout(refreshMe, 500);
      return;
    }
    const view = app.tables.get(tableId);
    const chosen = seat ?? view?.firstEmptySeat();
    if (!chosen) { $("#buyin-error").textContent = "The table is full."; return; }
    view?.rememberJoin(chosen, cents);
    send({ type: "join", table: tableId, seat: chosen, buy_in: cents, request });
    dialog.close("ok");
    setTimeout(refreshMe, 500);
  };
  if (!dialog.open) dialog.showModal();
}

// ------------------------------------------------------------------ a table

class TableView {
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
      if (me) askBuyIn(this.id, me.seat, me.stack);
    });
    $(".leave", r).addEventListener("click", () => { send({ type: "leave", table: this.id }); this.joined = null; setTimeout(refreshMe, 600); });
    $(".sitout", r).addEventListener("click", () => {
      const me = this.mySeat();
      send({ type: me && me.status === "sitting_out" ? "sit_in" : "sit_out", table: this.id });
    });
    $(".fold", r).addEventListener("click", () => this.act("fold"));
    $(".call", r).addEventListener("click", () => this.act("check_or_call"));
    $(".raise", r).addEventListener("click", () => this.act("bet_or_raise", this.raiseAmount()));
    const range = $(".raise-range", r);
    const amount = $(".raise-amount", r);
    range.addEventListener("input", () => { amount.value = String(Number(range.value) / 100); this.labelRaise(); });
    amount.addEventListener("input", () => { range.value = String(toCents(amount.value)); this.labelRaise(); });
    amount.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); this.act("bet_or_raise", this.raiseAmount()); } });
    for (const button of $$("[data-preset]", r)) {
      button.addEventListener("click", () => this.setRaise(this.preset(button.dataset.preset)));
    }
    for (const box of $$("[data-pre]", r)) {
      box.addEventListener("change", () => {
        for (const other of $$("[data-pre]", r)) if (other !== box) other.checked = false;
        send({ type: "options", table: this.id, pre_action: box.checked ? box.dataset.pre : "none" });
      });
    }
    for (const box of $$("[data-option]", r)) {
      box.addEventListener("change", () => send({ type: "options", table: this.id, [box.dataset.option]: box.checked }));
    }
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
        if (tab.dataset.side === "history") this.loadHistory();
      });
    }
    $(".rp-first", r).addEventListener("click", () => this.step(-Infinity));
    $(".rp-prev", r).addEventListener("click", () => this.step(-1));
    $(".rp-next", r).addEventListener("click", () => this.step(1));
    $(".rp-last", r).addEventListener("click", () => this.step(Infinity));
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

  // -------------------------------------------------------------- state from the server

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
    this.animateWinnings(message);
  }

  chat(message) {
    const log = $(".chat-log", this.root);
    // The server sends chat escaped; show it as text so nothing in it becomes markup.
    const decoded = new DOMParser().parseFromString(message.text, "text/html").documentElement.textContent;
    log.append(el("li", {}, el("strong", { text: `${message.from}: ` }), decoded));
    while (log.children.length > 100) log.firstElementChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  // -------------------------------------------------------------- rendering

  render() {
    const s = this.state;
    if (!s) return;
    const r = this.root;
    $(".table-name", r).textContent = s.name;
    $(".table-game", r).textContent = `${s.game} \u00b7 ${stakesLabel(s)}`;
    r.dataset.version = String(s.version);
    r.dataset.resultHand = this.lastResult ? String(this.lastResult.hand) : "";
    this.renderSeats();
    this.renderCenter();
    this.renderControls();
    this.startTimer();
    const turn = Boolean(s.hand && s.hand.legal);
    if (turn !== this.yourTurn) { this.yourTurn = turn; renderTabs(); }
  }

  seatPositions(count) {
    // Seats round an ellipse, the viewer's seat at the bottom centre.
    const you = this.state.you || 1;
    const positions = {};
    for (let n = 1; n <= count; n++) {
      const k = (n - you + count) % count;
      const angle = Math.PI / 2 + (2 * Math.PI * k) / count;
      positions[n] = { x: 50 + 46 * Math.cos(angle), y: 50 + 42 * Math.sin(angle) };
    }
    return positions;
  }

  renderSeats() {
    const s = this.state;
    const hand = s.hand;
    const result = this.lastResult;
    const positions = this.seatPositions(s.seats.length);
    const shownBySeat = new Map((result?.shown || []).map((x) => [x.seat, x]));
    const winners = new Map();
    for (const pot of result?.pots || []) for (const w of pot.winners) winners.set(w.seat, (winners.get(w.seat) || 0) + w.amount);
    const bestCards = new Set((result?.shown || []).filter((x) => winners.has(x.seat)).flatMap((x) => x.best || []));
    const nodes = s.seats.map((seat) => {
      const pos = positions[seat.seat];
      const style = `left:${pos.x}%;top:${pos.y}%`;
      if (seat.empty) {
        const canSit = app.token && !s.you;
        return el("div", { class: "seat empty", style, "data-seat": seat.seat },
          canSit ? el("button", { type: "button", class: "sit", onclick: () => askBuyIn(this.id, seat.seat), text: `Sit here` }) : el("span", { class: "muted", text: `Seat ${seat.seat}` }));
      }
      const shown = shownBySeat.get(seat.seat);
      let cards = null;
      if (shown) cards = shown.cards.map((c) => cardEl(c, bestCards.has(c) ? "best" : ""));
      else if (seat.in_hand && !seat.folded) {
        cards = seat.cards ? seat.cards.map((c) => cardEl(c)) : Array.from({ length: seat.card_count || 2 }, () => cardEl(null));
      }
      const classes = ["seat"];
      if (seat.seat === s.you) classes.push("you");
      if (hand && hand.actor === seat.seat) classes.push("acting");
      if (seat.folded) classes.push("folded");
      if (!seat.connected) classes.push("away");
      if (seat.status === "sitting_out") classes.push("sitting-out");
      if (winners.has(seat.seat)) classes.push("winner");
      const badges = [];
      if (hand && hand.button === seat.seat) badges.push(el("span", { class: "badge dealer", title: "Dealer button", text: "D" }));
      if (hand && hand.small_blind_seat === seat.seat) badges.push(el("span", { class: "badge blind", title: "Small blind", text: "SB" }));
      if (hand && hand.big_blind_seat === seat.seat) badges.push(el("span", { class: "badge blind", title: "Big blind", text: "BB" }));
      if (seat.missed_big) badges.push(el("span", { class: "badge missed", title: "Missed the big blind", text: "ML" }));
      if (seat.missed_small) badges.push(el("span", { class: "badge missed", title: "Missed the small blind", text: "MS" }));
      const status = !seat.connected ? "disconnected" : seat.status === "sitting_out" ? "sitting out" : seat.all_in ? "all-in" : actionLabel(seat.last_action);
      let ring = null;
      if (hand && hand.actor === seat.seat) {
        ring = el("div", { class: "ring", "aria-hidden": "true" });
        ring.innerHTML = '<svg viewBox="0 0 36 36"><circle cx="18" cy="18" r="16" class="ring-track"/><circle cx="18" cy="18" r="16" class="ring-left" pathLength="100"/></svg>';
      }
      const node = el("div", { class: classes.join(" "), style, "data-seat": seat.seat },
        el("div", { class: "hole" }, ...(cards || [])),
        el("div", { class: "plate" },
          ring,
          el("div", { class: "name", text: seat.name }),
          el("div", { class: "stack", "data-chips": seat.stack, text: money(seat.stack) }),
          el("div", { class: "status", text: winners.has(seat.seat) ? `wins ${money(winners.get(seat.seat))}` : status }),
          el("div", { class: "badges" }, ...badges),
          hand && hand.actor === seat.seat ? el("div", { class: "clock", "aria-label": "time left" }) : null,
        ),
        seat.bet ? el("div", { class: "bet", "data-chips": seat.bet, style: this.betOffset(pos) }, el("span", { class: "chip" }), money(seat.bet)) : null,
      );
      return node;
    });
    $(".seats", this.root).replaceChildren(...nodes);
  }

  betOffset(pos) {
    // Bets sit between the seat and the middle of the felt. Offsets are in units of the
    // felt's width, so a y percent counts by the felt's height-to-width ratio.
    const felt = $(".felt", this.root);
    const ratio = felt && felt.clientWidth ? felt.clientHeight / felt.clientWidth : 0.52;
    const dx = (50 - pos.x) * 0.42;
    const dy = (50 - pos.y) * 0.42 * ratio;
    return `transform:translate(calc(-50% + ${dx}cqw), calc(-50% + ${dy}cqw))`;
  }

  renderCenter() {
    const s = this.state;
    const hand = s.hand;
    const result = this.lastResult;
    const pots = $(".pots", this.root);
    const board = $(".board", this.root);
    const banner = $(".banner", this.root);
    if (hand) {
      const collected = hand.collected || [];
      pots.replaceChildren(...collected.map((amount, n) =>
        el("div", { class: `pot ${n ? "side" : "main"}`, "data-chips": amount },
          el("span", { class: "label", text: n === 0 ? "Main pot" : `Side pot ${n}` }), " ", money(amount))));
      const total = hand.pots.reduce((a, b) => a + b, 0);
      pots.dataset.total = String(total);
      if (total) pots.append(el("div", { class: "pot-total muted", text: `Total ${money(total)}` }));
      board.replaceChildren(...hand.board.map((c) => cardEl(c)));
      banner.textContent = hand.actor && hand.actor === s.you ? "Your turn" : "";
    } else if (result) {
      board.replaceChildren(...result.board.map((c) => cardEl(c, this.isBest(c) ? "best" : "")));
      pots.replaceChildren(...result.pots.map((p) =>
        el("div", { class: `pot ${p.pot ? "side" : "main"}`, "data-chips": p.amount },
          el("span", { class: "label", text: `${p.pot === 0 ? "Main pot" : `Side pot ${p.pot}`}${p.share !== "whole" ? ` (${p.share})` : ""}` }), " ", money(p.amount))));
      pots.dataset.total = "0";
      banner.textContent = result.cancelled ? "Hand cancelled: every bet returned" : this.describeResult(result, s);
    } else {
      board.replaceChildren();
      pots.replaceChildren();
      pots.dataset.total = "0";
      const seated = s.seats.filter((x) => !x.empty).length;
      banner.textContent = seated < 2 ? "Waiting for players" : "Next hand soon";
    }
  }

  isBest(code) {
    const result = this.lastResult;
    if (!result) return false;
    const winners = new Set(result.pots.flatMap((p) => p.winners.map((w) => w.seat)));
    return result.shown.some((x) => winners.has(x.seat) && (x.best || []).includes(code));
  }

  describeResult(result, s) {
    const name = (seat) => s.seats[seat - 1]?.name || `Seat ${seat}`;
    return result.pots.map((p) => {
      const who = p.winners.map((w) => `${name(w.seat)} wins ${money(w.amount)}`).join(", ");
      return p.hand ? `${who} with ${p.hand}` : who;
    }).join(" \u00b7 ");
  }

  animateWinnings(result) {
    const felt = $(".felt", this.root);
    const center = $(".center", this.root);
    if (!felt || !center || result.cancelled) return;
    const from = center.getBoundingClientRect();
    const base = felt.getBoundingClientRect();
    for (const pot of result.pots) {
      for (const w of pot.winners) {
        const seat = $(`.seat[data-seat="${w.seat}"] .plate`, this.root);
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

  renderControls() {
    const s = this.state;
    const r = this.root;
    const me = this.mySeat();
    $(".leave", r).hidden = !me;
    const addChips = $(".add-chips", r);
    addChips.hidden = !me;
    if (me) {
      addChips.textContent = me.status === "busted" ? "Rebuy" : "Add chips";
      addChips.classList.toggle("primary", me.status === "busted");
      addChips.disabled = Boolean(me.in_hand && s.hand);
    }
    $(".sitout", r).hidden = !me;
    if (me) $(".sitout", r).textContent = me.status === "sitting_out" ? "Sit in" : "Sit out";
    const legal = s.hand && s.hand.legal;
    const actions = $(".actions", r);
    actions.hidden = !legal;
    $(".preactions", r).hidden = !me;
    if (me && s.options) {
      for (const box of $$("[data-option]", r)) box.checked = Boolean(s.options[box.dataset.option]);
      // Waiting for the big blind only means something to a player who owes one.
      $("[data-option='wait_for_big_blind']", r).closest("label").hidden = !s.options.owes_blinds;
      for (const box of $$("[data-pre]", r)) {
        box.checked = s.options.pre_action === box.dataset.pre;
        box.closest("label").hidden = Boolean(legal) || !me.in_hand || me.folded;
      }
    }
    if (!legal) return;
    const call = $(".call", r);
    call.innerHTML = "";
    call.append(legal.can_check ? "Check " : `Call ${money(legal.call)}${legal.call_all_in ? " (all-in)" : ""} `, el("kbd", { text: "C" }));
    call.dataset.amount = String(legal.call);
    const canRaise = legal.min_raise_to !== null && legal.min_raise_to !== undefined;
    $(".raise", r).hidden = !canRaise;
    $(".sizing", r).hidden = !canRaise || legal.min_raise_to === legal.max_raise_to;
    if (canRaise) {
      const range = $(".raise-range", r);
      const amount = $(".raise-amount", r);
      range.min = String(legal.min_raise_to);
      range.max = String(legal.max_raise_to);
      range.step = String(Math.max(1, s.small_blind));
      amount.min = String(legal.min_raise_to / 100);
      amount.max = String(legal.max_raise_to / 100);
      if (this.legalKey !== `${s.hand.number}:${s.version}`) {
        this.legalKey = `${s.hand.number}:${s.version}`;
        this.setRaise(legal.min_raise_to);
      }
      for (const button of $$("[data-preset]", r)) {
        const value = this.preset(button.dataset.preset);
        button.dataset.amount = String(value);
        button.title = money(value);
      }
    }
  }

  preset(which) {
    const legal = this.state.hand.legal;
    const min = legal.min_raise_to;
    const max = legal.max_raise_to;
    const potAfterCall = legal.pot + legal.call;
    const base = legal.current_bet;
    const raw = {
      min, max,
      half: base + Math.floor(potAfterCall / 2),
      pot: base + potAfterCall,
    }[which];
    return Math.max(min, Math.min(max, raw)); // never offer an illegal amount
  }

  setRaise(cents) {
    const legal = this.state?.hand?.legal;
    if (!legal || legal.min_raise_to === null) return;
    const value = Math.max(legal.min_raise_to, Math.min(legal.max_raise_to, cents));
    $(".raise-range", this.root).value = String(value);
    $(".raise-amount", this.root).value = String(value / 100);
    this.labelRaise();
  }

  raiseAmount() {
    const legal = this.state.hand.legal;
    const typed = toCents($(".raise-amount", this.root).value);
    if (!Number.isFinite(typed)) return legal.min_raise_to;
    return Math.max(legal.min_raise_to, Math.min(legal.max_raise_to, typed));
  }

  labelRaise() {
    const legal = this.state?.hand?.legal;
    if (!legal || legal.min_raise_to === null) return;
    const value = this.raiseAmount();
    const verb = legal.is_bet ? "Bet" : "Raise to";
    const button = $(".raise", this.root);
    button.innerHTML = "";
    button.append(`${value === legal.max_raise_to && this.state.structure === "no_limit" ? "All-in" : verb} ${money(value)} `, el("kbd", { text: "R" }));
    button.dataset.amount = String(value);
  }

  act(action, amount = 0) {
    const hand = this.state?.hand;
    if (!hand || !hand.legal) return;
    send({ type: "act", table: this.id, action, amount, hand: hand.number });
    $(".actions", this.root).hidden = true; // until the server's next frame
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

  // -------------------------------------------------------------- hand history and replayer

  async loadHistory() {
    const list = $(".history-list", this.root);
    if (!app.token) { list.replaceChildren(el("li", { class: "muted", text: "Log in to see your hands." })); return; }
    let hands = [];
    try {
      hands = await api(`/api/hands?table=${encodeURIComponent(this.id)}&limit=30`);
    } catch (error) {
      list.replaceChildren(el("li", { class: "error", text: error.message }));
      return;
    }
    if (!hands.length) { list.replaceChildren(el("li", { class: "muted", text: "No hands of yours here yet." })); return; }
    list.replaceChildren(...hands.filter((h) => h.status !== "running").map((h) =>
      el("li", {},
        el("button", { type: "button", class: "link", "data-hand": h.id, onclick: () => this.openReplay(h.id), text: `Hand #${h.number}` }),
        el("span", { class: h.net > 0 ? "won" : h.net < 0 ? "lost" : "muted", text: ` ${h.net > 0 ? "+" : ""}${money(h.net)}` }),
        h.status === "cancelled" ? el("span", { class: "muted", text: " (cancelled)" }) : null)));
  }

  async openReplay(handId) {
    try {
      this.replay = await api(`/api/hands/${handId}/replay`);
    } catch (error) {
      this.error(error.message);
      return;
    }
    this.replay.step = this.replay.frames.length - 1;
    const r = this.root;
    $(".replayer", r).hidden = false;
    $(".replayer-title", r).textContent = `Hand #${this.replay.number} \u00b7 ${this.replay.game}`;
    $(".dl-phh", r).onclick = (event) => { event.preventDefault(); download(`/api/hands/${handId}.phh`, `hand-${handId}.phh`); };
    $(".dl-txt", r).onclick = (event) => { event.preventDefault(); download(`/api/hands/${handId}.txt`, `hand-${handId}.txt`); };
    this.step(-Infinity);
  }

  step(delta) {
    const rp = this.replay;
    if (!rp) return;
    const last = rp.frames.length - 1;
    rp.step = delta === -Infinity ? 0 : delta === Infinity ? last : Math.max(0, Math.min(last, rp.step + delta));
    const frame = rp.frames[rp.step];
    const r = this.root;
    $(".rp-step", r).textContent = `${rp.step + 1} / ${rp.frames.length}`;
    $(".replayer-board", r).replaceChildren(...frame.board.map((c) => cardEl(c)));
    $(".replayer-seats", r).replaceChildren(...frame.seats.map((seat) =>
      el("li", { class: `${seat.folded ? "folded" : ""} ${frame.actor === seat.seat ? "acting" : ""} ${seat.you ? "you" : ""}` },
        el("span", { class: "name", text: `${seat.name || `Seat ${seat.seat}`}${seat.seat === rp.button ? " (D)" : ""}` }),
        el("span", { class: "hole" }, ...(seat.cards ? seat.cards.map((c) => cardEl(c)) : Array.from({ length: seat.folded ? 0 : seat.card_count }, () => cardEl(null)))),
        el("span", { class: "num", text: money(seat.stack) }),
        seat.bet ? el("span", { class: "bet-inline", text: ` bet ${money(seat.bet)}` }) : null)));
    const lines = rp.frames.slice(0, rp.step + 1).flatMap((f) => f.lines);
    const list = $(".replayer-lines", r);
    list.replaceChildren(...lines.map((line, n) => el("li", { class: n >= lines.length - frame.lines.length ? "new" : "", text: line })));
    list.scrollTop = list.scrollHeight;
  }
}

async function download(path, filename) {
  const response = await fetch(path, { headers: { Authorization: `Bearer ${app.token}` } });
  if (!response.ok) { showToast(`Download failed: ${response.statusText}`); return; }
  const url = URL.createObjectURL(await response.blob());
  const link = el("a", { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// ------------------------------------------------------------------ keyboard shortcuts

function onKey(event) {
  if (event.target instanceof HTMLInputElement && event.target.type !== "checkbox") return;
  if (event.target instanceof HTMLTextAreaElement || event.ctrlKey || event.metaKey || event.altKey) return;
  const view = app.active ? app.tables.get(app.active) : null;
  const legal = view?.state?.hand?.legal;
  if (!view || !legal) return;
  const key = event.key.toLowerCase();
  if (key === "f") view.act("fold");
  else if (key === "c" || key === "k") view.act("check_or_call");
  else if (key === "r" && legal.min_raise_to !== null) {
    const amount = $(".raise-amount", view.root);
    if ($(".sizing", view.root).hidden) view.act("bet_or_raise", legal.min_raise_to);
    else { amount.focus(); amount.select(); }
  } else if (key === "arrowup" || key === "arrowdown") {
    view.setRaise(view.raiseAmount() + (key === "arrowup" ? 1 : -1) * view.state.big_blind);
  } else return;
  event.preventDefault();
}

// ------------------------------------------------------------------ start

async function start() {
  window.pokerroom = app; // for the browser console and the browser tests
  setupAuth();
  for (const id of ["#filter-game", "#filter-stakes", "#filter-open"]) $(id).addEventListener("change", renderLobby);
  document.addEventListener("keydown", onKey);
  $(".brand").addEventListener("click", (event) => { event.preventDefault(); show("lobby"); });
  connect();
  if (app.token) {
    await refreshMe();
    show(app.token ? "lobby" : "auth");
  } else {
    show("auth");
  }
  setInterval(() => { if (!$("#lobby").hidden) refreshLobby(); }, 5000);
}

start();

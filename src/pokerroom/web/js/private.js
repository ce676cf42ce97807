// @ts-check
// Private games (R-PRIV-1, docs/private-games.md): the page where a player creates one, asks
// to sit with a code or an invite link, and the game's own page: the link and code to share,
// the player's status ("waiting for the host"), the seat, the host's controls, what the host
// did, the ledger and the hands. Routes: /?invite=<token> (the link a host shares; kept over
// a log-in) and #private/<game>. The host is told of requests wherever the page is.

import { api } from "./api.js";
import { askBuyIn } from "./buyin.js";
import { $, $$, el, showToast } from "./dom.js";
import { money, stakesLabel, toCents } from "./format.js";
import { locale, number, t } from "./i18n.js";
import { openTable, show } from "./nav.js";
import { actLine, hostControls } from "./private_host.js";
import { bindLedger, renderHands, renderLedger, rerenderLedger } from "./private_ledger.js";
import { app, forgetPrivateGames, setHostError, setPrivateGame, setPrivateLog, setPrivateRequests } from "./state.js";

const games = app.privateGames;
const requestsOf = app.privateRequests;
const logOf = app.privateLogs;
/** @type {Array<(id: string | null) => void>} */
const changed = [];
const INVITE = "pokerroom.invite"; // an invite link opened before logging in
const ASKED = "pokerroom.private_asked"; // game id -> the code or invite the player asked with
const REFRESH_MS = 4000;
const later = new Set(); // "game:account": requests the host put off (asked again: shown again)
const MEMBERS = new Set(["host", "approved", "removed"]); // who reads the log, ledger, hands

let shown = null; // the game whose page is open, or null for the list
let timer = null;
let route; // the page the address named at start: a game's id, null for the list

export const path = (id, rest = "") => `/api/private-games/${encodeURIComponent(id)}${rest}`;

/** Call `listener(id)` when a game, its requests or its log changed (null: any of them may have). */
export const onPrivateChange = (listener) => { changed.push(listener); };
/** @param {string | null} id */
const tell = (id) => { for (const listener of changed) listener(id); };

// ------------------------------------------------------------------------ routes

/** At start: an invite link is kept until the player has logged in (the URL cleaned). */
export function readRoute() {
  const invite = new URLSearchParams(location.search).get("invite");
  if (invite) {
    sessionStorage.setItem(INVITE, invite);
    history.replaceState(null, "", `${location.pathname}#private`);
  }
  route = routeOf(location.hash);
}

// "#private" -> null (the list), "#private/<game>" -> the game, anything else undefined.
function routeOf(hash) {
  const found = /^#private(?:\/(.+))?$/.exec(hash);
  if (!found) return undefined;
  return found[1] ? decodeURIComponent(found[1]) : null;
}

/** Logged in: ask with the link opened, else open the page the address names; the host's
 * open requests are prompted. */
export async function resumePrivate() {
  if (!app.token) return;
  const invite = sessionStorage.getItem(INVITE);
  if (invite) {
    sessionStorage.removeItem(INVITE);
    await ask({ invite }, $("#private-code-error"));
  } else if (route !== undefined) {
    openPrivate(route);
  }
  route = undefined;
  await loadMine();
  for (const game of games.values()) if (game.you === "host" && !game.ended) loadRequests(game.id);
}

/** The private games page: the list (``id`` null) or one game's page. */
export function openPrivate(id = null) {
  shown = id;
  history.replaceState(null, "", `${location.pathname}#private${id ? `/${encodeURIComponent(id)}` : ""}`);
  show("private");
}

/** nav.js's show(): the page came on screen, or went. */
export function privateShown(on) {
  clearInterval(timer);
  timer = null;
  if (!on) {
    if (location.hash.startsWith("#private")) history.replaceState(null, "", location.pathname);
    return;
  }
  $("#private-home").hidden = shown !== null;
  $("#private-game").hidden = shown === null;
  $("#private-home-open").hidden = shown === null;
  if (!app.token) { $("#private-code-error").textContent = t("private.log_in"); return; }
  if (shown === null) { loadMine(); return; }
  loadGame(shown);
  timer = setInterval(() => { if (!document.hidden) loadGame(shown); }, REFRESH_MS);
}

// ------------------------------------------------------------------------ the room's answers

function remember(id, body) {
  const asked = JSON.parse(localStorage.getItem(ASKED) || "{}");
  asked[id] = body;
  localStorage.setItem(ASKED, JSON.stringify(asked));
}

async function ask(body, errorNode) {
  errorNode.textContent = "";
  try {
    const game = await api("/api/private-games/ask", { body });
    remember(game.id, body);
    openPrivate(game.id); // first: the page shown is drawn at once from the answer
    setGame(game);
  } catch (error) {
    errorNode.textContent = error.message;
  }
}

async function loadMine() {
  if (!app.token) return;
  let found;
  try {
    found = await api("/api/private-games");
  } catch {
    return;
  }
  for (const game of found.games) setGame(game, { quiet: true });
  renderMine(found.games);
}

export async function loadRequests(id) {
  try {
    const found = await api(path(id, "/requests"));
    setPrivateRequests(id, found.requests);
  } catch {
    return;
  }
  for (const request of requestsOf.get(id)) {
    if (request.status === "pending") promptRequest({ table: id, account: request.account, name: request.name });
  }
  if (shown === id) renderGame();
  tell(id);
}

export async function loadLog(id) {
  try {
    setPrivateLog(id, (await api(path(id, "/log"))).acts);
  } catch {
    return;
  }
  if (shown === id) renderGame();
  tell(id);
}

async function loadGame(id) {
  let game;
  try {
    game = await api(path(id));
  } catch (error) {
    if (shown === id) { $("#pg-error").textContent = error.message; $("#pg-name").textContent = ""; }
    return;
  }
  setGame(game);
  if (!MEMBERS.has(game.you)) { renderLedger(null); renderHands(null, game); return; }
  const reads = [loadLog(id)];
  if (game.you === "host") reads.push(loadRequests(id));
  reads.push(api(path(id, "/ledger")).then((book) => renderLedger(book), () => {}));
  reads.push(api(path(id, "/hands")).then((list) => renderHands(list.hands, game), () => {}));
  await Promise.all(reads);
}

/** A game as the room last described it; a player's approval is told at once. */
export function setGame(game, { quiet = false } = {}) {
  const before = setPrivateGame(game);
  if (!quiet && before && before.you === "pending" && game.you === "approved") {
    showToast(t("private.approved_you", { game: game.name }), { info: true });
  }
  if (shown === game.id) renderGame();
  tell(game.id);
}

/**
 * A frame of the socket about a private game.
 * @param {import("./protocol").PrivateGameFrame | import("./protocol").PrivateRequestFrame} message
 */
export function onPrivateFrame(message) {
  if (message.type === "private_request") {
    later.delete(`${message.table}:${message.account}`);
    promptRequest(message);
    loadRequests(message.table);
    return;
  }
  setGame(message.game);
  if (MEMBERS.has(message.game.you)) loadLog(message.table);
  if (message.game.you === "host") loadRequests(message.table);
}

/** The host's act, done: the game as it is after it. */
export async function hostAct(id, rest, body, errorNode) {
  if (errorNode) errorNode.textContent = "";
  setHostError(id, null);
  try {
    const game = await api(path(id, rest), { method: "POST", body });
    setGame(game);
    await Promise.all([loadLog(id), loadRequests(id)]);
    return true;
  } catch (error) {
    setHostError(id, error.message); // kept over the controls' redraws until the next act
    if (errorNode) errorNode.textContent = error.message; else showToast(error.message);
    return false;
  }
}

// ------------------------------------------------------------------------ a seat request

function promptRequest({ table, account, name }) {
  const key = `${table}:${account}`;
  if (later.has(key) || $(`.private-request[data-key="${CSS.escape(key)}"]`)) return;
  const game = games.get(table);
  const error = el("p", { class: "error", role: "alert" });
  const close = () => prompt.remove();
  const answer = async (verb) => { if (await hostAct(table, `/requests/${account}/${verb}`, undefined, error)) close(); };
  const prompt = el("div", { class: "private-request", role: "alertdialog", "aria-label": t("private.request_title"), "data-key": key, "data-table": table, "data-account": String(account) },
    el("strong", { text: t("private.request_title") }),
    el("p", { text: t("private.request_text", { name, game: game?.name || table }) }),
    error,
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary approve", onclick: () => answer("approve"), text: t("private.approve") }),
      el("button", { type: "button", class: "deny", onclick: () => answer("deny"), text: t("private.deny") }),
      el("button", { type: "button", class: "link later", onclick: () => { later.add(key); close(); }, text: t("private.later") })));
  let stack = $("#private-requests");
  if (!stack) { stack = el("div", { id: "private-requests", class: "private-requests" }); document.body.append(stack); }
  stack.append(prompt);
}

/** A request answered elsewhere (another tab, the game page): its prompt goes. */
function dropAnsweredPrompts(id) {
  const pending = new Set((requestsOf.get(id) || []).filter((r) => r.status === "pending").map((r) => String(r.account)));
  for (const prompt of $$(`.private-request[data-table="${CSS.escape(id)}"]`)) {
    if (!pending.has(prompt.dataset.account)) prompt.remove();
  }
}

// ------------------------------------------------------------------------ sitting

/** Open the game's table and, once its first frame is here, the buy-in. */
export async function takeSeat(id) {
  openTable(id);
  for (let n = 0; n < 100 && !app.tables.get(id)?.state; n += 1) await new Promise((done) => { setTimeout(done, 100); });
  if (app.tables.get(id)?.state) askBuyIn(id, null);
}

// ------------------------------------------------------------------------ rendering

export const gameLabel = (game) => `${t(`private.${game.settings.variant}`)} \u00b7 ${t(`private.${game.settings.structure}`)}`;

function renderMine(list) {
  $("#private-games").replaceChildren(...(list.length
    ? list.map((game) => el("li", { "data-game": game.id },
      el("button", { type: "button", class: "link", onclick: () => openPrivate(game.id), text: game.name }),
      el("span", { class: "muted small", text: ` ${gameLabel(game)} \u00b7 ${isSng(game) ? t("private.kind_sit_and_go") : stakesLabel(game)} \u00b7 ${statusText(game)}` })))
    : [el("li", { class: "muted", text: t("private.none") })]));
}

function statusText(game) {
  if (game.ended) return t("private.status_ended");
  return t(`private.you_${game.you}`);
}

function sngFacts(game) {
  const s = game.settings;
  const event = game.event;
  const parts = [
    t("private.hosted_by", { name: game.host.name }),
    gameLabel(game),
    s.buy_in || s.fee ? t("private.sng_price", { buy_in: money(s.buy_in), fee: money(s.fee) }) : t("private.sng_free"),
    t("private.sng_stack", { chips: number(s.starting_stack) }),
    t(`private.blinds_${s.blinds}`),
    t("private.sng_minutes", { minutes: number(s.level_minutes) }),
    t("private.seats_count", { seats: number(s.seats) }),
  ];
  if (event) parts.push(t("private.sng_entrants", { count: number(event.entrants), seats: number(s.seats) }));
  if (s.approve_seats) parts.push(t("private.host_approves"));
  return parts.join(" \u00b7 ");
}

function facts(game) {
  if (isSng(game)) return sngFacts(game);
  const s = game.settings;
  const parts = [
    t("private.hosted_by", { name: game.host.name }),
    gameLabel(game),
    t("private.stakes_next", { stakes: stakesLabel(game) }),
    t("private.seats_count", { seats: number(s.seats) }),
    t(`private.preset_${s.preset}`),
  ];
  // A setting left to the house's default may come as null: the house rules say it then.
  if (s.min_buy_in_bb != null && s.max_buy_in_bb != null) {
    parts.push(t("private.buy_in_range", { min: number(s.min_buy_in_bb), max: number(s.max_buy_in_bb) }));
  }
  if (s.decision_seconds != null) parts.push(t("private.seconds_to_act", { seconds: number(s.decision_seconds) }));
  if (s.time_bank_seconds != null) parts.push(t("private.time_bank", { bank: number(s.time_bank_seconds) }));
  for (const option of ["straddle", "run_it_twice", "bomb_pots", "spectators"]) {
    if (s[option === "bomb_pots" ? "bomb_pot" : option]) parts.push(t(`private.${option}`));
  }
  if (s.approve_seats) parts.push(t("private.host_approves"));
  return parts.join(" \u00b7 ");
}

function renderGame() {
  const game = games.get(shown);
  if (!game) return;
  const host = game.you === "host";
  const member = MEMBERS.has(game.you);
  $("#pg-error").textContent = "";
  $("#pg-name").textContent = game.name;
  $("#pg-facts").textContent = facts(game);
  const status = $("#pg-status");
  status.dataset.status = game.ended ? "ended" : game.you;
  const notes = [game.ended ? t("private.status_ended") : t(`private.you_${game.you}`)];
  if (!game.ended && game.paused) notes.push(t("private.paused"));
  if (!game.ended && game.bomb_pot_next) notes.push(t("private.bomb_next", { bb: number(game.bomb_pot_next) }));
  status.textContent = notes.join(" ");
  $("#pg-invite").hidden = !game.code || game.ended;
  $("#pg-code").textContent = game.code || "";
  $("#pg-link").value = game.invite ? inviteLink(game.invite) : "";
  $("#pg-link").closest("label").hidden = !game.invite;
  $("#pg-copy").hidden = !game.invite;
  const seated = app.tables.get(game.id)?.state?.you;
  const registering = isSng(game) && game.event?.status === "registering";
  const entered = isSng(game) && (game.event?.players || []).some((p) => p.name === app.me?.display_name);
  $("#pg-sit").hidden = isSng(game) || game.ended || !(host || game.you === "approved") || Boolean(seated);
  $("#pg-register").hidden = !registering || game.ended || !(host || game.you === "approved") || entered;
  const noTable = isSng(game) && game.event?.status !== "running";
  $("#pg-open").hidden = noTable || game.ended || !(member || game.settings.spectators) || game.you === "removed";
  $("#pg-ask").hidden = game.ended || !["denied", "removed"].includes(game.you);
  $("#pg-host").hidden = !host || game.ended;
  if (host && !game.ended) {
    const box = $("#pg-host .pg-host-controls");
    // Rebuilt only when nothing in it is being typed in (the refresh comes every few seconds).
    if (!box.contains(document.activeElement) || document.activeElement.tagName === "BUTTON") {
      box.replaceChildren(hostControls(game, requestsOf.get(game.id) || [], hostAct, { players: true }));
    }
    dropAnsweredPrompts(game.id);
  }
  $("#pg-log").replaceChildren(...(logOf.get(game.id) || []).map((act) => el("li", { "data-act": act.act }, actTime(act), actLine(act))));
  if (!member) { $("#pg-log").replaceChildren(); }
}

export const actTime = (act) => el("time", { datetime: act.at, text: `${new Date(act.at).toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit" })} ` });

export const inviteLink = (invite) => `${location.origin}/?invite=${encodeURIComponent(invite)}`;

/** Logged out: nothing of the last player's games stays on the page. */
export function forgetPrivate() {
  forgetPrivateGames();
  later.clear();
  for (const prompt of document.querySelectorAll(".private-request")) prompt.remove();
  renderLedger(null);
  shown = null;
}

/** A new language: what this page wrote, written again. */
export function renderPrivate() {
  tell(null);
  for (const prompt of document.querySelectorAll(".private-request")) prompt.remove();
  for (const game of games.values()) if (game.you === "host" && !game.ended) loadRequests(game.id);
  if ($("#private").hidden) return;
  if (shown === null) { loadMine(); return; }
  renderGame();
  rerenderLedger();
}

// ------------------------------------------------------------------------ the forms

const NUMBERS = ["seats", "min_buy_in_bb", "max_buy_in_bb", "decision_seconds", "time_bank_seconds"];
const CHECKS = ["straddle", "run_it_twice", "bomb_pot", "spectators", "approve_seats"];

const SNG_NUMBERS = ["starting_stack", "level_minutes"];

function formBody(form) {
  const body = { name: form.elements.name.value.trim() };
  for (const name of ["preset", "variant", "structure"]) body[name] = form.elements[name].value;
  if (form.elements.kind.value === "sit_and_go") return sngBody(form, body);
  body.big_blind = toCents(form.elements.big_blind.value);
  for (const name of NUMBERS) {
    const value = form.elements[name].value.trim();
    if (value !== "") body[name] = Number(value);
  }
  for (const name of CHECKS) body[name] = form.elements[name].checked;
  return body;
}

/** A sit & go's body: its buy-in and fee in cents, its stack, levels and minutes; no stakes,
 * buy-in range or table options (its blinds are its levels). */
function sngBody(form, body) {
  body.kind = "sit_and_go";
  body.seats = Number(form.elements.seats.value);
  body.buy_in = toCents(form.elements.buy_in.value || "0");
  body.fee = toCents(form.elements.fee.value || "0");
  for (const name of SNG_NUMBERS) body[name] = Number(form.elements[name].value);
  body.blinds = form.elements.blinds.value;
  for (const name of ["decision_seconds", "time_bank_seconds"]) {
    const value = form.elements[name].value.trim();
    body[name] = value === "" ? null : Number(value);
  }
  for (const name of ["spectators", "approve_seats"]) body[name] = form.elements[name].checked;
  return body;
}

/** The form shows the fields of the kind of game chosen. */
function showKind(form) {
  const sng = form.elements.kind.value === "sit_and_go";
  for (const node of form.querySelectorAll(".cash-only")) node.hidden = sng;
  for (const node of form.querySelectorAll(".sng-only")) node.hidden = !sng;
}

const isSng = (game) => game.settings.kind === "sit_and_go";
// The table to open: a cash game's own; a sit & go's, its event's (one table).
const tableOf = (game) => (isSng(game) ? game.event?.tables?.[0]?.id || game.id : game.id);

// The field a refusal names: the request's validation names it ({field: "big_blind"} or
// "body.big_blind"), and so does the room's own check of the settings (private.invalid).
function fieldOf(error) {
  return error.params?.field ? String(error.params.field).split(".").pop() : "";
}

function clearFieldErrors(form) {
  for (const node of form.querySelectorAll(".field-error")) node.textContent = "";
  for (const node of form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
  $("#private-form-error").textContent = "";
}

async function create(event) {
  event.preventDefault();
  const form = event.target;
  clearFieldErrors(form);
  if (!form.elements.name.value.trim()) {
    showFieldError(form, "name", t("private.name_needed"));
    return;
  }
  $("#private-create").disabled = true;
  try {
    const game = await api("/api/private-games", { body: formBody(form) });
    openPrivate(game.id);
    setGame(game);
  } catch (error) {
    const field = fieldOf(error);
    if (form.elements[field]) showFieldError(form, field, error.message);
    $("#private-form-error").textContent = error.message;
  } finally {
    $("#private-create").disabled = false;
  }
}

function showFieldError(form, field, text) {
  const node = form.querySelector(`.field-error[data-for="${field}"]`);
  if (node) node.textContent = text;
  const input = form.elements[field];
  input.setAttribute("aria-invalid", "true");
  input.focus();
}

/** Copy with the clipboard API; where it is refused (no secure context, no permission), the
 * link is selected and the browser's own copy command used. */
async function copyLink() {
  const input = $("#pg-link");
  let copied = false;
  try {
    await navigator.clipboard.writeText(input.value);
    copied = true;
  } catch {
    input.select();
    try { copied = document.execCommand("copy"); } catch { copied = false; }
  }
  $("#pg-copied").textContent = t(copied ? "private.copied" : "private.copy_yourself");
}

export function bindPrivate() {
  $("#private-open").addEventListener("click", (event) => { event.preventDefault(); openPrivate(null); });
  $("#private-back").addEventListener("click", () => show("lobby"));
  $("#private-home-open").addEventListener("click", () => openPrivate(null));
  $("#private-form").addEventListener("submit", create);
  $("#private-kind").addEventListener("change", () => showKind($("#private-form")));
  $("#pg-register").addEventListener("click", async () => {
    const id = shown;
    try {
      await api(path(id, "/register"), { body: { request: crypto.randomUUID() } });
      setGame(await api(path(id)));
    } catch (error) {
      $("#pg-error").textContent = error.message;
    }
  });
  $("#private-code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("#private-code").value.trim();
    if (code) ask({ code }, $("#private-code-error"));
  });
  $("#pg-copy").addEventListener("click", copyLink);
  $("#pg-sit").addEventListener("click", () => takeSeat(shown));
  $("#pg-open").addEventListener("click", () => openTable(tableOf(games.get(shown))));
  $("#pg-ask").addEventListener("click", () => {
    const asked = JSON.parse(localStorage.getItem(ASKED) || "{}")[shown];
    if (asked) ask(asked, $("#pg-error")); else $("#pg-error").textContent = t("private.ask_with_code");
  });
  bindLedger(() => shown);
  window.addEventListener("hashchange", () => {
    const found = routeOf(location.hash);
    if (found !== undefined && app.token) openPrivate(found);
  });
}

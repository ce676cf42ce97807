// @ts-check
// What the whole client shares: the session, the lobby list, the open tables, the socket's
// state. This module is its one writer: others read `app` (typed read-only, so the checker
// refuses a write anywhere else) and change it through the functions below.

/** @typedef {import("./table.js").TableView} TableView */
/** @typedef {{ key: string | null, dir: number }} SortOrder */
/** @typedef {{ seat: number, until: number }} HeldSeat */
/** @typedef {{ verified: object[], failed: object[] }} ShuffleChecks */

/**
 * @typedef {object} State
 * @property {string | null} token the session's bearer token (kept in localStorage)
 * @property {any} me the account as /api/me last answered, or null
 * @property {any[]} lobby the tables as /api/lobby last answered
 * @property {WebSocket | null} socket
 * @property {boolean} socketReady
 * @property {boolean} everDown whether the connection was ever lost (then "connected again" shows)
 * @property {number} retry reconnection attempts since the last open
 * @property {Map<string, TableView>} tables table id -> its view, in the order opened
 * @property {string | null} active the table id keyboard shortcuts go to, or null for the lobby
 * @property {boolean} tiled
 * @property {number} joinRequests buy-ins asked for (numbers their idempotency keys)
 * @property {Set<string>} seated the tables where the player has a seat (the server's hello, then frames)
 * @property {Map<string, HeldSeat>} offers table id -> a seat held for you (the waiting list)
 * @property {SortOrder} lobbySort the lobby's sorted column (null: the room's order)
 * @property {any[]} tournaments
 * @property {string | null} tournament the tournament whose detail panel is open in the lobby
 * @property {any} tournamentMine the player's entry in it (/me): which buttons apply
 * @property {SortOrder} tournamentSort the sorted column of its players' list
 * @property {Map<string, any[]>} tournamentNotes tournament id -> the room's last notices to this player
 * @property {number} noteCount numbers the notices, so that a table's log adds only the new ones
 * @property {boolean} muted
 * @property {string[]} sounds the sounds played, newest last
 * @property {any} preferences the account's preferences (preferences.js)
 * @property {ShuffleChecks} shuffles the shuffles checked in this page (fairness.js)
 * @property {Map<string, any>} privateGames game id -> the private game as this player sees it
 * @property {Map<string, any[]>} privateRequests game id -> its requests to sit (the host's)
 * @property {Map<string, any[]>} privateLogs game id -> its host's acts, oldest first
 * @property {Map<string, string>} hostErrors game id -> why the host's last act was refused
 */

/** @type {State} */
const state = {
  token: localStorage.getItem("pokerroom.token"),
  me: null,
  lobby: [],
  socket: null,
  socketReady: false,
  everDown: false,
  retry: 0,
  tables: new Map(),
  active: null,
  tiled: false,
  joinRequests: 0,
  seated: new Set(),
  offers: new Map(),
  lobbySort: { key: null, dir: 1 },
  tournaments: [],
  tournament: null,
  tournamentMine: null,
  tournamentSort: { key: "place", dir: 1 },
  tournamentNotes: new Map(),
  noteCount: 0,
  muted: localStorage.getItem("pokerroom.muted") === "1",
  sounds: [],
  preferences: null,
  shuffles: { verified: [], failed: [] },
  privateGames: new Map(),
  privateRequests: new Map(),
  privateLogs: new Map(),
  hostErrors: new Map(),
};

/**
 * The state as every other module sees it: read-only to the checker (the maps and sets too).
 * @typedef {Readonly<Omit<State, "tables" | "seated" | "offers" | "tournamentNotes" | "lobbySort" | "tournamentSort"
 *   | "privateGames" | "privateRequests" | "privateLogs" | "hostErrors">> & {
 *   readonly tables: ReadonlyMap<string, TableView>,
 *   readonly seated: ReadonlySet<string>,
 *   readonly offers: ReadonlyMap<string, HeldSeat>,
 *   readonly tournamentNotes: ReadonlyMap<string, any[]>,
 *   readonly lobbySort: Readonly<SortOrder>,
 *   readonly tournamentSort: Readonly<SortOrder>,
 *   readonly privateGames: ReadonlyMap<string, any>,
 *   readonly privateRequests: ReadonlyMap<string, readonly any[]>,
 *   readonly privateLogs: ReadonlyMap<string, readonly any[]>,
 *   readonly hostErrors: ReadonlyMap<string, string>,
 * }} AppState
 */

/** @type {AppState} */
export const app = state;

/** @type {Array<() => void>} */
const sessionEnded = [];

/** Call `listener` whenever the session ends (logged out, or the token refused). */
export const onSessionEnd = (listener) => { sessionEnded.push(listener); };

// The session.

/** @param {string} token */
export function startSession(token) {
  state.token = token;
  localStorage.setItem("pokerroom.token", token);
}

export function endSession() {
  state.token = null;
  state.me = null;
  state.seated = new Set();
  localStorage.removeItem("pokerroom.token");
  for (const listener of sessionEnded) listener();
}

/** @param {any} me */
export const setMe = (me) => { state.me = me; };
export const isOperator = () => state.me?.role === "operator";
/** @param {any} preferences */
export const setPreferences = (preferences) => { state.preferences = preferences; };

// The connection.

/** @param {WebSocket} socket */
export const setSocket = (socket) => { state.socket = socket; };

/** @param {boolean} ready */
export function setSocketReady(ready) {
  state.socketReady = ready;
  if (ready) state.retry = 0;
  else state.everDown = true;
}

/** The delay before the next reconnection attempt, backing off to 5 s. */
export const nextRetryDelay = () => Math.min(5000, 250 * 2 ** state.retry++);

// The open tables.

/** @param {string} id @param {TableView} view */
export const addTable = (id, view) => { state.tables.set(id, view); };

/** The table closed: the active one becomes the first still open (or none). @param {string} id */
export function removeTable(id) {
  state.tables.delete(id);
  if (state.active === id) state.active = state.tables.keys().next().value ?? null;
}

/** @param {string | null} id */
export const setActive = (id) => { state.active = id; };
export const toggleTiled = () => { state.tiled = !state.tiled; };
/** The next buy-in's number (its idempotency key's tail). */
export const nextJoinRequest = () => ++state.joinRequests;

/** @param {Iterable<string>} ids */
export const setSeated = (ids) => { state.seated = new Set(ids); };

/** Whether the player's seat at `table` changed. @param {string} table @param {boolean} sits */
export function noteSeated(table, sits) {
  if (sits === state.seated.has(table)) return false;
  if (sits) state.seated.add(table); else state.seated.delete(table);
  return true;
}

/** @param {string} table @param {HeldSeat | null} offer */
export function setOffer(table, offer) {
  if (offer) state.offers.set(table, offer); else state.offers.delete(table);
}

// The lobby and the tournaments.

/** @param {any[]} lobby */
export const setLobby = (lobby) => { state.lobby = lobby; };

/** Your place on a listed table's waiting list. @param {string} table @param {number | null} position */
export function setLobbyWaiting(table, position) {
  const entry = state.lobby.find((t) => t.id === table);
  if (entry) entry.you_wait = position;
}

/**
 * A click on a column's header: sorted by it, or the other way round when it already is.
 * @param {"lobby" | "tournament"} which @param {string} key @param {number} firstDir
 */
export function sortBy(which, key, firstDir = 1) {
  const sort = which === "lobby" ? state.lobbySort : state.tournamentSort;
  sort.dir = sort.key === key ? -sort.dir : firstDir;
  sort.key = key;
}

/** @param {any[]} tournaments */
export const setTournaments = (tournaments) => { state.tournaments = tournaments; };
/** @param {string | null} id */
export const setTournament = (id) => { state.tournament = id; };
/** @param {any} mine */
export const setTournamentMine = (mine) => { state.tournamentMine = mine; };

/**
 * Keeps the last few notices of a tournament, numbered (a table's log adds only new ones).
 * @param {string} id @param {string} kind @param {object} said
 */
export function addTournamentNote(id, kind, said) {
  state.noteCount += 1;
  const notes = [...(state.tournamentNotes.get(id) || []), { kind, said, id: state.noteCount }];
  state.tournamentNotes.set(id, notes.slice(-3)); // the last few, newest last
}

// Private games.

/** A game as the room last described it; the one it replaced, if any. @param {any} game */
export function setPrivateGame(game) {
  const before = state.privateGames.get(game.id);
  state.privateGames.set(game.id, game);
  return before;
}

/** @param {string} id @param {any[]} requests */
export const setPrivateRequests = (id, requests) => { state.privateRequests.set(id, requests); };
/** @param {string} id @param {any[]} acts */
export const setPrivateLog = (id, acts) => { state.privateLogs.set(id, acts); };

/** Why the host's last act was refused (null: it was not). @param {string} id @param {string | null} why */
export function setHostError(id, why) {
  if (why === null) state.hostErrors.delete(id); else state.hostErrors.set(id, why);
}

/** Logged out: nothing of the last player's games is kept. */
export function forgetPrivateGames() {
  for (const map of [state.privateGames, state.privateRequests, state.privateLogs, state.hostErrors]) map.clear();
}

// Sound.

export function toggleMuted() {
  state.muted = !state.muted;
  localStorage.setItem("pokerroom.muted", state.muted ? "1" : "0");
}

/** @param {string} name */
export function recordSound(name) {
  state.sounds.push(name); // what was played, for the browser tests and the console
  if (state.sounds.length > 200) state.sounds.splice(0, 100);
}

// Fairness: the shuffles this page checked.

const KEEP_SHUFFLES = 200;

/** @param {boolean} verified @param {object} entry */
export function recordShuffle(verified, entry) {
  (verified ? state.shuffles.verified : state.shuffles.failed).push(entry);
  for (const list of [state.shuffles.verified, state.shuffles.failed]) if (list.length > KEEP_SHUFFLES) list.shift();
}

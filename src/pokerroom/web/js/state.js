// What the whole client shares: the session, the lobby list, the open tables.

// The account's options before they are read (the server's defaults, /api/preferences).
export const DEFAULT_PREFS = Object.freeze({ deck: "four", auto_muck: false, bet_presets: [50, 75, 100], hotkeys: true });

export const app = {
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
  seated: new Set(), // the tables where the player has a seat (the server's hello, then frames)
  muted: localStorage.getItem("pokerroom.muted") === "1",
  sounds: [], // the sounds played, newest last
  prefs: { ...DEFAULT_PREFS }, // the account's preferences (options.js)
};

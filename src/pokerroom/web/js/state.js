// What the whole client shares: the session, the lobby list, the open tables.

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
};

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
  offers: new Map(), // table id -> {seat, until}: a seat held for you (the waiting list)
  lobbySort: { key: null, dir: 1 }, // the lobby's sorted column (null: the room's order)
  tournaments: [],
  tournament: null, // the tournament whose detail panel is open in the lobby
  tournamentMine: null, // the player's entry in it (/me): which buttons apply
  tournamentSort: { key: "place", dir: 1 }, // the sorted column of its players' list
  tournamentNotes: new Map(), // tournament id -> the room's last notices to this player
  noteCount: 0, // numbers the notices, so that a table's log adds only the new ones
  muted: localStorage.getItem("pokerroom.muted") === "1",
  sounds: [], // the sounds played, newest last
};

// @ts-check
// The one WebSocket every open table shares, reconnecting with back-off: the hub every frame
// the server sends goes through, to the handlers registered for its type (frames.js), and
// every message the client sends goes out by.

import { app, setSocket, setSocketReady, nextRetryDelay } from "./state.js";

/** @typedef {import("./protocol").ServerFrame} ServerFrame */
/** @typedef {import("./protocol").ClientMessage} ClientMessage */
/** @typedef {ServerFrame["type"]} FrameType */

/** @type {Map<string, Array<(frame: any) => void>>} */
const handlers = new Map();
/** @type {Array<() => void>} */
const connectionListeners = [];

/**
 * Call `handler(frame)` for every frame of this type, after the handlers registered before it.
 * @template {FrameType} T
 * @param {T} type
 * @param {(frame: Extract<ServerFrame, { type: T }>) => void} handler
 */
export function onFrame(type, handler) {
  if (!handlers.has(type)) handlers.set(type, []);
  handlers.get(type).push(handler);
}

/** Call `listener()` whenever the connection opens or drops (app.socketReady says which). */
export const onConnection = (listener) => { connectionListeners.push(listener); };

export function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  setSocket(socket);
  socket.addEventListener("open", () => {
    setSocketReady(true);
    for (const listener of connectionListeners) listener();
    hello();
    for (const view of app.tables.values()) view.resubscribe();
  });
  socket.addEventListener("message", (event) => dispatch(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    setSocketReady(false);
    for (const listener of connectionListeners) listener();
    setTimeout(connect, nextRetryDelay()); // reconnect; the server keeps the seat (R-TIME-3)
  });
}

/** @param {ServerFrame} frame */
function dispatch(frame) {
  for (const handler of handlers.get(frame.type) || []) handler(frame);
}

/**
 * Whether the message went out: while the connection is down nothing is queued (a decision
 * sent late could act on a hand that moved on), and the caller says so to the player.
 * @param {ClientMessage} message
 */
export function send(message) {
  if (!app.socketReady) return false;
  app.socket.send(JSON.stringify(message));
  return true;
}

export function hello() {
  if (app.token && app.socketReady) send({ type: "hello", token: app.token });
}

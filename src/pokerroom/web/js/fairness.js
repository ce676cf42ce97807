// @ts-check
// "Verify this shuffle" (the scheme in docs/fairness.md): recompute a finished
// hand's seed commitment, deck and deck commitment in the browser with Web Crypto, exactly as
// pokerroom/fairness.py and `pokerroom verify` do, and show the deck in the order dealt.

import { api, download } from "./api.js";
import { $, cardEl, el, showToast } from "./dom.js";
import { t } from "./i18n.js";
import { recordShuffle } from "./state.js";

export const FORMAT = "pokerroom-shuffle-1";
const DOMAIN = "pokerroom shuffle v1";
const HEX64 = /^[0-9a-f]{64}$/;
const CLIENT_SEED = /^[0-9a-f]{16,64}$/;
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

let ORDERS = 1n; // 52!, the number of deck orders
for (let n = 2n; n <= 52n; n += 1n) ORDERS *= n;

/** A card code (rank * 4 + suit) as the room writes it: 51 -> "As". */
export const cardOf = (code) => RANKS[code >> 2] + SUITS[code & 3];

const toHex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text) => Uint8Array.from(text.match(/../g) || [], (pair) => parseInt(pair, 16));

function concat(parts) {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

const sha256 = async (bytes) => toHex(await crypto.subtle.digest("SHA-256", bytes));

async function hmac(key, data) {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, data));
}

/** The deck the seeds make: one draw below 52! from the HMAC stream, read as Fisher-Yates. */
export async function seededDeck(serverSeed, clientSeeds) {
  const text = new TextEncoder();
  const message = concat([text.encode(DOMAIN), ...[...clientSeeds].sort().map((s) => text.encode(`\n${s}`))]);
  const key = await hmac(serverSeed, message);
  const bits = ORDERS.toString(2).length;
  const size = Math.ceil(bits / 8);
  let buffer = new Uint8Array(0);
  let counter = 0n;
  let draw;
  for (;;) {
    while (buffer.length < size) {
      const block = new Uint8Array(8);
      new DataView(block.buffer).setBigUint64(0, counter);
      counter += 1n;
      buffer = concat([buffer, await hmac(key, block)]);
    }
    let value = 0n;
    for (const byte of buffer.subarray(0, size)) value = (value << 8n) | BigInt(byte);
    buffer = buffer.slice(size);
    draw = value >> BigInt(8 * size - bits);
    if (draw < ORDERS) break;
  }
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; i -= 1) {
    const radix = BigInt(i + 1);
    const j = Number(draw % radix);
    draw /= radix;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function field(doc, name, check, what) {
  const value = doc[name];
  if (!check(value)) throw new Error(t("verify.no_field", { name, what: t(what) }));
  return value;
}

const same = (a, b) => a.length === b.length && a.every((x, k) => x === b[k]);

/** Check a reveal; resolves to {deck, checks} or rejects naming the first thing that differs. */
export async function verifyShuffle(doc) {
  if (!doc || typeof doc !== "object" || doc.format !== FORMAT) throw new Error(t("verify.not_reveal", { format: FORMAT }));
  const isHex64 = (v) => typeof v === "string" && HEX64.test(v);
  const commitment = field(doc, "commitment", isHex64, "verify.hex64");
  const seedCommitment = field(doc, "seed_commitment", isHex64, "verify.hex64");
  const serverSeed = fromHex(field(doc, "server_seed", isHex64, "verify.hex64"));
  const seeds = field(doc, "client_seeds", (v) => Array.isArray(v) && v.every((s) => typeof s === "string" && CLIENT_SEED.test(s)), "verify.hex_seeds");
  const deck = field(doc, "deck", (v) => Array.isArray(v) && same([...v].sort((a, b) => a - b), Array.from({ length: 52 }, (_, i) => i)), "verify.deck_order");
  const checks = [];
  if (await sha256(serverSeed) !== seedCommitment) throw new Error(t("verify.bad_seed"));
  checks.push(t("verify.seed_ok", { commitment: seedCommitment.slice(0, 16) }));
  const made = await seededDeck(serverSeed, seeds);
  if (!same(made, deck)) {
    const at = made.findIndex((code, k) => code !== deck[k]);
    throw new Error(t("verify.bad_deck", { card: at + 1, file: cardOf(deck[at]), seeds: cardOf(made[at]) }));
  }
  checks.push(t("verify.deck_ok", { seeds: seeds.length }));
  if (await sha256(concat([serverSeed, Uint8Array.from(deck)])) !== commitment) throw new Error(t("verify.bad_commitment"));
  checks.push(t("verify.commitment_ok", { commitment: commitment.slice(0, 16) }));
  if (doc.players !== undefined) checks.push(...checkHand(doc, deck));
  return { deck: deck.map(cardOf), checks };
}

/** Your cards and the board at their places: hole cards one at a time from position 0
 * (R-BTN-3), a burn before the flop, the turn and the river (R-DECK-3). */
function checkHand(doc, deck) {
  const { players, hole_cards: holeCards, position, board } = doc;
  if (!Number.isInteger(players) || !Number.isInteger(holeCards) || players < 2 || players * holeCards + 8 > 52) throw new Error(t("verify.not_hand"));
  const checks = [];
  if (position !== undefined && position !== null) {
    const expected = Array.from({ length: holeCards }, (_, k) => cardOf(deck[k * players + position]));
    if (!Array.isArray(doc.your_cards) || !same(doc.your_cards, expected)) throw new Error(t("verify.bad_cards", { cards: String(doc.your_cards), expected: expected.join(" "), position }));
    checks.push(t("verify.cards_ok", { cards: expected.join(" ") }));
  }
  const first = players * holeCards;
  const places = [first + 1, first + 2, first + 3, first + 5, first + 7];
  const expected = places.slice(0, (board || []).length).map((k) => cardOf(deck[k]));
  if (!Array.isArray(board) || !same(board, expected)) throw new Error(t("verify.bad_board", { board: String(board), expected: expected.join(" ") }));
  if (board.length) checks.push(t("verify.board_ok", { board: expected.join(" ") }));
  return checks;
}

// ------------------------------------------------------------------ the replayer's panel

function panel(view) {
  const replayer = $(".replayer", view.root);
  let section = $(".verify-shuffle", replayer);
  if (section) return section;
  section = el("section", { class: "verify-shuffle", "aria-label": t("verify.title"), "data-i18n-aria-label": "verify.title" },
    el("div", { class: "row" },
      el("button", { type: "button", class: "vs-run", text: t("verify.title"), "data-i18n": "verify.title" }),
      el("a", { class: "vs-download", href: "#", text: t("verify.download"), "data-i18n": "verify.download" }),
      el("label", { class: "vs-file-label" }, el("span", { text: t("verify.check_file"), "data-i18n": "verify.check_file" }), " ",
        el("input", { type: "file", class: "vs-file", accept: "application/json,.json" }))),
    el("p", { class: "vs-status", role: "status" }),
    el("ol", { class: "vs-checks" }),
    el("div", { class: "vs-deck", "aria-label": t("verify.deck"), "data-i18n-aria-label": "verify.deck" }));
  replayer.append(section);
  $(".vs-file", section).addEventListener("change", async (event) => {
    const [file] = event.target.files;
    if (!file) return;
    let doc;
    try { doc = JSON.parse(await file.text()); } catch (error) { show(section, null, t("verify.not_json", { reason: error.message })); return; }
    await check(section, doc, t("verify.source_file", { name: file.name }));
    event.target.value = "";
  });
  return section;
}

function show(section, result, problem, source = "") {
  const status = $(".vs-status", section);
  status.dataset.verdict = result ? "ok" : "bad";
  status.textContent = result ? t("verify.verified", { source }) : source ? t("verify.not_verified_source", { source, problem }) : t("verify.not_verified", { problem });
  $(".vs-checks", section).replaceChildren(...(result ? result.checks : []).map((line) => el("li", { text: line })));
  $(".vs-deck", section).replaceChildren(...(result ? result.deck : []).map((code) => cardEl(code)));
}

async function check(section, doc, source) {
  try {
    show(section, await verifyShuffle(doc), null, source);
  } catch (error) {
    show(section, null, error.message, source);
  }
}

/** The panel's verdict cleared (a new hand, or a new language: verify again to read it). */
export function clearShuffle(view) {
  const section = $(".verify-shuffle", view.root);
  if (!section) return;
  $(".vs-status", section).textContent = "";
  delete $(".vs-status", section).dataset.verdict;
  $(".vs-checks", section).replaceChildren();
  $(".vs-deck", section).replaceChildren();
}

/** The panel for one hand of the replayer (called when a hand is opened). */
export function shufflePanel(view, handId) {
  const section = panel(view);
  const url = `/api/hands/${handId}/shuffle.json`;
  section.dataset.hand = String(handId);
  clearShuffle(view);
  $(".vs-run", section).onclick = async () => {
    let doc;
    try { doc = await api(url); } catch (error) { show(section, null, error.message); return; }
    await check(section, doc, t("verify.source_room", { hand: doc.hand }));
  };
  $(".vs-download", section).onclick = (event) => { event.preventDefault(); download(url, `hand-${handId}-shuffle.json`); };
}

// ------------------------------------------------------------------ every hand as it ends

const SEEDING = "pokerroom.addSeed"; // localStorage: "1" when the player adds seeds
const KEEP = 200; // hands remembered per map (a watcher sees commitments but no reveals)
const dealt = new Map(); // "table:hand" -> the deck commitment its table frames showed
const mine = new Map(); // seed commitment -> the client seed this page sent for it
const seededFor = new Map(); // table -> the seed commitment last seeded there
// Each revealed hand checked as it ends: {table, hand, seeded} or {..., problem} (state.js).

const seeding = () => localStorage.getItem(SEEDING) === "1";

function remember(map, key, value) {
  map.set(key, value);
  if (map.size > KEEP) map.delete(map.keys().next().value);
}

/** A table frame: note the hand's deck commitment; add a seed to the next shuffle if the
 * player asked to (once per next_seed, bound to it: docs/fairness.md). */
/** @param {import("./protocol").TableFrame} message @param {(message: import("./protocol").ClientMessage) => boolean} send */
export function onTable(message, send) {
  const hand = message.hand;
  if (hand && hand.commitment) remember(dealt, `${message.table}:${hand.number}`, hand.commitment);
  if (!seeding() || !message.you || !message.next_seed || seededFor.get(message.table) === message.next_seed) return;
  const seed = toHex(crypto.getRandomValues(new Uint8Array(16)));
  seededFor.set(message.table, message.next_seed);
  remember(mine, message.next_seed, seed);
  send({ type: "seed", table: message.table, seed, commitment: message.next_seed });
}

/** The room refused a seed that arrived after the shuffle it was for was dealt (seed.stale,
 * its commitment's first characters in ``sent``): that hand has none of ours, so its reveal is
 * not checked for it; the next table frame brings the next commitment, which is seeded then.
 * @param {import("./protocol").ErrorFrame} frame */
export function onStaleSeed(frame) {
  const sent = String(frame.params?.sent ?? "");
  if (!sent) return;
  for (const commitment of [...mine.keys()]) if (commitment.startsWith(sent)) mine.delete(commitment);
}

/** A hand's reveal (after its result): the commitment is the one shown during the hand, our
 * seed is in it, and the seeds make the deck; a warning if anything differs. */
/** @param {import("./protocol").DeckReveal} message */
export async function onReveal(message) {
  const key = `${message.table}:${message.hand}`;
  const shown = dealt.get(key);
  const seed = mine.get(message.seed_commitment);
  dealt.delete(key);
  mine.delete(message.seed_commitment);
  const entry = { table: message.table, hand: message.hand, seeded: Boolean(seed) };
  try {
    if (shown && shown !== message.commitment) throw new Error(t("verify.commitment_changed"));
    if (seed && !message.client_seeds.includes(seed)) throw new Error(t("verify.seed_left_out", { seed }));
    await verifyShuffle(message);
    recordShuffle(true, entry);
  } catch (error) {
    recordShuffle(false, { ...entry, problem: error.message });
    showToast(t("verify.failed_toast", { hand: message.hand_id, problem: error.message }));
  }
}

/** The "add my own seed" switch, at the top of a table's hand history. */
export function seedOption(view) {
  const side = $(".side-history", view.root);
  if ($(".vs-seed", side)) return;
  const box = el("input", { type: "checkbox", class: "vs-seed-on", checked: seeding() });
  box.addEventListener("change", () => localStorage.setItem(SEEDING, box.checked ? "1" : "0"));
  side.prepend(el("label", { class: "check vs-seed", title: t("verify.seed_title"), "data-i18n-title": "verify.seed_title" },
    box, " ", el("span", { text: t("verify.seed_label"), "data-i18n": "verify.seed_label" })));
}

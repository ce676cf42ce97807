// The WebSocket frames as the server's models define them (server/sockets/protocol.py).
// Written by `pokerroom protocol-types`; do not edit (a test compares it with the models).
// A field with a default in the model (but the `type` tag) is optional here: the model
// accepts it left out.

export type ServerFrame =
  | Welcome
  | HelloOk
  | Pong
  | ErrorFrame
  | ChatFrame
  | HandResult
  | TableFrame
  | DeckReveal
  | WaitingFrame
  | TournamentNotice
  | PrivateGameFrame
  | PrivateRequestFrame;

export type ClientMessage =
  | Hello
  | Watch
  | Unwatch
  | Join
  | AddChips
  | Act
  | Leave
  | SitOut
  | Options
  | Chat
  | Ping
  | Seed
  | WaitingList;

export interface Act {
  type: "act";
  table: string;
  action: "fold" | "check" | "call" | "check_or_call" | "bet_or_raise" | "run_twice" | "run_once";
  amount?: number;
  hand: number;
}

/** Top up or rebuy between hands (R-STAKE-1, R-STAKE-2), from the balance. */
export interface AddChips {
  type: "add_chips";
  table: string;
  amount: number;
  request: string;
}

/** R-BOMB-1: the hand is a bomb pot, ``big_blinds`` (``amount`` chips) from each. */
export interface BombPotMark {
  big_blinds: number;
  amount: number;
}

export interface BuyInRange {
  min: number;
  max: number;
}

export interface Chat {
  type: "chat";
  table: string;
  text: string;
}

export interface ChatFrame {
  type: "chat";
  table: string;
  from: string;
  text: string;
}

/** A hand's shuffle revealed when it has ended, to the players dealt into it (never to watchers, never for a cancelled hand): ``pokerroom.fairness.verify`` checks it. */
export interface DeckReveal {
  type: "deck_reveal";
  table: string;
  hand: number;
  hand_id: number;
  format: string;
  commitment: string;
  seed_commitment: string;
  server_seed: string;
  client_seeds: string[];
  deck: number[];
}

export interface ErrorFrame {
  type: "error";
  message: string;
  code?: string;
  params?: Record<string, string | number>;
  request?: string | null;
  table?: string | null;
}

/** A shown hand's name: its category and the ranks the name says, in the order it says them (``{"category": "full_house", "ranks": ["king", "seven"]}``: Kings over Sevens; one rank for the others, none for a royal flush). */
export interface HandName {
  category: "high_card" | "pair" | "two_pair" | "three_of_a_kind" | "straight" | "flush" | "full_house" | "four_of_a_kind" | "straight_flush" | "royal_flush";
  ranks: ("two" | "three" | "four" | "five" | "six" | "seven" | "eight" | "nine" | "ten" | "jack" | "queen" | "king" | "ace")[];
}

export interface HandResult {
  type: "hand_result";
  table: string;
  hand: number;
  board: string[];
  shown: ShownHand[];
  pots: PotResult[];
  rake: number;
  cancelled: boolean;
  second_board?: string[];
  bomb_pot?: number;
}

export interface HandState {
  number: number;
  phase: string;
  street: string;
  board: string[];
  pots: number[];
  collected: number[];
  button: number | null;
  small_blind_seat: number | null;
  big_blind_seat: number | null;
  actor: number | null;
  seconds_left: number | null;
  warning_left?: number | null;
  time_bank?: boolean;
  legal: Legal | null;
  commitment?: string | null;
  seed_commitment?: string | null;
  straddle?: Straddle | null;
  bomb_pot?: BombPotMark | null;
  second_board?: string[];
  runout_prompt?: boolean;
}

export interface Hello {
  type: "hello";
  token: string;
}

export interface HelloOk {
  type: "hello";
  account: number;
  name: string;
  seated?: string[];
}

export interface Join {
  type: "join";
  table: string;
  seat: number;
  buy_in: number;
  request: string;
}

export interface LastAction {
  action: "fold" | "check" | "call" | "bet" | "raise_to" | "all_in" | "sb" | "bb" | "ante" | "bb_ante" | "straddle" | "post";
  amount: number | null;
}

export interface Leave {
  type: "leave";
  table: string;
}

export interface Legal {
  can_check: boolean;
  call: number;
  call_all_in: boolean;
  min_raise_to: number | null;
  max_raise_to: number | null;
  is_bet: boolean;
  current_bet: number;
  pot: number;
  all_in_to: number;
  half_pot_raise_to: number | null;
  pot_raise_to: number | null;
}

/** A seated player's options; a field left out is left as it is. */
export interface Options {
  type: "options";
  table: string;
  auto_post?: boolean | null;
  wait_for_big_blind?: boolean | null;
  sit_out_next?: boolean | null;
  leave_after?: boolean | null;
  pre_action?: "check_fold" | "call_any" | "none" | null;
  straddle?: boolean | null;
  run_it_twice?: boolean | null;
}

export interface Ping {
  type: "ping";
}

export interface Pong {
  type: "pong";
}

export interface PotResult {
  pot: number;
  amount: number;
  share: string;
  hand: HandName | null;
  low: string;
  winners: Winner[];
  run?: number;
}

/** A private game as this viewer sees it, after a host's act (docs/private-games.md); ``act``: the logged act that changed it. */
export interface PrivateGameFrame {
  type: "private_game";
  table: string;
  game: Record<string, any>;
  act?: Record<string, any> | null;
}

/** To a private game's host: a player asks to sit. */
export interface PrivateRequestFrame {
  type: "private_request";
  table: string;
  account: number;
  name: string;
}

export interface SeatOffer {
  seat: number;
  seconds: number;
}

export interface SeatOptions {
  auto_post: boolean;
  owes_blinds: boolean;
  wait_for_big_blind: boolean;
  sit_out_next: boolean;
  leave_after: boolean;
  pre_action: string | null;
  auto_muck?: boolean;
  straddle?: boolean;
  run_it_twice?: boolean;
}

export interface SeatState {
  seat: number;
  empty: boolean;
  name?: string | null;
  stack?: number | null;
  status?: string | null;
  missed_big?: boolean | null;
  missed_small?: boolean | null;
  connected?: boolean | null;
  time_bank?: number | null;
  in_hand?: boolean | null;
  bet?: number | null;
  folded?: boolean | null;
  all_in?: boolean | null;
  cards?: string[] | null;
  card_count?: number | null;
  shown?: boolean | null;
  last_action?: LastAction | null;
  held_for?: string | null;
  rebuy_seconds_left?: number | null;
}

/** A seated player's own randomness for the next shuffle (docs/fairness.md), bound to the next hand's seed commitment (the table frame's ``next_seed``) that it was sent after. */
export interface Seed {
  type: "seed";
  table: string;
  seed: string;
  commitment: string;
}

export interface ShownHand {
  seat: number;
  cards: string[];
  high: HandName | null;
  low: string;
  best: string[];
  low_best?: string[];
}

export interface SitOut {
  type: "sit_out" | "sit_in";
  table: string;
}

/** R-STRADDLE-1: the live straddle of the hand. */
export interface Straddle {
  seat: number;
  amount: number;
}

export interface TableFrame {
  type: "table";
  table: string;
  version: number;
  name: string;
  game: string;
  variant: string;
  structure: string;
  small_blind: number;
  big_blind: number;
  stakes: [number, number];
  min_buy_in: number;
  max_buy_in: number;
  decision_seconds: number;
  offers?: TableOffers;
  ready?: number;
  needed?: number;
  waiting?: string[];
  you: number | null;
  options: SeatOptions | null;
  buy_in: BuyInRange | null;
  seats: SeatState[];
  hand: HandState | null;
  next_seed?: string | null;
  tournament?: TournamentInfo | null;
}

/** The table options beyond the seeds that this table offers (RULES.md). */
export interface TableOffers {
  straddle?: boolean;
  run_it_twice?: boolean;
  bomb_pot?: boolean;
}

/** A tournament table's level and standing. */
export interface TournamentInfo {
  id: string;
  name: string;
  level: number;
  small_blind: number;
  big_blind: number;
  ante: number;
  big_blind_ante: number;
  next_level_seconds: number | null;
  on_break: boolean;
  hand_for_hand: boolean;
  final_table: boolean;
  players_left: number;
  entrants: number;
  prize_pool: number;
  payouts: number[];
  ranks: number[][];
  bounties?: number[][];
}

/** A tournament's word to one player: it started, you were moved (``table`` is your table now: your screen opens it), hand-for-hand, the final table, you finished (``place`` and ``prize``), you won. */
export interface TournamentNotice {
  type: "tournament";
  tournament: string;
  kind: string;
  text: string;
  code?: string | null;
  params?: Record<string, string | number>;
  table?: string | null;
  place?: number | null;
  prize?: number | null;
}

/** The client shows the table no more (its view closed, or the player was moved on from it): its frames stop. A seat or a place on the waiting list there keeps them coming. */
export interface Unwatch {
  type: "unwatch";
  table: string;
}

/** Your place on a table's waiting list, sent to you whenever it changes. */
export interface WaitingFrame {
  type: "waiting";
  table: string;
  position: number | null;
  length: number;
  offer?: SeatOffer | null;
  note?: string | null;
  code?: string | null;
  params?: Record<string, string | number>;
}

/** Join or leave a table's waiting list: a freed seat is held for the first in line for a short time (``waiting`` frames tell the player). */
export interface WaitingList {
  type: "waiting_list";
  table: string;
  action: "join" | "leave";
}

export interface Watch {
  type: "watch" | "resync";
  table: string;
}

export interface Welcome {
  type: "welcome";
  version: number;
}

export interface Winner {
  seat: number;
  amount: number;
}

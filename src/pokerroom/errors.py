"""Every error a player or a client can be sent, named by a stable ``code`` with its
``params``, so that a client shows it in the player's language.

``TEMPLATES`` is the room's English catalogue: each code's message with its parameters in
braces. An error is raised with its code and params where it happens, in any layer
(``raise TableError(code="seat.taken", seat=3)``), and says its English message from the
template; the server sends the code and params as they are, never reading the English.
Every code is a key ``error.<code>`` in every message catalogue of the client
(src/pokerroom/web/i18n/*.json), checked by a test.

Parameters named in ``AMOUNTS`` are chip counts (cents): they are sent as integers, and the
client formats them as money in its language; the others are sent as text.
"""

from __future__ import annotations

from collections.abc import Mapping

Params = dict[str, str | int]

# code -> its English message, with its parameters in braces.
TEMPLATES: dict[str, str] = {
    # the protocol (server/sockets/protocol.py, http/socket.py)
    "protocol.slow_down": "slow down: too many messages (this one was refused)",
    # a state-changing message (options, sit out...) over the account's own rate at a table
    "protocol.account_slow_down": "slow down: your account sends too many changes to table"
    " '{table}' (this one was refused)",
    "protocol.binary": "binary frames are not part of the protocol ({size} bytes): send JSON text",
    "protocol.too_long": "message too long ({size} bytes; the limit is {limit})",
    "protocol.too_deep": "message nested too deeply (more than {limit} levels)",
    "protocol.not_json": "not JSON: {reason}",
    "protocol.no_type": 'a message is a JSON object with a "type"',
    "protocol.invalid": "'{type}' message: {field}: {reason}",
    # logging in
    "auth.log_in_first": "log in first (send a hello with your session token)",
    "auth.not_logged_in": "not logged in (the session is unknown, expired or revoked)",
    "auth.wrong_password": "unknown username or wrong password",
    "auth.locked": "too many failed log-ins: try again after {until}",
    "auth.bad_username": "a username has 3 to 32 letters, digits or underscores",
    "auth.short_password": "a password has at least {min_length} characters",
    "auth.username_taken": "the username '{name}' is taken",
    "auth.suspended": "this account is suspended",
    "auth.rate_limited": "too many log-in or sign-up requests: try again in {seconds} s",
    "auth.busy": "the server is busy checking passwords: try again in {seconds} s",
    "auth.no_token": "send 'Authorization: Bearer <token>'",
    "auth.operators_only": "the floor is for operators",
    # tables and seats
    "table.not_found": "no table '{table}'",
    # several nodes without Redis: nothing carries a request to the owner
    "table.elsewhere": "table '{table}' runs on node {node}: connect to that node",
    "table.too_many_watchers": "too many spectators: log in to watch",
    "table.busy": "table '{table}' is busy: try again in a moment",
    "table.yours_waiting": (
        "too many of your messages wait at table '{table}': this one was refused"
    ),
    "table.too_late": (
        "table '{table}' got your message too late ({seconds} s after it was sent): nothing changed"
    ),
    "table.recovering": "table {table} is recovering from a fault: try again in a moment",
    "table.no_answer": "table '{table}': its node did not answer",
    "table.already_open": "table '{table}' is already open",
    "table.closed": "this table is closed",
    "table.not_stored": "{what} was not stored ({reason}): nothing changed, try again",
    "seat.already_seated": "you already have a seat at this table (seat {seat})",
    "seat.player_seated": "'{player}' already has a seat at this table",
    "seat.take_first": "take a seat first",
    "seat.no_seat_here": "you have no seat at {table}",
    "seat.no_such": "seat {seat} does not exist (seats 1..{seats})",
    "seat.taken": "seat {seat} is taken",
    "seat.not_seated": "'{player}' is not seated at this table",
    "seat.no_sit_out": "seat {seat} cannot sit out of a tournament: an absent player is dealt"
    " in and blinded off (TDA 71)",
    "seat.waiting_already": "'{player}' is already on the waiting list",
    # the table options' seat settings (R-STRADDLE-1, R-RIT-1)
    "seat.no_straddle": "seat {seat} cannot straddle: the table offers no straddle",
    "seat.no_straddle_limit": "seat {seat} cannot straddle: not in fixed-limit",
    "seat.no_run_it_twice": "seat {seat}: the table does not run it twice",
    # the waiting list (table/waiting.py, server/tables/waiting.py); the last three are the notes of
    # a ``waiting`` frame (why a player left the list without a seat)
    "waiting.held": "seat {seat} is held for the first on the waiting list",
    "waiting.join_the_list": "{count} waiting for a seat here: join the waiting list",
    "waiting.not_on_list": "you are not on this table's waiting list",
    "waiting.tournament": "a tournament table has no waiting list: the event seats you",
    "waiting.no_chips": "your balance is below the table's minimum buy-in",
    "waiting.lapsed": "the seat was not taken in time",
    "waiting.table_closed": "the table was closed",
    # private games (server/private/games.py, docs/private-games.md)
    "private.not_found": "no private game '{game}'",
    "private.bad_code": "no private game has this code or link",
    "private.slow_down": "too many wrong codes: try again in {seconds} s",
    "private.invalid": "not possible in a private game: {reason}",
    "private.too_many": "you host {count} open private games: end one first",
    "private.hosts_only": "only the host of this game may do this",
    "private.host_stays": "the host cannot be removed or denied",
    "private.ended": "this private game has ended",
    "private.paused": "the game is already paused",
    "private.not_paused": "the game is not paused",
    "private.no_request": "player {account} has not asked to sit in this game",
    "private.not_approved": "the host has not approved you at this game",
    "private.cash_only": "a sit & go has no such act: its blinds are its levels",
    "private.sit_and_go_only": "this private game is a cash game, not a sit & go",
    "private.running": "the sit & go has started: it is played to its end",
    "private.too_few": "a sit & go starts with 2 players or more ({count} registered)",
    # tournaments (tournament/*, server/tournaments/runner.py,
    # store/tournaments/statements.py): the errors of the lobby's requests, then the notes
    # of a ``tournament`` frame (its ``kind``)
    "tournament.not_found": "no tournament '{tournament}'",
    "tournament.elsewhere": "tournament {tournament} runs on node {node}: ask that node",
    "tournament.table_seats": "{table} is a tournament table: its seats are drawn by the"
    " tournament",
    "tournament.table_floor": "a tournament table is run by its tournament",
    "tournament.did_not_play": "you did not play {tournament}",
    "tournament.registration_closed": "{event}: registration is closed",
    "tournament.already_in": "'{player}' is already in {event} (entry {entry})",
    "tournament.re_entries_used": "'{player}' has used {used} of {limit} re-entries in {event}",
    "tournament.full": "{event} is full ({limit} entries)",
    "tournament.not_registered": "'{player}' is not registered in {event}",
    "tournament.cannot_unregister": "{event} has started: '{player}' cannot unregister",
    "tournament.account_not_registered": "player {account} is not registered in {event}",
    "tournament.already_registered": "entry {number} of player {account} is already registered",
    "tournament.key_taken_back": "request key '{key}' registered an entry that was taken back:"
    " send a new request key to register again",
    "tournament.not_in": "you are not in {event}",
    "tournament.cannot_rebuy": "entry {entry} cannot rebuy now in {event}",
    "tournament.rebuy_not_next": "entry {entry} has made {done} rebuys in {event}:"
    " rebuy {number} is not the next, nothing was bought",
    "tournament.no_rebuy_offer": "entry {entry} has no rebuy offered in {event}",
    "tournament.rebuy_offered": "you are out of chips: rebuy within {seconds} s or you are out",
    "tournament.cannot_addon": "entry {entry} cannot take the add-on now in {event}",
    "tournament.addon_taken": "entry {entry} has taken the add-on in {event}: one per entry",
    "tournament.deal_open": "{event}: a deal is already proposed",
    "tournament.no_deal": "{event}: no deal is proposed",
    "tournament.deal_wait": "{event}: the deal's amounts come when the hand ends",
    "tournament.deal_done": "{event}: a deal has been made",
    "tournament.deal_final_table": "{event}: a deal is made at the final table only",
    "tournament.deal_pool": "{event}: the prize pool is not final yet",
    "tournament.deal_between_hands": "{event}: a deal is made between hands",
    "tournament.deal_keep": "{event}: {amount} cannot be kept back for the title",
    "tournament.deal_missing": "{event}: no deal without {players}",
    "tournament.deal_once_a_level": "{event}: you proposed a deal in level {level}:"
    " one proposal a level",
    "tournament.deal_lapsed": "the deal lapsed: not every player answered in time",
    "tournament.deal_proposed": "{who} proposes a deal ({kind})",
    "tournament.deal_declined": "{who} declined the deal",
    "tournament.deal_made": "the deal is made: you take {amount}",
    "tournament.deal_restarted": "the deal being agreed was cancelled by a restart of the room:"
    " propose it again",
    "tournament.cancelled_refunded": "{event} was cancelled: your buy-in is refunded",
    "tournament.cancelled": "{event} was cancelled",
    "tournament.table_ended": "{event} has finished: its tables are closed",
    "tournament.started": "{event} has started",
    "tournament.late_seat": "you sit at table {table}",
    "tournament.moved_break": "you were moved to table {table} (your table broke)",
    "tournament.moved": "you were moved to table {table}",
    "tournament.final_table": "the final table is table {table}",
    "tournament.hand_for_hand": "hand-for-hand: every table deals together",
    "tournament.hand_for_hand_over": "hand-for-hand is over",
    "tournament.eliminated": "you are out",
    "tournament.bounty_own": "you won your own bounty of {amount}",
    "tournament.bounty_won": "you won {amount} for eliminating {busted}",
    "tournament.won": "you won {event}",
    "tournament.place_tied_prize": "you finished in place {place} of {entrants}"
    " (tied for places {first}-{last}) and won {amount}",
    "tournament.place_tied": "you finished in place {place} of {entrants}"
    " (tied for places {first}-{last})",
    "tournament.place_prize": "you finished in place {place} of {entrants} and won {amount}",
    "tournament.place": "you finished in place {place} of {entrants}",
    "chips.not_whole": "a buy-in must be a positive whole number of chips, got {amount}",
    "chips.below_minimum": "buy-in of {amount} leaves {total} chips: the minimum is {min}",
    "chips.above_maximum": "buy-in of {amount} would make {total} chips: the maximum is {max}",
    "chips.during_hand": "seat {seat} cannot add chips during a hand (table stakes, R-STAKE-1)",
    "chips.insufficient": "player {account} has {balance} chips, cannot pay {amount}",
    "chips.key_used": "request key '{key}' was already used in a sitting that has ended:"
    " it cannot buy in or seat again (send a new request key)",
    "chips.key_amount": "request key '{key}' moved {posted} chips, not {amount}:"
    " a key names one request",
    "chips.key_seat": "request key '{key}' seated you at seat {seated}, not seat {seat}",
    "chat.slow_down": "slow down: too many chat messages",
    "seed.take_seat_first": "take a seat first: only players add seeds to the shuffle",
    "seed.stale": "your seed was sent for the shuffle committed as {sent}... but the next"
    " hand's is {next}...: send it again with the latest table frame's next_seed",
    # the hand
    "hand.none": "no hand is in progress",
    "hand.stale": "hand {hand} is not the hand in progress",
    "hand.in_progress": "a hand is already in progress",
    "hand.not_in_hand": "seat {seat} cannot act: it is not in a hand in progress",
    "hand.cannot_check": "{name} cannot check: facing a bet of {bet} (to call: {call})",
    "hand.nothing_to_call": "{name} cannot call: there is no bet to call (check instead)",
    "hand.not_your_turn": "{name} cannot {action}: it is seat {seat}'s turn",
    "hand.no_one_to_act": "{name} cannot {action}: no one is to act",
    "hand.over": "{name} cannot {action}: the hand is {phase}",
    "hand.showdown": "{name} cannot {action} at showdown: show or muck",
    "hand.betting": "{name} cannot {action}: the {street} betting is on",
    "hand.whole_chips": "{name} cannot {action} {amount}: amounts are whole chips",
    "hand.below_minimum": "{name} cannot {action} {amount}: minimum is {min}",
    "hand.limit": "{name} cannot {action} {amount}: the limit bet is to {max}",
    "hand.above_maximum": "{name} cannot {action} {amount}: maximum is {max}",
    "hand.cannot_muck": "{name} cannot muck: {reason}",
    # R-RIT-1: an answer to run it twice with no prompt, or an action during the prompt
    "hand.no_runout": "{name} cannot {action}: there is no run-out to choose",
    "hand.runout_asked": "{name} cannot {action}: the players are choosing whether to run it twice",
    "hand.cannot_raise": "{name} cannot {action}: {reason}",
    # the HTTP API (routes/*)
    "hands.not_found": "no finished hand {hand} of yours",
    "hands.broken": "hand {hand} does not replay: {reason}",
    "fairness.cancelled": "hand {hand} was cancelled: a cancelled hand's deck is never revealed",
    "fairness.unseeded": "hand {hand} was dealt before shuffles were seeded:"
    " it has nothing to check",
    "results.position": "position '{position}' is not one of {known}",
    "results.dates": "the dates run backwards: {since} is after {until}",
    "floor.period": "a report's period is at most {days} days",
    "preferences.unknown": "unknown preference '{field}'",
    "preferences.invalid": "preference '{field}': {reason}",
    "floor.no_hand": "no finished hand {hand}",
    "floor.event_elsewhere": "tournament {tournament} runs on another node: act on it there",
    "floor.no_structure": "no tournament structure '{structure}'",
    "floor.not_registering": "tournament {tournament} is no longer registering: only an event"
    " not started can be started or cancelled with refunds",
    "floor.too_few_entrants": "tournament {tournament} needs {least} entrants to start;"
    " it has {entrants}",
    "floor.reason_required": "the floor says why: a reason is required",
    "floor.not_finished": "hand {hand} is not a finished hand",
    "floor.zero_correction": "a correction moves a non-zero amount",
    "floor.no_account": "no account {account}",
    "hands.bad_ids": "ids: a comma-separated list of hand numbers",
    "hands.ids_count": "ids: from 1 to {limit} hand numbers",
    "metrics.operators_only": "metrics are for the room's operators",
    "private.code_or_invite": "send a code or an invite, one of them",
    "private.stakes_needed": "a cash game needs its stakes",
    "private.no_bomb_pots": "the game has no bomb pots",
    "private.bomb_pot_size": "a bomb pot is 1 to {limit} big blinds",
    "private.no_sit_and_go": "this room makes no private sit & gos",
    "table.no_bomb_pots": "no bomb pot: the table does not offer bomb pots",
    "table.bomb_pot_whole": "a bomb pot is a whole number of big blinds, not {big_blinds}",
    "table.bomb_pot_size": "a bomb pot of {big_blinds} big blinds: the table allows 1 to {limit}",
    "table.stakes_during_hand": "the stakes change between hands, not during one (TDA 23)",
    "seat.in_hand": "seat {seat} is in the hand in progress: remove it after",
    "request.too_large": "the request is too large (the limit is {limit} bytes)",
    "request.not_json": "the request is not a JSON object",
}
# Codes the server gives errors with no code of their own: an unexpected exception, an HTTP
# status, a request FastAPI refused before it reached a route.
GENERIC: dict[str, str] = {
    "error.unknown": "{message}",
    "request.invalid": "{field}: {reason}",
    "http.not_found": "Not Found",
    "http.method_not_allowed": "Method Not Allowed",
    "http.error": "HTTP {status}",
}
AMOUNTS = frozenset({"amount", "total", "min", "max", "bet", "call", "balance", "posted"})
CODES: frozenset[str] = frozenset(TEMPLATES) | frozenset(GENERIC)


def message(code: str, **params: str | int) -> str:
    """The English message of ``code`` with its parameters."""
    return (TEMPLATES.get(code) or GENERIC[code]).format(**params)


def wire_params(params: Mapping[str, str | int]) -> Params:
    """``params`` as the wire sends them: chip amounts as integers, the rest as text."""
    return {
        name: value if name in AMOUNTS and isinstance(value, int) else str(value)
        for name, value in params.items()
    }


class CodedError(Exception):
    """An error that carries its ``code`` and ``params``; its message is the code's English
    text with them. The specific errors of each layer derive from it (beside ``ValueError``
    and the like), so that a handler catches them by their kind and sends them by their code.

    Raised with a message and no code (an error no player is meant to meet), its code is
    ``error.unknown`` and its one parameter the message."""

    code: str
    params: Params

    def __init__(self, *args: object, code: str | None = None, **params: str | int) -> None:
        if code is None:
            super().__init__(*args)
            self.code = "error.unknown"
            self.params = {"message": str(args[0]) if args else ""}
        else:
            assert not args, "a coded error's message comes from its code's template"
            super().__init__(message(code, **params))
            self.code = code
            self.params = dict(params)


def code_of(error: BaseException) -> tuple[str, Params]:
    """The code and wire params of any error: its own, or ``error.unknown`` with its text."""
    if isinstance(error, CodedError):
        return error.code, wire_params(error.params)
    return "error.unknown", {"message": str(error)}

"""PHH hand histories: read, replay through the engine, and write (see shared/PHH.md).

Posts by new and returning players (R-SEAT-2, R-SEAT-3, R-SEAT-4, R-BLIND-8) are written in
the standard fields, so that another reader (PokerKit) replays them to our stacks:

- a live post (a big blind posted out of position) is a negative ``blinds_or_straddles``
  entry, PokerKit's "post bet": the chips count towards the player's bet as a blind's do,
  but unlike a blind or straddle it does not decide who acts first (PokerKit opens the
  betting left of the largest positive blind or straddle, as our engine does);
- a dead post goes into ``antes`` with ``ante_trimming_status = false``: dead money in the
  main pot that any player still in the hand can win, not part of the player's bet.

The user field ``_extra_posts`` lists those posts, [position, live, dead], so that our reader
takes them back out of the standard fields and deals the hand with the same forced bets.
The user field ``_posts`` (the only one in files written before) lists posts that are not in
the standard fields; our reader adds them on top.

What PHH cannot say exactly:

- A live post by a player who also posts a blind: one ``blinds_or_straddles`` entry cannot
  be both a blind and a post bet. The table never deals one (a blind is not asked to post);
  an engine-made hand with one writes the blind, and the live post in ``_posts`` only, so
  PokerKit loads the hand but plays it without those chips.
- A dead post in a hand whose own antes are live (``ante_trimming_status = true``): PHH has
  one trimming status for all antes. The antes are written dead (``false``) and the user
  field ``_ante_trimming_status = true`` keeps the truth for our reader. When every player
  posted the same ante in full, dead and live antes share the pots alike, so PokerKit's
  stacks are still ours; only a short or uneven ante makes them differ. The table never
  deals one (cash tables have no antes, tournament tables no posts).
"""

from __future__ import annotations

import datetime as dt
import json
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerroom.cards import CardError, format_cards, parse_cards
from pokerroom.engine.errors import HandError, SetupError
from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    CardsShown,
    ForcedBet,
    HandMucked,
    HoleCardsDealt,
    Move,
    PlayerProtected,
    RunoutAnswered,
    SecondBoardDealt,
)
from pokerroom.engine.hand import Hand, Phase
from pokerroom.engine.setup import ExtraPost, HandSetup, Player, arrange_deck
from pokerroom.history.phh_actions import (
    RUN_ONCE_NOTE,
    RUN_TWICE_NOTE,
    PHHLog,
    chips,
    player_index,
)
from pokerroom.history.phh_actions import PHHError as PHHError
from pokerroom.history.viewer import EVERYONE, ViewerHand, viewer_hand
from pokerroom.rules.errors import RulesError
from pokerroom.rules.game import STANDARD_PHH_CODES, GameSpec, Stakes, Structure
from pokerroom.rules.house import STANDARD, load_preset

_PHH_MOVES = {Move.FOLD: "f", Move.CHECK: "cc", Move.CALL: "cc"}  # else "cbr" to the bet


@dataclass(frozen=True, slots=True)
class PHHHand:
    """One hand as read from a file: its fields, and where it came from."""

    fields: dict[str, Any]
    path: str = ""
    index: int = 0  # the hand's number in a .phhs file, else 0


@dataclass(slots=True)
class ReplayResult:
    hand: Hand
    finishing_stacks: list[int]
    expected: list[int] | None = None
    notes: list[str] = field(default_factory=list)


def load_text(text: str, path: str = "") -> list[PHHHand]:
    """Parse a .phh (one hand) or .phhs (tables [1], [2], ...) text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PHHError(f"{path or 'text'}: not valid TOML: {error}") from None
    if "actions" in data or "variant" in data:
        return [PHHHand(data, path, 0)]
    hands = []
    for key, value in data.items():
        if isinstance(value, dict) and key.isdigit():
            hands.append(PHHHand(value, path, int(key)))
    if not hands:
        raise PHHError(f"{path or 'text'}: no hand found (no 'actions', no [1], [2]... tables)")
    return hands


def load_file(path: str | Path) -> list[PHHHand]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PHHError(f"{p}: cannot read: {error}") from None
    return load_text(text, str(p))


def iter_paths(paths: Sequence[str | Path]) -> Iterator[Path]:
    """Files given, and .phh/.phhs files found recursively in folders given."""
    for path in paths:
        p = Path(path)
        if p.is_dir():
            yield from sorted(
                (f for f in p.rglob("*") if f.suffix in (".phh", ".phhs") and f.is_file()),
                key=lambda f: [
                    (0, int(s), "") if s.isdigit() else (1, 0, s) for s in f.with_suffix("").parts
                ],
            )
        else:
            yield p


def _amounts(fields: dict[str, Any], key: str, n: int, scale: int) -> list[int]:
    raw = fields.get(key, [0] * n)
    if not isinstance(raw, list) or len(raw) != n:
        raise PHHError(f"{key}: expected {n} entries, got {raw!r}")
    return [chips(v, scale, key) for v in raw]


def _cards(text: str, action: str) -> list[int | None]:
    """Card codes, None for each unknown ``??``."""
    out: list[int | None] = []
    if len(text) % 2:
        raise PHHError(f"action {action!r}: {text!r} is not a list of cards")
    for k in range(0, len(text), 2):
        token = text[k : k + 2]
        if token == "??":
            out.append(None)
            continue
        try:
            out.append(parse_cards(token)[0].code)
        except CardError as error:
            raise PHHError(f"action {action!r}: {error}") from None
    return out


def _deck_for(actions: list[str], n: int, hole_count: int) -> list[int]:
    """A deck order under which the engine deals exactly the cards the history shows; a
    board of more than five cards was run twice (R-RIT-1): the cards past the fifth are
    the second run-out."""
    hole: list[list[int | None]] = [[] for _ in range(n)]
    shown: list[list[int | None]] = [[] for _ in range(n)]
    board: list[int | None] = []
    for action in actions:
        parts = action.split()
        if len(parts) >= 4 and parts[0] == "d" and parts[1] == "dh":
            hole[player_index(parts[2], n, action)].extend(_cards(parts[3], action))
        elif len(parts) >= 3 and parts[0] == "d" and parts[1] == "db":
            board.extend(_cards(parts[2], action))
        elif len(parts) >= 3 and parts[1] == "sm" and parts[2] != "-":
            shown[player_index(parts[0], n, action)] = _cards(parts[2], action)
    for i in range(n):
        if len(hole[i]) > hole_count:
            raise PHHError(
                f"p{i + 1} is dealt {len(hole[i])} hole cards; the game has {hole_count}"
            )
        hole[i].extend([None] * (hole_count - len(hole[i])))
        for k, card in enumerate(shown[i][:hole_count]):
            if hole[i][k] is None:
                hole[i][k] = card
            elif card is not None and card != hole[i][k] and card not in hole[i]:
                raise PHHError(f"p{i + 1} shows cards they were not dealt")
    try:
        return arrange_deck(hole, board[:5], hole_count, board[5:])
    except SetupError as error:
        raise PHHError(str(error)) from None


def _posts(raw: Any, scale: int, key: str) -> list[ExtraPost]:
    """Our user fields ``_extra_posts`` and ``_posts``: [position, live, dead] for new and
    returning players (see the module's docstring)."""
    if not isinstance(raw, list):
        raise PHHError(f"{key} must be a list of [position, live, dead]")
    posts = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], int)):
            raise PHHError(f"{key}: {item!r} is not [position, live, dead]")
        posts.append(
            ExtraPost(
                position=item[0],
                live=chips(item[1], scale, key),
                dead=chips(item[2], scale, key),
            )
        )
    return posts


def _blinds(fields: dict[str, Any], n: int, scale: int) -> tuple[list[int], list[int]]:
    """``blinds_or_straddles`` as the blinds and straddles, and the post bets (PokerKit's
    negative entries: a live post by a player who joins or comes back, R-SEAT-2)."""
    raw = fields.get("blinds_or_straddles", [0] * n)
    if not isinstance(raw, list) or len(raw) != n:
        raise PHHError(f"blinds_or_straddles: expected {n} entries, got {raw!r}")
    blinds, post_bets = [0] * n, [0] * n
    for i, value in enumerate(raw):
        negative = isinstance(value, int | float) and not isinstance(value, bool) and value < 0
        amount = chips(-value if negative else value, scale, "blinds_or_straddles")
        if negative:
            post_bets[i] = amount
        else:
            blinds[i] = amount
    return blinds, post_bets


def _uncount(
    counted: list[ExtraPost], post_bets: list[int], antes: list[int], f: dict[str, Any]
) -> tuple[list[int], bool]:
    """Take the posts of ``_extra_posts`` back out of the post bets and antes they were
    written in (in place for the antes); the post bets left, and the hand's own ante
    trimming status (``_ante_trimming_status`` when the file gives it; with no ante left
    but the dead posts, live as the writer counts a hand without antes)."""
    left = list(post_bets)
    n = len(antes)
    for post in counted:
        i = post.position
        if not 0 <= i < n or left[i] < post.live or antes[i] < post.dead:
            raise PHHError(f"_extra_posts: {[i, post.live, post.dead]} is not in the posts written")
        left[i] -= post.live
        antes[i] -= post.dead
    own = f.get("_ante_trimming_status")
    if own is not None:
        if not isinstance(own, bool):
            raise PHHError(f"_ante_trimming_status must be true or false, got {own!r}")
        return left, own
    dead = any(post.dead for post in counted)
    return left, True if dead and not any(antes) else bool(f.get("ante_trimming_status", False))


def _bomb_pot(raw: Any) -> int:
    """Our user field ``_bomb_pot``: the big blinds each player put in (R-BOMB-1)."""
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise PHHError(f"_bomb_pot must be a whole number of big blinds, got {raw!r}")
    return raw


def phh_setup(phh: PHHHand, *, scale: int = 1) -> tuple[HandSetup, list[str]]:
    """The setup a history's hand is dealt from (the record a table deals from), and the
    history's actions."""
    f = phh.fields
    code = f.get("variant")
    if not isinstance(code, str):
        raise PHHError("missing 'variant'")
    try:
        variant, structure = GameSpec.from_phh_code(code)
    except RulesError as error:
        raise PHHError(str(error)) from None
    stacks_raw = f.get("starting_stacks")
    if not isinstance(stacks_raw, list) or not 2 <= len(stacks_raw) <= 10:
        raise PHHError("'starting_stacks' must list 2 to 10 stacks")
    n = len(stacks_raw)
    stacks = [chips(v, scale, "starting_stacks") for v in stacks_raw]
    blinds, post_bets = _blinds(f, n, scale)
    antes = _amounts(f, "antes", n, scale)
    if n == 2:  # heads-up: the button (p2) posts the small blind (PHH.md)
        blinds.reverse()
        post_bets.reverse()
        antes.reverse()
    ante_trimming = bool(f.get("ante_trimming_status", False))
    counted = _posts(f.get("_extra_posts", []), scale, "_extra_posts")
    if counted:
        post_bets, ante_trimming = _uncount(counted, post_bets, antes, f)
    posts = [ExtraPost(position=i, live=live) for i, live in enumerate(post_bets) if live]
    posts += counted + _posts(f.get("_posts", []), scale, "_posts")
    if structure is Structure.FIXED_LIMIT:
        if "small_bet" not in f:
            raise PHHError(f"{code} needs 'small_bet' and 'big_bet'")
        big = chips(f["small_bet"], scale, "small_bet")
    else:
        if "min_bet" not in f:
            raise PHHError(f"{code} needs 'min_bet'")
        big = chips(f["min_bet"], scale, "min_bet")
    if big <= 0:
        raise PHHError("the minimum bet must be positive")
    small = min((b for b in blinds if b), default=0)
    house = STANDARD
    house_name = f.get("_house")
    if isinstance(house_name, str) and house_name != STANDARD.name:
        try:
            house = load_preset(house_name)
        except RulesError as error:
            raise PHHError(str(error)) from None
    if "_run_count" in f:  # ours: the table offered to run it twice (R-RIT-1)
        house = house.with_options(run_it_twice=True)
    actions = f.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError("'actions' must be a list of strings")
    after = f.get("_actions_after_timeout", [])  # ours: see ``phh_fields``
    if not isinstance(after, list) or not all(isinstance(a, str) for a in after):
        raise PHHError("'_actions_after_timeout' must be a list of strings")
    actions = actions + after
    seats = f.get("seats")
    seat_numbers = seats if isinstance(seats, list) and len(seats) == n else list(range(1, n + 1))
    names = f.get("players")
    player_names = names if isinstance(names, list) and len(names) == n else [""] * n
    try:
        spec = GameSpec(
            variant=variant,
            structure=structure,
            stakes=Stakes(small_blind=min(small, big), big_blind=big),
        )
        # The same record a table deals from: the hand keeps it with its log of actions.
        setup = HandSetup(
            spec=spec,
            house=house,
            players=tuple(
                [
                    Player(seat=int(seat_numbers[i]), stack=stacks[i], name=str(player_names[i]))
                    for i in range(n)
                ]
            ),
            deck=tuple(_deck_for(actions, n, variant.hole_cards)),
            blinds=tuple(blinds),
            antes=tuple(antes),
            ante_trimming=ante_trimming,
            posts=tuple(posts),
            auto_showdown=False,
            cash_table=house.cash_table,
            bomb_pot=_bomb_pot(f.get("_bomb_pot", 0)),
        )
    except (HandError, RulesError) as error:
        raise PHHError(str(error)) from None
    return setup, actions


def hand_from_phh(phh: PHHHand, *, scale: int = 1) -> tuple[Hand, list[str]]:
    """Build the engine hand a history describes (before its player actions)."""
    setup, actions = phh_setup(phh, scale=scale)
    try:
        return Hand.from_setup(setup), actions
    except HandError as error:
        raise PHHError(str(error)) from None


def replay_steps(phh: PHHHand, *, scale: int = 1) -> Iterator[tuple[str, Hand]]:
    """Replay a history with the engine's one replay (``Hand.steps``): the hand as dealt
    first (with an empty line), then the hand after each action the engine applies, with
    the line it came from (a line that changes nothing, a board dealt or a check no one can
    bet against, yields no step)."""
    setup, lines = phh_setup(phh, scale=scale)
    reader = PHHLog(lines, scale)
    steps = Hand.steps(setup, reader.actions())  # the reader's first line is read after
    try:  # the deal, which comes first
        reader.hand = hand = next(steps)
        yield "", hand
        for hand in steps:
            yield reader.line, hand
    except HandError as error:
        raise PHHError(f"{reader.where}: {error}" if reader.where else str(error)) from None
    reader.check_end(hand)


def replay(phh: PHHHand, *, scale: int = 1) -> ReplayResult:
    """Replay a history through the engine; its stacks are the engine's, not the file's."""
    steps = replay_steps(phh, scale=scale)
    _, hand = next(steps)
    n = hand.n
    for _ in steps:
        pass
    if hand.phase is Phase.SHOWDOWN:
        hand.finish_showdown()
    if not hand.is_over and phh.fields.get("_cancelled") is True:  # ours: R-DECK-5
        hand.cancel("cancelled")
    if not hand.is_over:
        who = hand.seats[hand.actor] if hand.actor is not None else "?"
        raise PHHError(
            f"the history ends before the hand does (p{(hand.actor or 0) + 1}, seat {who}, to act)"
        )
    expected_raw = phh.fields.get("finishing_stacks")
    expected = None
    if isinstance(expected_raw, list) and len(expected_raw) == n:
        expected = [v * scale for v in expected_raw]
    return ReplayResult(hand=hand, finishing_stacks=list(hand.stacks), expected=expected)


# ---------------------------------------------------------------------- writing


def _toml_value(value: Any) -> str:
    if isinstance(value, dt.time):  # a TOML local time, as PHH's ``time`` field is
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to PHH")


def to_toml(fields: dict[str, Any]) -> str:
    return "".join(f"{key} = {_toml_value(value)}\n" for key, value in fields.items())


def phh_fields(seen: Hand | ViewerHand, /, **extra: Any) -> dict[str, Any]:
    """A finished (or cancelled) hand as PHH fields, actions rebuilt from its event log.

    A bare ``Hand`` is the room's own record, every card written; a ``ViewerHand`` writes
    what that viewer may see (S-EXPORT-1), ``??`` for each card hidden from them.
    """
    view = seen if isinstance(seen, ViewerHand) else viewer_hand(seen, EVERYONE)
    hand = view.hand
    n = hand.n
    blinds = list(hand.blinds)  # the blinds' size, also when one was posted short (R-BLIND-7)
    antes = [0] * n
    live_posts, dead_posts = [0] * n, [0] * n
    trimming = True
    actions: list[str] = []
    for event in hand.events:
        match event:
            case ForcedBet(position=i, what=what, amount=amount, dead=dead):
                if what.is_ante:
                    antes[i] += amount
                    trimming = trimming and not dead
                elif not what.is_blind:
                    (dead_posts if dead else live_posts)[i] += amount
            case HoleCardsDealt(position=i, cards=cards):
                hidden = view.cards(i) is None
                text = "??" * len(cards) if hidden else format_cards(cards)
                actions.append(f"d dh p{i + 1} {text}")
            case BoardDealt(cards=cards) | SecondBoardDealt(cards=cards):
                # R-RIT-1: a second run-out follows the first, as PokerKit writes one
                actions.append(f"d db {format_cards(cards)}")
            case RunoutAnswered(position=i, agreed=agreed):
                actions.append(f"# p{i + 1} {RUN_TWICE_NOTE if agreed else RUN_ONCE_NOTE}")
            case ActionTaken(position=i, action=verb, to=to, timed_out=timed_out):
                text = _PHH_MOVES.get(verb, f"cbr {to}")
                actions.append(f"p{i + 1} {text}" + (" # timeout" if timed_out else ""))
            case PlayerProtected(position=i):
                actions.append(f"# p{i + 1} timeout")
            case CardsShown(position=i, cards=cards):
                actions.append(f"p{i + 1} sm {format_cards(cards)}")
            case HandMucked(position=i):
                actions.append(f"p{i + 1} sm")
            case _:
                pass
    # The posts go in the standard fields (see the module's docstring), a live post as a
    # post bet, a dead one as an ante; a live post beside a blind only in ``_posts``.
    in_fields: list[list[int]] = []
    uncounted: list[list[int]] = []
    own_antes = any(antes)
    for k in range(n):
        live_chips = 0 if blinds[k] else live_posts[k]
        if live_chips or dead_posts[k]:
            in_fields.append([k, live_chips, dead_posts[k]])
            blinds[k] -= live_chips
            antes[k] += dead_posts[k]
        if live_posts[k] and not live_chips:
            uncounted.append([k, live_posts[k], 0])
    written_trimming = trimming and not any(dead_posts)
    if n == 2:  # back to PHH's heads-up order
        blinds.reverse()
        antes.reverse()
    fields: dict[str, Any] = {"variant": hand.spec.phh_code}
    fields["ante_trimming_status"] = written_trimming
    fields["antes"] = antes
    fields["blinds_or_straddles"] = blinds
    if hand.structure is Structure.FIXED_LIMIT:
        fields["small_bet"] = hand.big_blind
        fields["big_bet"] = 2 * hand.big_blind
    else:
        fields["min_bet"] = hand.big_blind
    fields["starting_stacks"] = list(hand.starting_stacks)
    # PHH cannot say that a player timed out under all-in protection (R-TIME-2: in for the pot
    # as it stands, without calling): its actions end there, so that every reader plays them,
    # and the rest of the hand, that time-out first, is the user field
    # ``_actions_after_timeout`` (our reader plays on through it).
    cut = next(
        (
            k
            for k, line in enumerate(actions)
            if line.startswith("# p") and line.endswith("timeout")
        ),
        len(actions),
    )
    fields["actions"] = actions[:cut]
    if cut < len(actions):
        fields["_actions_after_timeout"] = actions[cut:]
    fields["players"] = [
        name or f"seat {seat}" for name, seat in zip(hand.names, hand.seats, strict=True)
    ]
    fields["seats"] = list(hand.seats)
    fields["seat_count"] = max(hand.house.max_seats, max(hand.seats))
    fields["finishing_stacks"] = list(hand.stacks)
    fields["_rake"] = hand.rake
    fields["_house"] = hand.house.name
    if any(isinstance(e, RunoutAnswered) for e in hand.events):  # asked: 1 or 2 runs
        fields["_run_count"] = hand.runs
    if hand.bomb_pot:
        fields["_bomb_pot"] = hand.bomb_pot
    if in_fields:
        fields["_extra_posts"] = in_fields
        if trimming != written_trimming and own_antes:
            fields["_ante_trimming_status"] = trimming  # live antes beside dead posts
    if uncounted:
        fields["_posts"] = uncounted
    if hand.phase is Phase.CANCELLED:
        fields["_cancelled"] = True
    fields.update(extra)
    return fields


def write_phh(seen: Hand | ViewerHand, /, **extra: Any) -> str:
    """The hand as a .phh text (our variant codes PT, NO, FO, PO/8, NO/8 included); a bare
    ``Hand`` is the room's record, a ``ViewerHand`` one player's download."""
    return phh_text(phh_fields(seen, **extra))


def phh_text(fields: dict[str, Any]) -> str:
    """PHH fields as a .phh text, with a note when the variant is pokerroom's own code."""
    code = fields["variant"]
    note = "" if code in STANDARD_PHH_CODES else f"# {code} is pokerroom's code; PHH has none\n"
    return note + to_toml(fields)


def write_phhs(hands: Sequence[Hand]) -> str:
    """Several hands as one .phhs text, tables [1], [2], ..."""
    return "\n".join(
        f"[{k}]\n" + to_toml(phh_fields(hand)) for k, hand in enumerate(hands, start=1)
    )

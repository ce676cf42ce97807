"""PokerStars-style hand-history text, the format common tracking programs import.

Written from a finished hand's event log. A history is written for one viewer:
their own hole cards ("Dealt to") and the cards shown at showdown, never another
player's hidden or mucked hand (S-VIEW-1).

A tournament hand (``tournament=``) is written as PokerStars writes one, matched to the
regular expressions of fpdb's ``PokerStarsToFpdb.py`` (an open tracker's PokerStars import):
the header ``PokerStars Hand #N: Tournament #T, $B+$F USD Hold'em No Limit - Level IV
(50/100) - 2026/12/01 12:00:00 ET``, the table ``'T 1'``, amounts in chips without ``$``,
``posts the ante`` (a big-blind ante too: the big blind posts it, before the blinds), and
before the summary the places decided in the hand: ``p7 finished the tournament in 5th
place and received $20.00.`` (or without a prize, ``... in 9th place``) and ``p1 wins the
tournament and receives $50.00 - congratulations!``. A knockout's bounties come just before
the places, as fpdb's ``re_Bounty`` and ``re_Progressive`` read them: ``p2 wins the $5.00
bounty for eliminating p7`` (``p2, p4 split the $5.00 bounty ...`` when shared), and in a
progressive knockout ``p2 wins $2.50 for eliminating p7 and their own bounty increases by
$2.50 to $7.50`` (``... for splitting the elimination of p7 ...`` when shared).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from pokerroom.cards import RANK_NAMES, Card
from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    CardsShown,
    ForcedBet,
    ForcedBetKind,
    HandMucked,
    HoleCardsDealt,
    Move,
    PlayerProtected,
    PotAwarded,
    RakeTaken,
    RunoutAnswered,
    SecondBoardDealt,
    UncalledBetReturned,
)
from pokerroom.engine.hand import Hand
from pokerroom.evaluation.classes import Category, plural_rank, signatures
from pokerroom.history.viewer import ViewerHand
from pokerroom.rules.game import Structure, Variant

GAMES = {
    Variant.HOLDEM: "Hold'em",
    Variant.OMAHA: "Omaha",
    Variant.OMAHA_HILO: "Omaha Hi/Lo",
}
LIMITS = {
    Structure.NO_LIMIT: "No Limit",
    Structure.POT_LIMIT: "Pot Limit",
    Structure.FIXED_LIMIT: "Limit",
}
_STREET = {"flop": "FLOP", "turn": "TURN", "river": "RIVER"}


_POSTS = {
    ForcedBetKind.SMALL_BLIND: "small blind",
    ForcedBetKind.BIG_BLIND: "big blind",
    ForcedBetKind.STRADDLE: "straddle",
    ForcedBetKind.ANTE: "the ante",
    ForcedBetKind.BIG_BLIND_ANTE: "the ante",
    ForcedBetKind.LIVE_POST: "big blind",
    ForcedBetKind.DEAD_POST: "small blind (dead)",
}


def money(cents: int) -> str:
    """``$2``, ``$0.50``, ``$2.50``: dollars, with cents only when there are any."""
    dollars, rest = divmod(cents, 100)
    return f"${dollars}" if rest == 0 else f"${dollars}.{rest:02d}"


def dollars(cents: int) -> str:
    """``$10.00``: buy-ins, fees and prizes, always with cents, as tournament texts write them."""
    whole, rest = divmod(cents, 100)
    return f"${whole}.{rest:02d}"


EASTERN = ZoneInfo("America/New_York")  # PokerStars' "ET", the time trackers read


def eastern(when: datetime) -> str:
    """``2026/12/01 12:00:00 ET``: an aware time in US Eastern time."""
    return when.astimezone(EASTERN).strftime("%Y/%m/%d %H:%M:%S") + " ET"


def roman(number: int) -> str:
    """Level numbers as PokerStars writes them: ``roman(4) == "IV"``, ``roman(14) == "XIV"``."""
    if number < 1:
        raise ValueError(f"level {number}: levels count from 1")
    out = []
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``."""
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


@dataclass(frozen=True, slots=True)
class Finish:
    """A place decided in a hand: who, which place, and the prize (in cents; 0: unpaid)."""

    name: str
    place: int
    prize: int


@dataclass(frozen=True, slots=True)
class Knockout:
    """A bounty won in a hand: who was eliminated, and each knocker's name, cash (cents),
    the part added to their own bounty and their bounty after it."""

    eliminated: str
    knockers: tuple[tuple[str, int, int, int], ...]
    progressive: bool

    def lines(self) -> list[str]:
        winners = [k for k in self.knockers if k[1] or k[2]]
        if not self.progressive:
            total = dollars(sum(cash for _, cash, _, _ in winners))
            if len(winners) == 1:
                return [
                    f"{winners[0][0]} wins the {total} bounty for eliminating {self.eliminated}"
                ]
            names = ", ".join(name for name, _, _, _ in winners)
            return [f"{names} split the {total} bounty for eliminating {self.eliminated}"]
        how = "eliminating" if len(winners) == 1 else "splitting the elimination of"
        return [
            f"{name} wins {dollars(cash)} for {how} {self.eliminated} and their own bounty"
            f" increases by {dollars(added)} to {dollars(after)}"
            for name, cash, added, after in winners
        ]


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentHand:
    """What a tournament hand's text says besides the hand itself."""

    tournament: int  # the tournament's number
    buy_in: int  # cents, to the prize pool
    fee: int  # cents, the house's
    level: int  # from 1
    table: int
    finishes: tuple[Finish, ...] = ()  # the places decided in this hand, worst first
    knockouts: tuple[Knockout, ...] = ()  # the bounties won in this hand

    def finish_lines(self) -> list[str]:
        lines = [line for knockout in self.knockouts for line in knockout.lines()]
        for f in self.finishes:
            if f.place == 1:
                lines.append(
                    f"{f.name} wins the tournament and receives {dollars(f.prize)}"
                    " - congratulations!"
                )
            elif f.prize:
                lines.append(
                    f"{f.name} finished the tournament in {ordinal(f.place)} place"
                    f" and received {dollars(f.prize)}."
                )
            else:
                lines.append(f"{f.name} finished the tournament in {ordinal(f.place)} place")
        return lines


def _cards(cards: Sequence[Card]) -> str:
    return "[" + " ".join(str(c) for c in cards) + "]"


def pokerstars_hand_name(strength: int) -> str:
    """ "a pair of Kings", "a straight, Nine to King", "a full house, Kings full of Sevens"."""
    sig = signatures()[strength - 1]
    category, ranks = Category(sig[0]), sig[1:]
    name = RANK_NAMES
    match category:
        case Category.STRAIGHT_FLUSH if ranks[0] == 12:
            return "a Royal Flush"
        case Category.STRAIGHT_FLUSH | Category.STRAIGHT:
            low = "Ace" if ranks[0] == 3 else name[ranks[0] - 4]
            kind = "a straight flush" if category is Category.STRAIGHT_FLUSH else "a straight"
            return f"{kind}, {low} to {name[ranks[0]]}"
        case Category.FOUR_OF_A_KIND:
            return f"four of a kind, {plural_rank(ranks[0])}"
        case Category.FULL_HOUSE:
            return f"a full house, {plural_rank(ranks[0])} full of {plural_rank(ranks[1])}"
        case Category.FLUSH:
            return f"a flush, {name[ranks[0]]} high"
        case Category.THREE_OF_A_KIND:
            return f"three of a kind, {plural_rank(ranks[0])}"
        case Category.TWO_PAIR:
            return f"two pair, {plural_rank(ranks[0])} and {plural_rank(ranks[1])}"
        case Category.PAIR:
            return f"a pair of {plural_rank(ranks[0])}"
        case _:
            return f"high card {name[ranks[0]]}"


def pokerstars_text(
    view: ViewerHand,
    *,
    hand_id: int,
    table_name: str,
    started_at: datetime,
    max_seats: int | None = None,
    tournament: TournamentHand | None = None,
) -> str:
    """The hand as PokerStars-style text, as ``view`` lets its viewer see it (S-EXPORT-1).

    ``table_name`` is the table's own name and ``max_seats`` its seat count ("6-max"); a
    tournament hand (``tournament``) is written in chips, its table named by the
    tournament's number and the table's, as PokerStars does.
    """
    from pokerroom.engine.showdown import describe_low, high_strength, low_score

    hand = view.hand
    n = hand.n
    names = [hand.names[i] or f"Seat {hand.seats[i]}" for i in range(n)]
    in_seat_order = sorted(range(n), key=lambda i: hand.seats[i])
    stakes = hand.spec.stakes
    amt: Callable[[int], str] = money if tournament is None else str  # chips: no $
    if hand.structure is Structure.FIXED_LIMIT:
        blinds = f"{amt(stakes.small_bet)}/{amt(stakes.big_bet)}"
    else:
        blinds = f"{amt(stakes.small_blind)}/{amt(stakes.big_blind)}"
    game = f"{GAMES[hand.variant]} {LIMITS[hand.structure]}"
    hilo = hand.variant is Variant.OMAHA_HILO
    if tournament is None:
        when = started_at.strftime("%Y/%m/%d %H:%M:%S") + " UTC"
        header = f"PokerStars Hand #{hand_id}: {game} ({blinds} USD) - {when}"
    else:
        t = tournament
        table_name = f"{t.tournament} {t.table}"
        header = (
            f"PokerStars Hand #{hand_id}: Tournament #{t.tournament},"
            f" {dollars(t.buy_in)}+{dollars(t.fee)} USD {game}"
            f" - Level {roman(t.level)} ({blinds}) - {eastern(started_at)}"
        )
    lines = [
        header,
        f"Table '{table_name}' {max_seats or hand.house.max_seats}-max"
        f" Seat #{hand.seats[hand.button]} is the button",
    ]
    for i in in_seat_order:
        lines.append(f"Seat {hand.seats[i]}: {names[i]} ({amt(hand.starting_stacks[i])} in chips)")
    roles: dict[int, str] = {hand.button: "button"}
    board: list[Card] = []
    collected: dict[int, int] = {}
    shown: dict[int, tuple[Card, ...]] = {}
    mucked: set[int] = set()
    pots: dict[int, int] = {}
    rake = 0
    dealt_line_done = False
    street = "before Flop"
    folded_on: dict[int, str] = {}
    made: dict[int, str] = {}
    showdown: list[CardsShown | HandMucked] = []
    twice = hand.runs == 2  # R-RIT-1: the run-out's streets are FIRST and SECOND
    run_out = False  # the players have answered: the streets from here are run-outs
    second: list[Card] = []

    def show_down() -> None:
        for event in showdown:
            if not shown and not mucked:
                lines.append("*** FIRST SHOW DOWN ***" if twice else "*** SHOW DOWN ***")
            i = event.position
            if isinstance(event, HandMucked):
                mucked.add(i)
                lines.append(f"{names[i]}: mucks hand")
                continue
            cards = view.cards(i)
            if cards is None:  # not this viewer's to see (the view decides, never the event)
                continue
            shown[i] = cards
            description = ""
            if len(board) == 5:
                hole = [c.code for c in cards]
                strength = high_strength(hand.variant, hole, [c.code for c in board])
                made[i] = pokerstars_hand_name(strength)
                if hilo:  # PokerStars names both halves: "HI: ...; LO: 8,6,4,2,A"
                    low = describe_low(low_score(hole, [c.code for c in board]))
                    made[i] = f"HI: {made[i]}" + (f"; LO: {low.replace('-', ',')}" if low else "")
                description = f" ({made[i]})"
            lines.append(f"{names[i]}: shows {_cards(cards)}{description}")
        showdown.clear()

    lines += _posts(hand, names, amt, roles)
    for event in hand.events:
        match event:
            case HoleCardsDealt(position=i):
                if not dealt_line_done:
                    lines.append("*** HOLE CARDS ***")
                    dealt_line_done = True
                mine = view.cards(i) if i == view.viewer else None
                if mine is not None:
                    lines.append(f"Dealt to {names[i]} {_cards(mine)}")
            case ActionTaken(position=i, action=verb, added=added, to=to, all_in=all_in):
                tail = " and is all-in" if all_in else ""
                if verb is Move.FOLD:
                    folded_on[i] = street
                    lines.append(f"{names[i]}: folds")
                elif verb is Move.CHECK:
                    lines.append(f"{names[i]}: checks")
                elif verb is Move.CALL:
                    lines.append(f"{names[i]}: calls {amt(added)}{tail}")
                elif verb is Move.BET:
                    lines.append(f"{names[i]}: bets {amt(to)}{tail}")
                else:
                    raised_by = to - _previous_bet(hand, event)
                    lines.append(f"{names[i]}: raises {amt(raised_by)} to {amt(to)}{tail}")
            case PlayerProtected(position=i):
                lines.append(f"{names[i]} has timed out and is protected for the pots they are in")
            case RunoutAnswered():
                run_out = twice
                second = list(board)  # the cards both boards share
            case BoardDealt(street=dealt, cards=cards):
                before = list(board)
                board.extend(cards)
                street = f"on the {dealt.title()}"
                lines.append(_street_line(dealt, before, cards, "FIRST " if run_out else ""))
            case SecondBoardDealt(street=dealt, cards=cards):
                before = list(second)
                second = [*second, *cards]
                lines.append(_street_line(dealt, before, cards, "SECOND "))
            case UncalledBetReturned(position=i, amount=amount):
                lines.append(f"Uncalled bet ({amt(amount)}) returned to {names[i]}")
            case CardsShown() | HandMucked():
                # Written in the SHOW DOWN section, after the whole board: hands shown before an
                # all-in run-out come after the turn and river, named, as trackers expect.
                showdown.append(event)
            case RakeTaken(amount=amount):
                show_down()
                rake = amount
            case PotAwarded(pot=index, amount=amount, winners=winners, run=run):
                show_down()
                if run == 2 and "*** SECOND SHOW DOWN ***" not in lines:
                    lines.append("*** SECOND SHOW DOWN ***")
                pots[index] = pots.get(index, 0) + amount
                where = (
                    "pot"
                    if index == 0 and len(pots) == 1
                    else ("main pot" if index == 0 else f"side pot-{index}")
                )
                for i, chips in winners:
                    collected[i] = collected.get(i, 0) + chips
                    lines.append(f"{names[i]} collected {amt(chips)} from {where}")
            case _:
                pass
    show_down()
    total = sum(pots.values()) + rake
    if tournament is not None:
        lines += tournament.finish_lines()
    lines.append("*** SUMMARY ***")
    if len(pots) > 1:
        parts = [f"Main pot {amt(pots.get(0, 0))}."]
        parts += [f"Side pot-{k} {amt(v)}." for k, v in sorted(pots.items()) if k]
        lines.append(f"Total pot {amt(total)} " + " ".join(parts) + f" | Rake {amt(rake)}")
    else:
        lines.append(f"Total pot {amt(total)} | Rake {amt(rake)}")
    if twice:  # R-RIT-1, as PokerStars writes a hand run twice
        lines.append("Hand was run twice")
        lines.append(f"FIRST Board {_cards(board)}")
        lines.append(f"SECOND Board {_cards(second)}")
    elif board:
        lines.append(f"Board {_cards(board)}")
    for i in in_seat_order:
        role = f" ({roles[i]})" if i in roles else ""
        head = f"Seat {hand.seats[i]}: {names[i]}{role}"
        won = collected.get(i, 0)
        if i in shown:
            verdict = f"won ({amt(won)})" if won else "lost"
            with_hand = f" with {made[i]}" if i in made else ""
            lines.append(f"{head} showed {_cards(shown[i])} and {verdict}{with_hand}")
        elif hand.folded[i]:
            lines.append(f"{head} folded {folded_on.get(i, 'before Flop')}")
        elif i in mucked:
            lines.append(f"{head} mucked")
        elif won:
            lines.append(f"{head} collected ({amt(won)})")
        else:
            lines.append(f"{head} lost")
    return "\n".join(lines) + "\n"


def _street_line(street: str, before: Sequence[Card], cards: Sequence[Card], run: str) -> str:
    """``*** TURN *** [As Kd 7c] [2h]``; ``run`` is "FIRST " or "SECOND " in a hand run twice."""
    if before:
        return f"*** {run}{_STREET[street]} *** {_cards(before)} {_cards(cards)}"
    return f"*** {run}{_STREET[street]} *** {_cards(cards)}"


_POST_ORDER = {
    ForcedBetKind.ANTE: 0,
    ForcedBetKind.BIG_BLIND_ANTE: 0,
    ForcedBetKind.SMALL_BLIND: 1,
    ForcedBetKind.BIG_BLIND: 2,
}


def _posts(
    hand: Hand, names: list[str], amt: Callable[[int], str], roles: dict[int, str]
) -> list[str]:
    """The forced bets as PokerStars lists them: antes (the big-blind ante too), the small
    blind, the big blind, then straddles and posts; "and is all-in" on a player's last."""
    posts = sorted(
        (e for e in hand.events if isinstance(e, ForcedBet)),
        key=lambda e: _POST_ORDER.get(e.what, 3),  # stable: the engine's order within a kind
    )
    all_in = {e.position for e in posts if e.all_in}
    last = {e.position: k for k, e in enumerate(posts)}
    lines = []
    for k, e in enumerate(posts):
        label = _POSTS[e.what]
        if e.what is ForcedBetKind.SMALL_BLIND or e.what is ForcedBetKind.BIG_BLIND:
            roles.setdefault(e.position, label)
        tail = " and is all-in" if e.position in all_in and last[e.position] == k else ""
        lines.append(f"{names[e.position]}: posts {label} {amt(e.amount)}{tail}")
    return lines


def _previous_bet(hand: Hand, event: ActionTaken) -> int:
    """The round's bet before this raise (the events before it, in its round)."""
    bet = 0
    for earlier in hand.events:
        if earlier is event:
            return bet
        if isinstance(earlier, BoardDealt):
            bet = 0
        elif isinstance(earlier, ForcedBet) and not earlier.dead and not earlier.what.is_ante:
            bet = max(bet, earlier.amount)
        elif isinstance(earlier, ActionTaken):
            bet = max(bet, earlier.to)
    return bet

"""R-RIT-1, run it twice: when the betting ends before the river because players are all-in,
every player still in is asked in turn (from the first left of the button) whether to run
the rest of the board twice; one "no" (or no answer in time) runs it once. Run twice, the
second board is dealt from the same deck after the first, burns as usual, and each pot is
halved between the two boards (``award``)."""

from __future__ import annotations

from pokerroom.cards import FULL_DECK
from pokerroom.engine.events import RunoutAnswered, SecondBoardDealt
from pokerroom.engine.state import BOARD_SIZES, STREETS, HandState, Phase


def cards_to_come(h: HandState) -> int:
    """The cards one run-out of the rest of the board takes, a burn before each street."""
    return sum(1 + BOARD_SIZES[s] - BOARD_SIZES[s - 1] for s in range(h.street + 1, 4))


def offer_runout(h: HandState) -> bool:
    """Ask the players still in whether to run it twice, when the table offers it, some
    board is still to come and the deck holds two run-outs; False: the board runs once."""
    if not h.house.run_it_twice or len(h.board) >= 5:
        return False
    voters = [i for i in range(h.n) if h.in_hand(i)]
    if len(voters) < 2 or h._next_card + 2 * cards_to_come(h) > len(h.deck):
        return False
    h._set_phase(Phase.RUNOUT)
    h.runout_voters = voters
    h.actor = voters[0]
    return True


def answer_runout(h: HandState, i: int, *, agreed: bool, timed_out: bool) -> bool:
    """Player i's answer; True once every answer is in (then ``h.runs`` is settled)."""
    h._emit(RunoutAnswered(position=i, seat=h.seats[i], agreed=agreed, timed_out=timed_out))
    voters = h.runout_voters
    voters.pop(0)
    if agreed and voters:
        h.actor = voters[0]
        return False
    if not agreed:
        voters.clear()
    h.runs = 2 if agreed else 1
    h.actor = None
    h._set_phase(Phase.SHOWDOWN)
    return True


def deal_second_board(h: HandState, shared: int, from_street: int) -> None:
    """The second run-out: the ``shared`` cards dealt before the all-in, then the streets
    after ``from_street`` again from the deck, each after a burn (R-DECK-3)."""
    board = h.board[:shared]
    for street in range(from_street + 1, 4):
        h._draw()
        new = [h._draw() for _ in range(BOARD_SIZES[street] - len(board))]
        board.extend(new)
        h._emit(SecondBoardDealt(street=STREETS[street], cards=tuple([FULL_DECK[c] for c in new])))
    h.second_board = board

"""The room pays and tells each place once, when it is settled (S-AUDIT-2).

A hand-for-hand round is one elimination group until every table has played it, so a bust
at the table that finishes the round first can still move up when a bust at another table
joins the group (ranked by chips at the start of the hand). The room once paid the places
eliminated "so far" at each hand's end: the first bust was paid (and told) as 7th for
nothing, then turned out 5th; its 5,400 stayed in the pool and its player heard "place 5"
with no prize. Here the room's runner drives the prizes of whole events played in process
(seeds where a round's group does grow after its first bust): what it pays and tells must
be the places and prizes the event ends with, and the pool paid out exactly."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.server.tournaments.runner import TournamentRunner
from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.results import groups_settled
from pokerroom.tournament.simulate import HandPlayed, Simulation

SEEDS = (3, 4, 6, 10, 11)  # mtt_turbo6, 30 entrants: a round's group grows in each


class Numbered(Simulation):
    """Players named by number: the runner's entries belong to accounts."""

    def enter(self, player: str) -> None:
        super().enter(player.removeprefix("p"))


class Client:
    """A player's connection as the runner sees it: the notices it is sent."""

    def __init__(self, account: int) -> None:
        self.account_id, self.closed = account, False
        self.notices: list[dict[str, Any]] = []

    def deliver(self, line: str) -> None:
        self.notices.append(json.loads(line))


class Hall:
    """What a runner asks of its hall and room to pay prizes and tell players."""

    def __init__(self, entrants: int) -> None:
        self.clients = [Client(k) for k in range(1, entrants + 1)]
        self.room = SimpleNamespace(db=None, clients=self.clients, tell_nodes=lambda notice: None)
        self.store = None

    def clock(self) -> float:
        return 0.0

    def changed(self) -> None:
        pass


def play(seed: int) -> int:
    """One event of 30 entrants, the runner paying and telling at each hand's end as a table
    does; checked against its final places. How many times places waited for their group."""
    run, hall = Numbered(load_tournament_structure("mtt_turbo6"), 30, seed), Hall(30)
    runner = TournamentRunner(hall, "t", run.t, {})  # type: ignore[arg-type]
    paid: dict[str, int] = {}
    waited = 0

    def end_of_hand(t: Tournament, played: HandPlayed) -> None:
        nonlocal waited
        due = runner.prizes_due(played.ended)
        for prize in due:
            assert prize.entry not in paid, prize
            paid[prize.entry] = prize.amount
        runner.prizes_paid([p.entry for p in due], due)
        waited += any(t.groups[groups_settled(t, played.ended) :])  # busts not yet placed

    run.on_hand = end_of_hand
    run.play()
    final = {p.entry: p for p in run.t.places()}
    assert paid == {entry: p.prize for entry, p in final.items()}, seed
    assert sum(paid.values()) == run.t.prize_pool == 30 * 2000
    for client in hall.clients:
        told = [n for n in client.notices if n["kind"] == "finished"]
        entry = runner.entry_of(client.account_id)
        assert entry is not None
        expected = (final[entry].place, final[entry].prize)
        assert [(n["place"], n["prize"]) for n in told] == [expected], (seed, entry)
    return waited


def test_each_place_is_paid_and_told_once_as_it_ends_even_when_a_round_group_grows() -> None:
    waited = [play(seed) for seed in SEEDS]
    assert all(waited), waited  # the case in question was played: places waited for their group

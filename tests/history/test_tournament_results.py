"""My results in tournaments on hand-built finished events: ITM counts a place paid in cash
or with a satellite's ticket (not bounties alone), ROI is prizes, tickets and bounties less
buy-ins and fees over buy-ins and fees, the best finishes come lowest place first, and the
dates choose events by their end."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from pokerroom.history.tournament_results import EventResult, event_totals, money_of


def event(tid: str, day: int, place: int | None, cost: int, **won: int) -> EventResult:
    return EventResult(
        tournament_id=tid,
        name=tid.upper(),
        finished_at=datetime(2026, 11, day, 20, 0, tzinfo=UTC),
        entries=6,
        place=place,
        cost=cost,
        prize=won.get("prize", 0),
        ticket=won.get("ticket", 0),
        bounties=won.get("bounties", 0),
    )


EVENTS = [
    event("sng-1", 1, 1, 1100, prize=3900),  # won a sit & go
    event("sng-2", 2, 5, 1100),  # out of the money
    event("ko-3", 3, 4, 1100, bounties=1000),  # two bounties, no place paid
    event("sat-4", 4, 2, 330, ticket=2200),  # a satellite's seat: a ticket
    event("mtt-5", 5, 3, 2200, prize=2500, bounties=500),  # entered with that ticket
    event("free-6", 6, 6, 0),  # a freeroll, nothing won
]


def test_itm_counts_places_paid_in_cash_or_a_ticket_not_bounties_alone():
    totals = event_totals(EVENTS)
    assert totals.played == 6
    assert [e.tournament_id for e in totals.events if e.in_the_money] == ["mtt-5", "sat-4", "sng-1"]
    assert totals.itm == 3 and totals.itm_rate == pytest.approx(50.0)


def test_roi_is_everything_won_less_buy_ins_and_fees_over_buy_ins_and_fees():
    totals = event_totals(EVENTS)
    cost = 1100 + 1100 + 1100 + 330 + 2200
    won = 3900 + 1000 + 2200 + 2500 + 500
    assert (totals.cost, totals.won, totals.bounties) == (cost, won, 1500)
    assert totals.profit == won - cost == 4270
    assert totals.roi == pytest.approx(100.0 * 4270 / 5830)
    assert [e.profit for e in totals.events] == [0, 800, 1870, -100, -1100, 2800]


def test_the_best_finishes_are_the_lowest_places_then_the_most_won():
    tied = event("sng-7", 7, 1, 1100, prize=1000)  # a win worth less than sng-1's
    best = event_totals([*EVENTS, tied]).best
    assert [e.tournament_id for e in best] == ["sng-1", "sng-7", "sat-4", "mtt-5", "ko-3"]


def test_dates_choose_events_by_their_end_newest_first():
    totals = event_totals(EVENTS, since=date(2026, 11, 2), until=date(2026, 11, 4))
    assert [e.tournament_id for e in totals.events] == ["sat-4", "ko-3", "sng-2"]
    assert totals.roi == pytest.approx(100.0 * (3200 - 2530) / 2530)


def test_nothing_paid_in_has_no_roi():
    only_free = event_totals([EVENTS[-1]])
    assert only_free.roi is None and only_free.itm_rate == 0.0
    assert event_totals([]).itm_rate is None and event_totals([]).best == []


def test_an_events_postings_add_up_to_its_cost_and_winnings():
    money = money_of(
        [
            ("t_register", -1100),  # an entry
            ("t_unregister", 1100),  # taken back
            ("t_register", -1100),  # and again
            ("t_rebuy", -1000),
            ("t_addon", -1000),
            ("t_prize", 2600),
            ("t_bounty", 250),
            ("t_bounty", 250),
        ]
    )
    assert (money.cost, money.prize, money.ticket, money.bounties) == (3100, 2600, 0, 500)
    assert money_of([("t_ticket", 2200)]).ticket == 2200
    with pytest.raises(ValueError, match=r"t_overlay.*no cost or win"):
        money_of([("t_overlay", 100)])

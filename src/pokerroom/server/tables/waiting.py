"""The table actor's waiting list (the policy is in ``pokerroom.table.waiting``): passing
over a player offered a seat whose balance cannot pay the table's minimum buy-in, and telling
each player on it their place and any seat held for them, on every connection they have open
in the room (``reach``).

A part of its own (``TableActor.waiting_list``): its state is who was last told they are on
the list and where the room reaches an account; the table (which a rollback or a fault
replaces) and its watchers are passed to each call. Joining or leaving the list is a request
the actor handles as it handles a join: the change and its write are rolled back together,
and the list is stored with the table (it survives a restart)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pokerroom.engine.events import Event
from pokerroom.errors import message
from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.views import waiting_frame
from pokerroom.store.account_ids import account_of
from pokerroom.store.tables.store import RoomStore
from pokerroom.table import Table
from pokerroom.table.events import PassedOver, SeatOffered

# The passed-over event's reason (the hand history's English) for a player who cannot buy in.
NO_CHIPS = message("waiting.no_chips")


class WaitingList:
    """What the players on one table's waiting list are told, and who is passed over."""

    def __init__(self, store: RoomStore, table_id: str, *, waiting: Iterable[str]) -> None:
        self.store, self.table_id = store, table_id
        self.told = set(waiting)  # the players last told they are on the list
        # An account's open connections in the room (None: this table's watchers only).
        self.reach: Callable[[int], Iterable[Client]] | None = None

    async def change(
        self, table: Table, player: str, action: str, now: float, *, name: str
    ) -> dict[str, str]:
        """Join (at the end) or leave the list (the table refuses it when already on it,
        seated or not on it); the notes of the players passed over meanwhile."""
        if action == "join":
            events = table.join_waiting_list(player, now, name=name)
        else:
            events = table.leave_waiting_list(player, now)
        return await self.pass_over_the_broke(table, events, now)

    def close(self, table: Table, watchers: list[Client], now: float) -> None:
        """The floor closed the table: everyone waiting is told, and the list is empty (the
        table is stored closed after this)."""
        players = table.waiting.players
        for player in players:
            table.waiting.remove(player)
        self.tell(table, watchers, now, dict.fromkeys(players, "waiting.table_closed"))

    async def offer_seats(self, table: Table, now: float) -> dict[str, str] | None:
        """Offers that ran out passed on and free seats offered: the notes of the players
        passed over (None: nothing changed)."""
        events = table.offer_seats(now)
        if not events:
            return None
        return await self.pass_over_the_broke(table, events, now)

    async def pass_over_the_broke(
        self, table: Table, events: list[Event], now: float
    ) -> dict[str, str]:
        """A player offered a seat they cannot buy into is passed over at once (the seat goes
        on down the line); the notes say why each player passed over left the list (the
        code of a ``waiting`` frame's note)."""
        notes: dict[str, str] = {}
        broke: set[str] = set()
        checked = 0
        while checked < len(events):
            event = events[checked]
            checked += 1
            if isinstance(event, PassedOver):
                notes[event.player] = (
                    "waiting.no_chips" if event.player in broke else "waiting.lapsed"
                )
            elif (
                isinstance(event, SeatOffered)
                and await self.store.balance(account_of(event.player)) < table.min_buy_in
            ):
                broke.add(event.player)
                events.extend(table.pass_over(event.player, NO_CHIPS, now))
        return notes

    def tell(
        self,
        table: Table,
        watchers: list[Client],
        now: float,
        notes: dict[str, str] | None = None,
    ) -> None:
        """Each player on the list (and each who just left it) their place now."""
        notes = notes or {}
        current = set(table.waiting.players)
        for player in sorted(current | self.told | set(notes)):
            self.tell_player(table, watchers, player, now, notes.get(player))
        self.told = current

    def tell_player(
        self,
        table: Table,
        watchers: list[Client],
        player: str,
        now: float,
        note: str | None = None,
    ) -> None:
        frame = waiting_frame(table, self.table_id, player, now=now, note=note)
        line = protocol.frame(frame)
        account = account_of(player)
        clients = (
            [w for w in watchers if w.account_id == account]
            if self.reach is None
            else self.reach(account)
        )
        for client in list(clients):
            client.deliver(line)

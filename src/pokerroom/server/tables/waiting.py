"""The table actor's waiting list (the policy is in ``pokerroom.table.waiting``):
joining and leaving it, offering freed seats after every turn, passing over a player offered
a seat whose balance cannot pay the table's minimum buy-in, storing the list with the table
(it survives a restart) and telling each player on it their place and any seat held for
them, on every connection they have open in the room (``reach``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from pokerroom.engine.events import Event
from pokerroom.errors import message
from pokerroom.server.clock import utcnow
from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.recovery import Recovers
from pokerroom.server.tables.views import waiting_frame
from pokerroom.store.account_ids import account_of
from pokerroom.store.tables.store import TableSave
from pokerroom.table import TableError
from pokerroom.table.events import PassedOver, SeatOffered

# The passed-over event's reason (the hand history's English) for a player who cannot buy in.
NO_CHIPS = message("waiting.no_chips")


class WaitingRequests(Recovers):
    """Mixed into ``TableActor``."""

    closed: bool
    told_waiting: set[str]  # the players last told they are on the list
    reach: Callable[[int], Iterable[Client]] | None  # an account's open connections

    if TYPE_CHECKING:

        def _player(self, client: Client) -> str: ...

        def _saved(self) -> TableSave: ...

    async def _waiting_list(
        self, client: Client, message: protocol.WaitingList, now: float
    ) -> None:
        """Join (at the end) or leave the list; refused and unchanged when already on it,
        seated, not on it, or the table is closed."""
        player = self._player(client)
        if message.action == "join" and self.closed:
            raise TableError(code="table.closed")
        async with self._as_it_was_on_failure():
            if message.action == "join":
                events = self.table.join_waiting_list(player, now, name=client.name)
            else:
                events = self.table.leave_waiting_list(player, now)
            notes = await self._pass_over_the_broke(events, now)
            saved = self._saved()
            await self.store.save_waiting_list(self.table_id, saved, now=utcnow())
        self.stored = saved.snapshot
        self._tell_waiting(now, notes)

    def _close_waiting_list(self, now: float) -> None:
        """The floor closed the table: everyone waiting is told, and the list is empty (the
        table is stored closed after this)."""
        players = self.table.waiting.players
        for player in players:
            self.table.waiting.remove(player)
        self._tell_waiting(now, dict.fromkeys(players, "waiting.table_closed"))

    async def _offer_seats(self, now: float) -> bool:
        """After every turn: offers that ran out are passed on and free seats offered."""
        if not self.table.waiting.entries or self.recovering is not None or self.closed:
            return False
        events = self.table.offer_seats(now)
        if not events:
            return False
        notes = await self._pass_over_the_broke(events, now)
        saved = self._saved()
        await self.store.save_table(self.table_id, saved, now=utcnow())
        self.stored = saved.snapshot
        self._tell_waiting(now, notes)
        return True

    async def _pass_over_the_broke(self, events: list[Event], now: float) -> dict[str, str]:
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
                and await self.store.balance(account_of(event.player)) < self.table.min_buy_in
            ):
                broke.add(event.player)
                events.extend(self.table.pass_over(event.player, NO_CHIPS, now))
        return notes

    def _tell_waiting(self, now: float, notes: dict[str, str] | None = None) -> None:
        """Each player on the list (and each who just left it) their place now."""
        notes = notes or {}
        current = set(self.table.waiting.players)
        for player in sorted(current | self.told_waiting | set(notes)):
            self._tell_player(player, now, notes.get(player))
        self.told_waiting = current

    def _tell_player(self, player: str, now: float, note: str | None = None) -> None:
        frame = waiting_frame(self.table, self.table_id, player, now=now, note=note)
        line = protocol.frame(frame)
        account = account_of(player)
        clients = (
            [w for w in self.watchers if w.account_id == account]
            if self.reach is None
            else self.reach(account)
        )
        for client in list(clients):
            client.deliver(line)

"""A cash table's waiting list, as the big rooms run it.

Players join the list of a table (from the lobby) and keep their place in line. When a seat
is free and someone waits, the seat is *offered* to the first in line without an offer, and
held for them for ``OFFER_SECONDS``: only they may take it (with a buy-in) meanwhile. If
they do not sit down in time they are passed over: taken off the list, and the seat goes to
the next in line. Several free seats go to as many players, in order. A player who is not on
the list may sit only in a seat nobody waits for.

Nothing here knows a balance or a connection: the server passes over a player offered a seat
whose balance cannot pay the minimum buy-in at once (``pass_over``). A player who
disconnects keeps the place (a page reload must not lose it); the offer's clock still runs,
so an absent player holds a seat for at most ``OFFER_SECONDS``.

Pure, like the table: ``now`` is passed in (the table's clock: monotonic seconds), and the
list and its offers are written with the table's snapshot, so they survive a restart. A held
seat's deadline is a wall-clock instant (as a tournament's levels are): the server tells the
list how its table's clock stands to the wall clock (``wall_offset``), so a hold made before a
reboot, or on a node that failed, ends when it would have, not 30 s after the table is back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OFFER_SECONDS = 30.0  # how long an offered seat is held for the player it is offered to


@dataclass(slots=True)
class Offer:
    player: str
    seat: int
    held_until: float  # the wall-clock instant (Unix seconds) the hold ends


@dataclass(slots=True)
class Waiting:
    player: str
    name: str


class WaitingList:
    def __init__(self, offer_seconds: float = OFFER_SECONDS) -> None:
        self.offer_seconds = offer_seconds
        # The wall clock minus the table's ``now``: set by the server for its own clock (0:
        # the table's ``now`` is the wall clock); written with the list, so a table rebuilt
        # from its snapshot in the same process keeps it.
        self.wall_offset = 0.0
        self.entries: list[Waiting] = []
        self.offers: dict[str, Offer] = {}  # by player

    # ------------------------------------------------------------ queries

    @property
    def players(self) -> list[str]:
        return [w.player for w in self.entries]

    def __contains__(self, player: object) -> bool:
        return any(w.player == player for w in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def position(self, player: str) -> int | None:
        """1 for the first in line; None when not on the list."""
        for number, waiting in enumerate(self.entries, start=1):
            if waiting.player == player:
                return number
        return None

    def reserved_for(self, seat: int) -> str | None:
        """The player a seat is held for, if any."""
        return next((o.player for o in self.offers.values() if o.seat == seat), None)

    def unoffered(self) -> int:
        """Players in line who have no seat offered yet."""
        return sum(1 for w in self.entries if w.player not in self.offers)

    def expires(self, offer: Offer) -> float:
        """When ``offer``'s hold ends, on the table's clock."""
        return offer.held_until - self.wall_offset

    def next_deadline(self) -> float | None:
        """The first hold to end, on the table's clock."""
        return min((self.expires(o) for o in self.offers.values()), default=None)

    # ------------------------------------------------------------ changes

    def join(self, player: str, name: str) -> None:
        if player in self:
            raise ValueError(f"{name or player!r} is already on the waiting list")
        self.entries.append(Waiting(player, name or player))

    def remove(self, player: str) -> bool:
        """Off the list (seated, left, passed over); False when not on it."""
        before = len(self.entries)
        self.entries = [w for w in self.entries if w.player != player]
        self.offers.pop(player, None)
        return len(self.entries) != before

    def lapse(self, now: float) -> list[Offer]:
        """Offers whose time is up: their players are passed over (off the list)."""
        lapsed = [o for o in self.offers.values() if now >= self.expires(o)]
        for offer in lapsed:
            self.remove(offer.player)
        return lapsed

    def offer(self, free: list[int], now: float) -> list[Offer]:
        """Offer each free seat not held for anyone to the next in line without an offer;
        an offer whose seat is no longer free (taken by its player elsewhere) is dropped."""
        for player, held in list(self.offers.items()):
            if held.seat not in free:
                del self.offers[player]
        open_seats = [n for n in sorted(free) if self.reserved_for(n) is None]
        made = []
        for waiting in self.entries:
            if not open_seats:
                break
            if waiting.player in self.offers:
                continue
            until = now + self.wall_offset + self.offer_seconds
            offer = Offer(waiting.player, open_seats.pop(0), until)
            self.offers[waiting.player] = offer
            made.append(offer)
        return made

    # ------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [[w.player, w.name] for w in self.entries],
            "offers": [[o.player, o.seat, o.held_until] for o in self.offers.values()],
            "offer_seconds": self.offer_seconds,
            "wall_offset": self.wall_offset,
        }

    @staticmethod
    def from_json(data: Any) -> WaitingList:
        """From ``to_json``, or from a snapshot written before offers (a list of players) or
        before their deadlines were wall-clock instants (no ``wall_offset``: their holds,
        on another process's clock, are dropped, and the next turn offers the seats afresh)."""
        if isinstance(data, list):
            restored = WaitingList()
            restored.entries = [Waiting(str(p), str(p)) for p in data]
            return restored
        restored = WaitingList(float(data.get("offer_seconds", OFFER_SECONDS)))
        restored.entries = [Waiting(str(p), str(n)) for p, n in data["players"]]
        if "wall_offset" not in data:
            return restored
        restored.wall_offset = float(data["wall_offset"])
        on_list = set(restored.players)
        restored.offers = {
            str(p): Offer(str(p), int(s), float(e)) for p, s, e in data["offers"] if p in on_list
        }
        return restored

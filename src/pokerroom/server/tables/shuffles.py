"""A table's verifiable shuffles (docs/fairness.md): the next hand's server seed, committed in
every table frame (``next_seed``) before players add seeds of their own; the hand's shuffle
while it is played; its reveal when it has ended. Owned by the table's actor (one task)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pokerroom.fairness import Shuffle, new_server_seed, seed_commitment
from pokerroom.rng import RandomSource, SystemRandomSource
from pokerroom.server.sockets import protocol
from pokerroom.table import TableError


class TableShuffles:
    def __init__(self, source: RandomSource | None) -> None:
        self.source = source or SystemRandomSource()  # the table's injected source
        self.current: Shuffle | None = None  # the hand in progress's
        self.client_seeds: dict[str, str] = {}  # player -> seed for the next shuffle
        self.next_seed = b""
        self.next_commitment = ""
        self._rotate()

    def _rotate(self) -> None:
        """A new server seed for the next hand; seeds added for the last one are spent."""
        self.next_seed = new_server_seed(self.source)
        self.next_commitment = seed_commitment(self.next_seed)
        self.client_seeds = {}

    def next_shuffle(self, seated: Callable[[str], bool]) -> Shuffle:
        """The next hand's shuffle, with the seeds of the players still seated."""
        seeds = [seed for player, seed in self.client_seeds.items() if seated(player)]
        return Shuffle.deal(self.next_seed, seeds)

    def dealt(self, shuffle: Shuffle) -> None:
        """``shuffle`` was dealt: it is the hand's now, and a new seed is committed."""
        self.current = shuffle
        self._rotate()

    def add_seed(self, player: str | None, message: protocol.Seed) -> None:
        """A seated player's seed for the next shuffle (``player`` None: the sender has no
        seat), if sent after that shuffle's commitment."""
        if player is None:
            raise TableError(code="seed.take_seat_first")
        if message.commitment != self.next_commitment:
            raise TableError(
                code="seed.stale",
                sent=message.commitment[:12],
                next=self.next_commitment[:12],
            )
        self.client_seeds[player] = message.seed

    def reveal(self, table_id: str, number: int, hand_id: int, *, cancelled: bool) -> str | None:
        """The ended hand's reveal frame, or None: a cancelled hand's deck is never published,
        it is as if never dealt (R-DECK-5)."""
        shuffle, self.current = self.current, None
        if shuffle is None or cancelled:
            return None
        frame = protocol.DeckReveal(
            table=table_id, hand=number, hand_id=hand_id, **shuffle.reveal()
        )
        return protocol.frame(frame)

    def cancelled(self) -> None:
        """The hand in progress was cancelled by a fault: its deck is never revealed."""
        self.current = None


def players_of(participants: Iterable[tuple[int, int, int, int]]) -> set[int]:
    """The accounts dealt into a hand (the actor's participants)."""
    return {account for account, _, _, _ in participants}

"""What every store keeps and how: the stored table, its row, the store's protocol and errors.

Both stores (SQLite in :mod:`.storage`, PostgreSQL in :mod:`.pgstore`) write and read a table as
one row of ``_COLUMNS``; the hub and its parts see only :class:`StoredTable` and :class:`Store`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["LIVE", "LOBBY_COLUMNS", "STATUSES", "CapRefusal", "MoveConflict", "Store",
           "StoreUnavailable", "StoredTable", "lobby_entry", "merge_contribution", "seat_status",
           "table_of_row", "table_row"]

# open: a person's seat is free; playing: every seat taken; over: the match ended; idle: left
# by everyone for longer than the eviction age (out of memory and the lobby, resumable);
# stopped: a table of bots only that reached its move limit.
STATUSES = ("open", "playing", "over", "idle", "stopped")
LIVE = ("open", "playing")  # what the lobby lists and the table caps count

_COLUMNS = ("id, game, options, seed, dealer, seats, created, finished, salt, commitment, "
            "seed_source, status, creator, bots_only, scores, deals, listed, server_seed, "
            "contributions, rated, clock")
# what a lobby page reads of each table, and the move count (MAX(n) of its moves)
LOBBY_COLUMNS = ("id, game, options, seats, created, scores, deals, commitment, status, "
                 "(SELECT MAX(n) FROM moves WHERE table_id = tables.id)")

class CapRefusal(Exception):
    """A new table would pass one of the caps on tables (the message says which)."""


class MoveConflict(Exception):
    """Move number n of a table is already stored: another process stored it first."""


class StoreUnavailable(Exception):
    """The store cannot be reached now (a database outage); nothing of the call is known to be
    stored. ``ambiguous``: the connection died after a write was sent, so the write may have
    committed all the same: only a read of the store, once it is back, can tell."""

    def __init__(self, message: str, ambiguous: bool = False) -> None:
        super().__init__(message)
        self.ambiguous = ambiguous


@dataclass
class StoredTable:
    """One table as stored: the match header, the seats and the moves so far."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    dealer: int | None
    seats: list[dict[str, Any]]
    created: float
    finished: float | None = None
    moves: list[tuple[int, str]] = field(default_factory=list)
    salt: str | None = None  # secret until the match is over; None: an older table
    commitment: str | None = None  # shown to every seat from the start
    seed_source: str = "server"  # "server" (drawn) or "creator" (a practice table's choice)
    status: str = "open"
    creator: str | None = None  # the creating client's key (a hash of its address)
    bots_only: bool = False
    scores: list[Any] | None = None
    deals: int = 0
    listed: bool = True  # False: an invite-only table, left out of the lobby's lists
    rated: bool = False  # the match's end updates its players' ratings (accounts only)
    # fairness scheme 2 (None: a table made before it): the seed committed to at creation, and
    # per seat its contribution ({"value", "drawn"}; None for a bot's seat or one still to
    # come). While a person's contribution is still to come, ``seed`` is 0, a placeholder
    # that deals nothing: the deck seed is fixed from all of them (see ``dealing.py``)
    server_seed: int | None = None
    contributions: list[dict[str, Any] | None] | None = None
    clock: dict[str, Any] | None = None  # the time control and its state (clocks.py)

    @property
    def waiting(self) -> bool:
        """Whether the deck seed still waits for a person's contribution (no card is dealt)."""
        if self.server_seed is None or self.seed_source != "server" or \
                self.contributions is None:
            return False
        return any(s.get("kind") == "human" and c is None
                   for s, c in zip(self.seats, self.contributions))

    def record(self) -> dict[str, Any]:
        """The match record that :func:`cardplay.replay` rebuilds (the seed commitment's
        ``fairness`` header too, when the table has one; ``replay`` ignores it)."""
        rec: dict[str, Any] = {"format": "cardplay-match/1", "game": self.game,
                               "options": self.options, "seed": self.seed,
                               "dealer": self.dealer, "moves": [m for _, m in self.moves]}
        if self.seed_source == "daily":  # a daily attempt: one of the day's series
            from ..dailyplan import daily_header

            return daily_header(rec, self.salt or "", self.commitment or "")
        if self.salt is not None:
            from ..fairness import fairness_header

            rec["fairness"] = fairness_header(
                self.seed, self.salt, self.seed_source, server_seed=self.server_seed,
                game=self.game, options=self.options, dealer=self.dealer,
                seats=[str(s.get("kind")) for s in self.seats],
                contributions=self.contributions, commitment=self.commitment)
        return rec


def seat_status(seats: list[dict[str, Any]]) -> str:
    """'open' while a person's seat is unclaimed, else 'playing' (for a match not over)."""
    free = any(s.get("kind") == "human" and not s.get("token_hash") for s in seats)
    return "open" if free else "playing"


class Store(Protocol):
    """What the hub needs of a store: SQLite (:class:`Storage`, one process) and PostgreSQL
    (:class:`cardplay.server.pgstore.PostgresStorage`, any number of processes) both give it.

    ``add_move`` raises :class:`MoveConflict` when move ``n`` of the table is already stored
    (its key is (table, n)): of two processes racing for one move, exactly one commits."""

    @property
    def where(self) -> str: ...
    @property
    def connection(self) -> Any: ...

    def start_checkpointer(self, interval: float = 1.0) -> None: ...
    def close(self) -> None: ...
    def create_table(self, table: StoredTable,
                     guard: Callable[[], str | None] | None = None) -> None: ...
    def update_seats(self, table_id: str, seats: list[dict[str, Any]],
                     status: str | None = None) -> None: ...
    def set_status(self, table_id: str, status: str) -> None: ...
    def add_contribution(self, table_id: str, seat: int, entry: dict[str, Any]
                         ) -> list[dict[str, Any] | None]: ...
    def set_seed(self, table_id: str, seed: int) -> None: ...
    def add_move(self, table_id: str, n: int, seat: int, move: str, finished: bool = False,
                 progress: tuple[list[Any], int] | None = None,
                 clock: dict[str, Any] | None = None) -> None: ...
    def load(self, table_id: str) -> StoredTable | None: ...
    def moves_after(self, table_id: str, n: int) -> list[tuple[int, str]]: ...
    def all_tables(self) -> Iterator[StoredTable]: ...
    def live_tables(self) -> Iterator[tuple[StoredTable, float]]: ...
    def live_ids(self, bots_only: bool) -> list[str]: ...
    def lobby_page(self, status: str, limit: int, before: tuple[float, str] | None = None
                   ) -> list[dict[str, Any]]: ...
    def count(self, statuses: tuple[str, ...] = LIVE, *, creator: str | None = None,
              bots_only: bool | None = None) -> int: ...
    def move_count(self, table_id: str) -> int: ...
    def ping(self) -> None: ...


def table_row(table: StoredTable) -> tuple[Any, ...]:
    """A table's values in the order of ``_COLUMNS``, as both stores write them (a bool is
    stored as SQLite's 1/0 and as PostgreSQL's boolean)."""
    return (table.id, table.game, json.dumps(table.options), table.seed, table.dealer,
            json.dumps(table.seats), table.created, table.finished, table.salt,
            table.commitment, table.seed_source, table.status, table.creator, table.bots_only,
            json.dumps(table.scores), table.deals, table.listed, table.server_seed,
            None if table.contributions is None else json.dumps(table.contributions), table.rated,
            None if table.clock is None else json.dumps(table.clock))


def table_of_row(row: tuple[Any, ...], moves: list[tuple[int, str]]) -> StoredTable:
    """The table of a row of ``_COLUMNS`` (either store), with its moves."""
    return StoredTable(id=row[0], game=row[1], options=json.loads(row[2]), seed=row[3],
                       dealer=row[4], seats=json.loads(row[5]), created=row[6], finished=row[7],
                       salt=row[8], commitment=row[9], seed_source=row[10] or "server",
                       status=row[11] or "open", creator=row[12], bots_only=bool(row[13]),
                       scores=json.loads(row[14]) if row[14] else None, deals=row[15] or 0,
                       listed=bool(row[16]), server_seed=row[17],
                       contributions=json.loads(row[18]) if row[18] else None,
                       rated=bool(row[19]), moves=moves,
                       clock=json.loads(row[20]) if row[20] else None)


def merge_contribution(row: tuple[Any, ...] | None, seat: int, entry: dict[str, Any]
                       ) -> list[dict[str, Any] | None]:
    """A row's (contributions, seats) with seat ``seat``'s entry added unless it has one."""
    if row is None:
        raise KeyError("no table has this id")
    seats = json.loads(row[1])
    merged: list[dict[str, Any] | None] = json.loads(row[0]) if row[0] else [None] * len(seats)
    if merged[seat] is None:
        merged[seat] = entry
    return merged


def lobby_entry(r: tuple[Any, ...]) -> dict[str, Any]:
    """What the lobby lists of a row of ``LOBBY_COLUMNS`` (either store)."""
    return {"id": r[0], "game": r[1], "options": json.loads(r[2]), "seats": json.loads(r[3]),
            "created": r[4], "scores": json.loads(r[5]) if r[5] else None, "deals": r[6],
            "commitment": r[7], "status": r[8], "version": 0 if r[9] is None else r[9] + 1}

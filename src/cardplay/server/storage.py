"""Durable storage of tables: SQLite from the standard library, in WAL mode.

A table is stored as its match header (game, options, seed, first dealer, seats) and its move
list; :func:`cardplay.replay` rebuilds the match from them after a restart. Beside them each
row keeps what the lobby lists (status, scores, deals played) and what the limits count (who
created it, whether only bots sit there), behind indexes, so that listing a page of tables or
counting a client's tables costs the same with ten tables as with ten thousand. Every move is
committed before the server acknowledges it, so a server killed with SIGKILL resumes every
table at the same move.

``synchronous=NORMAL`` (the default here) makes a commit durable against a killed process (the
WAL write has reached the operating system); ``durability="full"`` also survives a power cut at
the price of one fsync per move.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

__all__ = ["LIVE", "STATUSES", "CapRefusal", "MoveConflict", "Storage", "Store",
           "StoredTable", "default_data_dir", "open_store", "seat_status"]

# open: a person's seat is free; playing: every seat taken; over: the match ended; idle: left
# by everyone for longer than the eviction age (out of memory and the lobby, resumable);
# stopped: a table of bots only that reached its move limit.
STATUSES = ("open", "playing", "over", "idle", "stopped")
LIVE = ("open", "playing")  # what the lobby lists and the table caps count

# Columns added after the first release, with their SQL types; an older database gets them on
# open (ALTER TABLE ADD COLUMN), and its rows get a status computed from their seats.
_ADDED_COLUMNS = {
    "salt": "TEXT", "commitment": "TEXT", "seed_source": "TEXT", "status": "TEXT",
    "creator": "TEXT", "bots_only": "INTEGER NOT NULL DEFAULT 0", "scores": "TEXT",
    "listed": "INTEGER NOT NULL DEFAULT 1",
    "deals": "INTEGER NOT NULL DEFAULT 0",
    "server_seed": "INTEGER", "contributions": "TEXT", "rated": "INTEGER NOT NULL DEFAULT 0",
    "clock": "TEXT",
}
_INDEXES = """
CREATE INDEX IF NOT EXISTS tables_lobby ON tables (status, created DESC, id DESC);
CREATE INDEX IF NOT EXISTS tables_creator ON tables (creator, status);
CREATE INDEX IF NOT EXISTS tables_bots ON tables (bots_only, status);
"""
_COLUMNS = ("id, game, options, seed, dealer, seats, created, finished, salt, commitment, "
            "seed_source, status, creator, bots_only, scores, deals, listed, server_seed, "
            "contributions, rated, clock")
# what a lobby page reads of each table, and the move count (MAX(n) of its moves)
LOBBY_COLUMNS = ("id, game, options, seats, created, scores, deals, commitment, status, "
                 "(SELECT MAX(n) FROM moves WHERE table_id = tables.id)")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id        TEXT PRIMARY KEY,
    game      TEXT NOT NULL,
    options   TEXT NOT NULL,
    seed      INTEGER NOT NULL,
    dealer    INTEGER,
    seats     TEXT NOT NULL,
    created   REAL NOT NULL,
    finished  REAL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id  TEXT NOT NULL REFERENCES tables(id),
    n         INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    move      TEXT NOT NULL,
    at        REAL NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
"""


class CapRefusal(Exception):
    """A new table would pass one of the caps on tables (the message says which)."""


class MoveConflict(Exception):
    """Move number n of a table is already stored: another process stored it first."""


def _conflict(e: sqlite3.IntegrityError, table_id: str, n: int) -> Exception:
    """A duplicate (table, n) is a lost race; any other constraint (a move of an unknown
    table) stays the error it is."""
    if getattr(e, "sqlite_errorname", "") == "SQLITE_CONSTRAINT_PRIMARYKEY":
        return MoveConflict(f"move {n} of table {table_id} is already stored")
    return e


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/cardplay``, or ``~/.local/share/cardplay`` when that is not set."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "cardplay"


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

    @property
    def waiting(self) -> bool:
        """Whether the deck seed still waits for a person's contribution (no card is dealt)."""
        if self.server_seed is None or self.seed_source != "server" or \
                self.contributions is None:
            return False
        return any(s.get("kind") == "human" and c is None
                   for s, c in zip(self.seats, self.contributions))
    clock: dict[str, Any] | None = None  # the time control and its state (clocks.py)

    def record(self) -> dict[str, Any]:
        """The match record that :func:`cardplay.replay` rebuilds (the seed commitment's
        ``fairness`` header too, when the table has one; ``replay`` ignores it)."""
        rec: dict[str, Any] = {"format": "cardplay-match/1", "game": self.game,
                               "options": self.options, "seed": self.seed,
                               "dealer": self.dealer, "moves": [m for _, m in self.moves]}
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


def open_store(data_dir: str | os.PathLike[str] | None, database: str | None = None,
               durability: str = "normal") -> Store:
    """SQLite in ``data_dir`` or, given a ``postgresql://`` URL, PostgreSQL (whose modules are
    imported only then: plain SQLite needs nothing outside the standard library)."""
    if database is None:
        return Storage(data_dir if data_dir is not None else default_data_dir(), durability)
    if not database.startswith(("postgresql://", "postgres://")):
        raise ValueError("--database takes a postgresql:// URL")
    from .pgstore import PostgresStorage

    return PostgresStorage(database)


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


class Storage:
    """The tables and moves of one data directory (``cardplay.db`` in it)."""

    def __init__(self, data_dir: str | os.PathLike[str], durability: str = "normal") -> None:
        if durability not in ("normal", "full"):
            raise ValueError("durability is 'normal' or 'full'")
        self.dir = Path(data_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / "cardplay.db"
        # One connection, used only from the event loop's thread; autocommit mode with explicit
        # transactions keeps every write a single short commit.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={durability.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        self._migrate()
        self._db.executescript(_INDEXES)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None

    def start_checkpointer(self, interval: float = 1.0) -> None:
        """Move WAL checkpoints (the only writes that wait for the disk under
        ``synchronous=NORMAL``) off the caller's thread: a background thread with its own
        connection checkpoints every ``interval`` seconds, and commits no longer do."""
        if self._checkpointer is not None:
            return
        self._db.execute("PRAGMA wal_autocheckpoint=0")

        def run() -> None:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            try:
                while not self._stop.wait(interval):
                    # busy or a passing error: try again at the next tick
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                db.close()

        self._checkpointer = threading.Thread(target=run, name="cardplay-checkpoint",
                                              daemon=True)
        self._checkpointer.start()

    def _migrate(self) -> None:
        have = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        for name, sql_type in _ADDED_COLUMNS.items():
            if name not in have:
                self._db.execute(f"ALTER TABLE tables ADD COLUMN {name} {sql_type}")
        rows = self._db.execute(
            "SELECT id, seats, finished FROM tables WHERE status IS NULL").fetchall()
        if not rows:
            return
        self._db.execute("BEGIN")
        try:
            for table_id, seats_json, finished in rows:
                seats = json.loads(seats_json)
                status = "over" if finished is not None else seat_status(seats)
                bots = all(s.get("kind") == "bot" for s in seats)
                self._db.execute("UPDATE tables SET status = ?, bots_only = ? WHERE id = ?",
                                 (status, int(bots), table_id))
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    @property
    def where(self) -> str:
        return str(self.path)

    @property
    def connection(self) -> sqlite3.Connection:
        """The connection, for the account rows kept in the same database (accountdb.py)."""
        return self._db

    @property
    def journal_mode(self) -> str:
        return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
            self._checkpointer = None
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

    def create_table(self, table: StoredTable,
                     guard: Callable[[], str | None] | None = None) -> None:
        """Store a new table's header and seats (committed on return). ``guard`` (the caps'
        check) runs first; a message from it refuses the table (:class:`CapRefusal`). One
        process on one thread: nothing can come in between the check and the insert."""
        if table.status not in STATUSES:
            raise ValueError(f"unknown status {table.status!r}")
        refusal = guard() if guard is not None else None
        if refusal is not None:
            raise CapRefusal(refusal)
        row = table_row(table)
        self._db.execute(
            f"INSERT INTO tables ({_COLUMNS}) VALUES ({', '.join('?' * len(row))})", row)

    def update_seats(self, table_id: str, seats: list[dict[str, Any]],
                     status: str | None = None) -> None:
        if status is None:
            self._db.execute("UPDATE tables SET seats = ? WHERE id = ?",
                             (json.dumps(seats), table_id))
        else:
            self._db.execute("UPDATE tables SET seats = ?, status = ? WHERE id = ?",
                             (json.dumps(seats), status, table_id))

    def set_status(self, table_id: str, status: str) -> None:
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        self._db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    def add_contribution(self, table_id: str, seat: int, entry: dict[str, Any]
                         ) -> list[dict[str, Any] | None]:
        """Seat ``seat``'s part of the shuffle, kept only if the seat has none yet; every
        seat's, as stored. (One connection on one thread: nothing comes in between.)"""
        row = self._db.execute("SELECT contributions, seats FROM tables WHERE id = ?",
                               (table_id,)).fetchone()
        merged = merge_contribution(row, seat, entry)
        self._db.execute("UPDATE tables SET contributions = ? WHERE id = ?",
                         (json.dumps(merged), table_id))
        return merged

    def set_seed(self, table_id: str, seed: int) -> None:
        """The deck seed, once every person's part is in."""
        self._db.execute("UPDATE tables SET seed = ? WHERE id = ?", (seed, table_id))

    def add_move(self, table_id: str, n: int, seat: int, move: str, finished: bool = False,
                 progress: tuple[list[Any], int] | None = None,
                 clock: dict[str, Any] | None = None) -> None:
        """Store move number ``n`` (0-based) of a table; committed before this returns.
        ``progress`` (the match scores and deals played, when a deal just ended) updates what
        the lobby shows, and ``clock`` the table's clock, in the same transaction."""
        now = time.time()
        db = self._db
        if not finished and progress is None and clock is None:
            try:
                db.execute("INSERT INTO moves (table_id, n, seat, move, at) "
                           "VALUES (?, ?, ?, ?, ?)", (table_id, n, seat, move, now))
            except sqlite3.IntegrityError as e:
                raise _conflict(e, table_id, n) from e
            return
        db.execute("BEGIN")
        try:
            db.execute("INSERT INTO moves (table_id, n, seat, move, at) VALUES (?, ?, ?, ?, ?)",
                       (table_id, n, seat, move, now))
            if progress is not None:
                db.execute("UPDATE tables SET scores = ?, deals = ? WHERE id = ?",
                           (json.dumps(progress[0]), progress[1], table_id))
            if clock is not None:
                db.execute("UPDATE tables SET clock = ? WHERE id = ?",
                           (json.dumps(clock), table_id))
            if finished:
                db.execute("UPDATE tables SET finished = ?, status = 'over' WHERE id = ?",
                           (now, table_id))
            db.execute("COMMIT")
        except sqlite3.IntegrityError as e:
            db.execute("ROLLBACK")
            raise _conflict(e, table_id, n) from e
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def moves_after(self, table_id: str, n: int) -> list[tuple[int, str]]:
        """The moves numbered ``n`` and later, in order (what a process behind catches up)."""
        return [(s, m) for s, m in self._db.execute(
            "SELECT seat, move FROM moves WHERE table_id = ? AND n >= ? ORDER BY n",
            (table_id, n))]

    def live_ids(self, bots_only: bool) -> list[str]:
        """The ids of the tables the lobby lists (of bots only, or with people)."""
        return [r[0] for r in self._db.execute(
            "SELECT id FROM tables WHERE status IN ('open', 'playing') AND bots_only = ?",
            (int(bots_only),))]

    def load(self, table_id: str) -> StoredTable | None:
        row = self._db.execute(f"SELECT {_COLUMNS} FROM tables WHERE id = ?",
                               (table_id,)).fetchone()
        if row is None:
            return None
        return self._table(row)

    def all_tables(self) -> Iterator[StoredTable]:
        """Every stored table with its moves, oldest first."""
        rows = self._db.execute(f"SELECT {_COLUMNS} FROM tables ORDER BY created").fetchall()
        for row in rows:
            yield self._table(row)

    def live_tables(self) -> Iterator[tuple[StoredTable, float]]:
        """Every table the lobby lists (open or playing), oldest first, with the time of its
        last move (its creation when it has none)."""
        rows = self._db.execute(
            f"SELECT {_COLUMNS}, COALESCE((SELECT MAX(at) FROM moves WHERE table_id = tables.id),"
            " created) FROM tables WHERE status IN ('open', 'playing') ORDER BY created"
        ).fetchall()
        for row in rows:
            yield self._table(row[:-1]), float(row[-1])

    def lobby_page(self, status: str, limit: int, before: tuple[float, str] | None = None
                   ) -> list[dict[str, Any]]:
        """Up to ``limit`` tables of a status, newest first, after the cursor ``before``
        (created, id): one range of the ``tables_lobby`` index, whatever the table count."""
        where = "status = ? AND listed = 1"  # an invite-only table is never listed
        args: list[Any] = [status]
        if before is not None:
            # a row value: SQLite seeks the index to the cursor instead of scanning to it
            where += " AND (created, id) < (?, ?)"
            args += [before[0], before[1]]
        rows = self._db.execute(
            f"SELECT {LOBBY_COLUMNS} FROM tables "
            f"WHERE {where} ORDER BY created DESC, id DESC LIMIT ?", (*args, limit)).fetchall()
        return [lobby_entry(r) for r in rows]

    def count(self, statuses: tuple[str, ...] = LIVE, *, creator: str | None = None,
              bots_only: bool | None = None) -> int:
        """How many tables have one of these statuses (of one creator; of bots only)."""
        where = [f"status IN ({', '.join('?' * len(statuses))})"]
        args: list[Any] = list(statuses)
        if creator is not None:
            where.append("creator = ?")
            args.append(creator)
        if bots_only is not None:
            where.append("bots_only = ?")
            args.append(int(bots_only))
        return int(self._db.execute(f"SELECT COUNT(*) FROM tables WHERE {' AND '.join(where)}",
                                    args).fetchone()[0])

    def _table(self, row: tuple[Any, ...]) -> StoredTable:
        return table_of_row(row, [(s, m) for s, m in self._db.execute(
            "SELECT seat, move FROM moves WHERE table_id = ? ORDER BY n", (row[0],))])

    def move_count(self, table_id: str) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?",
                                    (table_id,)).fetchone()[0])

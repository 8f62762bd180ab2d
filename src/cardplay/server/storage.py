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
from pathlib import Path
from typing import Any

from .stored import (
    _COLUMNS,
    LIVE,
    LOBBY_COLUMNS,
    STATUSES,
    CapRefusal,
    MoveConflict,
    Store,
    StoredTable,
    StoreUnavailable,
    lobby_entry,
    merge_contribution,
    seat_status,
    table_of_row,
    table_row,
)

# the shapes every store shares live in stored.py; their old home re-exports them
__all__ = ["LIVE", "STATUSES", "CapRefusal", "MoveConflict", "Storage", "Store",
           "StoreUnavailable", "StoredTable", "default_data_dir", "open_store", "seat_status"]

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

    def remove_moves(self, table_id: str, n: int) -> None:
        """Delete the moves numbered ``n`` and later (an undo against bots, undo.py)."""
        self._db.execute("DELETE FROM moves WHERE table_id = ? AND n >= ?", (table_id, n))

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

    def ping(self) -> None:
        """A read that only checks the store answers (one file on this machine: it does)."""
        self._db.execute("SELECT 1").fetchone()

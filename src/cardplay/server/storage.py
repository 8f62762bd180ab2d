"""Durable storage of tables: SQLite from the standard library, in WAL mode.

A table is stored as its match header (game, options, seed, first dealer, seats) and its move
list; :func:`cardplay.replay` rebuilds the match from them after a restart. Every move is
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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Storage", "StoredTable", "default_data_dir"]

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

    def record(self) -> dict[str, Any]:
        """The match record that :func:`cardplay.replay` rebuilds."""
        return {"format": "cardplay-match/1", "game": self.game, "options": self.options,
                "seed": self.seed, "dealer": self.dealer, "moves": [m for _, m in self.moves]}


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

    def create_table(self, table: StoredTable) -> None:
        """Store a new table's header and seats (committed on return)."""
        self._db.execute(
            "INSERT INTO tables (id, game, options, seed, dealer, seats, created, finished) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table.id, table.game, json.dumps(table.options), table.seed, table.dealer,
             json.dumps(table.seats), table.created, table.finished))

    def update_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        self._db.execute("UPDATE tables SET seats = ? WHERE id = ?",
                         (json.dumps(seats), table_id))

    def add_move(self, table_id: str, n: int, seat: int, move: str,
                 finished: bool = False) -> None:
        """Store move number ``n`` (0-based) of a table; committed before this returns."""
        now = time.time()
        db = self._db
        if not finished:
            db.execute("INSERT INTO moves (table_id, n, seat, move, at) VALUES (?, ?, ?, ?, ?)",
                       (table_id, n, seat, move, now))
            return
        db.execute("BEGIN")
        try:
            db.execute("INSERT INTO moves (table_id, n, seat, move, at) VALUES (?, ?, ?, ?, ?)",
                       (table_id, n, seat, move, now))
            db.execute("UPDATE tables SET finished = ? WHERE id = ?", (now, table_id))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def load(self, table_id: str) -> StoredTable | None:
        row = self._db.execute(
            "SELECT id, game, options, seed, dealer, seats, created, finished FROM tables "
            "WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        return self._table(row)

    def all_tables(self) -> Iterator[StoredTable]:
        """Every stored table with its moves, oldest first."""
        rows = self._db.execute(
            "SELECT id, game, options, seed, dealer, seats, created, finished FROM tables "
            "ORDER BY created").fetchall()
        for row in rows:
            yield self._table(row)

    def _table(self, row: tuple[Any, ...]) -> StoredTable:
        t = StoredTable(id=row[0], game=row[1], options=json.loads(row[2]), seed=row[3],
                        dealer=row[4], seats=json.loads(row[5]), created=row[6], finished=row[7])
        t.moves = [(s, m) for s, m in self._db.execute(
            "SELECT seat, move FROM moves WHERE table_id = ? ORDER BY n", (t.id,))]
        return t

    def move_count(self, table_id: str) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?",
                                    (table_id,)).fetchone()[0])

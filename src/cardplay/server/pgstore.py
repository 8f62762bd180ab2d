"""PostgreSQL storage (psycopg 3), for several ``cardplay serve`` processes on one database.

The same rows as the SQLite store (:mod:`cardplay.server.storage`): a table's header, seats
(with the hashes of their tokens, never the tokens), lobby columns, and its moves keyed
(table, n). Two processes that race for move n of a table both INSERT it; the primary key lets
exactly one commit and the other gets :class:`~cardplay.server.storage.MoveConflict`.

The schema belongs to Alembic (``migrations/`` beside this module): opening the store runs
``upgrade head`` under a PostgreSQL advisory lock, so processes started together migrate once.

Calls are synchronous, on the event loop's thread, as with SQLite: a move is checked, stored
and broadcast with no other message of this process in between. One round trip to a nearby
server costs well under a millisecond; a distant database makes every move wait for it.

A lost database raises :class:`~cardplay.server.storage.StoreUnavailable` (never a driver
error). After a failed connection the store does not try again for a growing pause (0.25 s
doubling to 4 s): a call in between fails at once, so that nothing (a request, a bot, a timer)
waits on or hammers a dead server.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from .storage import (
    _COLUMNS,
    LIVE,
    LOBBY_COLUMNS,
    STATUSES,
    CapRefusal,
    MoveConflict,
    StoredTable,
    StoreUnavailable,
    lobby_entry,
    merge_contribution,
    table_of_row,
    table_row,
)

__all__ = ["MIGRATIONS", "PostgresStorage", "upgrade"]

MIGRATIONS = Path(__file__).parent / "migrations"
_CAPS_LOCK = 0x6361707300  # the advisory lock of table creation (any fixed number)
_CONNECT_TIMEOUT = 2  # seconds (libpq's least): a database that does not answer is down
_FIRST_PAUSE, _LONGEST_PAUSE = 0.25, 4.0  # seconds between tries to reach a lost database
# what a lost or unreachable server raises (a constraint's error is the caller's to see)
_LOST = (psycopg.OperationalError, psycopg.InterfaceError)

def sqlalchemy_url(url: str) -> str:
    """The URL Alembic (SQLAlchemy) needs for psycopg 3: ``postgresql+psycopg://...``."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database's schema to ``revision`` with Alembic (``cardplay db upgrade``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # a ConfigParser value: a literal % in a password must be doubled
    cfg.set_main_option("sqlalchemy.url", sqlalchemy_url(url).replace("%", "%%"))
    command.upgrade(cfg, revision)


class PostgresStorage:
    """The tables and moves of one PostgreSQL database."""

    def __init__(self, url: str, migrate: bool = True) -> None:
        if migrate:
            upgrade(url)
        self.url = url
        self._pause = 0.0  # the pause before the next try to connect (0: connected)
        self._next_try = 0.0  # monotonic time before which no connection is tried
        self._conn = self._connect()

    def _connect(self) -> psycopg.Connection[Any]:
        # autocommit: each statement is its own short transaction; a move with its lobby
        # columns is one explicit transaction
        return psycopg.connect(self.url, autocommit=True, connect_timeout=_CONNECT_TIMEOUT)

    @property
    def _db(self) -> psycopg.Connection[Any]:
        """The connection, opened again when the last one was lost (a database restart, a
        terminated backend): the call that met the loss failed, the next one works. While
        the database stays unreachable, tries are spaced by a growing pause."""
        if not self._conn.closed:
            return self._conn
        now = time.monotonic()
        if now < self._next_try:
            raise StoreUnavailable("the database is not reachable; the server tries again "
                                   "by itself")
        try:
            self._conn = self._connect()
        except _LOST as e:
            self._pause = min(_LONGEST_PAUSE, max(_FIRST_PAUSE, self._pause * 2))
            self._next_try = now + self._pause
            raise StoreUnavailable(f"the database is not reachable: {_first_line(e)}") from e
        self._pause = 0.0
        return self._conn

    @property
    def connection(self) -> psycopg.Connection[Any]:
        """The connection (opened again after a loss), for the account rows kept in the same
        database (accountdb.py)."""
        return self._db

    @contextlib.contextmanager
    def _writing(self) -> Iterator[psycopg.Connection[Any]]:
        """The connection for one write; a loss met once the write was sent raises an
        ambiguous :class:`StoreUnavailable` (it may have committed before the loss)."""
        db = self._db  # unreachable here: nothing was sent, so nothing can have committed
        try:
            yield db
        except _LOST as e:
            raise StoreUnavailable(f"the database connection was lost: {_first_line(e)}",
                                   ambiguous=True) from e

    def _read(self, sql: str, args: Any = None) -> list[tuple[Any, ...]]:
        """A read, tried once more on a fresh connection if the connection was lost (a read
        changes nothing, so trying it again is safe; a write is not retried: it may have
        committed before the loss)."""
        try:
            try:
                return self._db.execute(sql, args).fetchall()
            except _LOST:
                if not self._conn.closed:
                    raise
                return self._db.execute(sql, args).fetchall()
        except _LOST as e:
            raise StoreUnavailable(f"the database connection was lost: {_first_line(e)}") from e

    def ping(self) -> None:
        """One round trip: StoreUnavailable unless the database answers."""
        self._read("SELECT 1")

    @property
    def where(self) -> str:
        info = self._conn.info
        return f"postgresql://{info.host}:{info.port}/{info.dbname}"

    def start_checkpointer(self, interval: float = 1.0) -> None:
        """Nothing to do: PostgreSQL checkpoints by itself."""

    def close(self) -> None:
        self._conn.close()

    def create_table(self, table: StoredTable,
                     guard: Callable[[], str | None] | None = None) -> None:
        """Store a new table; ``guard`` (the caps' check) runs in the same transaction, after
        a lock that every process's creations take, so that processes creating tables at the
        same instant cannot together pass a cap."""
        if table.status not in STATUSES:
            raise ValueError(f"unknown status {table.status!r}")
        with self._writing() as db, db.transaction():
            if guard is not None:
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_CAPS_LOCK,))
                refusal = guard()
                if refusal is not None:
                    raise CapRefusal(refusal)
            row = table_row(table)
            db.execute(
                f"INSERT INTO tables ({_COLUMNS}) VALUES ({', '.join(['%s'] * len(row))})", row)

    def update_seats(self, table_id: str, seats: list[dict[str, Any]],
                     status: str | None = None) -> None:
        with self._writing() as db:
            if status is None:
                db.execute("UPDATE tables SET seats = %s WHERE id = %s",
                           (json.dumps(seats), table_id))
            else:
                db.execute("UPDATE tables SET seats = %s, status = %s WHERE id = %s",
                           (json.dumps(seats), status, table_id))

    def set_status(self, table_id: str, status: str) -> None:
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        with self._writing() as db:
            db.execute("UPDATE tables SET status = %s WHERE id = %s", (status, table_id))

    def add_contribution(self, table_id: str, seat: int, entry: dict[str, Any]
                         ) -> list[dict[str, Any] | None]:
        """Seat ``seat``'s part of the shuffle, kept only if the seat has none yet; every
        seat's, as stored. The row is locked while it is merged: two processes adding two
        seats' parts at once both keep theirs."""
        with self._writing() as db, db.transaction():
            row = db.execute("SELECT contributions, seats FROM tables WHERE id = %s "
                             "FOR UPDATE", (table_id,)).fetchone()
            merged = merge_contribution(row, seat, entry)
            db.execute("UPDATE tables SET contributions = %s WHERE id = %s",
                       (json.dumps(merged), table_id))
        return merged

    def set_seed(self, table_id: str, seed: int) -> None:
        """The deck seed, once every person's part is in (the same from any process)."""
        with self._writing() as db:
            db.execute("UPDATE tables SET seed = %s WHERE id = %s", (seed, table_id))

    def add_move(self, table_id: str, n: int, seat: int, move: str, finished: bool = False,
                 progress: tuple[list[Any], int] | None = None,
                 clock: dict[str, Any] | None = None) -> None:
        """Store move ``n`` (0-based), committed on return; :class:`MoveConflict` when another
        process stored move ``n`` first (nothing of this call is then stored)."""
        now = time.time()
        try:
            with self._writing() as db, db.transaction():
                db.execute(
                    "INSERT INTO moves (table_id, n, seat, move, at) VALUES (%s, %s, %s, %s, %s)",
                    (table_id, n, seat, move, now))
                if progress is not None:
                    db.execute("UPDATE tables SET scores = %s, deals = %s WHERE id = %s",
                               (json.dumps(progress[0]), progress[1], table_id))
                if clock is not None:
                    db.execute("UPDATE tables SET clock = %s WHERE id = %s",
                               (json.dumps(clock), table_id))
                if finished:
                    db.execute(
                        "UPDATE tables SET finished = %s, status = 'over' WHERE id = %s",
                        (now, table_id))
        except pg_errors.UniqueViolation as e:
            raise MoveConflict(f"move {n} of table {table_id} is already stored") from e

    def load(self, table_id: str) -> StoredTable | None:
        rows = self._read(f"SELECT {_COLUMNS} FROM tables WHERE id = %s", (table_id,))
        return self._table(rows[0]) if rows else None

    def remove_moves(self, table_id: str, n: int) -> None:
        """Delete the moves numbered ``n`` and later (an undo against bots, undo.py)."""
        with self._writing() as db:
            db.execute("DELETE FROM moves WHERE table_id = %s AND n >= %s", (table_id, n))

    def moves_after(self, table_id: str, n: int) -> list[tuple[int, str]]:
        return [(s, m) for s, m in self._read(
            "SELECT seat, move FROM moves WHERE table_id = %s AND n >= %s ORDER BY n",
            (table_id, n))]

    def all_tables(self) -> Iterator[StoredTable]:
        rows = self._read(f"SELECT {_COLUMNS} FROM tables ORDER BY created")
        for row in rows:
            yield self._table(row)

    def live_tables(self) -> Iterator[tuple[StoredTable, float]]:
        rows = self._read(
            f"SELECT {_COLUMNS}, COALESCE((SELECT MAX(at) FROM moves "
            "WHERE table_id = tables.id), created) FROM tables "
            "WHERE status IN ('open', 'playing') ORDER BY created")
        for row in rows:
            yield self._table(row[:-1]), float(row[-1])

    def live_ids(self, bots_only: bool) -> list[str]:
        return [r[0] for r in self._read(
            "SELECT id FROM tables WHERE status IN ('open', 'playing') AND bots_only = %s",
            (bots_only,))]

    def lobby_page(self, status: str, limit: int, before: tuple[float, str] | None = None
                   ) -> list[dict[str, Any]]:
        where = "status = %s AND listed"  # an invite-only table is never listed
        args: list[Any] = [status]
        if before is not None:
            where += " AND (created, id) < (%s, %s)"
            args += [before[0], before[1]]
        rows = self._read(
            f"SELECT {LOBBY_COLUMNS} FROM tables "
            f"WHERE {where} ORDER BY created DESC, id DESC LIMIT %s", (*args, limit))
        return [lobby_entry(r) for r in rows]

    def count(self, statuses: tuple[str, ...] = LIVE, *, creator: str | None = None,
              bots_only: bool | None = None) -> int:
        where = ["status = ANY(%s)"]
        args: list[Any] = [list(statuses)]
        if creator is not None:
            where.append("creator = %s")
            args.append(creator)
        if bots_only is not None:
            where.append("bots_only = %s")
            args.append(bots_only)
        return int(self._read(f"SELECT COUNT(*) FROM tables WHERE {' AND '.join(where)}",
                              args)[0][0])

    def move_count(self, table_id: str) -> int:
        return int(self._read("SELECT COUNT(*) FROM moves WHERE table_id = %s",
                              (table_id,))[0][0])

    def _table(self, row: tuple[Any, ...]) -> StoredTable:
        return table_of_row(row, self.moves_after(row[0], 0))


def _first_line(e: BaseException) -> str:
    """The driver's message, first line only (its later lines may quote the server's log)."""
    return (str(e).strip().splitlines() or [type(e).__name__])[0]

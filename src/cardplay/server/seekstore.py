"""Storing seeks: SQLite beside the tables, or PostgreSQL shared by every process of a site.

The store is the truth about seeks: any process may answer a seek's owner, cancel it, or pair
it. Pairing one kind of seek (one ``key``: game, options, rated, clock) is serialised across
processes by :meth:`PostgresSeeks.locked`: a transaction-scoped advisory lock per key, then the
waiting rows ``FOR UPDATE SKIP LOCKED`` (a row being cancelled right now is skipped, and the
cancel, finding the row no longer waiting, answers that it was paired). SQLite serves one
process whose calls all run on the event loop's thread, so nothing can come in between.

No seat token is ever kept here: a paired seek's ``seat_token`` column holds only
:data:`DUE` (its owner has not been given a token yet) until the owner's first poll clears it
(:meth:`take_due`, one poll only winning); that poll is given the seat's token, worked out
again from the seek under the site's secret, and the table keeps only its hash
(:meth:`cardplay.server.pairing.Pairing.status`). A copy of the database, a backup or a log
of its rows therefore never holds a token that takes a seat.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .stored import StoreUnavailable

__all__ = ["BROWSER_COLUMN", "DUE", "SEEK_STATUSES", "PostgresSeeks", "Seek", "SeekStore",
           "SqliteSeeks", "open_seek_store"]

# waiting: in the pool; paired: a table was made (table, seat set); cancelled: by its owner;
# expired: its owner stopped polling
SEEK_STATUSES = ("waiting", "paired", "cancelled", "expired")
# the seat_token column of a paired seek whose owner was not yet given the seat's token (the
# column's name is the schema's, from when it held the token itself)
DUE = "due"

_FIELDS = ("id, key, game, options, players, rated, clock, owner_hash, account, name, client, "
           "rating, accepts, created, polled, status, table_id, seat, browser")

SCHEMA = """
CREATE TABLE IF NOT EXISTS seeks (
    id          TEXT PRIMARY KEY,
    key         TEXT NOT NULL,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,
    players     INTEGER NOT NULL,
    rated       BOOLEAN NOT NULL,
    clock       TEXT,
    owner_hash  TEXT NOT NULL,
    account     TEXT,
    name        TEXT NOT NULL,
    client      TEXT NOT NULL,
    rating      DOUBLE PRECISION,
    accepts     TEXT,
    created     DOUBLE PRECISION NOT NULL,
    polled      DOUBLE PRECISION NOT NULL,
    status      TEXT NOT NULL,
    table_id    TEXT,
    seat        INTEGER,
    seat_token  TEXT
);
CREATE INDEX IF NOT EXISTS seeks_waiting ON seeks (status, key, created);
CREATE INDEX IF NOT EXISTS seeks_rating ON seeks (key, rating) WHERE status = 'waiting';
CREATE INDEX IF NOT EXISTS seeks_client ON seeks (client, status);
CREATE INDEX IF NOT EXISTS seeks_account ON seeks (account, status);
"""
# the owner's browser (browserid.browser_key), so that one guest's two tabs are never paired
# (migration 0008; an SQLite file of an older version gets it when opened)
BROWSER_COLUMN = "ALTER TABLE seeks ADD COLUMN browser TEXT"


@dataclass
class Seek:
    """One seek as stored. ``key`` is what two seeks must share to be paired."""

    id: str
    key: str
    game: str
    options: dict[str, Any]
    players: int
    rated: bool
    clock: dict[str, Any] | None
    owner_hash: str  # SHA-256 of the owner token (the token itself is never stored)
    account: str | None  # the owner's account id; None for a guest
    name: str  # the name the owner's seat will show
    client: str  # the owner's client key (a hashed address), for the limits
    rating: float | None  # the owner's rating under this game's key, for rated seeks
    accepts: str | None  # the seek this one accepted from the lobby's list
    created: float
    polled: float
    status: str = "waiting"
    table: str | None = None
    seat: int | None = None
    browser: str | None = None  # the key of the owner's browser (None: not known)

    def row(self) -> tuple[Any, ...]:
        return (self.id, self.key, self.game, json.dumps(self.options), self.players,
                self.rated, json.dumps(self.clock), self.owner_hash, self.account, self.name,
                self.client, self.rating, self.accepts, self.created, self.polled,
                self.status, self.table, self.seat, self.browser)

    @classmethod
    def of_row(cls, r: tuple[Any, ...], parsed: dict[str, Any] | None = None) -> Seek:
        """The seek of a row; ``parsed`` caches JSON texts across the rows of one read (the
        seeks of one key share their options and clock: half the cost of a pool's read)."""
        memo = parsed if parsed is not None else {}
        options = memo.get(r[3])
        if options is None:
            options = memo[r[3]] = json.loads(r[3])
        clock = memo.get(r[6]) if r[6] else None
        if r[6] and clock is None:
            clock = memo[r[6]] = json.loads(r[6])
        return cls(id=r[0], key=r[1], game=r[2], options=options, players=int(r[4]),
                   rated=bool(r[5]), clock=clock,
                   owner_hash=r[7], account=r[8], name=r[9], client=r[10], rating=r[11],
                   accepts=r[12], created=float(r[13]), polled=float(r[14]), status=r[15],
                   table=r[16], seat=r[17], browser=r[18])


class SeekStore(Protocol):
    """What :class:`cardplay.server.pairing.Pairing` needs of a store of seeks."""

    def insert(self, seek: Seek) -> None: ...
    def get(self, seek_id: str) -> Seek | None: ...
    def touch(self, seek_id: str, now: float) -> None: ...
    def take_due(self, seek_id: str) -> bool: ...
    def cancel(self, seek_id: str) -> bool: ...
    def count_waiting(self, *, client: str | None = None, account: str | None = None,
                      since: float = 0.0) -> int: ...
    def keys_to_pair(self, since: float) -> list[str]: ...
    def expire(self, before: float) -> int: ...
    def prune(self, before: float) -> int: ...
    def open_seeks(self, since: float, limit: int) -> list[Seek]: ...
    def locked(self, key: str, since: float, near: tuple[float, float] | None = None,
               first: int | None = None, ids: Sequence[str] = ()
               ) -> contextlib.AbstractContextManager[list[Seek]]: ...
    def mark_paired(self, seek_id: str, table: str, seat: int) -> None: ...
    def close(self) -> None: ...


class _Sql:
    """The statements both stores share; ``P`` is the driver's placeholder."""

    P = "?"

    def run(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def write(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> int:
        raise NotImplementedError

    def q(self, sql: str) -> str:
        return sql.replace("?", self.P)

    def insert(self, seek: Seek) -> None:
        row = seek.row()
        self.write(f"INSERT INTO seeks ({_FIELDS}) VALUES ({', '.join('?' * len(row))})", row)

    def get(self, seek_id: str) -> Seek | None:
        rows = self.run(f"SELECT {_FIELDS} FROM seeks WHERE id = ?", (seek_id,))
        return Seek.of_row(rows[0]) if rows else None

    def touch(self, seek_id: str, now: float) -> None:
        self.write("UPDATE seeks SET polled = ? WHERE id = ? AND status = 'waiting'",
                   (now, seek_id))

    def cancel(self, seek_id: str) -> bool:
        return self.write("UPDATE seeks SET status = 'cancelled' "
                          "WHERE id = ? AND status = 'waiting'", (seek_id,)) > 0

    def count_waiting(self, *, client: str | None = None, account: str | None = None,
                      since: float = 0.0) -> int:
        where = "status = 'waiting' AND polled >= ?"
        args: list[Any] = [since]
        if client is not None:
            where += " AND client = ?"
            args.append(client)
        if account is not None:
            where += " AND account = ?"
            args.append(account)
        return int(self.run(f"SELECT COUNT(*) FROM seeks WHERE {where}", args)[0][0])

    def keys_to_pair(self, since: float) -> list[str]:
        return [r[0] for r in self.run(
            "SELECT key FROM seeks WHERE status = 'waiting' AND polled >= ? "
            "GROUP BY key HAVING COUNT(*) >= 2", (since,))]

    def expire(self, before: float) -> int:
        return self.write("UPDATE seeks SET status = 'expired' "
                          "WHERE status = 'waiting' AND polled < ?", (before,))

    def prune(self, before: float) -> int:
        return self.write("DELETE FROM seeks WHERE status <> 'waiting' AND polled < ?",
                          (before,))

    def open_seeks(self, since: float, limit: int) -> list[Seek]:
        return [Seek.of_row(r) for r in self.run(
            f"SELECT {_FIELDS} FROM seeks WHERE status = 'waiting' AND polled >= ? "
            "ORDER BY created DESC, id DESC LIMIT ?", (since, limit))]

    def waiting(self, key: str, since: float, near: tuple[float, float] | None,
                first: int | None, ids: Sequence[str], lock: str = "") -> list[Seek]:
        """The waiting seeks of a key, oldest first: all of them, or those rated within
        ``near``, or the ``first`` oldest; with the seeks ``ids`` in any case."""
        base = "status = 'waiting' AND key = ? AND polled >= ?"
        args: list[Any] = [key, since]
        where = base
        if near is not None:
            where += " AND rating BETWEEN ? AND ?"
            args += [near[0], near[1]]
        sql = f"SELECT {_FIELDS} FROM seeks WHERE {where} ORDER BY created, id"
        if first is not None:
            sql += " LIMIT ?"
            args.append(first)
        rows = self.run(sql + lock, args)
        have = {r[0] for r in rows}
        missing = [i for i in ids if i not in have]  # one round trip less when none is
        if missing:
            rows += self.run(f"SELECT {_FIELDS} FROM seeks WHERE {base} AND id IN "
                             f"({', '.join('?' * len(missing))}){lock}", [key, since, *missing])
        parsed: dict[str, Any] = {}
        return sorted((Seek.of_row(r, parsed) for r in rows), key=lambda x: (x.created, x.id))

    def mark_paired(self, seek_id: str, table: str, seat: int) -> None:
        self.write("UPDATE seeks SET status = 'paired', table_id = ?, seat = ?, seat_token = ? "
                   "WHERE id = ?", (table, seat, DUE, seek_id))


class SqliteSeeks(_Sql):
    """Seeks in the data directory's ``cardplay.db``, beside the tables (one process)."""

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # as the tables' store by default: durable against a killed process, no fsync a write
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        if "browser" not in {r[1] for r in self._db.execute("PRAGMA table_info(seeks)")}:
            self._db.execute(BROWSER_COLUMN)

    def run(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        return self._db.execute(sql, args).fetchall()

    def write(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> int:
        return self._db.execute(sql, args).rowcount

    def take_due(self, seek_id: str) -> bool:
        # one statement: whether this call cleared the mark
        return self.write("UPDATE seeks SET seat_token = NULL WHERE id = ? AND seat_token = ?",
                          (seek_id, DUE)) > 0

    @contextlib.contextmanager
    def locked(self, key: str, since: float, near: tuple[float, float] | None = None,
               first: int | None = None, ids: Sequence[str] = ()) -> Iterator[list[Seek]]:
        # one process, one thread: no other request runs until the pairing is written
        yield self.waiting(key, since, near, first, ids)

    def close(self) -> None:
        self._db.close()


class PostgresSeeks(_Sql):
    """Seeks in PostgreSQL (the schema is Alembic's, migration 0006), for several processes."""

    P = "%s"

    def __init__(self, url: str) -> None:
        import psycopg

        self._psycopg = psycopg
        self.url = url
        self._conn = psycopg.connect(url, autocommit=True)

    @property
    def _db(self) -> Any:
        if self._conn.closed:  # a lost connection: the call that met it failed, this one works
            with self._outage():
                self._conn = self._psycopg.connect(self.url, autocommit=True, connect_timeout=2)
        return self._conn

    @contextlib.contextmanager
    def _outage(self) -> Iterator[None]:
        """A database that is down or lost is the tables' outage too: StoreUnavailable, which
        the app answers with 503 ``unavailable`` (as for tables) instead of a 500."""
        try:
            yield
        except (self._psycopg.OperationalError, self._psycopg.InterfaceError) as e:
            raise StoreUnavailable(f"the seeks' database is not reachable: {e}") from e

    def run(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        with self._outage():
            return list(self._db.execute(self.q(sql), args).fetchall())

    def write(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> int:
        with self._outage():
            return int(self._db.execute(self.q(sql), args).rowcount)

    def take_due(self, seek_id: str) -> bool:
        # one statement: of two polls at once (two tabs, two processes) one clears the mark
        return self.write("UPDATE seeks SET seat_token = NULL WHERE id = ? AND seat_token = ?",
                          (seek_id, DUE)) > 0

    @contextlib.contextmanager
    def locked(self, key: str, since: float, near: tuple[float, float] | None = None,
               first: int | None = None, ids: Sequence[str] = ()) -> Iterator[list[Seek]]:
        """The waiting seeks of ``key`` (see :meth:`waiting`), locked until the block ends
        (its writes commit with it; an exception rolls them back and the seeks wait on)."""
        with self._outage(), self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", ("seeks:" + key,))
            yield self.waiting(key, since, near, first, ids, " FOR UPDATE SKIP LOCKED")

    def close(self) -> None:
        self._conn.close()


def open_seek_store(storage: Any) -> SeekStore:
    """The store of seeks beside a table store: the same SQLite file, or the same PostgreSQL
    database (through a connection of its own)."""
    url = getattr(storage, "url", None)
    if isinstance(url, str):
        return PostgresSeeks(url)
    return SqliteSeeks(storage.path)

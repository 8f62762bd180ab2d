"""The rows of accounts, sessions, seats' accounts and ratings, in SQLite or PostgreSQL.

One class, :class:`AccountDb`, over the connection of the server's table store (the same
database, so that a seat's account and its table are written together). The SQL is written once
with ``?`` placeholders; for PostgreSQL they become ``%s``. SQLite gets its schema here on open
(``CREATE TABLE IF NOT EXISTS``); PostgreSQL's belongs to Alembic
(``migrations/versions/v0003_accounts.py``), the same tables and indexes.

Tables: ``accounts`` (a name, its case-folded key, unique, and the Argon2id hash: never the
password), ``sessions`` (the SHA-256 of each random session token, never the token),
``account_seats`` (which account sat at which seat of which table, and its result there),
``ratings`` (one row per account and rating key) and ``rating_history`` (every change).

Every call runs on the event loop's thread, as the table store's do, so no other statement of
this process comes between a transaction's statements.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["SQLITE_SCHEMA", "AccountDb"]

SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id        TEXT PRIMARY KEY,
    name      TEXT NOT NULL,
    name_key  TEXT NOT NULL UNIQUE,
    password  TEXT NOT NULL,
    created   REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id         TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    account    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created    REAL NOT NULL,
    seen       REAL NOT NULL,
    agent      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions (account);
CREATE TABLE IF NOT EXISTS account_seats (
    account   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    table_id  TEXT NOT NULL,
    seat      INTEGER NOT NULL,
    linked    REAL NOT NULL,
    result    TEXT,
    ended     REAL,
    PRIMARY KEY (account, table_id, seat)
);
CREATE INDEX IF NOT EXISTS account_seats_table ON account_seats (table_id);
CREATE TABLE IF NOT EXISTS ratings (
    account  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key      TEXT NOT NULL,
    mu       REAL NOT NULL,
    sigma    REAL NOT NULL,
    games    INTEGER NOT NULL,
    updated  REAL NOT NULL,
    PRIMARY KEY (account, key)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (key, mu DESC);
CREATE TABLE IF NOT EXISTS rating_history (
    account      TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key          TEXT NOT NULL,
    table_id     TEXT NOT NULL,
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    games        INTEGER NOT NULL,
    at           REAL NOT NULL,
    PRIMARY KEY (account, key, table_id)
);
"""


class AccountDb:
    """Account rows over a DB-API connection: ``connect()`` gives the connection (called for
    every statement, so a store that reconnects after a loss is followed), ``postgres`` says
    which SQL dialect it speaks."""

    def __init__(self, connect: Callable[[], Any], postgres: bool) -> None:
        self._connect = connect
        self.postgres = postgres
        self._in_tx = False
        if not postgres:
            self._connect().executescript(SQLITE_SCHEMA)

    # ---- plumbing

    def run(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        """One statement; its rows (none for a statement that returns none)."""
        if self.postgres:
            sql = sql.replace("?", "%s")
        cur = self._connect().execute(sql, args)
        return list(cur.fetchall()) if cur.description is not None else []

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything inside commits together or not at all."""
        conn = self._connect()
        if self.postgres:
            with conn.transaction():
                yield
            return
        assert isinstance(conn, sqlite3.Connection)
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def lock(self, sql_for_update: str) -> str:
        """A SELECT that locks its rows until the transaction ends (PostgreSQL; SQLite's
        ``BEGIN IMMEDIATE`` already holds the whole database)."""
        return sql_for_update + (" FOR UPDATE" if self.postgres else "")

    # ---- accounts

    def insert_account(self, account_id: str, name: str, key: str, password_hash: str,
                       now: float) -> bool:
        """False when the key is taken (any case)."""
        try:
            with self.transaction():
                if self.run("SELECT 1 FROM accounts WHERE name_key = ?", (key,)):
                    return False
                self.run("INSERT INTO accounts (id, name, name_key, password, created) "
                         "VALUES (?, ?, ?, ?, ?)", (account_id, name, key, password_hash, now))
        except Exception as e:  # two processes racing for one name: the unique key decides
            if isinstance(e, sqlite3.IntegrityError) or getattr(e, "sqlstate", None) == "23505":
                return False
            raise
        return True

    def account_by_key(self, key: str) -> tuple[str, str, str] | None:
        """(id, name, password hash) of the account with this case-folded name."""
        rows = self.run("SELECT id, name, password FROM accounts WHERE name_key = ?", (key,))
        return (rows[0][0], rows[0][1], rows[0][2]) if rows else None

    def account_name(self, account_id: str) -> str | None:
        rows = self.run("SELECT name FROM accounts WHERE id = ?", (account_id,))
        return str(rows[0][0]) if rows else None

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        self.run("UPDATE accounts SET password = ? WHERE id = ?", (password_hash, account_id))

    def delete_account(self, account_id: str) -> list[str]:
        """Remove an account with its sessions, seats' links and ratings, and take its id and
        name off the seats of its tables (the games stay, anonymised). The ids of the tables
        whose seats changed."""
        with self.transaction():
            tables = [r[0] for r in self.run(
                "SELECT DISTINCT table_id FROM account_seats WHERE account = ?", (account_id,))]
            for table_id in tables:
                rows = self.run(self.lock("SELECT seats FROM tables WHERE id = ?"), (table_id,))
                if not rows:
                    continue
                seats = json.loads(rows[0][0])
                for seat in seats:
                    if seat.get("account") == account_id:
                        del seat["account"]
                        seat["name"] = ""
                self.run("UPDATE tables SET seats = ? WHERE id = ?",
                         (json.dumps(seats), table_id))
            # explicit deletes: PostgreSQL cascades too, but SQLite only with foreign keys on
            for sql in ("DELETE FROM sessions WHERE account = ?",
                        "DELETE FROM account_seats WHERE account = ?",
                        "DELETE FROM rating_history WHERE account = ?",
                        "DELETE FROM ratings WHERE account = ?",
                        "DELETE FROM accounts WHERE id = ?"):
                self.run(sql, (account_id,))
        return tables

    # ---- sessions

    def insert_session(self, session_id: str, token_hash: str, account_id: str, now: float,
                       agent: str) -> None:
        self.run("INSERT INTO sessions (id, token_hash, account, created, seen, agent) "
                 "VALUES (?, ?, ?, ?, ?, ?)", (session_id, token_hash, account_id, now, now,
                                               agent))

    def session(self, token_hash: str) -> tuple[str, str, str, float] | None:
        """(session id, account id, account name, last seen) of a session token's hash."""
        rows = self.run("SELECT s.id, a.id, a.name, s.seen FROM sessions s "
                        "JOIN accounts a ON a.id = s.account WHERE s.token_hash = ?",
                        (token_hash,))
        return (rows[0][0], rows[0][1], rows[0][2], float(rows[0][3])) if rows else None

    def touch_session(self, session_id: str, now: float) -> None:
        self.run("UPDATE sessions SET seen = ? WHERE id = ?", (now, session_id))

    def sessions(self, account_id: str) -> list[tuple[str, float, float, str]]:
        """(id, created, last seen, agent) of an account's sessions, latest used first."""
        return [(r[0], float(r[1]), float(r[2]), str(r[3])) for r in self.run(
            "SELECT id, created, seen, agent FROM sessions WHERE account = ? "
            "ORDER BY seen DESC, id", (account_id,))]

    def delete_session(self, account_id: str, session_id: str) -> bool:
        found = self.run("SELECT 1 FROM sessions WHERE id = ? AND account = ?",
                         (session_id, account_id))
        self.run("DELETE FROM sessions WHERE id = ? AND account = ?", (session_id, account_id))
        return bool(found)

    def delete_sessions(self, account_id: str) -> None:
        self.run("DELETE FROM sessions WHERE account = ?", (account_id,))

    # ---- seats

    def link_seat(self, account_id: str, table_id: str, seat: int, now: float) -> None:
        """Record that an account sits at a seat (once; linking again changes nothing)."""
        if self.run("SELECT 1 FROM account_seats WHERE account = ? AND table_id = ? "
                    "AND seat = ?", (account_id, table_id, seat)):
            return
        self.run("INSERT INTO account_seats (account, table_id, seat, linked) "
                 "VALUES (?, ?, ?, ?)", (account_id, table_id, seat, now))

    def set_result(self, table_id: str, seat: int, result: str, ended: float) -> None:
        self.run("UPDATE account_seats SET result = ?, ended = ? WHERE table_id = ? AND "
                 "seat = ?", (result, ended, table_id, seat))

    def seats_of(self, account_id: str, limit: int
                 ) -> list[tuple[str, int, str | None, float | None, float]]:
        """(table, seat, result, ended, linked) of an account's seats, newest first: ended
        ones by their end, then the rest by when they were taken."""
        return [(r[0], int(r[1]), r[2], r[3], float(r[4])) for r in self.run(
            "SELECT table_id, seat, result, ended, linked FROM account_seats "
            "WHERE account = ? ORDER BY COALESCE(ended, linked) DESC, table_id LIMIT ?",
            (account_id, limit))]

    def tables_info(self, ids: list[str]) -> dict[str, tuple[str, list[Any], str, bool]]:
        """(game, seats, status, rated) of each of these tables that exists."""
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        return {r[0]: (r[1], json.loads(r[2]), r[3], bool(r[4])) for r in self.run(
            f"SELECT id, game, seats, status, rated FROM tables WHERE id IN ({marks})", ids)}

    # ---- ratings

    def ratings_of(self, account_id: str) -> list[tuple[str, float, float, int]]:
        """(key, mu, sigma, games) of an account's ratings."""
        return [(r[0], float(r[1]), float(r[2]), int(r[3])) for r in self.run(
            "SELECT key, mu, sigma, games FROM ratings WHERE account = ? ORDER BY key",
            (account_id,))]

    def rating_for_update(self, account_id: str, key: str
                          ) -> tuple[float, float, int] | None:
        """(mu, sigma, games), locked until the transaction ends (inside one)."""
        rows = self.run(self.lock("SELECT mu, sigma, games FROM ratings WHERE account = ? "
                                  "AND key = ?"), (account_id, key))
        return (float(rows[0][0]), float(rows[0][1]), int(rows[0][2])) if rows else None

    def rated_before(self, table_id: str) -> bool:
        return bool(self.run("SELECT 1 FROM rating_history WHERE table_id = ? LIMIT 1",
                             (table_id,)))

    def history_of(self, table_id: str
                   ) -> list[tuple[str, float, float, float, float, int]]:
        """(account, mu before, sigma before, mu after, sigma after, games after) of a
        table's changes."""
        return [(r[0], float(r[1]), float(r[2]), float(r[3]), float(r[4]), int(r[5]))
                for r in self.run("SELECT account, mu_before, sigma_before, mu_after, "
                                  "sigma_after, games FROM rating_history WHERE table_id = ?",
                                  (table_id,))]

    def store_rating(self, account_id: str, key: str, table_id: str,
                     before: tuple[float, float], after: tuple[float, float], games: int,
                     now: float) -> None:
        """Write a new rating and its history row (inside the caller's transaction)."""
        self.run("INSERT INTO ratings (account, key, mu, sigma, games, updated) "
                 "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (account, key) DO UPDATE SET "
                 "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                 "updated = excluded.updated", (account_id, key, after[0], after[1], games, now))
        self.run("INSERT INTO rating_history (account, key, table_id, mu_before, "
                 "sigma_before, mu_after, sigma_after, games, at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (account_id, key, table_id, before[0], before[1], after[0], after[1], games,
                  now))

    def leaderboard(self, key: str, limit: int) -> list[tuple[str, float, float, int]]:
        """(name, mu, sigma, games) of a rating key, best first."""
        return [(r[0], float(r[1]), float(r[2]), int(r[3])) for r in self.run(
            "SELECT a.name, r.mu, r.sigma, r.games FROM ratings r "
            "JOIN accounts a ON a.id = r.account WHERE r.key = ? "
            "ORDER BY r.mu DESC, r.games DESC, a.name_key LIMIT ?", (key, limit))]

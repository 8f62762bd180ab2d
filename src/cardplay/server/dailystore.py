"""The rows of the daily deals: each day's seed per game, each attempt, who shows their name.

SQLite gets the schema here on open; PostgreSQL's is Alembic's (``v0007_daily.py`` runs the
same statements). The SQL is written once with ``?`` placeholders (:class:`.accountdb.AccountDb`
runs it, on the table store's connection).

* ``daily_days``: per game and UTC day, the seed, the salt and the commitment (made at the day's
  first request; the seed and salt are shown only once the day is over);
* ``daily_attempts``: one row per game, day and owner (``account:<id>``, or ``browser:<hash
  of the browser cookie>`` for a guest), its table, the account once known, the browser (the
  hash of its cookie), and its finished deals' values (``deal_values``, JSON, each
  :func:`cardplay.dailyplan.deal_value`);
* ``daily_names``: the accounts that allow their name on the daily lists (default: not).
"""

from __future__ import annotations

import json
import sqlite3

from .accountdb import AccountDb

__all__ = ["SCHEMA", "Attempt", "DailyStore"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS daily_days (
    game       TEXT NOT NULL,
    day        TEXT NOT NULL,
    seed       BIGINT NOT NULL,
    salt       TEXT NOT NULL,
    commitment TEXT NOT NULL,
    created    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, day)
);
CREATE TABLE IF NOT EXISTS daily_attempts (
    game        TEXT NOT NULL,
    day         TEXT NOT NULL,
    owner       TEXT NOT NULL,
    account     TEXT,
    browser     TEXT,
    table_id    TEXT NOT NULL,
    created     DOUBLE PRECISION NOT NULL,
    finished    DOUBLE PRECISION,
    deal_values TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (game, day, owner)
);
CREATE INDEX IF NOT EXISTS daily_attempts_table ON daily_attempts (table_id);
CREATE INDEX IF NOT EXISTS daily_attempts_account ON daily_attempts (account, game, day);
CREATE TABLE IF NOT EXISTS daily_names (
    account TEXT PRIMARY KEY,
    shown   INTEGER NOT NULL DEFAULT 0
)
"""

Attempt = tuple[str, str | None, str, list[int], float | None]  # owner, account, table, values, end


def _duplicate(e: Exception) -> bool:
    return isinstance(e, sqlite3.IntegrityError) or getattr(e, "sqlstate", None) == "23505"


class DailyStore:
    """The daily rows over the accounts' database plumbing (one database with the tables)."""

    def __init__(self, db: AccountDb) -> None:
        self.db = db
        if not db.postgres:
            conn = db._connect()
            conn.executescript(SCHEMA + ";")

    def day(self, game: str, day: str) -> tuple[int, str, str] | None:
        """(seed, salt, commitment) of a game's day, if it was made."""
        rows = self.db.run("SELECT seed, salt, commitment FROM daily_days WHERE game = ? AND "
                           "day = ?", (game, day))
        return (int(rows[0][0]), str(rows[0][1]), str(rows[0][2])) if rows else None

    def make_day(self, game: str, day: str, seed: int, salt: str, commitment: str,
                 now: float) -> tuple[int, str, str]:
        """The day's row: this one, or the one another process made first."""
        try:
            self.db.run("INSERT INTO daily_days (game, day, seed, salt, commitment, created) "
                        "VALUES (?, ?, ?, ?, ?, ?)", (game, day, seed, salt, commitment, now))
        except Exception as e:
            if not _duplicate(e):
                raise
        found = self.day(game, day)
        assert found is not None
        return found

    def attempt_of(self, game: str, day: str, account: str | None,
                   browser: str | None) -> tuple[str, str] | None:
        """(owner, table) of the day's attempt of this account or this browser, if any."""
        rows = self.db.run("SELECT owner, table_id FROM daily_attempts WHERE game = ? AND "
                           "day = ? AND (account = ? OR browser = ?) ORDER BY created LIMIT 1",
                           (game, day, account or "", browser or ""))
        return (str(rows[0][0]), str(rows[0][1])) if rows else None

    def add_attempt(self, game: str, day: str, owner: str, account: str | None,
                    browser: str | None, table_id: str, now: float) -> bool:
        """False when this owner already has an attempt of the day (two tabs racing)."""
        try:
            self.db.run("INSERT INTO daily_attempts (game, day, owner, account, browser, "
                        "table_id, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (game, day, owner, account, browser, table_id, now))
        except Exception as e:
            if _duplicate(e):
                return False
            raise
        return True

    def set_values(self, table_id: str, values: list[int], finished: float | None) -> None:
        self.db.run("UPDATE daily_attempts SET deal_values = ?, finished = ? WHERE "
                    "table_id = ?", (json.dumps(values), finished, table_id))

    def attempts(self, game: str, day: str) -> list[Attempt]:
        """Every attempt of a game's day, oldest first."""
        return [(str(r[0]), r[1], str(r[2]), json.loads(r[3]), r[4]) for r in self.db.run(
            "SELECT owner, account, table_id, deal_values, finished FROM daily_attempts "
            "WHERE game = ? AND day = ? ORDER BY created, owner", (game, day))]

    def days_of_month(self, game: str, month: str) -> list[str]:
        return [str(r[0]) for r in self.db.run(
            "SELECT day FROM daily_days WHERE game = ? AND day LIKE ? ORDER BY day",
            (game, month + "-%"))]

    def claim(self, browser: str, account: str) -> int:
        """A guest who signed up or in: their browser's attempts become the account's, except
        on a game and day the account already played (it keeps its own). How many moved."""
        moved = 0
        browser_owner = "browser:" + browser
        for game, day in [(str(r[0]), str(r[1])) for r in self.db.run(
                "SELECT game, day FROM daily_attempts WHERE owner = ? AND account IS NULL",
                (browser_owner,))]:
            if self.db.run("SELECT 1 FROM daily_attempts WHERE game = ? AND day = ? AND "
                           "account = ?", (game, day, account)):
                continue
            self.db.run("UPDATE daily_attempts SET account = ? WHERE owner = ? AND game = ? "
                        "AND day = ?", (account, browser_owner, game, day))
            moved += 1
        return moved

    def names(self, accounts: list[str]) -> dict[str, tuple[str, bool]]:
        """(name, shown) of each of these accounts that exists."""
        if not accounts:
            return {}
        marks = ", ".join("?" * len(accounts))
        return {str(r[0]): (str(r[1]), bool(r[2])) for r in self.db.run(
            f"SELECT a.id, a.name, COALESCE(n.shown, 0) FROM accounts a LEFT JOIN daily_names n "
            f"ON n.account = a.id WHERE a.id IN ({marks})", accounts)}

    def set_shown(self, account: str, shown: bool) -> None:
        self.db.run("INSERT INTO daily_names (account, shown) VALUES (?, ?) ON CONFLICT "
                    "(account) DO UPDATE SET shown = excluded.shown", (account, int(shown)))

    def shown(self, account: str) -> bool:
        rows = self.db.run("SELECT shown FROM daily_names WHERE account = ?", (account,))
        return bool(rows and rows[0][0])

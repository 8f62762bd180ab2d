"""Accounts, sessions, seats' accounts, ratings and their history; a table's ``rated`` flag.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE tables ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE")
    op.execute("""
        CREATE TABLE accounts (
            id        TEXT PRIMARY KEY,
            name      TEXT NOT NULL,
            name_key  TEXT NOT NULL UNIQUE,
            password  TEXT NOT NULL,
            created   DOUBLE PRECISION NOT NULL
        )""")
    op.execute("""
        CREATE TABLE sessions (
            id         TEXT PRIMARY KEY,
            token_hash TEXT NOT NULL UNIQUE,
            account    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            created    DOUBLE PRECISION NOT NULL,
            seen       DOUBLE PRECISION NOT NULL,
            agent      TEXT NOT NULL DEFAULT ''
        )""")
    op.execute("CREATE INDEX sessions_account ON sessions (account)")
    op.execute("""
        CREATE TABLE account_seats (
            account   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            table_id  TEXT NOT NULL,
            seat      INTEGER NOT NULL,
            linked    DOUBLE PRECISION NOT NULL,
            result    TEXT,
            ended     DOUBLE PRECISION,
            PRIMARY KEY (account, table_id, seat)
        )""")
    op.execute("CREATE INDEX account_seats_table ON account_seats (table_id)")
    op.execute("""
        CREATE TABLE ratings (
            account  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            key      TEXT NOT NULL,
            mu       DOUBLE PRECISION NOT NULL,
            sigma    DOUBLE PRECISION NOT NULL,
            games    INTEGER NOT NULL,
            updated  DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (account, key)
        )""")
    op.execute("CREATE INDEX ratings_board ON ratings (key, mu DESC)")
    op.execute("""
        CREATE TABLE rating_history (
            account      TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            key          TEXT NOT NULL,
            table_id     TEXT NOT NULL,
            mu_before    DOUBLE PRECISION NOT NULL,
            sigma_before DOUBLE PRECISION NOT NULL,
            mu_after     DOUBLE PRECISION NOT NULL,
            sigma_after  DOUBLE PRECISION NOT NULL,
            games        INTEGER NOT NULL,
            at           DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (account, key, table_id)
        )""")


def downgrade() -> None:
    for name in ("rating_history", "ratings", "account_seats", "sessions", "accounts"):
        op.execute(f"DROP TABLE {name}")
    op.execute("ALTER TABLE tables DROP COLUMN rated")

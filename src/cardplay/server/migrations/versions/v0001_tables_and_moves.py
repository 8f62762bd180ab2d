"""Tables and moves: the schema of the SQLite store, in PostgreSQL.

Revision ID: 0001
Revises:
Create Date: 2026-12-03
"""

from __future__ import annotations

from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE tables (
            id          TEXT PRIMARY KEY,
            game        TEXT NOT NULL,
            options     TEXT NOT NULL,
            seed        BIGINT NOT NULL,
            dealer      INTEGER,
            seats       TEXT NOT NULL,
            created     DOUBLE PRECISION NOT NULL,
            finished    DOUBLE PRECISION,
            salt        TEXT,
            commitment  TEXT,
            seed_source TEXT,
            status      TEXT NOT NULL,
            creator     TEXT,
            bots_only   BOOLEAN NOT NULL DEFAULT FALSE,
            scores      TEXT,
            deals       INTEGER NOT NULL DEFAULT 0
        )""")
    # (table, n) is the key: of two processes storing move n of a table, one commits
    op.execute("""
        CREATE TABLE moves (
            table_id TEXT NOT NULL REFERENCES tables(id),
            n        INTEGER NOT NULL,
            seat     INTEGER NOT NULL,
            move     TEXT NOT NULL,
            at       DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, n)
        )""")
    op.execute("CREATE INDEX tables_lobby ON tables (status, created DESC, id DESC)")
    op.execute("CREATE INDEX tables_creator ON tables (creator, status)")
    op.execute("CREATE INDEX tables_bots ON tables (bots_only, status)")


def downgrade() -> None:
    op.execute("DROP TABLE moves")
    op.execute("DROP TABLE tables")

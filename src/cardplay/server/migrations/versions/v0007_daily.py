"""Daily deals: each day's seed per game, the attempts, who shows their name (server/dailystore.py
holds the same schema for SQLite).

Revision ID: 0007
Revises: 0006 (seeks)
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

from cardplay.server.dailystore import SCHEMA

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            op.execute(statement)


def downgrade() -> None:
    for table in ("daily_names", "daily_attempts", "daily_days"):
        op.execute(f"DROP TABLE {table}")

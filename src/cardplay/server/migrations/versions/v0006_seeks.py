"""Seeks: people waiting to be paired (server/seekstore.py holds the same schema for SQLite).

Revision ID: 0006
Revises: 0005 (clocks, after accounts' 0004 and records' 0003)
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

from cardplay.server.seekstore import SCHEMA

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            op.execute(statement)


def downgrade() -> None:
    op.execute("DROP TABLE seeks")

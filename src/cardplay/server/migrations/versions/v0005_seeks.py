"""Seeks: people waiting to be paired (server/seekstore.py holds the same schema for SQLite).

Revision ID: 0005
Revises: 0004 (clocks, after accounts' 0003)
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

from cardplay.server.seekstore import SCHEMA

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            op.execute(statement)


def downgrade() -> None:
    op.execute("DROP TABLE seeks")

"""A signed-in person's table settings (server/settingsroutes.py holds the same schema for SQLite).

Revision ID: 0009
Revises: 0008 (a seek's browser)
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

from cardplay.server.settingsroutes import SCHEMA

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(SCHEMA)


def downgrade() -> None:
    op.execute("DROP TABLE account_settings")

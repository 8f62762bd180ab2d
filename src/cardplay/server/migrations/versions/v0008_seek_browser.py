"""Seeks remember their owner's browser, so that one guest's two tabs are never paired.

Revision ID: 0008
Revises: 0007 (daily deals, after seeks' 0006)
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

from cardplay.server.seekstore import BROWSER_COLUMN

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(BROWSER_COLUMN)


def downgrade() -> None:
    op.execute("ALTER TABLE seeks DROP COLUMN browser")

"""Seeks remember their owner's browser, so that one guest's two tabs are never paired.

Revision ID: 0007
Revises: 0006 (seeks)
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

from cardplay.server.seekstore import BROWSER_COLUMN

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(BROWSER_COLUMN)


def downgrade() -> None:
    op.execute("ALTER TABLE seeks DROP COLUMN browser")

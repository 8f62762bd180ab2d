"""Clocks: a table's time control and its state (reserves, the stored deadline, forfeits).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # JSON text, as the other JSON columns (options, seats, scores): read and written whole
    op.execute("ALTER TABLE tables ADD COLUMN clock TEXT")


def downgrade() -> None:
    op.execute("ALTER TABLE tables DROP COLUMN clock")

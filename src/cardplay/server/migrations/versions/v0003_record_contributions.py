"""Records that prove themselves: a table's committed server seed and its seats' contributions.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL in both: a table made before fairness scheme 2 (its record keeps scheme 1)
    op.execute("ALTER TABLE tables ADD COLUMN server_seed BIGINT")
    op.execute("ALTER TABLE tables ADD COLUMN contributions TEXT")


def downgrade() -> None:
    op.execute("ALTER TABLE tables DROP COLUMN contributions")
    op.execute("ALTER TABLE tables DROP COLUMN server_seed")

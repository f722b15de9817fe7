"""The ranking of a period: an index on a mode's results by the time they finished.

Revision ID: 0008
Revises: 0004
Create Date: 2026-12-03
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_truco_results_mode_finished", "truco_results", ["mode", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_truco_results_mode_finished", "truco_results")

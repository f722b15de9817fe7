"""The sessions of players who claimed a name: each login's cookie names one.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "truco_sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_truco_sessions_player_id", "truco_sessions", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_truco_sessions_player_id", "truco_sessions")
    op.drop_table("truco_sessions")

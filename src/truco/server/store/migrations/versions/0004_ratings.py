"""Ratings: rated tables, each player's rating per mode, and every rated match's results.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "truco_tables",
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "truco_ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("mode", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_truco_ratings_mode_rating", "truco_ratings", ["mode", "rating"])
    op.create_table(
        "truco_results",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("level", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("team", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("rating_before", sa.Integer, nullable=False),
        sa.Column("rating_after", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_truco_results_player", "truco_results", ["player_id", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_truco_results_player", "truco_results")
    op.drop_table("truco_results")
    op.drop_index("ix_truco_ratings_mode_rating", "truco_ratings")
    op.drop_table("truco_ratings")
    with op.batch_alter_table("truco_tables") as batch:
        batch.drop_column("rated")

"""Ejercicios: exercises from finished matches, their days, the puzzle ratings, the attempts.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "truco_exercises",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("match", sa.Integer, nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("position", sa.Text, nullable=False),
        sa.Column("best", sa.String(32), nullable=False),
        sa.Column("margin", sa.Float, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("words_es", sa.Text, nullable=False),
        sa.Column("words_en", sa.Text, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_truco_exercises_table_id", "truco_exercises", ["table_id"])
    op.create_index("ix_truco_exercises_player_id", "truco_exercises", ["player_id"])
    op.create_index("ix_truco_exercises_rating", "truco_exercises", ["rating"])
    op.create_table(
        "truco_exercise_sources",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("found", sa.Integer, nullable=True),
        sa.Column("scanned_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "truco_exercise_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("exercise_id", sa.String(16), nullable=False),
    )
    op.create_table(
        "truco_puzzle_ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "truco_exercise_attempts",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("exercise_id", sa.String(16), primary_key=True),
        sa.Column("answer", sa.String(32), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("truco_exercise_attempts")
    op.drop_table("truco_puzzle_ratings")
    op.drop_table("truco_exercise_days")
    op.drop_table("truco_exercise_sources")
    op.drop_index("ix_truco_exercises_rating", "truco_exercises")
    op.drop_index("ix_truco_exercises_player_id", "truco_exercises")
    op.drop_index("ix_truco_exercises_table_id", "truco_exercises")
    op.drop_table("truco_exercises")

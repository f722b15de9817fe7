"""Torneos: tournaments, their players and their games.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "truco_tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("creator_id", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("target", sa.Integer, nullable=False),
        sa.Column("flor", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("minutes", sa.Integer, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("turn_seconds", sa.Float, nullable=True),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_truco_tournaments_creator_id", "truco_tournaments", ["creator_id"])
    op.create_index("ix_truco_tournaments_status", "truco_tournaments", ["status"])
    op.create_table(
        "truco_tournament_players",
        sa.Column("tournament_id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_truco_tournament_players_player", "truco_tournament_players", ["player_id"])
    op.create_table(
        "truco_tournament_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("sides", sa.Text, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_truco_tournament_games_tournament_id", "truco_tournament_games", ["tournament_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_truco_tournament_games_tournament_id", "truco_tournament_games")
    op.drop_table("truco_tournament_games")
    op.drop_index("ix_truco_tournament_players_player", "truco_tournament_players")
    op.drop_table("truco_tournament_players")
    op.drop_index("ix_truco_tournaments_status", "truco_tournaments")
    op.drop_index("ix_truco_tournaments_creator_id", "truco_tournaments")
    op.drop_table("truco_tournaments")

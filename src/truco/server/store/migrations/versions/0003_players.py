"""Players: who sits at a seat (a player's id), their claimed names, and the server's secret.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "truco_players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(20), nullable=True),
        sa.Column("name_key", sa.String(80), nullable=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("name_key", name="uq_truco_players_name_key"),
    )
    op.create_table(
        "truco_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.add_column("truco_seats", sa.Column("player_id", sa.String(32), nullable=True))
    op.create_index("ix_truco_seats_player_id", "truco_seats", ["player_id"])


def downgrade() -> None:
    with op.batch_alter_table("truco_seats") as batch:
        batch.drop_index("ix_truco_seats_player_id")
        batch.drop_column("player_id")
    op.drop_table("truco_secrets")
    op.drop_table("truco_players")

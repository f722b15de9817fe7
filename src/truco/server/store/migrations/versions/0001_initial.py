"""Tables, seats and the event log.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "truco_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("turn_seconds", sa.Float, nullable=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_index("ix_truco_tables_status", "truco_tables", ["status"])
    op.create_table(
        "truco_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("truco_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("level", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "truco_events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("truco_tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("truco_events")
    op.drop_table("truco_seats")
    op.drop_index("ix_truco_tables_status", "truco_tables")
    op.drop_table("truco_tables")

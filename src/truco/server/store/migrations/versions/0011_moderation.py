"""Moderation: mutes and blocks per player identity, reports, and who was removed from a table.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "truco_blocks",
        sa.Column("owner_id", sa.String(32), primary_key=True),
        sa.Column("target_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_truco_blocks_target", "truco_blocks", ["target_id"])
    op.create_table(
        "truco_kicks",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "truco_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reporter_id", sa.String(32), nullable=False),
        sa.Column("target_id", sa.String(32), nullable=False),
        sa.Column("target_name", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("quoted", sa.Text, nullable=True),
    )
    op.create_index("ix_truco_reports_reporter", "truco_reports", ["reporter_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_truco_reports_reporter", "truco_reports")
    op.drop_table("truco_reports")
    op.drop_table("truco_kicks")
    op.drop_index("ix_truco_blocks_target", "truco_blocks")
    op.drop_table("truco_blocks")

"""Amigos: who follows whom, and the invitations to a table sent to a friend.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "truco_follows",
        sa.Column("follower_id", sa.String(32), primary_key=True),
        sa.Column("followed_id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_truco_follows_followed", "truco_follows", ["followed_id"])
    op.create_table(
        "truco_invites",
        sa.Column("to_id", sa.String(32), primary_key=True),
        sa.Column("from_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("truco_invites")
    op.drop_index("ix_truco_follows_followed", "truco_follows")
    op.drop_table("truco_follows")

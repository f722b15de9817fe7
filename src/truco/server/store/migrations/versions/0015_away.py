"""When the one person of a table of one person and bots went away: the table waits for her.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "truco_tables", sa.Column("away_since", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column(
        "truco_tables",
        sa.Column("waits", sa.Boolean(), nullable=False, server_default=sa.true()),
    )


def downgrade() -> None:
    op.drop_column("truco_tables", "waits")
    op.drop_column("truco_tables", "away_since")

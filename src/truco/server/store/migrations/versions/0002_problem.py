"""A table set aside: why its log could not be replayed (status ``broken``).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("truco_tables", sa.Column("problem", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("truco_tables") as batch:
        batch.drop_column("problem")

"""While the caretaker plays for an absent person: kept, so that a restart does not forget it.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("truco_seats", sa.Column("spell_match", sa.Integer(), nullable=True))
    op.add_column("truco_seats", sa.Column("spell_hands", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("truco_seats", "spell_hands")
    op.drop_column("truco_seats", "spell_match")

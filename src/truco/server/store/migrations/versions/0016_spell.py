"""While the caretaker plays for an absent person: kept, so that a restart does not forget it.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("truco_seats", sa.Column("spell_match", sa.Integer(), nullable=True))
    op.add_column("truco_seats", sa.Column("spell_hands", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("truco_seats", "spell_hands")
    op.drop_column("truco_seats", "spell_match")

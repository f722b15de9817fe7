"""The rating-farming flags' evidence: each player's sightings (keyed digests of the addresses
he came from, day by day) and each rated result's points (what tells a match conceded early).

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
    op.create_table(
        "truco_sightings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("address", sa.String(24), primary_key=True),
        sa.Column("day", sa.Date(), primary_key=True),
    )
    op.create_index("ix_truco_sightings_day", "truco_sightings", ["day"])
    op.add_column("truco_results", sa.Column("points", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("truco_results", "points")
    op.drop_index("ix_truco_sightings_day", table_name="truco_sightings")
    op.drop_table("truco_sightings")

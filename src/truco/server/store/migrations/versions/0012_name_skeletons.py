"""Claimed names' look: each claimed name's UTS #39 skeleton, so a look-alike is refused.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from truco.server.players.names import name_skeleton

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_players = sa.table(
    "truco_players",
    sa.column("id", sa.String(32)),
    sa.column("name", sa.String(20)),
    sa.column("name_skeleton", sa.Text),
)


def upgrade() -> None:
    op.add_column("truco_players", sa.Column("name_skeleton", sa.Text, nullable=True))
    op.create_index("ix_truco_players_name_skeleton", "truco_players", ["name_skeleton"])
    # Every name claimed before gets its skeleton, as a claim from now on stores it.
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(_players.c.id, _players.c.name).where(_players.c.name.isnot(None))
    )
    for player_id, name in rows.fetchall():
        bind.execute(
            sa.update(_players)
            .where(_players.c.id == player_id)
            .values(name_skeleton=name_skeleton(name))
        )


def downgrade() -> None:
    op.drop_index("ix_truco_players_name_skeleton", "truco_players")
    op.drop_column("truco_players", "name_skeleton")

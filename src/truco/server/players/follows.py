"""Amigos in the database: who follows whom, and the invitations to a table sent to a friend.

A follow is one way (Ana follows Beto; Beto need not follow her back), made by a player with a
claimed name and kept as a row ``(follower, followed)``; the rows of one follower are bounded
(``Settings.max_follows``). An invitation is ``(from, to, table)``: sent again it only moves its
time. Every process of a cluster shares both through the database. Blocks (a later issue) will
be a table of their own read beside these: a block will win over a follow and an invitation.
docs/players.md, "Amigos", says what they do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import (
    Column,
    DateTime,
    Index,
    Insert,
    String,
    Table,
    delete,
    func,
    select,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from truco.server.store.database import Store
from truco.server.store.schema import OPEN, metadata, players_t, seats_t, tables_t

follows_t = Table(
    "truco_follows",
    metadata,
    Column("follower_id", String(32), primary_key=True),
    Column("followed_id", String(32), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # Who follows a player (a block, later, undoes those follows; a player's followers).
    Index("ix_truco_follows_followed", "followed_id"),
)
"""One row per follow: ``follower_id`` follows ``followed_id`` (both players with a name)."""

invites_t = Table(
    "truco_invites",
    metadata,
    Column("to_id", String(32), primary_key=True),
    Column("from_id", String(32), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""An invitation of ``from_id`` to ``to_id`` to sit at ``table_id`` (read by ``to_id``: the key
starts with it)."""

INVITES_SHOWN = 20
"""The invitations a player is shown at most, newest first."""
TABLES_SHOWN = 3
"""The tables a friend is shown at, at most, newest first."""


class TooManyFollows(Exception):
    """The follower follows ``max_follows`` players already."""


@dataclass(frozen=True, slots=True)
class Followed:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Invite:
    from_name: str
    table: str
    at: datetime


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _upsert(conn: AsyncConnection, table: Table, keys: Sequence[str], **values: object) -> Insert:
    """An INSERT that, when the key is there already, sets ``created_at`` anew."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    insert = dialect.insert(table).values(**values)
    upsert: Insert = insert.on_conflict_do_update(
        index_elements=list(keys), set_={"created_at": insert.excluded.created_at}
    )
    return upsert


async def _follow(conn: AsyncConnection, follower: str, followed: str, most: int) -> str:
    """``new``, ``there`` (followed already) or ``full`` (``most`` followed already)."""
    if conn.dialect.name == "postgresql":
        # Two follows of one player at once wait for each other here, so that they cannot both
        # count ``most - 1`` (SQLite's writes are one at a time already).
        await conn.execute(
            select(players_t.c.id).where(players_t.c.id == follower).with_for_update()
        )
    there = await conn.execute(
        select(follows_t.c.followed_id).where(
            follows_t.c.follower_id == follower, follows_t.c.followed_id == followed
        )
    )
    if there.first() is not None:
        return "there"
    count = await conn.execute(
        select(func.count()).select_from(follows_t).where(follows_t.c.follower_id == follower)
    )
    if count.scalar_one() >= most:
        return "full"
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    await conn.execute(
        dialect.insert(follows_t)
        .values(follower_id=follower, followed_id=followed, created_at=_now())
        .on_conflict_do_nothing()
    )
    return "new"


class Follows:
    """The follows and invitations of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def follow(self, follower: str, followed: str, most: int) -> bool:
        """``follower`` follows ``followed``; False: he did already. Raises
        :class:`TooManyFollows` when he follows ``most`` players already."""
        async with self.store.writing() as conn:
            outcome = await _follow(conn, follower, followed, most)
        # Raised out of the transaction: the store's guard takes any error in it for the
        # database's.
        if outcome == "full":
            raise TooManyFollows(most)
        return outcome == "new"

    async def unfollow(self, follower: str, followed: str) -> bool:
        """False: ``follower`` did not follow ``followed``."""
        async with self.store.writing() as conn:
            done = await conn.execute(
                delete(follows_t).where(
                    follows_t.c.follower_id == follower, follows_t.c.followed_id == followed
                )
            )
        return bool(done.rowcount)

    async def follows(self, follower: str, followed: str) -> bool:
        async with self.store.reading() as conn:
            found = await conn.execute(
                select(follows_t.c.followed_id).where(
                    follows_t.c.follower_id == follower, follows_t.c.followed_id == followed
                )
            )
            return found.first() is not None

    async def followed(self, follower: str) -> list[Followed]:
        """The players ``follower`` follows, by name (as claimed names compare)."""
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(players_t.c.id, players_t.c.name)
                .join(follows_t, follows_t.c.followed_id == players_t.c.id)
                .where(follows_t.c.follower_id == follower, players_t.c.name.is_not(None))
                .order_by(players_t.c.name_key)
            )
            return [Followed(r.id, r.name) for r in rows]

    async def tables_of(self, player_ids: Sequence[str]) -> dict[str, list[str]]:
        """The tables whose match goes on where each of ``player_ids`` holds a seat, newest
        first, at most ``TABLES_SHOWN`` each."""
        if not player_ids:
            return {}
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(seats_t.c.player_id, seats_t.c.table_id)
                .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                .where(seats_t.c.player_id.in_(list(player_ids)), tables_t.c.status.in_(OPEN))
                .order_by(tables_t.c.created_at.desc(), tables_t.c.id)
            )
            found: dict[str, list[str]] = {}
            for r in rows:
                tables = found.setdefault(r.player_id, [])
                if len(tables) < TABLES_SHOWN and r.table_id not in tables:
                    tables.append(r.table_id)
            return found

    async def seated(self, player_id: str, table_id: str) -> bool:
        """Whether ``player_id`` holds a seat at ``table_id`` and its match goes on."""
        async with self.store.reading() as conn:
            found = await conn.execute(
                select(seats_t.c.seat)
                .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                .where(
                    seats_t.c.player_id == player_id,
                    seats_t.c.table_id == table_id,
                    tables_t.c.status.in_(OPEN),
                )
            )
            return found.first() is not None

    async def invite(self, sender: str, to: str, table_id: str, keep: float) -> None:
        """Invite ``to`` to ``table_id`` (again: the invitation's time moves); the recipient's
        invitations older than ``keep`` seconds are dropped meanwhile."""
        now = _now()
        async with self.store.writing() as conn:
            await conn.execute(
                delete(invites_t).where(
                    invites_t.c.to_id == to, invites_t.c.created_at < now - timedelta(seconds=keep)
                )
            )
            await conn.execute(
                _upsert(
                    conn,
                    invites_t,
                    ("to_id", "from_id", "table_id"),
                    to_id=to,
                    from_id=sender,
                    table_id=table_id,
                    created_at=now,
                )
            )

    async def invites(self, to: str, keep: float) -> list[Invite]:
        """The invitations ``to`` got in the last ``keep`` seconds to tables whose match goes
        on, newest first (at most ``INVITES_SHOWN``)."""
        since = _now() - timedelta(seconds=keep)
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(players_t.c.name, invites_t.c.table_id, invites_t.c.created_at)
                .join(players_t, players_t.c.id == invites_t.c.from_id)
                .join(tables_t, tables_t.c.id == invites_t.c.table_id)
                .where(
                    invites_t.c.to_id == to,
                    invites_t.c.created_at >= since,
                    tables_t.c.status.in_(OPEN),
                    players_t.c.name.is_not(None),
                )
                .order_by(invites_t.c.created_at.desc(), invites_t.c.table_id)
                .limit(INVITES_SHOWN)
            )
            return [Invite(r.name, r.table_id, _utc(r.created_at)) for r in rows]


__all__ = [
    "INVITES_SHOWN",
    "TABLES_SHOWN",
    "Followed",
    "Follows",
    "Invite",
    "TooManyFollows",
    "follows_t",
    "invites_t",
]

"""The players' table: a player's row, claimed name, password hash and the seats it holds.

A player is born as an identity cookie (``identity.py``) and gets a row here the first time it
matters: it sits at a table or claims a name, so a visitor who only looks costs no write. The
claimed name is kept as typed (``name``) and by its key (``name_key``: NFKC, then case folded),
which the database holds unique, so two claims of one name race safely, and by its look
(``name_skeleton``: ``names.name_skeleton``, indexed), so that a look-alike of a claimed name
is found at once.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, select, update
from sqlalchemy.exc import IntegrityError

from truco.server.players.names import name_skeleton
from truco.server.store.database import Store, insert_new
from truco.server.store.schema import (
    OPEN,
    StoreUnavailable,
    players_t,
    seats_t,
    secrets_t,
    tables_t,
)


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str | None
    password_hash: str | None
    created_at: datetime
    last_seen: datetime


class NameTaken(Exception):
    """Another player holds a name with the same key."""


def new_player_id() -> str:
    """A fresh player id: 128 random bits, 32 hex digits (the column's width)."""
    return secrets.token_hex(16)


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _player(row: Row[Any]) -> Player:
    return Player(
        id=row.id,
        name=row.name,
        password_hash=row.password_hash,
        created_at=_utc(row.created_at),
        last_seen=_utc(row.last_seen),
    )


class Players:
    """The players of one store (every process of a cluster shares them through it)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, player_id: str) -> None:
        """Give ``player_id`` its row, unless it has one."""
        now = _now()
        async with self.store.writing() as conn:
            await conn.execute(
                insert_new(conn, players_t).values(id=player_id, created_at=now, last_seen=now)
            )

    async def get(self, player_id: str) -> Player | None:
        async with self.store.reading() as conn:
            row = (await conn.execute(select(players_t).where(players_t.c.id == player_id))).first()
        return None if row is None else _player(row)

    async def by_key(self, name_key: str) -> Player | None:
        """The player whose claimed name has this key (``accounts.name_key``)."""
        async with self.store.reading() as conn:
            row = (
                await conn.execute(select(players_t).where(players_t.c.name_key == name_key))
            ).first()
        return None if row is None else _player(row)

    async def by_skeleton(self, skeleton: str) -> Player | None:
        """The first player (by claim order, oldest row first) whose claimed name looks like
        one with this skeleton (``names.name_skeleton``)."""
        async with self.store.reading() as conn:
            row = (
                await conn.execute(
                    select(players_t)
                    .where(players_t.c.name_skeleton == skeleton)
                    .order_by(players_t.c.created_at)
                    .limit(1)
                )
            ).first()
        return None if row is None else _player(row)

    async def claim(self, player_id: str, name: str, name_key: str, password_hash: str) -> bool:
        """Give an unnamed player ``name`` (with its key, and its skeleton worked out here) and
        its password; False: the player has a name already. Raises :class:`NameTaken` when
        another player holds the key."""
        now = _now()
        skeleton = name_skeleton(name)
        try:
            async with self.store.writing() as conn:
                await conn.execute(
                    insert_new(conn, players_t).values(id=player_id, created_at=now, last_seen=now)
                )
                done = await conn.execute(
                    update(players_t)
                    .where(players_t.c.id == player_id, players_t.c.name_key.is_(None))
                    .values(
                        name=name,
                        name_key=name_key,
                        name_skeleton=skeleton,
                        password_hash=password_hash,
                        last_seen=now,
                    )
                )
        except StoreUnavailable as exc:
            # The unique key refused it (the store's guard wraps every database error).
            if isinstance(exc.__cause__, IntegrityError):
                raise NameTaken(name) from None
            raise
        return bool(done.rowcount)

    async def set_password(self, player_id: str, password_hash: str) -> None:
        async with self.store.writing() as conn:
            await conn.execute(
                update(players_t)
                .where(players_t.c.id == player_id)
                .values(password_hash=password_hash)
            )

    async def touch(self, player_id: str) -> None:
        """The player was seen now (a login, a seat taken)."""
        async with self.store.writing() as conn:
            await conn.execute(
                update(players_t).where(players_t.c.id == player_id).values(last_seen=_now())
            )

    async def open_seats(self, player_id: str) -> list[tuple[str, int]]:
        """The (table, seat) pairs the player holds at tables whose match goes on."""
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(seats_t.c.table_id, seats_t.c.seat)
                .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                .where(seats_t.c.player_id == player_id, tables_t.c.status.in_(OPEN))
                .order_by(tables_t.c.created_at, seats_t.c.seat)
            )
            return [(r.table_id, r.seat) for r in rows]


async def shared_secret(store: Store, name: str) -> str:
    """The secret ``name`` every process of the cluster shares: made once, by whichever process
    asks first, and kept in the database."""
    async with store.reading() as conn:
        found = await conn.execute(select(secrets_t.c.value).where(secrets_t.c.name == name))
        value = found.scalar()
    if value is not None:
        return str(value)
    async with store.writing() as conn:
        await conn.execute(
            insert_new(conn, secrets_t).values(name=name, value=secrets.token_urlsafe(48))
        )
        # Another process may have written first: everyone keeps the one row that won.
        found = await conn.execute(select(secrets_t.c.value).where(secrets_t.c.name == name))
        return str(found.scalar_one())


__all__ = ["NameTaken", "Player", "Players", "new_player_id", "shared_secret"]

"""Mutes and blocks in the database, per player identity (docs/players.md, "Silenciar y
bloquear").

A row ``(owner, target, kind)`` says that ``owner`` mutes (``kind="mute"``) or blocks
(``kind="block"``) ``target``; both are player ids (``identity.py``), so a player who never
claimed a name mutes and blocks as well as one who did, and is muted or blocked by the identity
of his browser. ``label`` keeps the name the target had when it was made (a seat's name, for a
player without a claimed one), to show in the owner's list. Each owner's rows of each kind are
bounded (``Settings.max_mutes``, ``Settings.max_blocks``).

What they do: the chat lines and señas of a player one mutes or blocks are not sent to one's
connections (the table leaves them out, in the process that owns it: ``table.py``); a block
also keeps the two apart in Jugar ahora (both ways) and wins over a follow: it undoes the
blocked player's follow of the blocker and his invitations to her, and while it stands he can
neither follow her again nor invite her, nor see her online or at her tables (``friends.py``).
Kicks from a table before it starts (``room.py``) are here too: who was removed from which table
may not sit there again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, Index, String, Table, and_, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from truco.server.players.follows import follows_t, invites_t
from truco.server.store.database import Store
from truco.server.store.schema import metadata, players_t, seats_t

MUTE, BLOCK = "mute", "block"
KINDS = (MUTE, BLOCK)

blocks_t = Table(
    "truco_blocks",
    metadata,
    Column("owner_id", String(32), primary_key=True),
    Column("target_id", String(32), primary_key=True),
    Column("kind", String(8), primary_key=True),
    Column("label", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # Who mutes or blocks a player: the table's question when he chats.
    Index("ix_truco_blocks_target", "target_id"),
)
"""``owner_id`` mutes or blocks ``target_id`` (``kind``); ``label``: the target's name then."""

kicks_t = Table(
    "truco_kicks",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""``player_id`` was removed from ``table_id`` by its creator and may not sit there again."""


class TooMany(Exception):
    """The owner has ``most`` rows of that kind already."""


@dataclass(frozen=True, slots=True)
class Entry:
    key: str
    """The entry's handle for the owner (not the target's player id, which stays private)."""
    kind: str
    label: str
    at: datetime


def entry_key(owner: str, target: str) -> str:
    """A handle of ``target`` for ``owner`` only: it names the entry without telling anyone
    the target's player id (another owner's handle of the same target differs)."""
    return hashlib.sha256(f"truco block\0{owner}\0{target}".encode()).hexdigest()[:24]


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


async def _add(
    conn: AsyncConnection, owner: str, target: str, kind: str, label: str, most: int
) -> str:
    if conn.dialect.name == "postgresql":
        # As a follow: two at once of one owner wait for each other on her row, so that both
        # cannot pass the count.
        await conn.execute(select(players_t.c.id).where(players_t.c.id == owner).with_for_update())
    mine = and_(blocks_t.c.owner_id == owner, blocks_t.c.kind == kind)
    there = await conn.execute(select(blocks_t.c.label).where(mine, blocks_t.c.target_id == target))
    if there.first() is not None:
        return "there"
    count = await conn.execute(select(func.count()).select_from(blocks_t).where(mine))
    if count.scalar_one() >= most:
        return "full"
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    await conn.execute(
        dialect.insert(blocks_t)
        .values(owner_id=owner, target_id=target, kind=kind, label=label, created_at=_now())
        .on_conflict_do_nothing()
    )
    if kind == BLOCK:
        # A block wins over a follow: the blocked player's follow of the owner and his
        # invitations to her go (hers of him stay: she may unblock him later and still follow).
        await conn.execute(
            delete(follows_t).where(
                follows_t.c.follower_id == target, follows_t.c.followed_id == owner
            )
        )
        await conn.execute(
            delete(invites_t).where(invites_t.c.from_id == target, invites_t.c.to_id == owner)
        )
    return "new"


class Blocks:
    """The mutes, blocks and kicks of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def add(self, owner: str, target: str, kind: str, label: str, most: int) -> bool:
        """``owner`` mutes or blocks ``target``; False: she did already. Raises
        :class:`TooMany` when she has ``most`` of that kind already."""
        async with self.store.writing() as conn:
            outcome = await _add(conn, owner, target, kind, label[:64], most)
        if outcome == "full":
            raise TooMany(most)
        return outcome == "new"

    async def remove(self, owner: str, key: str, kind: str) -> str | None:
        """Undo the owner's entry of handle ``key``; its label, or None when there is none."""
        async with self.store.writing() as conn:
            rows = await conn.execute(
                select(blocks_t.c.target_id, blocks_t.c.label).where(
                    blocks_t.c.owner_id == owner, blocks_t.c.kind == kind
                )
            )
            for r in rows.all():
                if entry_key(owner, r.target_id) == key:
                    await conn.execute(
                        delete(blocks_t).where(
                            blocks_t.c.owner_id == owner,
                            blocks_t.c.target_id == r.target_id,
                            blocks_t.c.kind == kind,
                        )
                    )
                    return str(r.label)
        return None

    async def entries(self, owner: str) -> list[Entry]:
        """The owner's mutes and blocks, newest first."""
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(blocks_t)
                .where(blocks_t.c.owner_id == owner)
                .order_by(blocks_t.c.created_at.desc(), blocks_t.c.target_id)
            )
            return [
                Entry(entry_key(owner, r.target_id), r.kind, r.label, _utc(r.created_at))
                for r in rows
            ]

    async def targets(self, owner: str, among: Collection[str]) -> dict[str, set[str]]:
        """Which of ``among`` the owner mutes and which she blocks: ``{kind: {player ids}}``."""
        found: dict[str, set[str]] = {MUTE: set(), BLOCK: set()}
        if not among:
            return found
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(blocks_t.c.target_id, blocks_t.c.kind).where(
                    blocks_t.c.owner_id == owner, blocks_t.c.target_id.in_(list(among))
                )
            )
            for r in rows:
                found.setdefault(r.kind, set()).add(r.target_id)
        return found

    async def hiding(self, sender: str, recipients: Collection[str]) -> set[str]:
        """Those of ``recipients`` who mute or block ``sender``: his chat and señas skip them."""
        if not recipients:
            return set()
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(blocks_t.c.owner_id).where(
                    blocks_t.c.target_id == sender, blocks_t.c.owner_id.in_(list(recipients))
                )
            )
            return {r.owner_id for r in rows}

    async def blocked_between(self, a: str, b: str) -> bool:
        """Whether either of the two blocks the other."""
        return bool(await self.apart([a, b]))

    async def apart(self, players: Sequence[str]) -> set[frozenset[str]]:
        """The pairs of ``players`` where one blocks the other (Jugar ahora never seats them
        together)."""
        ids = sorted(set(players))
        if len(ids) < 2:
            return set()
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(blocks_t.c.owner_id, blocks_t.c.target_id).where(
                    blocks_t.c.kind == BLOCK,
                    blocks_t.c.owner_id.in_(ids),
                    blocks_t.c.target_id.in_(ids),
                )
            )
            return {frozenset((r.owner_id, r.target_id)) for r in rows}

    async def blockers_of(self, target: str, among: Collection[str]) -> set[str]:
        """Those of ``among`` who block ``target`` (he may not see them online)."""
        if not among:
            return set()
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(blocks_t.c.owner_id).where(
                    blocks_t.c.kind == BLOCK,
                    blocks_t.c.target_id == target,
                    blocks_t.c.owner_id.in_(list(among)),
                )
            )
            return {r.owner_id for r in rows}

    async def table_players(self, table_id: str) -> list[tuple[int, str]]:
        """The seats of a table held by people with an identity, and their player ids."""
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(seats_t.c.seat, seats_t.c.player_id).where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.kind == "human",
                    seats_t.c.player_id.is_not(None),
                )
            )
            return [(int(r.seat), str(r.player_id)) for r in rows]

    async def seat_player(self, table_id: str, seat: int) -> tuple[str, str] | None:
        """The player id and name of a person's seat at a table (None: nobody with an identity
        sits there)."""
        async with self.store.reading() as conn:
            row = (
                await conn.execute(
                    select(seats_t.c.player_id, seats_t.c.name).where(
                        seats_t.c.table_id == table_id,
                        seats_t.c.seat == seat,
                        seats_t.c.kind == "human",
                        seats_t.c.player_id.is_not(None),
                    )
                )
            ).first()
        return (str(row.player_id), str(row.name)) if row is not None else None


async def kick(conn: AsyncConnection, table_id: str, player_id: str) -> None:
    """Bar ``player_id`` from ``table_id`` (in the caller's transaction)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    await conn.execute(
        dialect.insert(kicks_t)
        .values(table_id=table_id, player_id=player_id, created_at=_now())
        .on_conflict_do_nothing()
    )


async def remove_seat(store: Store, table_id: str, seat: int, player_id: str | None) -> None:
    """Empty a seat of a table and bar its person (``player_id``, when known) from it, in one
    transaction."""
    async with store.writing() as conn:
        if player_id is not None:
            await kick(conn, table_id, player_id)
        await conn.execute(
            update(seats_t)
            .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
            .values(name="", kind="empty", level=None, token_hash=None, player_id=None)
        )


async def kicked(store: Store, table_id: str, player_id: str | None) -> bool:
    """Whether ``player_id`` was removed from ``table_id`` (so may not sit there again)."""
    if player_id is None:
        return False
    async with store.reading() as conn:
        found = await conn.execute(
            select(kicks_t.c.player_id).where(
                kicks_t.c.table_id == table_id, kicks_t.c.player_id == player_id
            )
        )
        return found.first() is not None


__all__ = [
    "BLOCK",
    "KINDS",
    "MUTE",
    "Blocks",
    "Entry",
    "TooMany",
    "blocks_t",
    "entry_key",
    "kick",
    "kicked",
    "kicks_t",
    "remove_seat",
]

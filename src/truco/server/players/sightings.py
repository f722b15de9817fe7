"""From which addresses each player was seen, day by day, kept only as keyed digests: what tells
``truco admin flags`` that two rivals shared an address (docs/players.md, "Rating farming").

An address is never a reason to refuse anything (two people behind one home network play each
other as anybody does): it only adds to a flag that a person reviews. No address is stored as
it is: each is an HMAC under a secret of the cluster's own (``shared_secret``, "addresses"), so
the rows say that two players came from one address, not from which. A row lives
``sightings_days`` (30) days; the first sighting a process writes on a new day deletes the older
ones.

The identity middleware tells each request's player and address (``saw``): a process writes one
row per player, address and day at most, remembering (at most ``sightings_memory`` of) the ones
it wrote today, so a player's requests cost a set lookup, not a write. A write that fails (the
database away) is forgotten, and the next request of that player and address tries again.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import Column, Date, Index, String, Table, delete, select

from truco.server.players.records import shared_secret
from truco.server.store.database import Store, insert_new
from truco.server.store.schema import StoreUnavailable, metadata

sightings_t = Table(
    "truco_sightings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("address", String(24), primary_key=True),
    Column("day", Date, primary_key=True),
    Index("ix_truco_sightings_day", "day"),
)
"""A player seen on ``day`` (UTC) from the address whose digest is ``address``."""


class Sightings:
    """One process's writer of sightings, and their reader."""

    def __init__(self, store: Store, *, days: int, memory: int) -> None:
        self.store = store
        self.days = days
        self.memory = memory
        self._key: bytes | None = None
        self._day: date | None = None
        """The day ``_written`` is of."""
        self._swept: date | None = None
        """The last day this process deleted the rows past ``days``."""
        self._written: set[tuple[str, str]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def key(self) -> bytes:
        if self._key is None:
            secret = await shared_secret(self.store, "addresses")
            self._key = hashlib.sha256(b"truco addresses\0" + secret.encode()).digest()
        return self._key

    def digest(self, key: bytes, address: str) -> str:
        mac = hmac.new(key, address.encode(), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def saw(self, player_id: str, address: str) -> None:
        """A request of ``player_id`` from ``address``: written in the background, once a day."""
        if not address:
            return
        today = datetime.now(UTC).date()
        if today != self._day:
            self._day = today
            self._written.clear()
        elif (player_id, address) in self._written:
            return
        if len(self._written) >= self.memory:
            # Bounded: past it, a player's next request writes again (a no-op on the row).
            self._written.clear()
        self._written.add((player_id, address))
        task = asyncio.get_running_loop().create_task(self._write(player_id, address, today))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _write(self, player_id: str, address: str, today: date) -> None:
        try:
            key = await self.key()
            async with self.store.writing() as conn:
                await conn.execute(
                    insert_new(conn, sightings_t).values(
                        player_id=player_id, address=self.digest(key, address), day=today
                    )
                )
                if today != self._swept:
                    cutoff = today - timedelta(days=self.days)
                    await conn.execute(delete(sightings_t).where(sightings_t.c.day < cutoff))
            self._swept = today
        except StoreUnavailable:
            self._written.discard((player_id, address))

    async def settle(self) -> None:
        """Wait for the writes under way (the tests, and a stopping server)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


async def seen_together(
    store: Store, pairs: Iterable[tuple[str, str]], since: date
) -> set[tuple[str, str]]:
    """Of ``pairs`` of players, those seen from one address (each on some day since ``since``,
    not necessarily the same day)."""
    pairs = list(pairs)
    wanted = {p for pair in pairs for p in pair}
    if not wanted:
        return set()
    async with store.reading() as conn:
        rows = await conn.execute(
            select(sightings_t.c.player_id, sightings_t.c.address)
            .where(sightings_t.c.player_id.in_(wanted), sightings_t.c.day >= since)
            .distinct()
        )
        where: dict[str, set[str]] = {}
        for r in rows:
            where.setdefault(r.player_id, set()).add(r.address)
    return {(a, b) for a, b in pairs if where.get(a, set()) & where.get(b, set())}


__all__ = ["Sightings", "seen_together", "sightings_t"]

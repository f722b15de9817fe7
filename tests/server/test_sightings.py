"""The sightings behind the rating-farming flags, on a real SQLite file: one row per player,
address and day, no address stored as it is, the rows past ``days`` deleted, and two players
"seen from one address" only when they were."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select

from truco.server.players.sightings import Sightings, seen_together, sightings_t
from truco.server.settings import sqlite_url
from truco.server.store.database import Store

ANA, BETO, CARO = "a" * 32, "b" * 32, "c" * 32


def test_sightings_are_digests_once_a_day_and_kept_so_many_days(tmp_path: Path) -> None:
    async def go() -> None:
        store = Store(sqlite_url(str(tmp_path / "s.db")))
        try:
            await store.migrate()
            today = datetime.now(UTC).date()
            old = today - timedelta(days=31)
            async with store.writing() as conn:
                await conn.execute(
                    sightings_t.insert().values(player_id=CARO, address="viejo", day=old)
                )
            seen = Sightings(store, days=30, memory=2)
            for _ in range(3):
                seen.saw(ANA, "192.0.2.7")
            seen.saw(BETO, "192.0.2.7")
            seen.saw(BETO, "198.51.100.1")  # its memory of 2 is full: cleared, then this one
            seen.saw(BETO, "198.51.100.1")
            seen.saw(CARO, "")  # no address (a Unix socket): nothing
            await seen.settle()
            async with store.reading() as conn:
                rows = (await conn.execute(select(sightings_t))).all()
            assert sorted((r.player_id, r.day) for r in rows) == [
                (ANA, today),
                (BETO, today),
                (BETO, today),
            ]  # Caro's old row is gone, swept by the day's first write
            assert not any("192.0.2" in r.address or "198.51" in r.address for r in rows)
            ana_at = {r.address for r in rows if r.player_id == ANA}
            assert len(ana_at) == 1 and len(ana_at.pop()) <= 24
            pairs = [(ANA, BETO), (ANA, CARO), (BETO, CARO)]
            assert await seen_together(store, pairs, today) == {(ANA, BETO)}
            assert await seen_together(store, pairs, today + timedelta(days=1)) == set()
            # Another process (its own key cache) digests alike: the key is the cluster's.
            again = Sightings(store, days=30, memory=10)
            again.saw(CARO, "198.51.100.1")
            await again.settle()
            assert await seen_together(store, pairs, today) == {(ANA, BETO), (BETO, CARO)}
        finally:
            await store.close()

    asyncio.run(go())

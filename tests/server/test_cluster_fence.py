"""The event log is the fence between processes, with SQLite too: an append whose sequence is not
the next one of its table is refused, and one refused row does not fail the rows written with it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from truco.server import sqlite_url
from truco.server.store.database import Store
from truco.server.store.schema import Fenced, SeatRow


def test_only_the_next_version_is_written(tmp_path: Path) -> None:
    async def run() -> None:
        store = Store(sqlite_url(str(tmp_path / "fence.db")))
        await store.migrate()
        try:
            for table in ("t1", "t2"):
                seats = [SeatRow(0, "Ana", "human", None, None)]
                await store.create_table(table, {}, None, 1, seats)
            await store.append("t1", 1, "rematch", {"mano": 0})
            # Written together (one transaction): the stale row of t1 is refused alone.
            results = await asyncio.gather(
                store.append("t1", 1, "rematch", {"mano": 1}),
                store.append("t2", 1, "rematch", {"mano": 1}),
                store.append("t1", 3, "rematch", {"mano": 1}),
                return_exceptions=True,
            )
            assert isinstance(results[0], Fenced) and "version 1 is not the next" in str(results[0])
            assert results[1] is None
            assert isinstance(results[2], Fenced) and "version 3 is not the next" in str(results[2])
            await store.append("t1", 2, "rematch", {"mano": 1}, status="playing")
            one, two = await store.load("t1"), await store.load("t2")
            assert one is not None and two is not None
            assert [(e.seq, e.data["mano"]) for e in one.log] == [(1, 0), (2, 1)]
            assert one.status == "playing"
            assert [(e.seq, e.data["mano"]) for e in two.log] == [(1, 1)]
        finally:
            await store.close()

    asyncio.run(run())


@pytest.mark.parametrize("bad", [0, -1])
def test_a_log_starts_at_one(tmp_path: Path, bad: int) -> None:
    async def run() -> None:
        store = Store(sqlite_url(str(tmp_path / "fence.db")))
        await store.migrate()
        try:
            await store.create_table("t", {}, None, 1, [SeatRow(0, "Ana", "human", None, None)])
            with pytest.raises(Fenced):
                await store.append("t", bad, "rematch", {"mano": 0})
        finally:
            await store.close()

    asyncio.run(run())

"""The event log is the fence between processes, on SQLite and on a real PostgreSQL: an append
whose sequence is not the next one of its table is refused, one refused row does not fail the
rows written with it, and of two processes that write the same version one is refused."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.clusterfix import either_database
from truco.server.store.database import Store
from truco.server.store.pg_log import PgLog
from truco.server.store.schema import Fenced, SeatRow


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from either_database(request, tmp_path)


def test_only_the_next_version_is_written(url: str) -> None:
    async def run() -> None:
        store = Store(url)
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
def test_a_log_starts_at_one(url: str, bad: int) -> None:
    async def run() -> None:
        store = Store(url)
        await store.migrate()
        try:
            await store.create_table("t", {}, None, 1, [SeatRow(0, "Ana", "human", None, None)])
            with pytest.raises(Fenced):
                await store.append("t", bad, "rematch", {"mano": 0})
        finally:
            await store.close()

    asyncio.run(run())


def test_of_two_processes_writing_one_version_one_is_refused(url: str) -> None:
    async def run() -> None:
        one = Store(url)
        await one.migrate()
        other = Store(url)  # another process's store: its own connections and lock
        try:
            tables = [f"t{n}" for n in range(6)]
            for table in tables:
                await one.create_table(table, {}, None, 1, [SeatRow(0, "Ana", "human", None, None)])
            for seq in (1, 2, 3):
                results = await asyncio.gather(
                    *(
                        store.append(table, seq, "rematch", {"mano": m})
                        for table in tables
                        for m, store in enumerate((one, other))
                    ),
                    return_exceptions=True,
                )
                pairs = list(zip(results[::2], results[1::2], strict=True))
                for table, pair in zip(tables, pairs, strict=True):
                    assert sorted(type(r).__name__ for r in pair) == ["Fenced", "NoneType"], pair
                    written = 0 if pair[0] is None else 1
                    row = await one.load(table)
                    assert row is not None and row.log[-1].seq == seq
                    assert row.log[-1].data["mano"] == written
            # PostgreSQL's appends went through the log's own connection (pg_log.py).
            connected = isinstance(one.log, PgLog) and one.log.connected
            assert connected == url.startswith("postgres")
        finally:
            await other.close()
            await one.close()

    asyncio.run(run())

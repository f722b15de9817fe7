"""The players' store and its migration, on a real SQLite file and a real PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from server.clusterfix import either_database
from truco.server.players.names import name_skeleton
from truco.server.players.records import NameTaken, Players, shared_secret
from truco.server.store.database import Store
from truco.server.store.schema import SeatRow, metadata

A, B = "a" * 32, "b" * 32


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from either_database(request, tmp_path)


def run(url: str, body: object) -> None:
    async def go() -> None:
        store = Store(url)
        try:
            await store.migrate()
            await body(store)  # type: ignore[operator]
        finally:
            await store.close()

    asyncio.run(go())


def test_the_migration_builds_the_tables_the_code_describes(url: str) -> None:
    async def body(store: Store) -> None:
        await store.migrate()  # a second run is a no-op
        async with store.engine.connect() as conn:
            diff = await conn.run_sync(
                lambda c: compare_metadata(MigrationContext.configure(c), metadata)
            )
        assert diff == []

    run(url, body)


def test_players_claim_names_once_each(url: str) -> None:
    async def body(store: Store) -> None:
        players = Players(store)
        assert await players.get(A) is None
        await players.create(A)
        await players.create(A)  # again: nothing changes
        first = await players.get(A)
        assert first is not None and first.name is None and first.password_hash is None
        assert await players.claim(A, "Ana", "ana", "hash-a")
        assert not await players.claim(A, "Otra", "otra", "hash-x")  # named already
        with pytest.raises(NameTaken):
            await players.claim(B, "ANA", "ana", "hash-b")  # B had no row: it is not left half made
        found = await players.by_key("ana")
        assert found is not None and (found.id, found.name, found.password_hash) == (
            A,
            "Ana",
            "hash-a",
        )
        assert await players.by_key("otra") is None
        # The claimed name's look is stored with it: a Cyrillic А finds Ana.
        alike = await players.by_skeleton(name_skeleton("\u0410na"))
        assert alike is not None and alike.id == A
        assert await players.by_skeleton(name_skeleton("Ane")) is None
        b = await players.get(B)
        assert b is None or b.name is None
        await players.set_password(A, "hash-2")
        await players.touch(A)
        after = await players.get(A)
        assert after is not None and after.password_hash == "hash-2"
        assert after.last_seen >= first.last_seen

    run(url, body)


def test_open_seats_are_those_of_matches_that_go_on(url: str) -> None:
    async def body(store: Store) -> None:
        players = Players(store)
        await store.create_table("t1", {}, None, 1, [SeatRow(0, "Ana", "human", None, "h", A)])
        await store.create_table(
            "t2",
            {},
            None,
            1,
            [SeatRow(0, "Beto", "human", None, "h", B), SeatRow(1, "", "empty", None, None)],
        )
        await store.set_seat("t2", SeatRow(1, "Ana", "human", None, "h2", A))
        await store.create_table("t3", {}, None, 1, [SeatRow(0, "Ana", "human", None, "h", A)])
        await store.set_status("t3", "over")
        assert await players.open_seats(A) == [("t1", 0), ("t2", 1)]
        assert await players.open_seats(B) == [("t2", 0)]
        row = await store.load("t2")
        assert row is not None and [s.player_id for s in row.seats] == [B, A]

    run(url, body)


def test_the_shared_secret_is_made_once(url: str) -> None:
    async def body(store: Store) -> None:
        other = Store(store.url)
        try:
            made = await asyncio.gather(*(shared_secret(s, "k") for s in [store, other] * 3))
        finally:
            await other.close()
        assert len(set(made)) == 1 and len(made[0]) >= 48
        assert await shared_secret(store, "k2") != made[0]

    run(url, body)

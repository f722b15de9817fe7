"""The ratings' store on a real SQLite file and a real PostgreSQL: the end of a rated match moves
the ratings exactly once, in the transaction of the log entry that ends it. (That migration 0004
builds the tables ``rated.py`` describes is checked with the whole schema, in
``test_players_store``.)"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from server import test_players_store as players_store
from truco.protocol import Rated
from truco.server.players import ratings
from truco.server.players.rated import Finish, Sitter, match_changes, ratings_t, results_t
from truco.server.store.database import Store
from truco.server.store.schema import Fenced, SeatRow

ANA, BETO, CARO = "a" * 32, "b" * 32, "c" * 32
url = players_store.url
"""The store on SQLite and on PostgreSQL (a fixture), as the players' store is tested."""
run = players_store.run


async def a_table(store: Store, table_id: str, people: list[str]) -> None:
    seats = [SeatRow(i, f"P{i}", "human", None, None, pid) for i, pid in enumerate(people)]
    await store.create_table(table_id, {"players": len(people)}, None, 1, seats, rated=True)
    await store.append(table_id, 1, "deal", {"hands": []})


def one_v_one(table_id: str, first: str, second: str, winner: int = 0) -> Finish:
    sitters = (Sitter(0, "Ana", 0, first, None), Sitter(1, "Beto", 1, second, None))
    return Finish(table_id, 1, "1v1", winner, sitters)


async def skills(store: Store) -> dict[str, tuple[int, int]]:
    async with store.reading() as conn:
        rows = (await conn.execute(select(ratings_t).where(ratings_t.c.mode == "1v1"))).all()
    return {r.player_id: (r.rating, r.matches) for r in rows}


def test_the_end_of_a_match_is_rated_once_whoever_writes_it_again(url: str) -> None:
    async def body(store: Store) -> None:
        await a_table(store, "t1", [ANA, BETO])
        finish = one_v_one("t1", ANA, BETO)
        rated = await store.append("t1", 2, "act", {"seat": 0, "action": "mazo"}, "over", finish)
        assert isinstance(rated, Rated)
        assert [(c.name, c.before) for c in rated.changes] == [("Ana", 1000), ("Beto", 1000)]
        after = await skills(store)
        assert after[ANA][0] > 1000 > after[BETO][0] and after[ANA][1] == after[BETO][1] == 1
        # The same entry again (a retried write, a process that lost the table): refused by
        # the log's fence, and the ratings with it.
        with pytest.raises(Fenced):
            await store.append("t1", 2, "act", {"seat": 0, "action": "mazo"}, "over", finish)
        assert await skills(store) == after
        async with store.reading() as conn:
            assert await match_changes(conn, "t1", 1) == rated
            count = len((await conn.execute(select(results_t))).all())
        assert count == 2

    run(url, body)


def test_matches_ending_at_once_with_a_player_in_common_both_count(url: str) -> None:
    async def body(store: Store) -> None:
        await a_table(store, "t1", [ANA, BETO])
        await a_table(store, "t2", [ANA, CARO])
        await asyncio.gather(
            store.append("t1", 2, "act", {}, "over", one_v_one("t1", ANA, BETO)),
            store.append("t2", 2, "act", {}, "over", one_v_one("t2", ANA, CARO)),
        )
        after = await skills(store)
        assert after[ANA][1] == 2 and after[BETO][1] == after[CARO][1] == 1
        # Ana won twice: her second win started from her first.
        assert after[ANA][0] > ratings.NEW.rating + (1000 - after[BETO][0])

    run(url, body)


def test_a_rated_end_that_fails_does_not_fail_other_tables_appends(url: str) -> None:
    class Broken:
        async def write(self, conn: object) -> None:
            raise RuntimeError("a rating that cannot be written")

    async def body(store: Store) -> None:
        await a_table(store, "t1", [ANA, BETO])
        await a_table(store, "t2", [CARO, BETO])
        results = await asyncio.gather(
            store.append("t1", 2, "act", {}, "over", Broken()),
            store.append("t2", 2, "act", {}),
            return_exceptions=True,
        )
        assert isinstance(results[0], Exception) and results[1] is None
        # The failed end wrote nothing: the same entry can be written again.
        assert await store.append("t1", 2, "act", {}, "over", one_v_one("t1", ANA, BETO))

    run(url, body)

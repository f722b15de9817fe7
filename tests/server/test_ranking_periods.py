"""The ranking of the week and of the month beside the all-time one (issue 29, point 4), on a
real SQLite file and a real PostgreSQL: a period ranks the players of a mode by the rating points
they won in it, and a match finished before the period starts is not in it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import update

from server import test_players_store as players_store
from server.test_rated_store import a_table, one_v_one
from truco.server.players.periods import period_start
from truco.server.players.ranking import Ranking
from truco.server.players.rated import results_t
from truco.server.players.records import Players
from truco.server.store.database import Store

ANA, BETO, CARO = "a" * 32, "b" * 32, "c" * 32
BSAS = ZoneInfo("America/Argentina/Buenos_Aires")
url = players_store.url
run = players_store.run


def test_a_week_starts_on_monday_and_a_month_on_the_first_by_the_players_clock() -> None:
    # Wednesday 2026-12-02 at 01:30 UTC is still Tuesday 22:30 in Buenos Aires (UTC-3).
    now = datetime(2026, 12, 2, 1, 30, tzinfo=UTC)
    assert period_start("week", now, BSAS) == datetime(2026, 11, 30, 3, 0, tzinfo=UTC)
    assert period_start("month", now, BSAS) == datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
    # The 1st of December at 02:00 UTC is still November there: November's ranking.
    first = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)
    assert period_start("month", first, BSAS) == datetime(2026, 11, 1, 3, 0, tzinfo=UTC)
    assert period_start("week", now, ZoneInfo("UTC")) == datetime(2026, 11, 30, tzinfo=UTC)
    assert period_start("all", now, BSAS) is None
    # Where the offset changed since (Madrid's summer time ended on 2026-10-25), the month still
    # starts at the local midnight of the 1st, summer time's (UTC+2), and the week at Monday's
    # (UTC+1).
    madrid = ZoneInfo("Europe/Madrid")
    after = datetime(2026, 10, 28, 12, 0, tzinfo=UTC)
    assert period_start("month", after, madrid) == datetime(2026, 9, 30, 22, 0, tzinfo=UTC)
    assert period_start("week", after, madrid) == datetime(2026, 10, 25, 23, 0, tzinfo=UTC)


def test_a_period_ranks_by_the_points_won_in_it(url: str) -> None:
    async def body(store: Store) -> None:
        players = Players(store)
        for pid, name in ((ANA, "Ana"), (BETO, "Beto"), (CARO, "Caro")):
            await players.create(pid)
            assert await players.claim(pid, name, name.lower(), "hash")
        # Long ago, Beto beat Ana three times: he leads the all-time ranking.
        for i in range(3):
            await a_table(store, f"old{i}", [BETO, ANA])
            await store.append(f"old{i}", 2, "act", {}, "over", one_v_one(f"old{i}", BETO, ANA))
        long_ago = datetime.now(UTC) - timedelta(days=40)
        async with store.engine.begin() as conn:
            await conn.execute(update(results_t).values(finished_at=long_ago))
        # This week Ana beat Caro twice, and Caro beat Beto once.
        for i in range(2):
            await a_table(store, f"new{i}", [ANA, CARO])
            await store.append(f"new{i}", 2, "act", {}, "over", one_v_one(f"new{i}", ANA, CARO))
        await a_table(store, "new2", [CARO, BETO])
        await store.append("new2", 2, "act", {}, "over", one_v_one("new2", CARO, BETO))

        ranking = Ranking(store, BSAS)
        total, every = await ranking.page("1v1", 0, 50, "all")
        assert total == 3 and every[0]["name"] == "Beto" and "gained" not in every[0]
        total, week = await ranking.page("1v1", 0, 50, "week")
        assert total == 3
        assert {p["name"]: (p["matches"], p["won"]) for p in week} == {
            "Ana": (2, 2),
            "Caro": (3, 1),
            "Beto": (1, 0),
        }
        gains = {p["name"]: p["gained"] for p in week}
        assert gains["Ana"] > 0 > gains["Beto"]  # the old matches count for nothing here
        assert [p["gained"] for p in week] == sorted((p["gained"] for p in week), reverse=True)
        # Each row's rating is his rating now, all-time; his matches are the period's.
        assert {p["name"]: p["rating"] for p in week} == {p["name"]: p["rating"] for p in every}
        assert sum(p["matches"] for p in week) == 6  # three matches, two seats each
        _, month = await ranking.page("1v1", 0, 50, "month")
        assert month == week
        assert (await ranking.page("2v2", 0, 50, "week")) == (0, [])
        _, second = await ranking.page("1v1", 1, 1, "week")
        assert second == week[1:2]

    run(url, body)

"""Ejercicios in a cluster (real PostgreSQL, Redis and two ``truco serve`` processes): both run
their periodic passes on the one database, a finished table is judged by one of them only, and
the day's exercise, a player's stream and his answers are the same through either process."""

from __future__ import annotations

import random
import time

import httpx

from server.clusterfix import Nodes, Socket, cluster
from server.helpers import step

pytestmark = cluster

HANG_GUARD = 240.0
"""Seconds the test waits for a pass to find the match (returns as soon as it has)."""


def test_exercises_are_made_once_and_shared_by_every_process(nodes: Nodes) -> None:
    # Both processes pass every second, with small searches: they race for the same table.
    nodes.env.update({"TRUCO_EXERCISES_INTERVAL": "1", "TRUCO_EXERCISES_WORLDS": "32"})
    a, b = nodes.start("node-a"), nodes.start("node-b")
    r = httpx.post(
        f"{a.base}/api/tables",
        json={"name": "Ana", "options": {"target": 15}, "bots": {"1": "random"}},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    ana = Socket(a.base, table, r.json()["token"])
    rng = random.Random(8)
    try:
        while step([ana], rng.choice):
            pass
    finally:
        ana.close()

    with (
        httpx.Client(base_url=a.base, timeout=10) as on_a,
        httpx.Client(base_url=b.base, timeout=10) as on_b,
    ):
        deadline = time.monotonic() + HANG_GUARD
        while (today := on_b.get("/api/ejercicios/hoy").json())["exercise"] is None:
            assert time.monotonic() < deadline, "no pass found the finished match"
            time.sleep(0.5)
        assert on_a.get("/api/ejercicios/hoy").json()["exercise"]["id"] == today["exercise"]["id"]

        # The table was judged by one pass: the claim is one row, its count the exercises made.
        counted = _sources(nodes)
        assert list(counted) == [table]
        exercise = today["exercise"]
        # Ana, the player of node-a's cookie, answers through node-b.
        on_b.cookies.clear()
        on_b.cookies.set("truco_player", on_a.cookies["truco_player"])
        action = exercise["position"]["legal"][0]
        answered = on_b.post(f"/api/ejercicios/{exercise['id']}/respuesta", json={"action": action})
        assert answered.status_code == 200, answered.text
        assert answered.json()["first"] is True
        seen = on_a.get(f"/api/ejercicios/{exercise['id']}").json()
        assert seen["exercise"]["answered"]["answer"] == action
        assert seen["me"]["rating"] == answered.json()["rating_after"]
        again = on_a.post(f"/api/ejercicios/{exercise['id']}/respuesta", json={"action": action})
        assert again.json()["first"] is False


def _sources(nodes: Nodes) -> dict[str, int | None]:
    import asyncio

    from sqlalchemy import select

    from truco.server.store.database import Store
    from truco.server.store.schema import exercise_sources_t, exercises_t

    async def read() -> dict[str, int | None]:
        store = Store(nodes.env["TRUCO_DATABASE_URL"])
        try:
            async with store.reading() as conn:
                found = {
                    r.table_id: r.found for r in await conn.execute(select(exercise_sources_t))
                }
                made = len((await conn.execute(select(exercises_t.c.id))).all())
        finally:
            await store.close()
        assert sum(v or 0 for v in found.values()) == made
        return found

    return asyncio.run(read())

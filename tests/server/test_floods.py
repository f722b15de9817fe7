"""One client must not freeze the server with tables (issue 16, point 3): new tables per address,
open tables per creator, tables nobody joined expire, a paged and cached lobby, and a restart
that serves before every table is back."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server.helpers import Player, app_state, create, join, serving
from truco.server import Settings, create_app
from truco.server.errors import CLOSE_EXPIRED
from truco.server.store.database import Store
from truco.server.tables.hub import Hub


def body() -> dict[str, str]:
    return {"name": "Ana"}


@pytest.fixture
def strict(settings: Settings) -> Settings:
    """The test settings with the production limits on new tables back in force."""
    return settings.but(tables_burst=3, tables_per_minute=0.001, waiting_per_creator=100)


def client_at(settings: Settings, address: str) -> TestClient:
    return TestClient(create_app(settings), client=(address, 40000))


def test_an_address_may_create_a_burst_of_tables_then_waits(strict: Settings) -> None:
    with client_at(strict, "10.0.0.1") as one:
        for _ in range(3):
            assert one.post("/api/tables", json=body()).status_code == 201
        r = one.post("/api/tables", json=body())
        assert r.status_code == 429, r.text
        assert r.json()["code"] == "rate_limited"
        assert "3 at once" in r.json()["message"]
        # Another address has its own allowance (same app, same process).
        other = TestClient(one.app, client=("10.0.0.2", 40000))
        assert other.post("/api/tables", json=body()).status_code == 201


def test_a_creator_may_keep_only_so_many_tables_waiting(settings: Settings) -> None:
    capped = settings.but(waiting_per_creator=2)
    with client_at(capped, "10.0.0.3") as c:
        first = create(c)
        create(c)
        r = c.post("/api/tables", json=body())
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
        assert "waiting" in r.json()["message"]
        join(c, first["table"])  # the first table starts: one fewer waiting
        create(c)
        # A table full of bots never waits.
        assert c.post("/api/tables", json={**body(), "bots": {"1": "random"}}).status_code == 201


def test_a_table_nobody_joined_expires(settings: Settings) -> None:
    short = settings.but(waiting_seconds=60.0)
    with serving(short) as c:
        lonely = create(c)
        joined = create(c)
        join(c, joined["table"])
        watcher = Player(c, lonely["table"])
        watcher.recv()
        hub: Hub = app_state(c).hub
        assert c.portal is not None  # the test client's portal lives while its `with` is open
        assert c.portal.call(hub.expire_waiting, time.time() + 30) == []  # not yet
        assert c.portal.call(hub.expire_waiting, time.time() + 61) == [lonely["table"]]
        code, _ = watcher.closed()
        assert code == CLOSE_EXPIRED
        r = c.get(f"/api/tables/{lonely['table']}")
        assert r.status_code == 404 and "expired" in r.json()["message"], r.text
        assert c.post(f"/api/tables/{lonely['table']}/seats", json=body()).status_code == 404
        assert c.get(f"/api/tables/{joined['table']}").json()["status"] == "playing"
        c.portal.call(asyncio.sleep, short.lobby_cache_seconds)
        assert lonely["table"] not in [e["table"] for e in c.get("/api/tables").json()]


def test_an_expired_table_stays_expired_after_a_restart(settings: Settings) -> None:
    short = settings.but(waiting_seconds=60.0)
    with TestClient(create_app(short)) as c:
        lonely = create(c)
        hub: Hub = app_state(c).hub
        assert c.portal is not None  # the test client's portal lives while its `with` is open
        assert c.portal.call(hub.expire_waiting, time.time() + 61) == [lonely["table"]]
    with TestClient(create_app(short)) as c:
        assert c.get(f"/api/tables/{lonely['table']}").status_code == 404
        assert c.get("/api/tables").json() == []


@pytest.fixture
def lobby(settings: Settings) -> Iterator[tuple[TestClient, list[str]]]:
    paged = settings.but(lobby_page=3, lobby_page_max=4, lobby_cache_seconds=3600.0)
    with TestClient(create_app(paged)) as c:
        ids = sorted(create(c)["table"] for _ in range(5))
        yield c, ids


def test_the_lobby_comes_in_pages(lobby: tuple[TestClient, list[str]]) -> None:
    c, ids = lobby
    r = c.get("/api/tables")
    assert r.status_code == 200
    assert [e["table"] for e in r.json()] == ids[:3]  # the default page
    assert r.headers["x-total-count"] == "5"
    assert [e["table"] for e in c.get("/api/tables?offset=3&limit=4").json()] == ids[3:]
    assert c.get("/api/tables?offset=9").json() == []
    for bad in ("limit=5", "limit=0", "offset=-1", "limit=x"):
        r = c.get(f"/api/tables?{bad}")
        assert r.status_code == 422 and r.json()["code"] == "bad_message", bad


def test_the_lobby_is_built_once_per_period(lobby: tuple[TestClient, list[str]]) -> None:
    c, _ = lobby
    hub: Hub = app_state(c).hub
    assert c.get("/api/tables").headers["x-total-count"] == "5"
    built = hub._lobby
    assert built is not None
    # Within lobby_cache_seconds, with nothing changed, every request is answered from the same
    # lobby, built once.
    for _ in range(20):
        assert c.get("/api/tables").headers["x-total-count"] == "5"
    assert hub._lobby is built


def test_a_restart_serves_before_every_table_is_back(tmp_path: Path, settings: Settings) -> None:
    with TestClient(create_app(settings)) as c:
        ids = [create(c)["table"] for _ in range(12)]

    async def restart() -> None:
        hub = Hub(Store(settings.database_url), settings.but(restore_batch=1))
        await hub.start()
        try:
            # Start-up is over and nothing was loaded yet: the server answers already.
            assert hub.tables == {}
            table = await hub.get(ids[-1])  # a request loads its table at once
            assert table is not None and table.id == ids[-1]
            await asyncio.wait_for(hub.restored.wait(), 30)
            assert set(hub.tables) == set(ids)
        finally:
            await hub.stop()

    asyncio.run(restart())


def test_the_cached_lobby_never_hides_a_new_table_nor_a_table_that_started(
    settings: Settings,
) -> None:
    """The cache spares the loop from floods of lobby requests; a change of the lobby (a table
    created, a table that started) drops it, whatever the cache's age."""
    cached = settings.but(lobby_cache_seconds=3600.0)
    with TestClient(create_app(cached)) as c:
        assert c.get("/api/tables").json() == []  # built and cached, empty
        t = create(c)
        assert [e["table"] for e in c.get("/api/tables").json()] == [t["table"]]
        join(c, t["table"])  # full: it starts and leaves the lobby
        assert c.get("/api/tables").json() == []

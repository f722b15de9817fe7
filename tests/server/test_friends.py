"""Amigos (issue 29, point 2): follows and invitations in the store and through the real app, on
a real SQLite file and a real PostgreSQL; who is online, in memory and in a real Redis shared by
two processes' presences (docs/players.md, "Amigos")."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from redis.asyncio import Redis
from sqlalchemy import update

from server import test_players_store as players_store
from server.clusterfix import LACKING, Backing
from server.helpers import create, serving
from truco.server import Settings
from truco.server.players import follows as follows_module
from truco.server.players.follows import Follows, TooManyFollows, invites_t
from truco.server.players.presence import MemoryPresence, RedisPresence, seen_key
from truco.server.players.records import Players
from truco.server.store.database import Store
from truco.server.store.schema import SeatRow

ANA, BETO, CARO = "a" * 32, "b" * 32, "c" * 32
url = players_store.url
run = players_store.run


async def named(store: Store, *people: tuple[str, str]) -> None:
    players = Players(store)
    for pid, name in people:
        await players.create(pid)
        assert await players.claim(pid, name, name.lower(), "hash")


async def seat(store: Store, table: str, player_id: str, status: str = "waiting") -> None:
    mine = SeatRow(0, "x", "human", None, "h", player_id)
    await store.create_table(
        table, {"players": 2}, None, 1, [mine, SeatRow(1, "", "empty", None, None)]
    )
    await store.set_status(table, status)


def test_follows_are_one_way_bounded_and_undone(url: str) -> None:
    async def body(store: Store) -> None:
        await named(store, (ANA, "Ana"), (BETO, "Beto"), (CARO, "caro"))
        follows = Follows(store)
        assert await follows.follow(ANA, CARO, 2)
        assert await follows.follow(ANA, BETO, 2)
        assert not await follows.follow(ANA, BETO, 2)  # once
        assert [f.name for f in await follows.followed(ANA)] == ["Beto", "caro"]  # by name key
        assert await follows.followed(BETO) == []  # one way
        assert await follows.follows(ANA, BETO) and not await follows.follows(BETO, ANA)
        assert await follows.follow(BETO, ANA, 2)
        with pytest.raises(TooManyFollows):
            await follows.follow(ANA, "d" * 32, 2)
        assert await follows.unfollow(ANA, BETO)
        assert not await follows.unfollow(ANA, BETO)
        assert [f.name for f in await follows.followed(ANA)] == ["caro"]

    run(url, body)


def test_a_friend_is_at_the_tables_whose_match_goes_on(url: str) -> None:
    async def body(store: Store) -> None:
        await named(store, (ANA, "Ana"), (BETO, "Beto"))
        follows = Follows(store)
        await seat(store, "t1", BETO, "playing")
        await seat(store, "t2", BETO, "over")
        await seat(store, "t3", ANA)
        assert await follows.tables_of([BETO, ANA, CARO]) == {BETO: ["t1"], ANA: ["t3"]}
        assert await follows.tables_of([]) == {}
        assert await follows.seated(BETO, "t1")
        assert not await follows.seated(BETO, "t2")  # over
        assert not await follows.seated(ANA, "t1")

    run(url, body)


def test_invitations_are_shown_while_fresh_and_their_table_open(url: str) -> None:
    async def body(store: Store) -> None:
        await named(store, (ANA, "Ana"), (BETO, "Beto"))
        follows = Follows(store)
        await seat(store, "t1", BETO)
        await seat(store, "t2", BETO)
        await follows.invite(BETO, ANA, "t1", 1800)
        await follows.invite(BETO, ANA, "t2", 1800)
        await follows.invite(BETO, ANA, "t1", 1800)  # again: it comes first now
        got = await follows.invites(ANA, 1800)
        assert [(i.from_name, i.table) for i in got] == [("Beto", "t1"), ("Beto", "t2")]
        assert await follows.invites(BETO, 1800) == []
        await store.set_status("t1", "over")
        assert [i.table for i in await follows.invites(ANA, 1800)] == ["t2"]
        # An hour old: not shown, and dropped by the next invitation to her.
        async with store.engine.begin() as conn:
            await conn.execute(
                update(invites_t).values(created_at=datetime.now(UTC) - timedelta(hours=1))
            )
        assert await follows.invites(ANA, 1800) == []
        await seat(store, "t3", BETO)
        await follows.invite(BETO, ANA, "t3", 1800)
        async with store.engine.connect() as conn:
            rows = (await conn.execute(invites_t.select())).fetchall()
        assert [r.table_id for r in rows] == ["t3"]

    run(url, body)


def test_a_follow_at_the_limit_waits_for_another_processs_follow(url: str) -> None:
    if url.startswith("sqlite"):
        pytest.skip("a SQLite file has one process, whose store writes one transaction at a time")

    async def body(store: Store) -> None:
        people = [(f"{i:032x}", f"Jugador {i}") for i in range(6)]
        await named(store, (ANA, "Ana"), *people)
        for pid, _ in people[:4]:
            assert await Follows(store).follow(ANA, pid, 5)
        other = Store(url)  # another process: its own pool and its own writer
        try:
            async with store.engine.begin() as conn:
                # This process's follow, the fifth, is written and not yet committed...
                assert await follows_module._follow(conn, ANA, people[4][0], 5) == "new"
                # ...while the other process's follow counts: it must wait for it, not count 4.
                late = asyncio.create_task(Follows(other).follow(ANA, people[5][0], 5))
                await asyncio.sleep(0.5)  # time for it to reach the lock (it waits there)
            with pytest.raises(TooManyFollows):
                await late
        finally:
            await other.close()
        assert len(await Follows(store).followed(ANA)) == 5

    run(url, body)


# --- through the app ----------------------------------------------------------------------------


def someone(client: TestClient) -> TestClient:
    """Another browser on the same server: its own cookies, hence its own player."""
    second = TestClient(client.app)
    second.portal = client.portal  # the app runs in the first client's event loop
    return second


def claim(client: TestClient, name: str) -> None:
    r = client.post("/api/me/name", json={"name": name, "password": f"clave de {name}"})
    assert r.status_code == 200, r.text


def friends(client: TestClient) -> dict[str, Any]:
    r = client.get("/api/me/friends")
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    data: dict[str, Any] = r.json()
    return data


def code(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["code"]


@pytest.fixture
def app_settings(settings: Settings, url: str) -> Settings:
    return settings.but(database_url=url, max_follows=2, invite_burst=2, invites_per_minute=0.01)


@pytest.fixture
def ana(app_settings: Settings) -> Iterator[TestClient]:
    with serving(app_settings) as c:
        yield c


def test_following_a_friend_and_seeing_him_online_at_his_table(ana: TestClient) -> None:
    beto, caro, nobody = someone(ana), someone(ana), someone(ana)
    assert code(nobody.post("/api/me/friends", json={"name": "Beto"})) == (403, "name_required")
    assert friends(nobody) == {"friends": [], "invites": [], "most": 2}
    claim(ana, "Ana")
    assert code(ana.post("/api/me/friends", json={"name": "Beto"})) == (404, "player_not_found")
    claim(beto, "Beto")
    claim(caro, "Caro")
    assert code(ana.post("/api/me/friends", json={"name": "ANA"})) == (422, "follow_self")
    r = ana.post("/api/me/friends", json={"name": "beto"})
    assert r.status_code == 200 and r.json() == {
        "name": "Beto",
        "following": True,
        "yourself": False,
    }
    assert ana.get("/api/me/friends/BETO").json() == {
        "name": "Beto",
        "following": True,
        "yourself": False,
    }
    assert beto.get("/api/me/friends/Ana").json()["following"] is False
    assert ana.get("/api/me/friends/ana").json()["yourself"] is True
    # Beto has not opened a page yet: offline, and at no table.
    assert friends(ana)["friends"] == [{"name": "Beto", "online": False, "tables": []}]
    table = create(beto, name="Beto", bots={})["table"]
    friends(beto)  # his page asks for his friends: he is online
    assert friends(ana)["friends"] == [
        {"name": "Beto", "online": True, "tables": [{"table": table, "invite": f"/t/{table}"}]}
    ]
    # The limit of follows, then unfollowing makes room.
    assert ana.post("/api/me/friends", json={"name": "Caro"}).status_code == 200
    third = ana.post("/api/me/friends", json={"name": "Dani"})
    assert code(third) == (404, "player_not_found")
    claim(nobody, "Dani")
    assert code(ana.post("/api/me/friends", json={"name": "Dani"})) == (409, "too_many_follows")
    r = ana.delete("/api/me/friends/Caro")
    assert r.status_code == 200 and r.json()["following"] is False
    assert [f["name"] for f in friends(ana)["friends"]] == ["Beto"]
    assert ana.post("/api/me/friends", json={"name": "Dani"}).status_code == 200


def test_inviting_a_friend_to_ones_table(ana: TestClient) -> None:
    beto = someone(ana)
    claim(ana, "Ana")
    claim(beto, "Beto")
    table = create(beto, name="Beto", bots={})["table"]
    other = create(ana, name="Ana", bots={})["table"]
    invite = {"name": "Ana", "table": table}
    assert code(beto.post("/api/me/invites", json=invite)) == (409, "not_following")
    assert beto.post("/api/me/friends", json={"name": "Ana"}).status_code == 200
    elsewhere = beto.post("/api/me/invites", json={"name": "Ana", "table": other})
    assert code(elsewhere) == (403, "not_at_table")
    r = beto.post("/api/me/invites", json=invite)
    assert r.status_code == 201, r.text
    assert r.json() == {"name": "Ana", "table": table, "invite": f"/t/{table}"}
    got = friends(ana)["invites"]
    assert [(i["name"], i["table"], i["invite"]) for i in got] == [("Beto", table, f"/t/{table}")]
    assert got[0]["at"].endswith("Z")
    # The invitations' rate: a burst of 2 (settings), then hardly any.
    assert beto.post("/api/me/invites", json=invite).status_code == 201
    assert code(beto.post("/api/me/invites", json=invite)) == (429, "rate_limited")
    # Following and inviting are changes: a foreign page may not make them.
    foreign = {"Origin": "https://elsewhere.example"}
    r = beto.post("/api/me/friends", json={"name": "Ana"}, headers=foreign)
    assert code(r) == (403, "bad_origin")


def test_the_friends_list_is_rate_limited(settings: Settings) -> None:
    with serving(settings.but(friends_polls_burst=3, friends_polls_per_second=0.01)) as c:
        for _ in range(3):
            assert c.get("/api/me/friends").status_code == 200
        assert code(c.get("/api/me/friends")) == (429, "rate_limited")


# --- presence -----------------------------------------------------------------------------------


def test_presence_in_memory_lapses() -> None:
    now = [100.0]
    presence = MemoryPresence(60, clock=lambda: now[0])

    async def go() -> None:
        await presence.seen(ANA)
        assert await presence.online([ANA, BETO]) == {ANA}
        now[0] += 59
        assert await presence.online([ANA]) == {ANA}
        now[0] += 2
        assert await presence.online([ANA]) == set()

    asyncio.run(go())


@pytest.fixture
def redis_url(request: pytest.FixtureRequest) -> str:
    # Skipped before ``backing`` is asked for: its setup starts PostgreSQL and Redis and would
    # fail, not skip, on a machine without them.
    if LACKING:
        pytest.skip(f"needs the Debian packages {', '.join(LACKING)}")
    backing: Backing = request.getfixturevalue("backing")
    if backing.redis.proc is None:
        backing.redis.start()
    return str(backing.redis.url)


def test_presence_in_redis_is_shared_by_the_processes(redis_url: str) -> None:
    async def go() -> None:
        one, two = Redis.from_url(redis_url), Redis.from_url(redis_url)
        await one.flushall()
        now = [0.0]
        node_1 = RedisPresence(one, "node-1", 60, clock=lambda: now[0])
        node_2 = RedisPresence(two, "node-2", 60, clock=lambda: now[0])
        try:
            await node_1.seen(ANA)
            assert await node_2.online([ANA, BETO]) == {ANA}  # seen on another process
            ttl = await two.pttl(seen_key(ANA))
            assert 0 < ttl <= 60_000
            # Asked again soon after, the process does not write again; later it does.
            await two.delete(seen_key(ANA))
            await node_1.seen(ANA)
            assert await node_2.online([ANA]) == set()
            now[0] += 21
            await node_1.seen(ANA)
            assert await node_2.online([ANA]) == {ANA}
            assert await node_2.online([]) == set()
        finally:
            await one.aclose()
            await two.aclose()

    asyncio.run(go())

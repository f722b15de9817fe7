"""Two server processes behind one Redis and one PostgreSQL: a player on either hears everything."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import redis.asyncio

from server.clusterfix import (
    Backing,
    Nodes,
    Socket,
    cluster,
    create,
    join,
    table_log,
)
from server.helpers import Connection, settle, step
from truco.server.cluster.coordinator import Coordinator
from truco.server.store.database import Store
from truco.server.store.schema import Fenced, SeatRow

pytestmark = cluster


def lobby_until(base: str, done: Callable[[list[Any]], bool]) -> list[Any]:
    """The lobby once ``done`` holds for it: a process may answer from the lobby it built up to
    ``lobby_cache_seconds`` before, so a change shows within that (the guard is for a hang)."""
    guard = time.monotonic() + 60
    while True:
        lobby: list[Any] = httpx.get(f"{base}/api/tables").json()
        if done(lobby) or time.monotonic() > guard:
            return lobby
        time.sleep(0.05)


def test_players_on_two_processes_play_a_whole_match(nodes: Nodes) -> None:
    a, b = nodes.start("node-a"), nodes.start("node-b")
    t = create(a.base, options={"players": 2, "target": 15})
    # The lobby is shared: B lists the table A opened.
    lobby = lobby_until(b.base, bool)
    assert [e["table"] for e in lobby] == [t["table"]]
    beto_token = join(b.base, t["table"])  # forwarded to A, which owns the table
    ana = Socket(a.base, t["table"], t["token"])
    beto = Socket(b.base, t["table"], beto_token)  # relayed through Redis
    watcher = Socket(b.base, t["table"], None)
    players: list[Connection] = [ana, beto]
    rng = random.Random(3)

    def choose(legal: list[str]) -> str:
        # Mostly cards: a match of random calls can end in a few actions.
        cards = [x for x in legal if x.startswith("play")]
        return rng.choice(cards if cards and rng.random() < 0.8 else legal)

    acts = 0
    while step(players, choose):
        acts += 1
    assert acts > 10
    watcher.catch_up(ana.v)
    # Every version reached the relayed player and the spectator, once and in order.
    for conn in (beto, watcher):
        versions = [m["d"]["v"] for m in conn.seen if m["t"] in ("full", "ev")]
        assert versions == list(range(versions[0], ana.v + 1))
        assert not [m for m in conn.seen if m["t"] == "err"]
    assert beto.view is not None and beto.view["phase"] == "over"
    info = httpx.get(f"{b.base}/api/tables/{t['table']}").json()
    assert info["status"] == "over" and info["v"] == ana.v
    assert lobby_until(b.base, lambda lobby: not lobby) == []
    # The log in PostgreSQL is the whole match, one version after another.
    log = table_log(nodes.backing, nodes.env["TRUCO_DATABASE_URL"], t["table"])
    assert [seq for seq, _, _ in log] == list(range(1, ana.v + 1))
    hand = httpx.get(f"{b.base}/api/tables/{t['table']}/hands/1.toml")
    assert hand.status_code == 200 and "actions" in hand.text
    for conn in (ana, beto, watcher):
        conn.close()


def test_relayed_player_errors_and_chat_come_back(nodes: Nodes) -> None:
    a, b = nodes.start("node-a"), nodes.start("node-b")
    t = create(a.base, options={"players": 2})
    beto_token = join(a.base, t["table"])
    ana = Socket(a.base, t["table"], t["token"])
    beto = Socket(b.base, t["table"], beto_token)
    actor = settle([ana, beto])
    assert actor is not None
    idle = beto if actor is ana else ana
    idle.act("mazo")
    err = idle.until("err")
    assert err["d"]["code"] == "not_your_turn" and err["d"]["a"] == idle.a
    beto.send("chat", {"text": "hola"})
    assert ana.until("chat")["d"]["text"] == "hola"
    bad = Socket(b.base, t["table"], "not-a-token")
    assert bad.recv()["d"]["code"] == "bad_token"
    assert bad.recv()["t"] == "close" and bad.close_code == 4401
    for conn in (ana, beto):
        conn.close()


def test_the_log_refuses_an_append_that_is_not_next(backing: Backing) -> None:
    url = backing.postgres.create_database("fence")

    async def run() -> None:
        first, second = Store(url), Store(url)
        await first.migrate()
        await second.migrate()
        try:
            await first.create_table("t1", {}, None, 1, [SeatRow(0, "Ana", "human", None, None)])
            await first.append("t1", 1, "rematch", {"mano": 0})
            with pytest.raises(Fenced):  # a process that did not see version 1
                await second.append("t1", 1, "rematch", {"mano": 1})
            with pytest.raises(Fenced):  # a gap
                await second.append("t1", 3, "rematch", {"mano": 1})
            await second.append("t1", 2, "rematch", {"mano": 1})
            row = await first.load("t1")
            assert row is not None
            assert [(e.seq, e.data["mano"]) for e in row.log] == [(1, 0), (2, 1)]
        finally:
            await first.close()
            await second.close()

    asyncio.run(run())


def test_one_lease_holder_at_a_time(backing: Backing) -> None:
    async def run() -> None:
        await redis.asyncio.Redis.from_url(backing.redis.url).flushall()
        a = Coordinator(backing.redis.url, "a", lease_seconds=0.5, call_seconds=1)
        b = Coordinator(backing.redis.url, "b", lease_seconds=0.5, call_seconds=1)
        try:
            assert await a.acquire("t")
            assert not await b.acquire("t")
            assert await a.acquire("t")  # its own, again
            assert await a.renew(["t"]) == []
            await b.release(["t"])  # not b's: nothing happens
            assert await a.owner("t") == "a"
            await asyncio.sleep(0.7)  # a did not renew: the lease lapsed
            assert await b.acquire_many(["t", "u"]) == ["t", "u"]
            assert await a.renew(["t"]) == ["t"]  # a hears that it lost t
            await b.release(["t"])
            assert await a.owner("t") is None
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(run())

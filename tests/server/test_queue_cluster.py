"""Jugar ahora's queue in Redis: the same rules as in memory, atomic claims between processes,
and players on two server processes meeting at one table (real Redis, PostgreSQL, processes)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
import redis.asyncio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.clusterfix import Backing, Nodes, Socket, cluster
from truco.server.queue.matchmaking import MODES, Curve, Waiting, pair
from truco.server.queue.redis_queue import RedisQueue
from truco.server.queue.tickets import FORMING, WAITING, MemoryQueue, Queue, QueueFull, Ticket

pytestmark = cluster

Op = tuple[str, int, str]
"""(what, a player or a ticket's index, a mode)."""
ops = st.lists(
    st.tuples(
        st.sampled_from(["join", "join", "leave", "claim"]),
        st.integers(0, 4),
        st.sampled_from(sorted(MODES)),
    ),
    max_size=25,
)


async def run_ops(queue: Queue, steps: list[Op]) -> None:
    """Apply ``steps`` to ``queue``, checking after each that nobody waits twice and that a
    claimed ticket is nobody's to take again."""
    tickets: list[Ticket] = []
    claimed: set[str] = set()
    for n, (what, who, mode) in enumerate(steps):
        if what == "join":
            t = Ticket(f"t{n:03d}", mode, f"p{who}", "x", float(who), 1000.0 + n, "h")
            try:
                tickets.append(await queue.join(t, most=3))
            except QueueFull:  # refused only when three others wait in the mode
                others = [w for w in await queue.waiting(mode) if w.player != t.player]
                assert len(others) >= 3
        elif what == "leave" and tickets:
            await queue.leave(tickets[who % len(tickets)].ticket)
        elif what == "claim":
            waiting = await queue.waiting(mode)
            group = [t.ticket for t in waiting[: MODES[mode]]]
            if group and await queue.claim(group):
                assert not claimed & set(group)
                claimed |= set(group)
                assert not await queue.claim(group[:1])  # never twice
        queued = {m: await queue.waiting(m) for m in MODES}
        players = [t.player for ts in queued.values() for t in ts]
        assert len(players) == len(set(players)), queued  # one queue, one ticket each
        for m, ts in queued.items():
            assert all(t.mode == m and t.state == WAITING for t in ts)
            assert not claimed & {t.ticket for t in ts}
            assert len(ts) <= 3
            assert [t.since for t in ts] == sorted(t.since for t in ts)
        for ticket in claimed:
            found = await queue.look(ticket)
            assert found is not None and found.state == FORMING


async def with_redis(url: str, work: Callable[[RedisQueue], Awaitable[None]]) -> None:
    client = redis.asyncio.Redis.from_url(url, decode_responses=True)
    try:
        await client.flushall()
        await work(RedisQueue(client, idle=60))
    finally:
        await client.aclose()


@given(ops)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_the_queue_rules_in_memory_and_in_redis(backing: Backing, steps: list[Op]) -> None:
    async def rules(q: Queue) -> None:
        await run_ops(q, steps)

    asyncio.run(rules(MemoryQueue(idle=60, clock=lambda: 0.0)))
    asyncio.run(with_redis(backing.redis.url, rules))


def test_a_new_ticket_keeps_its_place_and_a_full_queue_refuses(backing: Backing) -> None:
    async def check(queue: RedisQueue) -> None:
        first = await queue.join(Ticket("a", "1v1", "ana", "Ana", 0.0, 10.0, "h"), most=2)
        assert first.since == 10.0
        again = await queue.join(Ticket("b", "1v1", "ana", "Ana", 0.0, 50.0, "h"), most=2)
        assert again.since == 10.0 and await queue.look("a") is None
        await queue.join(Ticket("c", "1v1", "beto", "Beto", 0.0, 20.0, "h"), most=2)
        with pytest.raises(QueueFull):
            await queue.join(Ticket("d", "1v1", "carla", "Carla", 0.0, 30.0, "h"), most=2)
        assert [t.ticket for t in await queue.waiting("1v1")] == ["b", "c"]
        # Claimed, then put back: in its place again.
        b = await queue.look("b")
        assert b is not None and await queue.claim(["b"])
        assert [t.ticket for t in await queue.waiting("1v1")] == ["c"]
        await queue.unclaim([b])
        assert [t.ticket for t in await queue.waiting("1v1")] == ["b", "c"]
        await queue.settle("b", "table1", 1)
        settled = await queue.look("b")
        assert settled is not None and (settled.table, settled.seat) == ("table1", 1)
        assert settled.state == "matched" and not await queue.claim(["b"])
        assert (await queue.leave("c")) is not None and await queue.waiting("1v1") == []

    asyncio.run(with_redis(backing.redis.url, check))


def test_an_idle_ticket_leaves_the_redis_queue(backing: Backing) -> None:
    async def check(queue: RedisQueue) -> None:
        queue.idle_ms = 200
        await queue.join(Ticket("a", "1v1", "ana", "Ana", 0.0, 10.0, "h"), most=5)
        await queue.join(Ticket("b", "1v1", "beto", "Beto", 0.0, 11.0, "h"), most=5)
        guard = time.monotonic() + 60
        while await queue.look("b") is not None and time.monotonic() < guard:
            await asyncio.sleep(0.05)  # b is asked about (kept), a is not
            if len(await queue.waiting("1v1")) == 1:
                break
        assert [t.ticket for t in await queue.waiting("1v1")] == ["b"]
        # A claimed ticket is not kept alive by questions: if its table never comes (the
        # process that claimed it died), it lapses and its player hears so.
        assert await queue.claim(["b"])
        while await queue.look("b") is not None and time.monotonic() < guard:
            await asyncio.sleep(0.05)
        assert await queue.look("b") is None

    asyncio.run(with_redis(backing.redis.url, check))


def groups_of(mode: str, waiting: list[Ticket]) -> list[tuple[str, ...]]:
    pool = [Waiting(t.ticket, t.rating, t.since) for t in waiting]
    return [m.seats for m in pair(mode, pool, 1000.0, Curve(base=2, per_second=0))]


def test_two_processes_never_take_one_player(backing: Backing) -> None:
    """Two queues on their own Redis connections pair the same waiting players at once, as two
    server processes do: each group is claimed by exactly one of them."""

    async def race() -> None:
        clients = [
            redis.asyncio.Redis.from_url(backing.redis.url, decode_responses=True) for _ in range(2)
        ]
        try:
            await clients[0].flushall()
            queues = [RedisQueue(c, idle=60) for c in clients]
            rng = random.Random(5)
            for i in range(120):
                mode = rng.choice(sorted(MODES))
                ticket = Ticket(f"t{i:03d}", mode, f"p{i}", "x", rng.uniform(0, 10), i, "h")
                await queues[i % 2].join(ticket, most=1000)
            taken: list[str] = []
            for mode in MODES:
                # Both read the queue before either claims: they find the same groups, and race
                # for each of them.
                seen = await asyncio.gather(queues[0].waiting(mode), queues[1].waiting(mode))
                groups = [groups_of(mode, ts) for ts in seen]
                assert groups[0] == groups[1] and groups[0]

                async def claims(k: int, groups: list[tuple[str, ...]]) -> list[bool]:
                    return [await queues[k].claim(list(g)) for g in groups]

                won = await asyncio.gather(claims(0, groups[0]), claims(1, groups[1]))
                for g, a, b in zip(groups[0], won[0], won[1], strict=True):
                    assert a != b, (g, a, b)  # one of the two, never both, never neither
                    taken += g
                left = await queues[0].waiting(mode)
                assert not {t.ticket for t in left} & set(taken)
            assert len(taken) == len(set(taken))
        finally:
            for c in clients:
                await c.aclose()

    asyncio.run(race())


def queue_on(client: httpx.Client, base: str, mode: str, name: str) -> dict[str, Any]:
    r = client.post(f"{base}/api/queue", json={"mode": mode, "name": name}, timeout=10)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def poll(client: httpx.Client, base: str, ticket: str, until: str) -> dict[str, Any]:
    """Long-poll until the ticket's answer has ``until`` (a status or an offer)."""
    guard = time.monotonic() + 120
    while True:
        r = client.get(f"{base}/api/queue/{ticket}", params={"wait": 10}, timeout=30)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        if until in (data["status"], data["offer"]) or time.monotonic() > guard:
            return data


def test_players_on_two_processes_meet(nodes: Nodes) -> None:
    a, b = nodes.start("node-a"), nodes.start("node-b")
    with httpx.Client() as ana, httpx.Client() as beto:
        ta = queue_on(ana, a.base, "1v1", "Ana")
        tb = queue_on(beto, b.base, "1v1", "Beto")
        # Each asks the other process too: the ticket lives in Redis, not in a process.
        ma = poll(ana, b.base, ta["ticket"], "matched")
        mb = poll(beto, a.base, tb["ticket"], "matched")
        assert ma["status"] == mb["status"] == "matched"
        assert ma["table"] == mb["table"] and {ma["seat"], mb["seat"]} == {0, 1}
        info = httpx.get(f"{b.base}/api/tables/{ma['table']}", timeout=10).json()
        assert info["status"] == "playing"
        assert {s["seat"]: s["name"] for s in info["seats"]} == {
            ma["seat"]: "Ana",
            mb["seat"]: "Beto",
        }
        for base, t, m in ((a.base, ta, ma), (b.base, tb, mb)):
            sock = Socket(base, m["table"], t["token"])
            first = sock.recv()
            assert first["t"] == "full" and first["d"]["seat"] == m["seat"], first
            sock.close()


def test_a_lone_player_in_a_cluster_takes_the_bots(nodes: Nodes) -> None:
    nodes.env["TRUCO_QUEUE_BOTS_AFTER"] = "0.5"
    a, b = nodes.start("node-a"), nodes.start("node-b")
    with httpx.Client() as ana:
        t = queue_on(ana, a.base, "3v3", "Ana")
        offered = poll(ana, b.base, t["ticket"], "bots")
        assert offered["offer"] == "bots"
        r = ana.post(f"{b.base}/api/queue/{t['ticket']}/bots", timeout=30)
        assert r.status_code == 200, r.text
        took = r.json()
        assert took["status"] == "matched" and took["seat"] == 0
        info = httpx.get(f"{a.base}/api/tables/{took['table']}", timeout=10).json()
        assert [s["kind"] for s in info["seats"]] == ["human"] + ["bot"] * 5
        sock = Socket(a.base, took["table"], t["token"])
        assert sock.recv()["d"]["seat"] == 0
        sock.close()

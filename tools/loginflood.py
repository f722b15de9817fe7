"""Issue 26's login flood against one ``truco serve``: the bystander's figures under it.

``python -m tools.loginflood [--logins 100] [--addresses 10] [--waiting N]`` starts
``truco serve`` on a free loopback port with a fresh SQLite file (the limits per address, of
logins and connections, and per name raised, so that only the cap on waiting password checks
holds the flood; ``--waiting`` sets that cap, ``TRUCO_HASHES_WAITING``; a large one is the
unbounded line of before), sends ``--logins`` wrong logins at once from ``--addresses``
loopback addresses (127.0.0.2 and up: the server sees that many clients; ``reset``: the
connection closed unanswered), and meanwhile, for 25 s from the flood's start, a bystander asks
``GET /api/tables`` every 50 ms, another bystander plays a table against a bot over its
WebSocket (a move at most every 0.2 s), and Ana logs in from her own browser. Prints one JSON
object: the flood's answers by status, its seconds, Ana's login seconds, the ping's p50/p95
and the seated bystander's act p50/p95 in ms (from sending a move to hearing its version).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from tools.headflood import serving
from tools.loadtest.players import TableRun, open_table, play_seat

PASSWORD = "clave de Ana 1"
WINDOW = 25.0
"""Seconds from the flood's start the bystander is measured (at least the flood's own)."""


THINK = 0.1
"""The seated bystander's mean pause before a move (uniform over 0 to twice this)."""


def _quantiles(ms: list[float]) -> tuple[float | None, float | None]:
    if len(ms) < 2:
        return None, None
    return round(statistics.median(ms), 1), round(statistics.quantiles(ms, n=20)[18], 1)


async def _run(port: int, logins: int, addresses: int) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    each = -(-logins // addresses)
    crowds = [
        httpx.AsyncClient(
            base_url=base,
            timeout=120,
            limits=httpx.Limits(max_connections=each),
            transport=httpx.AsyncHTTPTransport(local_address=f"127.0.0.{2 + i}"),
        )
        for i in range(addresses)
    ]
    async with (
        httpx.AsyncClient(base_url=base, timeout=120) as ana,
        httpx.AsyncClient(base_url=base, timeout=120) as bystander,
        httpx.AsyncClient(base_url=base, timeout=120) as seated,
    ):
        r = await ana.post("/api/me/name", json={"name": "Ana", "password": PASSWORD})
        r.raise_for_status()
        pings: list[float] = []
        done = asyncio.Event()

        async def ping() -> None:
            while not done.is_set():
                t = time.perf_counter()
                await bystander.get("/api/tables")
                pings.append((time.perf_counter() - t) * 1000)
                await asyncio.sleep(0.05)

        async def wrong(crowd: httpx.AsyncClient) -> int | str:
            try:
                r = await crowd.post("/api/login", json={"name": "Ana", "password": "no es esta"})
            except httpx.TransportError:
                return "reset"
            return r.status_code

        (ws,) = await open_table(
            seated, base.replace("http", "ws", 1), players=2, humans=1, bots="random"
        )
        table = TableRun(humans=1, actions=None)
        started = asyncio.Event()
        started.set()
        player = asyncio.create_task(
            play_seat(ws, table, random.Random(1), think=THINK, start=started)
        )
        pinger = asyncio.create_task(ping())
        await asyncio.sleep(0.5)
        before = len(table.latencies)
        start = time.perf_counter()
        flood = [asyncio.create_task(wrong(crowds[n % addresses])) for n in range(logins)]
        await asyncio.sleep(0.2)
        t = time.perf_counter()
        mine = await ana.post("/api/login", json={"name": "Ana", "password": PASSWORD})
        ana_seconds = time.perf_counter() - t
        statuses = Counter(await asyncio.gather(*flood))
        flood_seconds = time.perf_counter() - start
        # The bystander's figures over the same window whatever the flood took.
        await asyncio.sleep(max(0.0, WINDOW - (time.perf_counter() - start)))
        done.set()
        table.done.set()
        await pinger
        player.cancel()
        await asyncio.gather(player, return_exceptions=True)
        await ws.close()
    await asyncio.gather(*(c.aclose() for c in crowds))
    acts = [1000 * s for s in table.latencies[before:]]
    ping_p50, ping_p95 = _quantiles(pings)
    act_p50, act_p95 = _quantiles(acts)
    return {
        "addresses": addresses,
        "flood": dict(statuses),
        "flood_seconds": round(flood_seconds, 2),
        "ana_login": mine.status_code,
        "ana_login_seconds": round(ana_seconds, 2),
        "ping_p50_ms": ping_p50,
        "ping_p95_ms": ping_p95,
        "pings": len(pings),
        "act_p50_ms": act_p50,
        "act_p95_ms": act_p95,
        "acts": len(acts),
        "act_errors": dict(table.errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--logins", type=int, default=100)
    parser.add_argument(
        "--addresses", type=int, default=10, choices=range(1, 201), metavar="1..200"
    )
    parser.add_argument("--waiting", type=int, default=8)
    args = parser.parse_args()
    env = {
        "TRUCO_LOGIN_BURST": "100000",
        "TRUCO_CONNECTIONS_PER_ADDRESS": "100000",
        "TRUCO_NAME_LOGIN_BURST": "100000",
        "TRUCO_HASHES_WAITING": str(args.waiting),
        "TRUCO_BOT_DELAY": "0",
        "TRUCO_DEAL_DELAY": "0",
    }
    with (
        tempfile.TemporaryDirectory(prefix="fair-loginflood-") as tmp,
        serving(Path(tmp) / "truco.db", **env) as (_proc, port),
    ):
        figures = asyncio.run(_run(port, args.logins, args.addresses))
    print(json.dumps({"waiting": args.waiting, **figures}))


if __name__ == "__main__":
    main()

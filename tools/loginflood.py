"""Issue 26's login flood against one ``truco serve``: the bystander's figures under it.

``python -m tools.loginflood [--logins 100] [--waiting N]`` starts ``truco serve`` on a free
loopback port with a fresh SQLite file (the limits per address, of logins and connections, and
per name raised, so that only the cap on waiting password checks holds the flood; ``--waiting``
sets that cap, ``TRUCO_HASHES_WAITING``; a large one is the unbounded line of before), sends
``--logins`` wrong logins at once (``reset``: the connection closed unanswered), and meanwhile
a bystander asks ``GET /api/tables`` every 50 ms (for 25 s from the flood's start) and Ana
logs in from her own browser. Prints one JSON object: the flood's answers by status, its
seconds, Ana's login seconds and the bystander's p50/p95 in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from tools.headflood import serving

PASSWORD = "clave de Ana 1"
WINDOW = 25.0
"""Seconds from the flood's start the bystander is measured (at least the flood's own)."""


async def _run(port: int, logins: int) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    async with (
        httpx.AsyncClient(base_url=base, timeout=120) as ana,
        httpx.AsyncClient(base_url=base, timeout=120) as bystander,
        httpx.AsyncClient(
            base_url=base, timeout=120, limits=httpx.Limits(max_connections=logins)
        ) as crowd,
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

        async def wrong() -> int | str:
            try:
                r = await crowd.post("/api/login", json={"name": "Ana", "password": "no es esta"})
            except httpx.TransportError:
                return "reset"
            return r.status_code

        pinger = asyncio.create_task(ping())
        await asyncio.sleep(0.5)
        start = time.perf_counter()
        flood = [asyncio.create_task(wrong()) for _ in range(logins)]
        await asyncio.sleep(0.2)
        t = time.perf_counter()
        mine = await ana.post("/api/login", json={"name": "Ana", "password": PASSWORD})
        ana_seconds = time.perf_counter() - t
        statuses = Counter(await asyncio.gather(*flood))
        flood_seconds = time.perf_counter() - start
        # The bystander's figures over the same window whatever the flood took.
        await asyncio.sleep(max(0.0, WINDOW - (time.perf_counter() - start)))
        done.set()
        await pinger
    q = statistics.quantiles(pings, n=20)
    return {
        "flood": dict(statuses),
        "flood_seconds": round(flood_seconds, 2),
        "ana_login": mine.status_code,
        "ana_login_seconds": round(ana_seconds, 2),
        "ping_p50_ms": round(statistics.median(pings), 1),
        "ping_p95_ms": round(q[18], 1),
        "pings": len(pings),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--logins", type=int, default=100)
    parser.add_argument("--waiting", type=int, default=8)
    args = parser.parse_args()
    env = {
        "TRUCO_LOGIN_BURST": "100000",
        "TRUCO_CONNECTIONS_PER_ADDRESS": "100000",
        "TRUCO_NAME_LOGIN_BURST": "100000",
        "TRUCO_HASHES_WAITING": str(args.waiting),
    }
    with (
        tempfile.TemporaryDirectory(prefix="fair-loginflood-") as tmp,
        serving(Path(tmp) / "truco.db", **env) as (_proc, port),
    ):
        figures = asyncio.run(_run(port, args.logins))
    print(json.dumps({"waiting": args.waiting, **figures}))


if __name__ == "__main__":
    main()

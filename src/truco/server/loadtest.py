"""Measure the time from an action to every player at the table hearing of it.

``python -m truco.server.loadtest [--tables 50] [--players 2] [--actions 60]`` starts a server on
127.0.0.1 (a free port, a temporary SQLite file) unless ``--url`` names one, opens the tables, and
plays every seat with a scripted client over a real WebSocket, each choosing random legal
actions as soon as it is to act. For each action it takes the time from sending the ``act`` to
the last of the table's connections receiving that version, and prints the median, p99 and max.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


class TableRun:
    def __init__(self, players: int, actions: int) -> None:
        self.players = players
        self.actions = actions
        self.sent: dict[int, float] = {}
        self.heard: dict[int, list[float]] = {}
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.done = asyncio.Event()

    def hear(self, v: int) -> None:
        arrivals = self.heard.setdefault(v, [])
        arrivals.append(time.perf_counter())
        if len(arrivals) == self.players and v in self.sent:
            self.latencies.append(arrivals[-1] - self.sent.pop(v))
            if len(self.latencies) >= self.actions:
                self.done.set()


async def _seat(ws: ClientConnection, run: TableRun, rng: random.Random, think: float) -> None:
    a = 0
    async for raw in ws:
        msg: dict[str, Any] = json.loads(raw)
        if msg["t"] == "err":
            run.errors.append(msg["d"]["code"])
        if msg["t"] not in ("full", "ev"):
            continue
        d = msg["d"]
        run.hear(d["v"])
        view = d["view"]
        if view["phase"] == "over":
            run.done.set()
        if run.done.is_set():
            return
        if view["to_act"] == view["seat"] and view["legal"]:
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            a += 1
            run.sent[d["v"] + 1] = time.perf_counter()
            action = rng.choice(view["legal"])
            await ws.send(json.dumps({"t": "act", "d": {"a": a, "v": d["v"], "action": action}}))


async def _table(base: str, players: int, actions: int, seed: int, think: float) -> list[float]:
    async with httpx.AsyncClient(base_url=base) as http:
        created = (
            await http.post("/api/tables", json={"name": "P0", "options": {"players": players}})
        ).json()
        tokens = [created["token"]]
        for s in range(1, players):
            r = await http.post(f"/api/tables/{created['table']}/seats", json={"name": f"P{s}"})
            tokens.append(r.json()["token"])
    ws_base = base.replace("http", "ws", 1)
    run = TableRun(players, actions)
    sockets = [
        await connect(f"{ws_base}/ws/tables/{created['table']}?token={t}", max_size=65536)
        for t in tokens
    ]
    try:
        tasks = [
            asyncio.create_task(_seat(ws, run, random.Random(seed * 10 + i), think))
            for i, ws in enumerate(sockets)
        ]
        await run.done.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for ws in sockets:
            await ws.close()
    return run.latencies


async def measure(
    base: str, tables: int, players: int, actions: int, think: float = 0.0
) -> dict[str, Any]:
    start = time.perf_counter()
    results = await asyncio.gather(
        *(_table(base, players, actions, seed, think) for seed in range(tables))
    )
    wall = time.perf_counter() - start
    latencies = sorted(x for r in results for x in r)
    if not latencies:
        raise RuntimeError("no action was measured")
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return {
        "tables": tables,
        "players": players,
        "think_s": think,
        "actions": len(latencies),
        "seconds": round(wall, 2),
        "median_ms": round(statistics.median(latencies) * 1000, 2),
        "p99_ms": round(p99 * 1000, 2),
        "max_ms": round(latencies[-1] * 1000, 2),
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m truco.server.loadtest")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=2, choices=(2, 4, 6))
    parser.add_argument("--actions", type=int, default=60, help="actions measured per table")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a player takes to act (0: none)"
    )
    parser.add_argument("--url", help="a running server (default: start one on 127.0.0.1)")
    args = parser.parse_args(argv)
    proc = None
    with tempfile.TemporaryDirectory() as tmp:
        base = args.url
        if base is None:
            port = _free_port()
            base = f"http://127.0.0.1:{port}"
            env = {**os.environ, "TRUCO_DEAL_DELAY": "0", "TRUCO_BOT_DELAY": "0"}
            db = str(Path(tmp) / "load.db")
            proc = subprocess.Popen(
                [sys.executable, "-m", "truco", "serve", "--port", str(port), "--db", db],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(200):
                try:
                    httpx.get(f"{base}/api/tables", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
        try:
            report = asyncio.run(measure(base, args.tables, args.players, args.actions, args.think))
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(10)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The load test's measurement: many tables played at once (``players.py``), and the report
of their actions, latencies, errors and the CPU they cost."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import resource
import secrets
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection

from tools.loadtest.players import Refused, TableRun, open_table, play_seat


def _tree_cpu(roots: list[int]) -> float:
    """CPU seconds used so far by ``roots`` and all their descendants (Linux /proc)."""
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        parent[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total = 0.0
    for pid, seconds in used.items():
        p = pid
        while p > 1:
            if p in roots:
                total += seconds
                break
            p = parent.get(p, 0)
    return total


def _cpu() -> tuple[float, float]:
    """(busy, total) jiffies of every CPU of the machine."""
    fields = [float(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


async def measure(
    base: str,
    tables: int,
    *,
    players: int = 2,
    humans: int | None = None,
    seconds: float | None = 20.0,
    think: float = 0.0,
    actions: int | None = None,
    bots: str = "random",
    seed: int = 0,
    watch: dict[str, list[int]] | None = None,
    bot_tables: int = 0,
    bot_level: str = "expert",
    rated: bool = False,
) -> dict[str, Any]:
    """``watch``: process trees (by role) whose CPU use is reported, in % of one CPU.

    ``bot_tables``: as many more tables of one scripted person against ``bot_level`` bots (two
    seats), measured apart: the figures at the top are the people's tables'.
    """
    watch = watch or {}
    humans = players if humans is None else humans
    ws_base = base.replace("http", "ws", 1)
    start = asyncio.Event()
    gate = asyncio.Semaphore(32)  # open the tables a few at a time, as people would arrive

    refused: Counter[str] = Counter()
    # The first reason given for each kind of refusal: a count alone does not say whether the
    # server, the proxy or the load generator's own client gave up.
    why: dict[str, str] = {}
    run_id = secrets.token_hex(3)

    async def one(i: int) -> tuple[bool, list[ClientConnection]] | None:
        against_bot = i >= tables
        async with gate:
            try:
                # A rated table's players are named after it and the run ("3fa9c1t12s0").
                name = f"{run_id}t{i}" if rated else None
                if against_bot:
                    return True, await open_table(
                        http, ws_base, players=2, humans=1, bots=bot_level, rated=name
                    )
                return False, await open_table(
                    http, ws_base, players=players, humans=humans, bots=bots, rated=name
                )
            except Refused as exc:
                refused[exc.code] += 1
                why.setdefault(exc.code, exc.detail)
                return None

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        opened = await asyncio.gather(*(one(i) for i in range(tables + bot_tables)))
    kept = [found for found in opened if found is not None]
    sockets = [socks for _, socks in kept]
    runs = [TableRun(1 if against_bot else humans, actions) for against_bot, _ in kept]
    tasks = [
        asyncio.create_task(
            play_seat(ws, run, random.Random(seed * 100_000 + i * 10 + k), think=think, start=start)
        )
        for i, (run, socks) in enumerate(zip(runs, sockets, strict=True))
        for k, ws in enumerate(socks)
    ]
    await asyncio.sleep(0.5)  # the first deals
    for run in runs:
        run.latencies.clear()
        run.versions = 0
    # The load generator's own collections would stall every client at once and count as
    # server latency: none during the measurement (its garbage is small and reclaimed after).
    gc.collect()
    gc.freeze()
    gc.disable()
    cpu0, self0, t0 = _cpu(), resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    roles0 = {role: _tree_cpu(pids) for role, pids in watch.items()}
    start.set()
    all_done = asyncio.gather(*(run.done.wait() for run in runs))
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await all_done
    wall = time.perf_counter() - t0
    cpu1, self1 = _cpu(), resource.getrusage(resource.RUSAGE_SELF)
    role_cpu = {role: _tree_cpu(pids) - roles0[role] for role, pids in watch.items()}
    gc.enable()
    for run in runs:
        run.done.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(ws.close() for socks in sockets for ws in socks))
    errors: Counter[str] = Counter(refused)
    for run in runs:
        errors.update(run.errors)
    loadgen = (self1.ru_utime + self1.ru_stime) - (self0.ru_utime + self0.ru_stime)
    people = [run for run, (against_bot, _) in zip(runs, kept, strict=True) if not against_bot]
    bot_runs = [run for run, (against_bot, _) in zip(runs, kept, strict=True) if against_bot]
    extra = {"bot_tables": {"level": bot_level, **_figures(bot_runs, wall)}} if bot_tables else {}
    figures = _figures(people, wall)
    roles: dict[str, float | None] = {
        f"{role}_cpu_pct": round(100 * cpu / wall, 1) for role, cpu in role_cpu.items()
    }
    roles.update(_costs(role_cpu, figures["actions"], figures["versions_per_s"] * wall))
    return {
        "tables": tables,
        "tables_opened": len(sockets),
        "players": players,
        "humans": humans,
        "think_s": think,
        "seconds": round(wall, 1),
        **figures,
        **extra,
        "errors": dict(errors),
        **({"refused_first": why} if why else {}),
        **({"rated_matches": sum(r.rated / r.humans for r in runs)} if rated else {}),
        "cpu_busy_pct": round(100 * (cpu1[0] - cpu0[0]) / max(1.0, cpu1[1] - cpu0[1]), 1),
        "loadgen_cpu_pct": round(100 * loadgen / wall, 1),
        **roles,
        "cpus": os.cpu_count(),
    }


def _figures(runs: list[TableRun], wall: float) -> dict[str, Any]:
    """Actions, versions and latency of the clients' actions over ``runs``."""
    latencies = sorted(x for r in runs for x in r.latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else None
    return {
        "actions": len(latencies),
        "actions_per_s": round(len(latencies) / wall, 1),
        "versions_per_s": round(sum(r.versions for r in runs) / wall, 1),
        # None: no action was measured (every table refused, say).
        "median_ms": _ms(statistics.median(latencies)) if latencies else None,
        "p99_ms": _ms(p99),
        "max_ms": _ms(latencies[-1]) if latencies else None,
    }


def _costs(role_cpu: dict[str, float], actions: int, versions: float) -> dict[str, float | None]:
    """CPU milliseconds per client action and per version sent, for each watched role (the
    server processes, PostgreSQL, Redis, nginx): a ratio that, unlike a share of the machine,
    does not move with how busy the machine is, so that a change is judged by it (issue 27)."""
    out: dict[str, float | None] = {}
    for role, cpu in role_cpu.items():
        name = "server" if role == "servers" else role
        out[f"{name}_cpu_ms_per_action"] = round(1000 * cpu / actions, 3) if actions else None
        out[f"{name}_cpu_ms_per_version"] = round(1000 * cpu / versions, 3) if versions else None
    if len(role_cpu) > 1:  # the cluster: its servers and the services they lean on, together
        total = sum(role_cpu.values())
        out["cluster_cpu_ms_per_action"] = round(1000 * total / actions, 3) if actions else None
    return out


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)

"""Load: many tables at once, measured from an action to every player at the table hearing of it.

``python -m truco.server.loadtest [--tables 50] [--seconds 20] [--think 1.0] [--processes 1]``
opens the tables (``--humans`` seats of each played by a scripted client over a real WebSocket,
the other seats by the server's bots), and ``--bot-tables`` more of one client against a
``--bot-level`` bot (reported apart, under ``bot_tables``: they load the server's bot workers),
then lets them all play for ``--seconds``. Each client
acts after a random pause of mean ``--think`` seconds (0: at once) with a random legal action,
and asks for a rematch when a match ends. For each client action it takes the time from sending
the ``act`` to the last of the table's clients receiving that version.

With ``--processes 1`` (the default) it starts one server on 127.0.0.1 with a temporary SQLite
file; with ``--processes 2`` (or ``--cluster``) PostgreSQL, Redis, that many servers and nginx in
front of them (``localcluster``), so that about half the players are relayed by another process.
``--url`` measures a server that is already running. It prints one JSON object: the actions and
table versions per second, latency median/p99/max, errors by code, and how busy the machine's
CPUs were (the load generator runs on the same machine and is part of that). A table that could
not be opened (its creation, a seat or a WebSocket handshake refused) is counted in the errors as
``refused:create``, ``refused:seat`` or ``refused:websocket`` (with the HTTP status when there
was one) and the others play on; ``tables_opened`` says how many did.

``--rated`` plays rated tables (docs/players.md): each scripted person is a player of his own
(his own identity cookie) who claims a name first, the tables are created rated, their bots are
of a level (``--bots facil`` by default, ``experto`` against ``--bot-tables``), and every match
that ends moves its players' ratings; ``rated_matches`` counts the matches whose ratings were
told.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, WebSocketException
from websockets.typing import Subprotocol

from truco.protocol import ws_protocols
from truco.server.localcluster import ProxyLimits, free_port, running


class Refused(Exception):
    """A table could not be opened: ``code`` is what the report counts it as."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code


class TableRun:
    """What the clients of one table saw: when each version was asked for and heard."""

    def __init__(self, humans: int, actions: int | None) -> None:
        self.humans = humans
        self.actions = actions
        self.sent: dict[int, float] = {}
        self.heard: dict[int, int] = {}
        self.latencies: list[float] = []
        self.versions = 0
        self.errors: Counter[str] = Counter()
        self.rated = 0
        """``rated`` messages heard (one per client for each rated match that ended)."""
        self.done = asyncio.Event()

    def hear(self, v: int) -> None:
        count = self.heard[v] = self.heard.get(v, 0) + 1
        if count == 1:
            self.versions += 1
        if count == self.humans:
            del self.heard[v]
            sent = self.sent.pop(v, None)
            if sent is not None:
                self.latencies.append(time.perf_counter() - sent)
                if self.actions is not None and len(self.latencies) >= self.actions:
                    self.done.set()


async def _seat(
    ws: ClientConnection,
    run: TableRun,
    rng: random.Random,
    think: float,
    start: asyncio.Event,
) -> None:
    a = 0
    view: dict[str, Any] | None = None
    v = 0
    asked = -1

    async def act() -> None:
        nonlocal a, asked
        if view is None or run.done.is_set():
            return
        if view["phase"] == "over":
            if asked != v:  # once per finished match: the bots agree, the new match begins
                asked = v
                await ws.send(json.dumps({"t": "rematch", "d": {}}))
            return
        if view["to_act"] != view["seat"] or not view["legal"]:
            return
        at = v
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
            if at != v:  # someone else moved meanwhile (an answer, a bot): choose again
                return
        a += 1
        run.sent[at + 1] = time.perf_counter()
        action = rng.choice(view["legal"])
        await ws.send(json.dumps({"t": "act", "d": {"a": a, "v": at, "action": action}}))

    pending: asyncio.Task[None] | None = None
    waiting: asyncio.Task[Any] = asyncio.create_task(start.wait())
    reading = asyncio.create_task(ws.recv())
    try:
        while not run.done.is_set():
            finished, _ = await asyncio.wait(
                {reading, waiting}, return_when=asyncio.FIRST_COMPLETED
            )
            if waiting in finished:
                waiting = asyncio.create_task(asyncio.sleep(3600))
                pending = asyncio.create_task(act())
            if reading not in finished:
                continue
            msg: dict[str, Any] = json.loads(reading.result())
            reading = asyncio.create_task(ws.recv())
            if msg["t"] == "err":
                run.errors[msg["d"]["code"]] += 1
                run.sent.pop(v + 1, None)
            if msg["t"] == "rated":
                run.rated += 1
            if msg["t"] not in ("full", "ev"):
                continue
            v, view = msg["d"]["v"], msg["d"]["view"]
            run.hear(v)
            if start.is_set():
                if pending is not None and not pending.done():
                    pending.cancel()
                pending = asyncio.create_task(act())
    finally:
        for task in (pending, waiting, reading):
            if task is not None:
                task.cancel()


async def _player(base: str, name: str) -> httpx.AsyncClient:
    """A player of his own (a client with its own identity cookie) who claimed ``name``."""
    http = httpx.AsyncClient(base_url=base, timeout=30)
    try:
        # A claim hashes the password (Argon2, a few at once per process): while many players
        # open their tables at once, it may queue far longer than a table's other requests.
        r = await http.post(
            "/api/me/name", json={"name": name, "password": f"clave-{name}"}, timeout=300
        )
    except httpx.HTTPError as exc:
        await http.aclose()
        raise Refused("refused:name", repr(exc)) from None
    if r.status_code != 200:
        await http.aclose()
        raise Refused(f"refused:name:{r.status_code}", r.text[:200])
    return http


async def _open(
    http: httpx.AsyncClient,
    ws_base: str,
    players: int,
    humans: int,
    bots: str,
    rated: str | None = None,
) -> list[ClientConnection]:
    """A new table with its clients connected (the match starts once they are seated).

    ``rated``: a rated table, each person a player who claims a name made from this prefix."""
    body: dict[str, Any] = {
        "name": "P0",
        "options": {"players": players},
        "bots": {str(s): bots for s in range(humans, players)},
    }
    if rated is None:
        return await _seat_all(http, [http] * humans, ws_base, body)
    body["rated"] = True
    clients: list[httpx.AsyncClient] = []
    try:
        for s in range(humans):
            clients.append(await _player(str(http.base_url), f"{rated}s{s}"))
        return await _seat_all(clients[0], clients, ws_base, body)
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))


async def _seat_all(
    http: httpx.AsyncClient,
    clients: list[httpx.AsyncClient],
    ws_base: str,
    body: dict[str, Any],
) -> list[ClientConnection]:
    """Create the table with ``http`` and seat the other ``clients``, then connect them all."""
    humans = len(clients)
    try:
        r = await http.post("/api/tables", json=body)
    except httpx.HTTPError as exc:
        raise Refused("refused:create", repr(exc)) from None
    if r.status_code != 201:
        raise Refused(f"refused:create:{r.status_code}", r.text[:200])
    created = r.json()
    tokens = [created["token"]]
    for s in range(1, humans):
        try:
            r = await clients[s].post(
                f"/api/tables/{created['table']}/seats", json={"name": f"P{s}"}
            )
        except httpx.HTTPError as exc:
            raise Refused("refused:seat", repr(exc)) from None
        if r.status_code != 200:
            raise Refused(f"refused:seat:{r.status_code}", r.text[:200])
        tokens.append(r.json()["token"])
    sockets: list[ClientConnection] = []
    try:
        for t in tokens:
            # The seat token goes in the handshake's subprotocols, never in the URL.
            url = f"{ws_base}/ws/tables/{created['table']}"
            offered = [Subprotocol(s) for s in ws_protocols(t)]
            sockets.append(
                await connect(url, max_size=65536, open_timeout=30, subprotocols=offered)
            )
    except (OSError, TimeoutError, InvalidHandshake, WebSocketException) as exc:
        # A refused handshake (a proxy out of connections, a server out of descriptors) is
        # counted, not fatal: the report says how many tables could not be opened.
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        code = getattr(getattr(exc, "response", None), "status_code", None)
        raise Refused(f"refused:websocket{f':{code}' if code else ''}", repr(exc)) from None
    return sockets


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
    run_id = secrets.token_hex(3)

    async def one(i: int) -> tuple[bool, list[ClientConnection]] | None:
        against_bot = i >= tables
        async with gate:
            try:
                # A rated table's players are named after it and the run ("3fa9c1t12s0").
                name = f"{run_id}t{i}" if rated else None
                if against_bot:
                    return True, await _open(http, ws_base, 2, 1, bot_level, name)
                return False, await _open(http, ws_base, players, humans, bots, name)
            except Refused as exc:
                refused[exc.code] += 1
                return None

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        opened = await asyncio.gather(*(one(i) for i in range(tables + bot_tables)))
    kept = [found for found in opened if found is not None]
    sockets = [socks for _, socks in kept]
    runs = [TableRun(1 if against_bot else humans, actions) for against_bot, _ in kept]
    tasks = [
        asyncio.create_task(
            _seat(ws, run, random.Random(seed * 100_000 + i * 10 + k), think, start)
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
    roles = {
        f"{role}_cpu_pct": round(100 * (_tree_cpu(pids) - roles0[role]) / wall, 1)
        for role, pids in watch.items()
    }
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
    return {
        "tables": tables,
        "tables_opened": len(sockets),
        "players": players,
        "humans": humans,
        "think_s": think,
        "seconds": round(wall, 1),
        **_figures(people, wall),
        **extra,
        "errors": dict(errors),
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


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


SERVER_ENV = {
    "TRUCO_DEAL_DELAY": "0",
    # Scripted clients without think time send far more than a person; the limit is not measured.
    "TRUCO_MESSAGES_PER_SECOND": "1000",
    "TRUCO_MESSAGE_BURST": "1000",
    # Every client connects from 127.0.0.1 (through nginx too): not the limit being measured.
    "TRUCO_ADDRESS_CONNECT_BURST": "100000",
    "TRUCO_ADDRESS_CONNECTS_PER_SECOND": "100000",
    "TRUCO_GRACE_SECONDS": "600",
    # One address opens every table and holds every socket: the per-address limits are not
    # what is measured either.
    "TRUCO_TABLES_BURST": "1000000",
    "TRUCO_TABLES_PER_MINUTE": "1000000",
    "TRUCO_WAITING_PER_CREATOR": "1000000",
    "TRUCO_CONNECTIONS_PER_ADDRESS": "1000000",
    # --rated: every scripted person claims a name from the same address.
    "TRUCO_LOGIN_BURST": "1000000",
    "TRUCO_LOGINS_PER_MINUTE": "1000000",
}


def proxy_limits(sockets: int) -> ProxyLimits:
    """nginx for one client address holding ``sockets`` WebSockets (each also holds one to a
    server), plus the HTTP connections that open the tables."""
    return ProxyLimits(
        connections_per_address=65535,  # nginx's largest
        tables_per_minute=10**6,
        tables_burst=10**6,
        worker_connections=max(ProxyLimits().worker_connections, 2 * sockets + 1024),
    )


@contextlib.contextmanager
def _one_server(bot_delay: float) -> Iterator[tuple[str, int]]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {**os.environ, **SERVER_ENV, "TRUCO_BOT_DELAY": str(bot_delay)}
        env.pop("TRUCO_DATABASE_URL", None)
        env.pop("TRUCO_REDIS_URL", None)
        db = str(Path(tmp) / "load.db")
        proc = subprocess.Popen(
            [sys.executable, "-m", "truco", "serve", "--port", str(port), "--db", db],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(400):
                try:
                    httpx.get(f"{base}/api/tables", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            yield base, proc.pid
        finally:
            proc.terminate()
            proc.wait(10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m truco.server.loadtest")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=2, choices=(2, 4, 6))
    parser.add_argument(
        "--humans", type=int, default=None, help="seats per table played by clients (default all)"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the tables play")
    parser.add_argument(
        "--actions", type=int, default=None, help="or stop each table after this many actions"
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a client takes to act (0: none)"
    )
    parser.add_argument("--bot-delay", type=float, default=0.5, help="the server bots' pause")
    parser.add_argument(
        "--bot-tables",
        type=int,
        default=0,
        help="and this many tables of one client against a bot (measured apart)",
    )
    parser.add_argument(
        "--bot-level", default=None, help="the bot of --bot-tables (expert; rated: experto)"
    )
    parser.add_argument(
        "--bots", default=None, help="the server's bots at the tables (random; rated: facil)"
    )
    parser.add_argument(
        "--rated",
        action="store_true",
        help="rated tables: each client a player who claims a name (docs/players.md)",
    )
    parser.add_argument("--processes", type=int, default=1, help="server processes")
    parser.add_argument(
        "--cluster", action="store_true", help="PostgreSQL + Redis + nginx even for one process"
    )
    parser.add_argument("--url", help="a running server (default: start one on 127.0.0.1)")
    args = parser.parse_args(argv)
    humans = args.players if args.humans is None else args.humans
    if not 1 <= humans <= args.players:
        parser.error("--humans must be from 1 to --players")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))

    def run(base: str, watch: dict[str, list[int]] | None = None) -> dict[str, Any]:
        return asyncio.run(
            measure(
                base,
                args.tables,
                args.players,
                humans,
                None if args.actions else args.seconds,
                args.think,
                args.actions,
                bots=args.bots or ("facil" if args.rated else "random"),
                watch=watch,
                bot_tables=args.bot_tables,
                bot_level=args.bot_level or ("experto" if args.rated else "expert"),
                rated=args.rated,
            )
        )

    if args.url:
        report = {"backend": "given", "rated": args.rated, **run(args.url)}
    elif args.processes > 1 or args.cluster:
        env = {**SERVER_ENV, "TRUCO_BOT_DELAY": str(args.bot_delay)}
        limits = proxy_limits(args.tables * humans)
        with running(args.processes, env=env, limits=limits) as cluster:
            assert cluster.proxy is not None
            watch = {
                "servers": [s.proc.pid for s in cluster.servers if s.proc],
                "postgres": [cluster.postgres.pid()],
                "redis": [cluster.redis.proc.pid] if cluster.redis.proc else [],
                "nginx": [cluster.proxy.proc.pid] if cluster.proxy.proc else [],
            }
            report = {
                "backend": "postgresql+redis+nginx",
                "rated": args.rated,
                "processes": args.processes,
                **run(cluster.proxy.base, watch),
            }
    else:
        with _one_server(args.bot_delay) as (base, pid):
            report = {
                "backend": "sqlite",
                "processes": 1,
                "rated": args.rated,
                **run(base, {"servers": [pid]}),
            }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

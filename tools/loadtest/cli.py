"""``python -m tools.loadtest``: start the server (one process, or a local cluster), measure
it and print the report as one JSON object."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from tools.loadtest.measure import measure
from tools.localcluster import (
    NGINX_OWN_FILES,
    ProxyLimits,
    descriptors_most,
    free_port,
    running,
)

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
    needed = 2 * sockets + 1024
    # A worker holds at most the hard limit of descriptors (20,000 on some machines: 5,000
    # tables of two players need more); past it, more workers, each with a limit of its own
    # and room for the kernel's uneven share of the connections.
    room = descriptors_most() - NGINX_OWN_FILES
    workers = -(-needed // room)
    per_worker = needed if workers == 1 else min(room, -(-needed // workers) + 1024)
    return ProxyLimits(
        connections_per_address=65535,  # nginx's largest
        tables_per_minute=10**6,
        tables_burst=10**6,
        worker_connections=max(ProxyLimits().worker_connections, per_worker),
        workers=workers,
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
    parser = argparse.ArgumentParser(prog="python -m tools.loadtest")
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
    parser.add_argument(
        "--spread",
        action="store_true",
        help="the cluster's nginx sends every request to any server, not each table's to the "
        "server that made it (about half the players then relayed)",
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
                players=args.players,
                humans=humans,
                seconds=None if args.actions else args.seconds,
                think=args.think,
                actions=args.actions,
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
        with running(args.processes, env=env, limits=limits, homes=not args.spread) as cluster:
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
                "homes": not args.spread,
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

"""Fixtures of the cluster tests: real PostgreSQL, Redis and server processes on 127.0.0.1.

One PostgreSQL and one Redis serve the whole session; every test gets a database of its own and
an empty Redis, and starts its own server processes (``truco serve``, as in production).
"""

from __future__ import annotations

import itertools
import json
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from server.helpers import Connection, subprotocols
from tools import localcluster as lc
from truco.server.settings import sqlite_url

LACKING = lc.missing()
cluster = [
    pytest.mark.cluster,
    pytest.mark.skipif(
        bool(LACKING),
        reason=f"needs the Debian packages {', '.join(LACKING)} (.ci/run installs them)",
    ),
]
"""``pytestmark`` of a module of cluster tests."""

LEASE_SECONDS = 1.5


@dataclass
class Backing:
    workdir: Path
    postgres: lc.Postgres
    redis: lc.Redis
    names: Iterator[int] = field(default_factory=itertools.count)


@dataclass
class Nodes:
    """The server processes of one test, sharing one database and one Redis."""

    backing: Backing
    env: dict[str, str]
    servers: list[lc.Server]

    def start(self, node: str, prefix: str = "") -> lc.Server:
        server = lc.Server(self.env, node, prefix=prefix)
        server.start(self.backing.workdir / f"{node}.log")
        self.servers.append(server)
        return server

    def log(self, server: lc.Server) -> str:
        return server.log.read_text() if server.log else ""


@pytest.fixture(scope="session")
def backing() -> Iterator[Backing]:
    workdir = Path(tempfile.mkdtemp(prefix="truco-test-cluster-"))
    postgres = lc.Postgres(workdir, durable=False)
    red = lc.Redis(workdir)
    try:
        postgres.init()
        red.start()
        yield Backing(workdir, postgres, red)
    finally:
        red.stop()
        postgres.stop("immediate")
        shutil.rmtree(workdir, ignore_errors=True)


def either_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh SQLite file or of a fresh database on the session's PostgreSQL, by
    ``request.param`` ("sqlite", "postgresql"): what a fixture over both backends yields."""
    if request.param == "sqlite":
        yield sqlite_url(str(tmp_path / "store.db"))
        return
    if LACKING:
        pytest.skip(f"needs the Debian packages {', '.join(LACKING)}")
    backing: Backing = request.getfixturevalue("backing")
    yield backing.postgres.create_database(f"s{next(backing.names)}")


@pytest.fixture
def nodes(backing: Backing) -> Iterator[Nodes]:
    url = backing.postgres.create_database(f"t{next(backing.names)}")
    if backing.redis.proc is None:  # a test stopped it
        backing.redis.start()
    redis.Redis.from_url(backing.redis.url).flushall()
    env = {
        "TRUCO_DATABASE_URL": url,
        "TRUCO_REDIS_URL": backing.redis.url,
        "TRUCO_LEASE_SECONDS": str(LEASE_SECONDS),
        "TRUCO_CALL_SECONDS": "3",
        "TRUCO_BOT_DELAY": "0.05",
        "TRUCO_DEAL_DELAY": "0",
        "TRUCO_SEED": "5",
        "TRUCO_GRACE_SECONDS": "30",
        "TRUCO_MESSAGE_BURST": "1000",
        "TRUCO_MESSAGES_PER_SECOND": "1000",
        # Every scripted client comes from 127.0.0.1, and reconnects in a loop while a table moves.
        "TRUCO_ADDRESS_CONNECT_BURST": "1000",
        "TRUCO_ADDRESS_CONNECTS_PER_SECOND": "1000",
    }
    made = Nodes(backing, env, [])
    try:
        yield made
    finally:
        for server in made.servers:
            server.stop()
        # Shown by pytest only when the test failed.
        for server in made.servers:
            print(f"--- {server.node} ---\n{made.log(server)[-4000:]}")


class Closed(Exception):
    """Reading again from a socket the server closed."""


class Socket(Connection):
    """A player's WebSocket to one server process (a real socket)."""

    def __init__(self, base: str, table: str, token: str | None, v: int = 0) -> None:
        super().__init__(v)
        url = base.replace("http", "ws", 1) + f"/ws/tables/{table}?v={v}"
        self.ws: ClientConnection = connect(
            url, max_size=65536, open_timeout=5, subprotocols=subprotocols(token)
        ).__enter__()
        self.close_code: int | None = None

    def receive_text(self, timeout: float) -> str | None:
        if self.close_code is not None:
            raise Closed(self.close_code)
        try:
            return str(self.ws.recv(timeout))
        except ConnectionClosed as exc:
            self.close_code = exc.rcvd.code if exc.rcvd is not None else 1006
            return None

    def send_text(self, text: str) -> None:
        try:
            self.ws.send(text)
        except ConnectionClosed as exc:
            self.close_code = exc.rcvd.code if exc.rcvd is not None else 1006
            raise Closed(self.close_code) from None

    def close(self) -> None:
        self.ws.__exit__(None, None, None)


def create(base: str, **body: Any) -> dict[str, Any]:
    body.setdefault("name", "Ana")
    r = httpx.post(f"{base}/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join(base: str, table: str, name: str = "Beto") -> str:
    r = httpx.post(f"{base}/api/tables/{table}/seats", json={"name": name}, timeout=10)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def reconnect(
    bases: list[str], table: str, token: str | None, v: int, seconds: float = 30
) -> Socket:
    """Connect to the first of ``bases`` that serves the table (its owner may be moving)."""
    end = time.monotonic() + seconds
    last: Any = None
    while time.monotonic() < end:
        for base in bases:
            try:
                sock = Socket(base, table, token, v)
            except OSError as exc:
                last = exc
                continue
            first = sock.receive_text(5)
            if first is not None:
                msg = json.loads(first)
                if msg["t"] in ("full", "ev", "table"):
                    sock.seen.append(msg)
                    if msg["t"] in ("full", "ev"):
                        sock.v, sock.view = msg["d"]["v"], msg["d"]["view"]
                    return sock
                last = msg
            sock.close()
        time.sleep(0.2)
    raise AssertionError(f"could not reconnect to table {table}: {last}")


def table_log(backing: Backing, url: str, table: str) -> list[tuple[int, str, dict[str, Any]]]:
    """The table's event log as PostgreSQL holds it: (seq, kind, data)."""
    import asyncio

    from truco.server.store.database import Store

    async def read() -> list[tuple[int, str, dict[str, Any]]]:
        store = Store(url)
        try:
            row = await store.load(table)
        finally:
            await store.close()
        assert row is not None
        return [(e.seq, e.kind, e.data) for e in row.log]

    return asyncio.run(read())

"""Bodies, slow requests and connections have bounds (issue 16, point 4), on a real uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from server.helpers import create
from tools.loadtest.measure import measure
from tools.localcluster import free_port
from truco.server import Settings, create_app, uvicorn_config


@pytest.fixture
def bounded(settings: Settings) -> Settings:
    return settings.but(
        max_body=1024, body_seconds=0.5, header_seconds=0.5, connections_per_address=3
    )


@pytest.fixture
def live(bounded: Settings) -> Iterator[tuple[str, int]]:
    """``truco serve``'s uvicorn, in a thread: (host, port)."""
    port = free_port()
    config = uvicorn_config(create_app(bounded), bounded, "127.0.0.1", port)
    config.log_level = "warning"
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield "127.0.0.1", port
    server.should_exit = True
    thread.join(10)


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (the test fails on a 20 s silence)."""
    sock.settimeout(20)
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def test_a_large_body_is_refused_unread(bounded: Settings) -> None:
    with TestClient(create_app(bounded)) as c:
        big = b'{"name": "' + b"x" * 4000 + b'"}'
        r = c.post("/api/tables", content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["code"] == "too_large", r.text

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            yield b'{"name": "'
            for _ in range(10):
                yield b"y" * 500
            yield b'"}'

        r = c.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["code"] == "too_large", r.text
        assert create(c)["table"]  # a body within the limit goes through


def test_a_request_whose_headers_never_end_is_closed(live: tuple[str, int]) -> None:
    with socket.create_connection(live) as sock:
        sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")  # and nothing more
        assert _read_all(sock) == b""


def test_a_body_that_never_arrives_gets_408(live: tuple[str, int]) -> None:
    with socket.create_connection(live) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        answer = _read_all(sock)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert b'"too_slow"' in answer


def test_connections_per_address_are_bounded(live: tuple[str, int]) -> None:
    host, port = live
    base = f"http://{host}:{port}"
    table = httpx.post(f"{base}/api/tables", json={"name": "Ana"}).json()["table"]
    # Two WebSockets and one idle socket hold the address's three connections...
    with contextlib.ExitStack() as held:
        for _ in range(2):
            ws = held.enter_context(connect(f"ws://{host}:{port}/ws/tables/{table}"))
            ws.recv(timeout=10)
        held.enter_context(socket.create_connection(live))
        # ...so a fourth is refused at once, with a JSON error.
        with socket.create_connection(live) as extra:
            answer = _read_all(extra)
        assert answer.startswith(b"HTTP/1.1 429"), answer
        assert b'"too_many_connections"' in answer
    # Once they are closed the address may connect again.
    for _ in range(100):
        if httpx.get(f"{base}/api/tables", headers={"connection": "close"}).status_code == 200:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the closed connections still count")


def test_the_nginx_config_carries_the_same_bounds(tmp_path: Path) -> None:
    from tools.localcluster import Proxy, Server

    proxy = Proxy(tmp_path, [Server({}, "node-1", port=1)])
    conf = proxy.config()
    for directive in (
        "client_max_body_size 16k;",
        "client_header_timeout 10s;",
        "large_client_header_buffers 4 8k;",
        "client_body_timeout 10s;",
        "limit_conn per_address 64;",
        "limit_req zone=new_tables",
    ):
        assert directive in conf, directive


def test_the_load_test_counts_refused_connections(live: tuple[str, int]) -> None:
    """A server that refuses some tables' sockets (here: three connections per address) is
    reported, table by table, in the JSON's errors instead of stopping the load test."""
    host, port = live
    report = asyncio.run(measure(f"http://{host}:{port}", tables=4, seconds=0.5))
    json.dumps(report)
    refused = {k: n for k, n in report["errors"].items() if k.startswith("refused:")}
    assert refused, report
    assert report["tables_opened"] + sum(refused.values()) == 4
    # Each kind of refusal comes with the first reason given for it.
    assert set(report["refused_first"]) == set(refused), report


def test_the_load_tests_nginx_has_a_worker_per_share_of_the_descriptors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker holds at most the hard limit of descriptors: 5,000 tables of two players need
    two workers where that limit is 20,000, each with room for its share and the kernel's
    unevenness, and none above the limit."""
    from tools.loadtest import cli
    from tools.localcluster import Proxy, Server

    monkeypatch.setattr(cli, "descriptors_most", lambda: 20_000)
    small, large = cli.proxy_limits(2_000), cli.proxy_limits(10_000)
    assert small.workers == 1 and small.worker_connections >= 2 * 2_000
    assert large.workers == 2
    assert 2 * 10_000 / 2 < large.worker_connections <= 20_000 - 64
    one, two = Server({}, "node-1", port=1), Server({}, "node-2", port=2)
    conf = Proxy(Path("/nonexistent"), [one, two], limits=large).config()
    assert "worker_processes 2;" in conf and " reuseport;" in conf

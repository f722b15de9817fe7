"""A real server process killed with SIGKILL mid-hand and started again on the same SQLite file:
the game resumes exactly where it stood."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect as aconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from server.helpers import WAIT, Connection, settle, step, subprotocols


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``truco serve`` in a process of its own on ``db`` (``env``: more of its settings), its
    output in a file beside the database, read when it does not start."""

    def __init__(self, db: Path, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        values = {
            **os.environ,
            "TRUCO_BOT_DELAY": "0",
            "TRUCO_DEAL_DELAY": "0",
            "TRUCO_SEED": "11",
            **env,
        }
        self.log = db.with_name(f"{db.stem}-{self.port}.log")
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "truco", "serve", "--port", str(self.port), "--db", str(db)],
                env=values,
                stdout=subprocess.DEVNULL,
                stderr=out,
            )
        end = time.monotonic() + WAIT  # a hang guard: it stops at once if the server exits
        while True:
            try:
                httpx.get(f"{self.base}/api/tables", timeout=1)
                return
            except httpx.TransportError:
                if self.proc.poll() is not None or time.monotonic() > end:
                    err = self.log.read_text(errors="replace")[-4000:]
                    raise AssertionError(f"the server did not start: {err}") from None
                time.sleep(0.05)

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=30)

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Remote(Connection):
    """A connection to a real server process (the ``websockets`` client)."""

    def __init__(self, port: int, table: str, token: str | None, v: int = 0) -> None:
        super().__init__(v)
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}?v={v}"
        self.ws: ClientConnection = connect(
            url, max_size=65536, open_timeout=WAIT, subprotocols=subprotocols(token)
        ).__enter__()

    def receive_text(self, timeout: float) -> str | None:
        return str(self.ws.recv(timeout))

    def send_text(self, text: str) -> None:
        self.ws.send(text)

    def close(self) -> None:
        self.ws.__exit__(None, None, None)


def test_sigkill_mid_hand_and_restart(tmp_path: Path) -> None:
    db = tmp_path / "truco.db"
    server = Server(db)
    try:
        r = httpx.post(
            f"{server.base}/api/tables",
            json={"name": "Ana", "options": {"players": 4}, "bots": {"1": "random", "3": "random"}},
        )
        t = r.json()
        r = httpx.post(f"{server.base}/api/tables/{t['table']}/seats", json={"name": "Beto"})
        beto_token = r.json()["token"]
        ana = Remote(server.port, t["table"], t["token"])
        beto = Remote(server.port, t["table"], beto_token)
        players: list[Connection] = [ana, beto]
        for _ in range(3):
            step(players, lambda legal: legal[0])
        settle(players)
        assert ana.view is not None and ana.view["phase"] == "play"
        before = {0: (ana.v, ana.view), 2: (beto.v, beto.view)}
        acked = ana.v
        server.kill()
    finally:
        server.stop()

    server = Server(db)
    try:
        for seat, token in ((0, t["token"]), (2, beto_token)):
            fresh = Remote(server.port, t["table"], token)
            full = fresh.recv()
            assert full["t"] == "full"
            assert (full["d"]["v"], full["d"]["view"]) == before[seat]
            fresh.close()
        info = httpx.get(f"{server.base}/api/tables/{t['table']}").json()
        assert info["status"] == "playing" and info["v"] == acked

        # Both come back with their last version and play on; the bots resume too.
        ana = Remote(server.port, t["table"], t["token"], v=acked)
        beto = Remote(server.port, t["table"], beto_token, v=acked)
        players = [ana, beto]
        ana.view, beto.view = before[0][1], before[2][1]
        assert ana.view is not None
        start_hand = ana.view["hand"]
        for _ in range(30):
            if not step(players, lambda legal: legal[0]):
                break
        assert ana.view["hand"] > start_hand  # a whole hand finished, bots included
        history = httpx.get(
            f"{server.base}/api/tables/{t['table']}/hands/{start_hand}.toml",
            headers={"Authorization": f"Bearer {t['token']}"},  # mid-match: a player's only
        )
        assert history.status_code == 200

        # Frame limits of the real server: over 8 KiB an error, over 64 KiB the socket closes.
        ana.ws.send(json.dumps({"t": "chat", "d": {"text": "x" * 10000}}))
        assert ana.until("err")["d"]["code"] == "too_large"
        ana.ws.send("x" * 70000)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ana.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        beto.close()
    finally:
        server.stop()


def test_sigkill_in_the_middle_of_group_commits(tmp_path: Path) -> None:
    """Many tables write at once (bots without delay, a person who answers at once), so that the
    log's commits hold several tables' rows; the process is killed while they go on. Every
    version a client heard (it is sent only once its row is durable) is in the log afterwards."""
    db = tmp_path / "truco.db"
    server = Server(db)
    heard: dict[str, int] = {}

    async def seat(table: str, token: str) -> None:
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table}"
        a = 0
        with contextlib.suppress(ConnectionClosed, OSError):
            async with aconnect(url, subprotocols=subprotocols(token)) as ws:
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["t"] not in ("full", "ev"):
                        continue
                    d = msg["d"]
                    heard[table] = max(heard.get(table, 0), d["v"])
                    view = d["view"]
                    if view["phase"] == "over":
                        await ws.send(json.dumps({"t": "rematch", "d": {}}))
                    elif view["to_act"] == view["seat"] and view["legal"]:
                        a += 1
                        act = {"a": a, "v": d["v"], "action": view["legal"][0]}
                        await ws.send(json.dumps({"t": "act", "d": act}))

    async def play() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=WAIT) as http:
            tables = []
            for _ in range(16):
                body = {"name": "Ana", "options": {"players": 2}, "bots": {"1": "random"}}
                t = (await http.post("/api/tables", json=body)).json()
                tables.append((t["table"], t["token"]))
        seats = [asyncio.create_task(seat(table, token)) for table, token in tables]
        while sum(heard.values()) < 1500 and not all(s.done() for s in seats):
            await asyncio.sleep(0.01)
        server.kill()  # the commits never stop while the tables play: one is under way
        await asyncio.wait(seats, timeout=WAIT)

    try:
        asyncio.run(play())
    finally:
        server.stop()
    assert sum(heard.values()) >= 1500
    with sqlite3.connect(db) as conn:
        # The log's commits did hold several tables' rows (one commit's rows share their time).
        shared = conn.execute(
            "SELECT count(*) FROM (SELECT at FROM truco_events GROUP BY at"
            " HAVING count(DISTINCT table_id) > 1)"
        ).fetchone()[0]
        assert shared > 0
        logged = dict(conn.execute("SELECT table_id, max(seq) FROM truco_events GROUP BY table_id"))
        before = conn.execute("SELECT table_id, seq, kind, data FROM truco_events").fetchall()
    for table, v in heard.items():
        assert logged.get(table, 0) >= v, table

    server = Server(db)  # and the tables come back from that log
    try:
        for table, v in heard.items():
            info = httpx.get(f"{server.base}/api/tables/{table}").json()
            # The restored table may already have gone on (its bots play at once): never behind.
            assert info["v"] >= logged[table] >= v
    finally:
        server.stop()
    with sqlite3.connect(db) as conn:  # and what was logged before the kill stayed as it was
        after = set(conn.execute("SELECT table_id, seq, kind, data FROM truco_events").fetchall())
    assert set(before) <= after

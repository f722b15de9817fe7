"""A real server process killed with SIGKILL mid-hand and started again on the same SQLite file:
the game resumes exactly where it stood."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from server.helpers import WAIT, Connection, settle, step, subprotocols


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    def __init__(self, db: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "TRUCO_BOT_DELAY": "0",
            "TRUCO_DEAL_DELAY": "0",
            "TRUCO_SEED": "11",
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "truco", "serve", "--port", str(self.port), "--db", str(db)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        end = time.monotonic() + WAIT  # a hang guard: it stops at once if the server exits
        while True:
            try:
                httpx.get(f"{self.base}/api/tables", timeout=1)
                return
            except httpx.TransportError:
                if self.proc.poll() is not None or time.monotonic() > end:
                    err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                    raise AssertionError(f"the server did not start: {err}") from None
                time.sleep(0.05)

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
        if self.proc.stderr:
            self.proc.stderr.close()


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

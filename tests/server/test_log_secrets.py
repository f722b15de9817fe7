"""No log line of a real server carries a seat token or a cookie (issue 16, point 2).

A real ``truco serve`` process logs as it would in production (uvicorn's access and error logs);
players connect the current way (the token as a subprotocol) and the old way (``?token=`` in the
URL), and send credentials in headers. Everything the process wrote is then read back.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from server.helpers import WAIT, subprotocols
from server.test_restart import free_port
from truco.server.net.redact import HIDDEN, redact


def _start(db: Path, out: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "TRUCO_BOT_DELAY": "0", "TRUCO_DEAL_DELAY": "0", "TRUCO_SEED": "3"}
    with out.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "truco", "serve", "--port", str(port), "--db", str(db)],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + WAIT  # a hang guard: it stops at once if the server exits
    while True:
        try:
            httpx.get(f"{base}/api/tables", timeout=1)
            return proc, base
        except httpx.TransportError:
            if proc.poll() is not None or time.monotonic() > end:
                proc.kill()
                raise AssertionError(f"the server did not start: {out.read_text()}") from None
            time.sleep(0.05)


def test_no_token_or_cookie_reaches_the_logs(tmp_path: Path) -> None:
    out = tmp_path / "server.log"
    proc, base = _start(tmp_path / "truco.db", out)
    ws_base = base.replace("http", "ws", 1)
    try:
        created = httpx.post(f"{base}/api/tables", json={"name": "Ana"}).json()
        table, ana = created["table"], created["token"]
        beto = httpx.post(f"{base}/api/tables/{table}/seats", json={"name": "Beto"}).json()["token"]

        # The current way: the token is offered as a subprotocol; the answer names only truco.
        with connect(
            f"{ws_base}/ws/tables/{table}", subprotocols=subprotocols(ana), open_timeout=5
        ) as ws:
            assert ws.subprotocol == "truco"
            assert '"seat":0' in str(ws.recv(5)).replace(" ", "")

        # The old way is refused, and its URL is logged without the token.
        with connect(f"{ws_base}/ws/tables/{table}?v=0&token={beto}", open_timeout=5) as ws:
            assert '"bad_token"' in str(ws.recv(5))

        # Credentials in headers and in query strings of plain requests.
        secret_cookie = "sessionid-0123456789abcdef"
        httpx.get(
            f"{base}/api/tables/{table}?token={beto}",
            headers={"Authorization": f"Bearer {ana}", "Cookie": f"s={secret_cookie}"},
        )
        httpx.get(f"{base}/api/tables/{table}/hands/1.toml?token={ana}")
        with pytest.raises(InvalidStatus):  # a refused handshake is logged too
            connect(
                f"{ws_base}/ws/tables/{table}?token={ana}",
                additional_headers={"Origin": "http://evil.example", "Cookie": secret_cookie},
                open_timeout=5,
            )
    finally:
        proc.terminate()
        proc.wait(10)
    log = out.read_text()
    # The requests were logged (else the test would prove nothing)...
    assert f"/ws/tables/{table}" in log and f"/api/tables/{table}" in log, log
    assert f"token={HIDDEN}" in log, log
    # ...and no secret with them.
    for secret in (ana, beto, secret_cookie):
        assert secret not in log, log


def test_redact_blanks_every_kind_of_credential() -> None:
    line = (
        "GET /ws/tables/ab?v=3&token=Zx-_9 HTTP/1.1 token=abc; "
        "authorization: Bearer s3cr3t (b'cookie', b'a=1; b=2') offered token.Q-w_e"
    )
    clean = redact(line)
    for secret in ("Zx-_9", "abc", "s3cr3t", "a=1", "b=2", "Q-w_e"):
        assert secret not in clean, clean
    assert "/ws/tables/ab?v=3&token=" in clean


def test_no_password_or_identity_cookie_reaches_the_logs(tmp_path: Path) -> None:
    out = tmp_path / "server.log"
    proc, base = _start(tmp_path / "truco.db", out)
    ws_base = base.replace("http", "ws", 1)
    password, new_password = "clave-secreta-4711", "otra-clave-secreta-0815"
    try:
        with httpx.Client(base_url=base) as ana, httpx.Client(base_url=base) as phone:
            claimed = ana.post("/api/me/name", json={"name": "Anahí", "password": password})
            assert claimed.status_code == 200, claimed.text
            cookie = ana.cookies["truco_player"]
            table = ana.post("/api/tables", json={"name": "Anahí"}).json()["table"]
            wrong = phone.post("/api/login", json={"name": "anahí", "password": "x" * 9})
            assert wrong.status_code == 401
            right = phone.post("/api/login", json={"name": "Anahí", "password": password})
            assert right.status_code == 200
            changed = phone.post(
                "/api/me/password", json={"password": password, "new_password": new_password}
            )
            assert changed.status_code == 200, changed.text
            # A body the server cannot read, a password in a query string, and the cookie on a
            # refused handshake.
            phone.post(
                "/api/login",
                content=f'{{"name": "Anahí", "password": "{password}"',
                headers={"content-type": "application/json"},
            )
            phone.get(f"/api/me?password={password}")
            with pytest.raises(InvalidStatus):
                connect(
                    f"{ws_base}/ws/tables/{table}",
                    additional_headers={
                        "Origin": "http://evil.example",
                        "Cookie": f"truco_player={cookie}",
                    },
                    open_timeout=5,
                )
            # The seat taken back by the cookie alone, on a socket.
            with connect(
                f"{ws_base}/ws/tables/{table}",
                subprotocols=[Subprotocol("truco"), Subprotocol("player")],
                additional_headers={"Cookie": f"truco_player={cookie}"},
                open_timeout=5,
            ) as ws:
                assert '"seat":0' in str(ws.recv(5)).replace(" ", "")
            phone.post("/api/logout")
    finally:
        proc.terminate()
        proc.wait(10)
    log = out.read_text()
    assert "/api/login" in log and "/api/me/password" in log and f"/ws/tables/{table}" in log, log
    for secret in (password, new_password, cookie, cookie.split(".")[1]):
        assert secret not in log, log


def test_redact_blanks_passwords_and_the_identity_cookie() -> None:
    line = (
        '{"name": "Ana", "password": "it\'s \\"x\\" 1", "new_password": "n3w"} '
        "{'password': 'r3pr'} POST /api/me?password=qu3ry&x=1 truco_player=c00kie.s1g; a=b"
    )
    clean = redact(line)
    for secret in ("it's", "n3w", "r3pr", "qu3ry", "c00kie", "s1g"):
        assert secret not in clean, clean
    assert '"name": "Ana"' in clean and "&x=1" in clean

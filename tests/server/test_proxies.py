"""``X-Forwarded-For`` and ``X-Forwarded-Proto`` are read from the proxies named in
``TRUCO_PROXIES`` only, and HSTS goes with HTTPS, on a real ``truco serve`` (issue 26, point 10)."""

from __future__ import annotations

from pathlib import Path

import httpx

from tools.headflood import serving


def _create(port: int, **headers: str) -> httpx.Response:
    return httpx.post(
        f"http://127.0.0.1:{port}/api/tables", json={"name": "Ana"}, headers=headers, timeout=30
    )


def test_a_client_that_is_no_proxy_cannot_invent_its_address(tmp_path: Path) -> None:
    """Today any local client could: a new X-Forwarded-For on each request was a new address,
    with a new allowance of tables (and of logins, connections, chat)."""
    with serving(tmp_path / "truco.db", TRUCO_TABLES_BURST="3", TRUCO_PROXIES="") as (_, port):
        statuses = [_create(port, **{"X-Forwarded-For": f"203.0.113.{i}"}) for i in range(5)]
        assert [r.status_code for r in statuses] == [201, 201, 201, 429, 429]
        # Nor may it say the page came over HTTPS.
        answer = httpx.get(
            f"http://127.0.0.1:{port}/api/tables", headers={"X-Forwarded-Proto": "https"}
        )
        assert "strict-transport-security" not in answer.headers


def test_a_named_proxy_names_the_client_and_the_scheme(tmp_path: Path) -> None:
    with serving(tmp_path / "truco.db", TRUCO_TABLES_BURST="3", TRUCO_PROXIES="127.0.0.1") as (
        _,
        port,
    ):
        # Five clients behind the proxy, each within its own allowance...
        for i in range(5):
            assert _create(port, **{"X-Forwarded-For": f"203.0.113.{i}"}).status_code == 201
        # ...and one of them over its own.
        for expected in (201, 201, 429):
            assert _create(port, **{"X-Forwarded-For": "203.0.113.0"}).status_code == expected
        https = httpx.get(
            f"http://127.0.0.1:{port}/api/tables", headers={"X-Forwarded-Proto": "https"}
        )
        assert https.headers["strict-transport-security"] == "max-age=31536000"
        plain = httpx.get(f"http://127.0.0.1:{port}/api/tables")
        assert "strict-transport-security" not in plain.headers


def test_hsts_can_be_turned_off(tmp_path: Path) -> None:
    with serving(tmp_path / "truco.db", TRUCO_PROXIES="127.0.0.1", TRUCO_HSTS_SECONDS="0") as (
        _,
        port,
    ):
        https = httpx.get(
            f"http://127.0.0.1:{port}/api/tables", headers={"X-Forwarded-Proto": "https"}
        )
        assert https.status_code == 200
        assert "strict-transport-security" not in https.headers

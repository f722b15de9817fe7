"""The player identity: a signed cookie on the first visit, ``GET /api/me``, and the seats a
player holds (docs/players.md)."""

from __future__ import annotations

from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from server.helpers import create, join, serving
from truco.server import Settings, create_app
from truco.server.players.identity import COOKIE, MAX_AGE


def _set_cookie(response: httpx.Response) -> str:
    """The one identity cookie ``response`` sets."""
    cookies = [c for c in response.headers.get_list("set-cookie") if c.startswith(COOKIE + "=")]
    assert len(cookies) == 1, cookies
    return cookies[0]


def test_the_first_visit_gets_an_identity_at_once(client: TestClient) -> None:
    page = client.get("/")
    cookie = _set_cookie(page)
    attributes = {a.strip().split("=")[0].lower() for a in cookie.split(";")[1:]}
    assert attributes == {"max-age", "path", "httponly", "samesite"}
    assert f"Max-Age={MAX_AGE}" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    me = client.get("/api/me")
    assert "set-cookie" not in me.headers  # the cookie came back: the same player
    body = me.json()
    assert body["name"] is None and body["seats"] == []
    assert cookie.split(";")[0].split("=", 1)[1].startswith(body["id"] + ".")
    assert me.headers["cache-control"] == "no-store"


def test_an_api_call_gets_an_identity_too(client: TestClient) -> None:
    assert _set_cookie(client.get("/api/tables"))


def test_over_https_the_cookie_is_secure(settings: Settings) -> None:
    with TestClient(create_app(settings), base_url="https://testserver") as c:
        assert "; Secure" in _set_cookie(c.get("/api/me"))


def test_a_forged_or_altered_cookie_is_a_new_player(client: TestClient) -> None:
    first = client.get("/api/me").json()["id"]
    value = client.cookies[COOKIE]
    forged = "0" * 32 + value[32:]
    client.cookies.clear()
    client.cookies.set(COOKIE, forged)
    again = client.get("/api/me")
    assert again.json()["id"] not in (first, "0" * 32)
    _set_cookie(again)
    client.cookies.clear()
    client.cookies.set(COOKIE, first)  # the id without its signature
    assert client.get("/api/me").json()["id"] != first


def test_every_process_signs_alike(settings: Settings) -> None:
    # No TRUCO_SECRET: the first process makes the secret and keeps it in the database, so a
    # second process (or the same one after a restart) reads the cookie the first one signed.
    with TestClient(create_app(settings)) as one:
        me = one.get("/api/me").json()["id"]
        value = one.cookies[COOKIE]
    with TestClient(create_app(settings)) as two:
        two.cookies.set(COOKIE, value)
        assert two.get("/api/me").json()["id"] == me


def test_a_configured_secret_signs_instead(settings: Settings, tmp_path: Path) -> None:
    with TestClient(create_app(settings.but(secret="uno" * 12))) as one:
        me = one.get("/api/me").json()["id"]
        value = one.cookies[COOKIE]
    with TestClient(create_app(settings.but(secret="dos" * 12))) as two:
        two.cookies.set(COOKIE, value)
        assert two.get("/api/me").json()["id"] != me
    assert "uno" not in repr(settings.but(secret="uno" * 12))


def test_me_lists_the_open_tables_where_the_player_sits(settings: Settings) -> None:
    with serving(settings) as ana, TestClient(create_app(settings)) as beto:
        t = create(ana)
        assert ana.get("/api/me").json()["seats"] == [{"table": t["table"], "seat": 0}]
        assert beto.get("/api/me").json()["seats"] == []
        join(beto, t["table"])
        assert beto.get("/api/me").json()["seats"] == [{"table": t["table"], "seat": 1}]
        other = create(beto, bots={"1": "random"})
        seats = beto.get("/api/me").json()["seats"]
        assert {"table": other["table"], "seat": 0} in seats and len(seats) == 2


def test_a_seat_records_its_player(settings: Settings) -> None:
    import asyncio

    from truco.server.store.database import Store

    with serving(settings) as ana:
        t = create(ana)
        me = ana.get("/api/me").json()["id"]

    async def load() -> tuple[str | None, ...]:
        store = Store(settings.database_url)
        row = await store.load(t["table"])
        await store.close()
        assert row is not None
        return tuple(s.player_id for s in row.seats)

    assert asyncio.run(load()) == (me, None)


def test_the_cookie_is_found_among_malformed_ones(client: TestClient) -> None:
    me = client.get("/api/me").json()["id"]
    value = client.cookies[COOKIE]
    client.cookies.clear()
    odd = f'a="b c; {{x}}=1; {COOKIE}={value}; z=\\\\'
    r = client.get("/api/me", headers={"Cookie": odd})
    assert r.json()["id"] == me and "set-cookie" not in r.headers

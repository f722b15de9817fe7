"""Sessions can be ended (issue 26, point 9): a copied cookie stops being the player once its
session is logged out, once the player closes his other sessions, and once the password is
changed on another device; the device that did it stays logged in (docs/players.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from server.helpers import Player, create
from truco.server import Settings, create_app
from truco.server.players.identity import COOKIE

PASSWORD = "mate amargo 1921"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    # Each TestClient here is a process of its own: no check trusted for a second, so that a
    # session ended in one is over in the others at once (in the same process it always is).
    return settings.but(session_check_seconds=0.0)


@pytest.fixture
def other(settings: Settings) -> Iterator[TestClient]:
    """A second device (its own cookies) on the same server's database."""
    with TestClient(create_app(settings)) as c:
        yield c


def _copy(source: TestClient, to: TestClient) -> str:
    """Put ``source``'s identity cookie in ``to`` (a thief's copy); the value."""
    value: str = source.cookies[COOKIE]
    to.cookies.clear()
    to.cookies.set(COOKIE, value)
    return value


def _me(client: TestClient) -> dict[str, object]:
    r = client.get("/api/me")
    assert r.status_code == 200, r.text
    me: dict[str, object] = r.json()
    return me


def test_a_copied_cookie_is_nobody_once_its_session_is_logged_out(
    client: TestClient, other: TestClient
) -> None:
    r = client.post("/api/me/name", json={"name": "Rosario", "password": PASSWORD})
    assert r.status_code == 200, r.text
    t = create(client)
    me = _me(client)
    _copy(client, other)
    assert _me(other) == me  # the copy is the player, his seat with him
    assert client.post("/api/logout").status_code == 200
    stolen = _me(other)
    assert stolen["id"] != me["id"] and stolen["name"] is None and stolen["seats"] == []
    # Nor does the copy take the seat at the table.
    watcher = Player(other, t["table"], player=True)
    assert watcher.until("full")["d"]["seat"] is None
    watcher.close()  # on the other device's server, which stops before this one


def test_closing_the_other_sessions_keeps_this_one(
    client: TestClient, other: TestClient, settings: Settings
) -> None:
    assert client.post("/api/me/name", json={"name": "Nahuel", "password": PASSWORD}).is_success
    login = other.post("/api/login", json={"name": "Nahuel", "password": PASSWORD})
    assert login.status_code == 200
    me = _me(client)
    assert _me(other) == me
    with TestClient(create_app(settings)) as thief:
        _copy(other, thief)
        assert _me(thief) == me
        r = client.post("/api/me/sessions/close-others")
        assert r.status_code == 200 and r.json() == {"ended": 1}, r.text
        assert _me(client) == me
        assert _me(other)["id"] != me["id"]
        assert _me(thief)["id"] != me["id"]
    # A player who claimed no name has no sessions to close.
    with TestClient(create_app(settings)) as visitor:
        assert visitor.post("/api/me/sessions/close-others").json() == {"ended": 0}


def test_a_new_password_ends_the_other_sessions(client: TestClient, other: TestClient) -> None:
    assert client.post("/api/me/name", json={"name": "Iara", "password": PASSWORD}).is_success
    assert other.post("/api/login", json={"name": "Iara", "password": PASSWORD}).is_success
    me = _me(client)
    r = client.post(
        "/api/me/password", json={"password": PASSWORD, "new_password": "otra clave larga"}
    )
    assert r.status_code == 200, r.text
    assert _me(client) == me  # this device stays in
    assert _me(other)["id"] != me["id"]  # the other is out


def test_a_claimed_players_cookie_without_a_session_is_nobody(
    client: TestClient, other: TestClient
) -> None:
    # The cookie a visitor had before claiming a name (no session in it) is no longer the
    # player once he claimed one: only the cookie the claim gave back is.
    anonymous = _me(client)
    before = _copy(client, other)
    assert _me(other) == anonymous
    assert client.post("/api/me/name", json={"name": "Tobías", "password": PASSWORD}).is_success
    assert client.cookies[COOKIE] != before
    assert _me(client)["id"] == anonymous["id"]
    assert _me(other)["id"] != anonymous["id"]


def test_a_visitors_cookie_needs_no_session(client: TestClient, other: TestClient) -> None:
    me = _me(client)
    _copy(client, other)
    assert _me(other) == me

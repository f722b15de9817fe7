"""Who may talk to a table: browser origins (WebSocket and state-changing HTTP), and seat tokens
that cannot be guessed, are kept only as hashes, and act for their own seat at their own table.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server.helpers import Player, app_state, create, join, serving, settle
from server.test_leaks import cards_in
from truco.server import Settings, create_app
from truco.server.net.limits import origin_ok

ALLOWED = "https://truco.example"


@pytest.fixture
def app_client(settings: Settings) -> Iterator[TestClient]:
    with serving(settings.but(allowed_origins=(ALLOWED,))) as c:
        yield c


# --- origins -------------------------------------------------------------------------------


def test_origin_rule() -> None:
    assert origin_ok("http://localhost:8000", "localhost:8000", ())
    assert origin_ok("http://LOCALHOST:8000", "localhost:8000", ())
    assert not origin_ok("http://localhost:8001", "localhost:8000", ())
    assert not origin_ok("http://localhost:8000.evil.example", "localhost:8000", ())
    assert origin_ok(ALLOWED, "127.0.0.1:8000", (ALLOWED,))
    assert origin_ok(ALLOWED + "/", "127.0.0.1:8000", (ALLOWED,))
    assert not origin_ok("https://truco.example.evil.example", "x", (ALLOWED,))
    assert not origin_ok("null", "localhost:8000", ())  # sandboxed frames, file: pages
    assert not origin_ok("", "", ())
    assert not origin_ok("http://", "", ())


def ws_origin(client: TestClient, table: str, origin: str | None) -> dict[str, Any]:
    """The first message a WebSocket with that Origin gets; a refused handshake raises."""
    headers = {"origin": origin} if origin is not None else {}
    with client.websocket_connect(f"/ws/tables/{table}", headers=headers) as ws:
        msg: dict[str, Any] = json.loads(ws.receive_text())
        return msg


@pytest.mark.parametrize("origin", [None, "http://testserver", ALLOWED])
def test_websocket_origins_that_are_allowed(app_client: TestClient, origin: str | None) -> None:
    t = create(app_client)
    assert ws_origin(app_client, t["table"], origin)["t"] == "full"


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "http://testserver.evil.example", "https://truco"]
)
def test_websocket_origins_that_are_refused(app_client: TestClient, origin: str) -> None:
    t = create(app_client)
    with pytest.raises(WebSocketDisconnect) as refused:
        ws_origin(app_client, t["table"], origin)
    assert refused.value.code == 1008  # before accept: the client sees the handshake fail (403)


def test_http_posts_from_a_foreign_origin_are_refused(app_client: TestClient) -> None:
    foreign = {"origin": "http://evil.example"}
    before = app_client.get("/api/tables").json()
    r = app_client.post("/api/tables", json={"name": "Eve"}, headers=foreign)
    assert r.status_code == 403
    assert r.json()["code"] == "bad_origin" and "evil.example" in r.json()["message"]
    assert app_client.get("/api/tables").json() == before  # nothing was created

    t = create(app_client)
    r = app_client.post(f"/api/tables/{t['table']}/seats", json={"name": "Eve"}, headers=foreign)
    assert r.status_code == 403 and r.json()["code"] == "bad_origin"
    r = app_client.post(
        f"/api/tables/{t['table']}/bots",
        json={"seat": 1},
        headers={**foreign, "authorization": f"Bearer {t['token']}"},  # even with the token
    )
    assert r.status_code == 403 and r.json()["code"] == "bad_origin"
    info = app_client.get(f"/api/tables/{t['table']}", headers=foreign)  # reading is fine
    assert info.status_code == 200
    assert [s["kind"] for s in info.json()["seats"]] == ["human", "empty"]


@pytest.mark.parametrize("origin", [None, "http://testserver", ALLOWED])
def test_http_posts_from_allowed_origins(app_client: TestClient, origin: str | None) -> None:
    headers = {"origin": origin} if origin is not None else {}
    r = app_client.post("/api/tables", json={"name": "Ana"}, headers=headers)
    assert r.status_code == 201, r.text
    table, token = r.json()["table"], r.json()["token"]
    r = app_client.post(
        f"/api/tables/{table}/bots",
        json={"seat": 1},
        headers={**headers, "authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200, r.text


# --- seat tokens ---------------------------------------------------------------------------


def test_tokens_are_long_random_and_distinct(app_client: TestClient) -> None:
    tokens = []
    for _ in range(5):
        t = create(app_client, options={"players": 4})
        tokens.append(t["token"])
        tokens += [join(app_client, t["table"], f"P{s}") for s in range(3)]
    alphabet = set(string.ascii_letters + string.digits + "-_")
    for token in tokens:
        assert len(token) >= 43 and set(token) <= alphabet  # 32 random bytes, URL-safe base64
    assert len(set(tokens)) == len(tokens)
    # No shared prefix worth guessing from: tokens of one table differ from the first character
    # as often as random strings would (not all alike, as counters or timestamps would be).
    assert len({t[:4] for t in tokens}) > len(tokens) // 2


def test_tokens_are_stored_only_as_hashes(settings: Settings, tmp_path: Path) -> None:
    with TestClient(create_app(settings)) as client:
        t = create(client)
        beto = join(client, t["table"])
        table = app_state(client).hub.tables[t["table"]]
        hashes = [s.token_hash for s in table.seats]
    assert hashes == [hashlib.sha256(tok.encode()).hexdigest() for tok in (t["token"], beto)]
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("truco"))
    assert hashes[0] is not None and hashes[0].encode() in stored
    for token in (t["token"], beto):
        assert token.encode() not in stored


def refused(client: TestClient, table: str, token: str) -> list[dict[str, Any]]:
    """What a connection with ``token`` receives before the server closes it."""
    who = Player(client, table, token)
    got = []
    while True:
        msg = who.recv()
        got.append(msg)
        if msg["t"] == "close":
            return got


def test_a_wrong_token_gets_a_clear_refusal_and_no_cards(app_client: TestClient) -> None:
    t = create(app_client)
    beto = join(app_client, t["table"])
    other = create(app_client)
    ana = Player(app_client, t["table"], t["token"])
    # The table deals once both of its people came.
    settle([ana, Player(app_client, t["table"], beto)])
    digest = hashlib.sha256(t["token"].encode()).hexdigest()
    guesses = [
        secrets.token_urlsafe(32),  # a guess
        other["token"],  # a real token, of another table
        t["token"][:-1],  # almost right
        t["token"] + "x",
        t["token"].upper(),
        digest,  # the stored hash is no token
        "' OR 1=1 --",
        "x" * 5000,
    ]
    for guess in guesses:
        got = refused(app_client, t["table"], guess)
        assert [m["t"] for m in got] == ["err", "close"], (guess[:50], got)
        assert got[0]["d"]["code"] == "bad_token" and got[0]["d"]["message"]
        assert got[1]["d"]["code"] == 4401
        assert not cards_in(got)
    # The other table's creator is still seated there, and Beto's token works only at his table.
    assert refused(app_client, other["table"], beto)[0]["d"]["code"] == "bad_token"
    assert Player(app_client, other["table"], other["token"]).recv()["d"]["seat"] == 0
    # Nothing the guesses did reached the seat's holder or changed the table.
    assert app_client.get(f"/api/tables/{t['table']}").json()["seats"][0]["connected"]
    ana.send("ping")
    heard = [ana.recv()["t"]]
    while heard[-1] != "pong":
        heard.append(ana.recv()["t"])
    assert set(heard) <= {"table", "pong"}, heard


def test_a_token_acts_only_for_its_own_seat(app_client: TestClient) -> None:
    t = create(app_client)
    beto_token = join(app_client, t["table"])
    ana = Player(app_client, t["table"], t["token"])
    beto = Player(app_client, t["table"], beto_token)
    actor = settle([ana, beto])
    assert actor is not None and actor.view is not None
    idle = beto if actor is ana else ana
    assert idle.view is not None
    seat, legal, v = actor.view["seat"], actor.view["legal"], actor.v
    # The idle seat names the actor's seat, version and a legal move: the message has no say
    # in whose move it is, the connection's token does.
    for extra in ({"seat": seat}, {"seat": seat, "token": t["token"]}, {}):
        idle.send("act", {"a": 1, "v": v, "action": legal[0], **extra})
        err = idle.until("err")["d"]
        assert err["code"] == "not_your_turn", err
    assert app_client.get(f"/api/tables/{t['table']}").json()["v"] == v
    # Only the creator's token adds bots; another seat's token or a guess is 401.
    o = create(app_client, options={"players": 4})
    o_beto = join(app_client, o["table"])
    for bearer in (o_beto, beto_token, "", secrets.token_urlsafe(32)):
        r = app_client.post(
            f"/api/tables/{o['table']}/bots",
            json={"seat": 2},
            headers={"authorization": f"Bearer {bearer}"},
        )
        assert r.status_code == 401 and r.json()["code"] == "bad_token", (bearer, r.text)
    r = app_client.post(f"/api/tables/{o['table']}/bots", json={"seat": 2})
    assert r.status_code == 401
    # And the actor's own move is still accepted.
    assert actor.play(legal[0])["d"]["v"] == v + 1


def test_an_empty_token_is_a_spectator_who_sees_no_hidden_card(app_client: TestClient) -> None:
    t = create(app_client)
    beto = join(app_client, t["table"])
    ana = Player(app_client, t["table"], t["token"])
    settle([ana, Player(app_client, t["table"], beto)])
    spectator = Player(app_client, t["table"], "")
    full = spectator.recv()
    assert full["t"] == "full" and full["d"]["seat"] is None
    assert full["d"]["view"]["cards"] == [] and not cards_in(full)
    spectator.act("mazo", v=full["d"]["v"])
    assert spectator.until("err")["d"]["code"] == "not_seated"

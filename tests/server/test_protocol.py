"""Bad input never changes a table; reconnection; idempotent acks; chat and señas."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import Player, create, join, settle, step
from truco import protocol


def snapshot(client: TestClient, table: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The table object and a spectator's view: what must not change after a refused input."""
    info = client.get(f"/api/tables/{table}").json()
    spectator = Player(client, table)
    full = spectator.recv()
    spectator.close()
    for seat in info["seats"]:
        seat.pop("connected")
    return info, full["d"]["view"]


TOKENS: dict[int, str] = {}


def beto_token(client: TestClient, table: str, beto: Player) -> str:
    return TOKENS[id(beto)]


def two_players(client: TestClient) -> tuple[str, Player, Player]:
    t = create(client)
    token = join(client, t["table"])
    ana = Player(client, t["table"], t["token"])
    beto = Player(client, t["table"], token)
    TOKENS[id(beto)] = token
    ana.catch_up(1)
    beto.catch_up(1)
    return t["table"], ana, beto


BAD_FRAMES = [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"d": {}}', "bad_message"),
    ('{"t": "act", "d": 3}', "bad_message"),
    ('{"t": "dance", "d": {}}', "unknown_type"),
    ('{"t": "act", "d": {"v": 1, "action": "mazo"}}', "bad_message"),
    ('{"t": "act", "d": {"a": -1, "v": 1, "action": "mazo"}}', "bad_message"),
    ('{"t": "act", "d": {"a": 1, "v": "1", "action": "mazo"}}', "bad_message"),
    ('{"t": "act", "d": {"a": 1, "v": 1, "action": "fly away"}}', "bad_message"),
    ('{"t": "act", "d": {"a": 1, "v": 1, "action": "play 9e"}}', "bad_message"),
    ('{"t": "chat", "d": {"text": ""}}', "bad_message"),
    ('{"t": "chat", "d": {"text": "' + "x" * 301 + '"}}', "bad_message"),
    ('{"t": "sena", "d": {"sena": "wink"}}', "bad_message"),
    ('{"t": "chat", "d": {"text": "' + "x" * 9000 + '"}}', "too_large"),
    ('{"t": "rematch", "d": {}}', "bad_message"),
]


def test_every_bad_input_gets_its_code_and_changes_nothing(client: TestClient) -> None:
    table, ana, beto = two_players(client)
    assert ana.view is not None and ana.view["to_act"] == 0
    before = snapshot(client, table)

    for frame, code in BAD_FRAMES:
        ana.ws.send_text(frame)
        err = ana.until("err")
        assert err["d"]["code"] == code, (frame, err)
        assert err["d"]["message"]
    ana.ws.send_bytes(b"\xff\xfe not utf-8")
    assert ana.until("err")["d"]["code"] == "bad_json"

    beto.act("mazo")  # seat 0 is to act
    assert beto.until("err")["d"] == {
        "code": "not_your_turn",
        "message": "not your turn: seat 0 is to act",
        "a": 1,
    }
    ana.act("quiero")  # nothing to answer
    err = ana.until("err")["d"]
    assert err["code"] == "illegal_action" and "quiero" in err["message"] and err["a"] == 1
    legal = ana.view["legal"][0]
    ana.act(legal, v=0)  # chosen at a version the table has left
    assert ana.until("err")["d"]["code"] == "stale_version"
    ana.act(legal, v=5)
    assert ana.until("err")["d"]["code"] == "stale_version"

    spectator = Player(client, table)
    spectator.recv()
    spectator.act("mazo", v=1)
    assert spectator.until("err")["d"]["code"] == "not_seated"
    spectator.send("chat", {"text": "hola"})
    assert spectator.until("err")["d"]["code"] == "not_seated"

    intruder = Player(client, table, "not-a-token")
    assert intruder.recv()["d"]["code"] == "bad_token"
    assert intruder.recv()["t"] == "close"
    lost = Player(client, "nosuchtable", "x")
    assert lost.recv()["d"]["code"] == "table_not_found"

    assert snapshot(client, table) == before
    # After all that, the table still plays.
    assert ana.play(legal)["d"]["v"] == 2


def test_error_codes_are_the_documented_ones() -> None:
    doc = Path("docs/protocol.md").read_text(encoding="utf-8")
    for code in protocol.ERROR_CODES:
        assert f"`{code}`" in doc


def test_a_repeated_action_is_acknowledged_again_and_applied_once(client: TestClient) -> None:
    table, ana, beto = two_players(client)
    assert ana.view is not None
    action = ana.view["legal"][0]
    frame = json.dumps({"t": "act", "d": {"a": 9, "v": 1, "action": action}})
    ana.ws.send_text(frame)
    first = ana.until("ev")  # the version it made acknowledges it
    assert (first["d"]["a"], first["d"]["v"]) == (9, 2)
    ana.ws.send_text(frame)
    again = ana.until("ack")
    assert again == {"t": "ack", "d": {"a": 9, "v": 2}}
    assert client.get(f"/api/tables/{table}").json()["v"] == 2
    beto.catch_up(2)
    assert beto.quiet()


def test_reconnecting_with_v_gets_what_it_missed(client: TestClient) -> None:
    table, ana, beto = two_players(client)
    players = [ana, beto]
    for _ in range(4):
        step(players, lambda legal: legal[-1])
    settle(players)
    now = beto.v
    # What it heard, less the acks of its own actions: a catch-up acknowledges nothing.
    heard = [
        {**m, "d": {k: x for k, x in m["d"].items() if k != "a"}}
        for m in beto.seen
        if m["t"] == "ev" and m["d"]["v"] > 1
    ]

    back = Player(client, table, beto_token(client, table, beto), v=1)
    missed = [back.recv() for _ in range(now - 1)]
    assert missed == heard
    assert beto.until("close")["d"]["code"] == 4001  # the new connection replaced the old one
    assert back.recv()["t"] == "table"  # seats changed (beto reconnected)
    assert back.quiet()

    fresh = Player(client, table, beto_token(client, table, beto))
    full = fresh.recv()
    assert full["t"] == "full" and full["d"]["view"] == heard[-1]["d"]["view"]
    assert full["d"]["v"] == now
    same = Player(client, table, beto_token(client, table, beto), v=now)
    assert same.until("table")["d"]["v"] == now  # nothing missed: no ev, no full


def test_reconnecting_too_far_behind_gets_a_full(client: TestClient, settings: Any) -> None:
    with TestClient(
        __import__("truco.server", fromlist=["create_app"]).create_app(settings.but(history_size=2))
    ) as c:
        t = create(c, bots={"1": "random"})
        ana = Player(c, t["table"], t["token"])
        ana.recv()
        for _ in range(3):
            assert ana.view is not None
            if ana.view["phase"] == "over":
                break
            while ana.view["to_act"] != 0:
                ana.until("ev")
            ana.play(ana.view["legal"][0])
        ana.close()
        again = Player(c, t["table"], t["token"], v=1)
        assert again.recv()["t"] == "full"
        again.close()
        later = Player(c, t["table"], t["token"], v=10**6)
        assert later.recv()["t"] == "full"
        later.close()


def test_senas_reach_partners_only_and_chat_reaches_everyone(client: TestClient) -> None:
    t = create(client, options={"players": 4})
    tokens = [t["token"], *(join(client, t["table"], f"P{s}", seat=s) for s in (1, 2, 3))]
    players = [Player(client, t["table"], tok) for tok in tokens]
    spectator = Player(client, t["table"])
    for p in [*players, spectator]:
        p.catch_up(1)
    players[0].send("sena", {"sena": "ancho-espada"})
    assert players[2].until("sena")["d"] == {"seat": 0, "sena": "ancho-espada"}
    players[0].send("chat", {"text": "  buenas  "})
    for p in [*players, spectator]:
        chat = p.until("chat")["d"]
        assert chat["seat"] == 0 and chat["name"] == "Ana" and chat["text"] == "buenas"
        assert all(m["t"] != "sena" for m in p.seen) or p is players[2]

    # Chat and señas are rate limited.
    codes: list[str] = []
    for _ in range(12):
        players[1].send("chat", {"text": "spam"})
    while len(codes) < 12:
        msg = players[1].recv()
        if msg["t"] in ("chat", "err"):
            codes.append(msg["t"] if msg["t"] == "chat" else msg["d"]["code"])
    assert "rate_limited" in codes and codes.count("chat") <= 11


def test_ping(client: TestClient) -> None:
    t = create(client)
    ana = Player(client, t["table"], t["token"])
    ana.recv()
    ana.send("ping")
    assert ana.until("pong") == {"t": "pong", "d": {}}


@pytest.mark.parametrize("origin", ["http://evil.example"])
def test_foreign_origins_are_refused(client: TestClient, origin: str) -> None:
    t = create(client)
    with pytest.raises(Exception):  # noqa: B017 - a refused handshake
        client.websocket_connect(f"/ws/tables/{t['table']}", headers={"origin": origin}).__enter__()
    ok = client.websocket_connect(
        f"/ws/tables/{t['table']}", headers={"origin": "http://testserver"}
    )
    with ok as ws:
        assert json.loads(ws.receive_text())["t"] == "full"


def test_turn_time_limit(client: TestClient) -> None:
    before = time.time()
    t = create(client, bots={"1": "random"}, turn_seconds=0.2)
    ana = Player(client, t["table"], t["token"])
    # The table waits for its one person: her first message is the table before the deal, and
    # the deal comes once she is there.
    full = ana.recv()
    assert full["t"] == "full" and full["d"]["v"] == 0 and full["d"]["deadline"] is None
    dealt = ana.until("ev")
    after = time.time()
    assert dealt["d"]["view"]["to_act"] == 0
    # Her turn started between the table's creation and the deal reaching her, however long
    # that took: its deadline is 0.2 s after (in whole milliseconds).
    assert int(before * 1000) + 200 - 1 <= dealt["d"]["deadline"] <= int(after * 1000) + 200
    ev = ana.until("ev")  # ana's time runs out and a bot plays for her
    assert ev["d"]["events"][0]["seat"] == 0
    assert ev["d"]["view"]["history"][0][0] == 0

"""Limits on what one connection may send: frame size and message rate (docs/protocol.md)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed

from server.helpers import Player, create, join, serving, settle
from server.test_restart import Remote, Server
from truco import protocol
from truco.protocol import CLOSE_TOO_BIG, CLOSE_TOO_FAST
from truco.server import Settings
from truco.server.net.limits import TokenBucket, frame_size


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_token_bucket_bursts_then_refills_at_its_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(3, 2.0, clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.25  # half a credit
    assert not bucket.take()
    clock.now += 0.25
    assert bucket.take() and not bucket.take()
    clock.now += 3600  # a long pause refills to the burst, no further
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now -= 50  # a clock that steps back neither refills nor drains
    assert not bucket.take()
    clock.now += 0.5
    assert bucket.take()
    assert not TokenBucket(0, 10.0, clock).take()


def test_frame_size_counts_utf8_bytes() -> None:
    assert frame_size(b"\xff" * 7) == 7
    assert frame_size("ñ" * 10) == 20
    assert frame_size("\ud800") == 3  # a lone surrogate still has a size


@contextlib.contextmanager
def tight(settings: Settings, **limits: Any) -> Iterator[TestClient]:
    with serving(settings.but(**limits)) as c:
        yield c


@pytest.fixture
def limited(settings: Settings) -> Iterator[TestClient]:
    with tight(settings, max_frame=16 * 1024, message_burst=6, messages_per_second=0.01) as c:
        yield c


def seated(client: TestClient) -> tuple[str, str, Player, Player]:
    """A two-seat table in play: its id, Ana's token, Ana and Beto connected."""
    t = create(client)
    token = join(client, t["table"])
    ana = Player(client, t["table"], t["token"])
    beto = Player(client, t["table"], token)
    settle([ana, beto])
    return t["table"], t["token"], ana, beto


def test_a_frame_over_the_limit_closes_with_1009(limited: TestClient) -> None:
    table, _, ana, beto = seated(limited)
    ana.send_text(json.dumps({"t": "chat", "d": {"text": "x" * 9000}}))
    assert ana.until("err")["d"]["code"] == protocol.TOO_LARGE  # a message, not a frame, too big
    ana.ws.send_bytes(b"x" * (16 * 1024 + 1))
    code, reason = ana.closed()
    assert code == CLOSE_TOO_BIG == 1009
    assert reason and "16384 bytes" in reason
    # Only that connection: the other seat still plays.
    beto.send("ping")
    assert beto.until("pong")["t"] == "pong"
    assert limited.get(f"/api/tables/{table}").status_code == 200


def test_a_frame_at_the_limit_is_read(limited: TestClient) -> None:
    _, _, ana, _ = seated(limited)
    frame = json.dumps({"t": "ping", "d": {}, "pad": ""})
    frame = frame[:-2] + " " * (16 * 1024 - len(frame)) + '"}'
    assert frame_size(frame) == 16 * 1024
    ana.send_text(frame)
    assert ana.until("err")["d"]["code"] == protocol.TOO_LARGE  # read and answered, not closed


def test_too_many_messages_close_with_4429_and_say_why(limited: TestClient) -> None:
    table, token, ana, beto = seated(limited)
    for _ in range(6):  # the burst: every one answered
        ana.send("ping")
    for _ in range(6):
        assert ana.until("pong")["t"] == "pong"
    ana.send_text("{not json")  # refused messages count too
    err = ana.until("err")["d"]
    assert err["code"] == protocol.RATE_LIMITED and "at most 6 at once" in err["message"]
    code, reason = ana.closed()
    assert code == CLOSE_TOO_FAST == 4429
    assert reason and "too many messages" in reason

    # The table and the other connections are untouched, and Ana can come back (a fresh
    # connection gets a fresh budget) and play.
    beto.send("ping")
    assert beto.until("pong")["t"] == "pong"
    again = Player(limited, table, token)
    actor = settle([again, beto])
    assert actor is not None and actor.view is not None
    v = actor.v
    assert actor.play(actor.view["legal"][0])["d"]["v"] == v + 1


def test_chat_has_its_own_smaller_budget(settings: Settings) -> None:
    with tight(settings, chat_burst=2, chat_per_second=0.01, message_burst=50) as client:
        _, _, ana, beto = seated(client)
        for _ in range(3):
            ana.send("chat", {"text": "hola"})
        codes: list[str] = []
        while len(codes) < 3:
            msg = ana.recv()
            if msg["t"] in ("chat", "err"):
                codes.append(msg["t"] if msg["t"] == "chat" else msg["d"]["code"])
        assert codes == ["chat", "chat", protocol.RATE_LIMITED]
        ana.send("ping")  # over the chat budget, not over the connection's
        assert ana.until("pong")["t"] == "pong"
        assert beto.until("chat")["d"]["text"] == "hola"


def test_the_defaults_leave_room_for_a_person() -> None:
    """A person acts a few times a minute and pings every few seconds: far under the limits;
    a chat burst is under the message burst, so chat spam meets rate_limited before the close."""
    s = Settings()
    assert s.max_frame >= protocol.MAX_MESSAGE * 2
    assert s.chat_burst < s.message_burst
    assert s.messages_per_second >= 2


def test_limits_over_a_real_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On uvicorn, where frames really are encoded: a lone surrogate that JSON lets a client
    spell (``"\\ud800"``) has no UTF-8 form; echoed in a chat line it made the socket's send
    fail and dropped every connection of the table (now such a message is refused, and the table
    goes on). And the rate limit's close code and reason reach a real client."""
    monkeypatch.setenv("TRUCO_MESSAGE_BURST", "20")
    monkeypatch.setenv("TRUCO_MESSAGES_PER_SECOND", "0.01")
    server = Server(tmp_path / "truco.db")
    try:
        t = httpx.post(f"{server.base}/api/tables", json={"name": "Ana"}).json()
        r = httpx.post(f"{server.base}/api/tables/{t['table']}/seats", json={"name": "Beto"})
        ana = Remote(server.port, t["table"], t["token"])
        beto = Remote(server.port, t["table"], r.json()["token"])
        settle([ana, beto])
        ana.send_text('{"t": "chat", "d": {"text": "hola \\ud800"}}')
        assert ana.until("err")["d"]["code"] == "bad_message"
        ana.send_text('{"t": "chat", "d": {"text": "hola"}}')
        assert beto.until("chat")["d"]["text"] == "hola"
        actor = settle([ana, beto])
        assert actor is not None and actor.view is not None
        actor.play(actor.view["legal"][0])

        for _ in range(25):
            ana.send("ping")
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ana.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TOO_FAST
        assert "too many messages" in closed.value.rcvd.reason
        assert any(m["t"] == "err" and m["d"]["code"] == "rate_limited" for m in ana.seen)
        beto.send("ping")
        assert beto.until("pong")["t"] == "pong"
        beto.close()
    finally:
        server.stop()

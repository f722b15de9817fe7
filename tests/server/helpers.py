"""A WebSocket helper for the server tests (over Starlette's in-process test client)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

import anyio
import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.datastructures import State
from websockets.typing import Subprotocol

from truco.protocol import ws_protocols
from truco.server import Settings, create_app

WAIT = 120.0
"""Seconds a read waits for a message before the test fails. A read returns as soon as its
message arrives, so this is only a hang guard: a loaded machine may take many times longer than
a quiet one, and a wait must never fail a test for that."""


class Connection:
    """One WebSocket connection to a table, remembering the last version and view it got.

    Subclasses only say how to read and write one text frame (in-process or over a real socket).
    """

    def __init__(self, v: int = 0) -> None:
        self.v = v
        self.view: dict[str, Any] | None = None
        self.a = 0
        self.seen: list[dict[str, Any]] = []

    def receive_text(self, timeout: float) -> str | None:
        """The next text frame, or None when the server closed the connection."""
        raise NotImplementedError

    def send_text(self, text: str) -> None:
        raise NotImplementedError

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        text = self.receive_text(timeout)
        if text is None:
            return {"t": "close", "d": {"code": getattr(self, "close_code", None)}}
        msg: dict[str, Any] = json.loads(text)
        self.seen.append(msg)
        if msg["t"] in ("full", "ev"):
            self.v = msg["d"]["v"]
            self.view = msg["d"]["view"]
        return msg

    def quiet(self, timeout: float = 0.2) -> bool:
        """True when nothing arrives within ``timeout``."""
        try:
            msg = self.recv(timeout)
        except TimeoutError:
            return True
        raise AssertionError(f"unexpected message {msg}")

    def until(self, t: str, timeout: float = WAIT) -> dict[str, Any]:
        while True:
            msg = self.recv(timeout)
            if msg["t"] == t:
                return msg

    def catch_up(self, v: int, timeout: float = WAIT) -> None:
        """Read until this connection has seen version ``v``."""
        while self.v < v:
            self.recv(timeout)

    def send(self, t: str, d: dict[str, Any] | None = None) -> None:
        self.send_text(json.dumps({"t": t, "d": d or {}}))

    def act(self, action: str, v: int | None = None) -> int:
        self.a += 1
        self.send("act", {"a": self.a, "v": self.v if v is None else v, "action": action})
        return self.a

    def play(self, action: str) -> dict[str, Any]:
        """Act, and read until it is acknowledged: the ``ev`` of the version it made carries
        its ``a`` (or, were this connection no longer seated then, an ``ack``); returns that
        message, whose ``d.v`` is the version."""
        a = self.act(action)
        while True:
            msg = self.recv()
            if msg["t"] in ("ack", "ev") and msg["d"].get("a") == a:
                return msg
            assert msg["t"] != "err", msg


def subprotocols(token: str | None) -> list[Subprotocol]:
    """What a real client offers in ``Sec-WebSocket-Protocol``: the seat token travels there."""
    return [Subprotocol(s) for s in ws_protocols(token)]


class Player(Connection):
    """A connection through Starlette's in-process test client."""

    opened: list[Player] = []  # noqa: RUF012 - closed by the client fixture at teardown

    def __init__(
        self,
        client: TestClient,
        table: str,
        token: str | None = None,
        v: int = 0,
        player: bool = False,
    ):
        """``player``: without a token, ask for the seat of the client's player (its cookie)."""
        super().__init__(v)
        url = f"/ws/tables/{table}" + (f"?v={v}" if v else "")
        self.ws: Any = client.websocket_connect(url, subprotocols=ws_protocols(token, player))
        self.ws.__enter__()
        self.open = True
        self.close_code: int | None = None
        self.close_reason: str | None = None
        Player.opened.append(self)

    def close(self) -> None:
        if self.open:
            self.open = False
            self.ws.__exit__(None, None, None)

    def receive_text(self, timeout: float) -> str | None:
        ws = self.ws

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await ws._send_rx.receive()

        message = ws.portal.call(get)
        if message["type"] == "websocket.close":
            self.close_code = message.get("code")
            self.close_reason = message.get("reason")
            return None
        text: str = message["text"]
        return text

    def closed(self) -> tuple[int | None, str | None]:
        """Read until the server closes the connection; the code and reason."""
        while self.recv()["t"] != "close":
            pass
        return self.close_code, self.close_reason

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("name", "Ana")
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join(client: TestClient, table: str, name: str = "Beto", seat: int | None = None) -> str:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    r = client.post(f"/api/tables/{table}/seats", json=body)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def app_state(client: TestClient) -> State:
    """The state of the server's app behind ``client`` (its hub, matchmaker, analyses)."""
    app = client.app
    assert isinstance(app, FastAPI)  # the test client types its app as any ASGI app
    return app.state


C = TypeVar("C", bound=Connection)
"""A kind of connection: settle gives back one of the kind it was given."""


def settle(players: Sequence[C], timeout: float = WAIT) -> C | None:
    """Read until every player has seen the same version and one of them is to act (returned),
    or the match is over (None)."""
    for p in players:
        while p.view is None:
            p.recv(timeout)
    while True:
        top = max(p.v for p in players)
        for p in players:
            p.catch_up(top, timeout)
        view = players[0].view
        assert view is not None
        if view["phase"] == "over":
            return None
        actor = next((p for p in players if p.view and p.view["to_act"] == p.view["seat"]), None)
        if actor is not None:
            return actor
        players[0].until("ev", timeout)


def step(players: Sequence[Connection], choose: Any, timeout: float = WAIT) -> bool:
    """Let whoever is to act play ``choose(legal)``; False once the match is over.

    Reads until every player has seen the same version and one of them is to act (a deal or a
    bot may come first).
    """
    actor = settle(players, timeout)
    if actor is None:
        return False
    assert actor.view is not None
    actor.play(choose(actor.view["legal"]))
    return True


def two_people(client: TestClient) -> tuple[str, dict[str, Any], str, Player, Player]:
    """A 1v1 table of two people, both connected and the match under way: its id, what its
    creation answered, Beto's seat token, Ana's and Beto's connections."""
    created = create(client)
    table = created["table"]
    token = join(client, table)
    ana = Player(client, table, created["token"])
    beto = Player(client, table, token)
    settle([ana, beto])
    return table, created, token, ana, beto


@contextlib.contextmanager
def serving(settings: Settings) -> Iterator[TestClient]:
    """The app in process, with every player it opened closed at the end."""
    with TestClient(create_app(settings)) as c:
        try:
            yield c
        finally:
            for player in Player.opened:
                player.close()
            Player.opened.clear()


class Device:
    """Another browser on the same server process: its own cookies, the same app."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies = httpx.Cookies()

    @contextlib.contextmanager
    def on(self) -> Iterator[TestClient]:
        saved = self.client.cookies
        self.client.cookies = self.cookies
        try:
            yield self.client
        finally:
            self.cookies = self.client.cookies
            self.client.cookies = saved

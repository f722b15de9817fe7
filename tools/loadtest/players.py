"""The load test's players: scripted clients that open a table, take its seats over real
WebSockets and play it, noting when each version was asked for and heard (``TableRun``)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, WebSocketException
from websockets.typing import Subprotocol

from truco.protocol import ws_protocols


class Refused(Exception):
    """A table could not be opened: ``code`` is what the report counts it as."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class TableRun:
    """What the clients of one table saw: when each version was asked for and heard."""

    def __init__(self, humans: int, actions: int | None) -> None:
        self.humans = humans
        self.actions = actions
        self.sent: dict[int, float] = {}
        self.heard: dict[int, int] = {}
        self.latencies: list[float] = []
        self.versions = 0
        self.errors: Counter[str] = Counter()
        self.rated = 0
        """``rated`` messages heard (one per client for each rated match that ended)."""
        self.done = asyncio.Event()

    def hear(self, v: int) -> None:
        count = self.heard[v] = self.heard.get(v, 0) + 1
        if count == 1:
            self.versions += 1
        if count == self.humans:
            del self.heard[v]
            sent = self.sent.pop(v, None)
            if sent is not None:
                self.latencies.append(time.perf_counter() - sent)
                if self.actions is not None and len(self.latencies) >= self.actions:
                    self.done.set()


async def play_seat(
    ws: ClientConnection,
    run: TableRun,
    rng: random.Random,
    *,
    think: float,
    start: asyncio.Event,
) -> None:
    a = 0
    view: dict[str, Any] | None = None
    v = 0
    asked = -1

    async def act() -> None:
        nonlocal a, asked
        if view is None or run.done.is_set():
            return
        if view["phase"] == "over":
            if asked != v:  # once per finished match: the bots agree, the new match begins
                asked = v
                await ws.send(json.dumps({"t": "rematch", "d": {}}))
            return
        if view["to_act"] != view["seat"] or not view["legal"]:
            return
        at = v
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
            if at != v:  # someone else moved meanwhile (an answer, a bot): choose again
                return
        a += 1
        run.sent[at + 1] = time.perf_counter()
        action = rng.choice(view["legal"])
        await ws.send(json.dumps({"t": "act", "d": {"a": a, "v": at, "action": action}}))

    pending: asyncio.Task[None] | None = None
    waiting: asyncio.Task[Any] = asyncio.create_task(start.wait())
    reading = asyncio.create_task(ws.recv())
    try:
        while not run.done.is_set():
            finished, _ = await asyncio.wait(
                {reading, waiting}, return_when=asyncio.FIRST_COMPLETED
            )
            if waiting in finished:
                waiting = asyncio.create_task(asyncio.sleep(3600))
                pending = asyncio.create_task(act())
            if reading not in finished:
                continue
            msg: dict[str, Any] = json.loads(reading.result())
            reading = asyncio.create_task(ws.recv())
            if msg["t"] == "err":
                run.errors[msg["d"]["code"]] += 1
                run.sent.pop(v + 1, None)
            if msg["t"] == "rated":
                run.rated += 1
            if msg["t"] not in ("full", "ev"):
                continue
            v, view = msg["d"]["v"], msg["d"]["view"]
            run.hear(v)
            if start.is_set():
                if pending is not None and not pending.done():
                    pending.cancel()
                pending = asyncio.create_task(act())
    finally:
        for task in (pending, waiting, reading):
            if task is not None:
                task.cancel()


async def _player(base: str, name: str) -> httpx.AsyncClient:
    """A player of his own (a client with its own identity cookie) who claimed ``name``."""
    http = httpx.AsyncClient(base_url=base, timeout=30)
    try:
        # A claim hashes the password (Argon2, a few at once per process): while many players
        # open their tables at once, it may queue far longer than a table's other requests.
        r = await http.post(
            "/api/me/name", json={"name": name, "password": f"clave-{name}"}, timeout=300
        )
    except httpx.HTTPError as exc:
        await http.aclose()
        raise Refused("refused:name", repr(exc)) from None
    if r.status_code != 200:
        await http.aclose()
        raise Refused(f"refused:name:{r.status_code}", r.text[:200])
    return http


async def open_table(
    http: httpx.AsyncClient,
    ws_base: str,
    *,
    players: int,
    humans: int,
    bots: str,
    rated: str | None = None,
) -> list[ClientConnection]:
    """A new table with its clients connected (the match starts once they are seated).

    ``rated``: a rated table, each person a player who claims a name made from this prefix."""
    body: dict[str, Any] = {
        "name": "P0",
        "options": {"players": players},
        "bots": {str(s): bots for s in range(humans, players)},
    }
    if rated is None:
        return await _seat_all(http, [http] * humans, ws_base, body)
    body["rated"] = True
    clients: list[httpx.AsyncClient] = []
    try:
        for s in range(humans):
            clients.append(await _player(str(http.base_url), f"{rated}s{s}"))
        return await _seat_all(clients[0], clients, ws_base, body)
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))


async def _seat_all(
    http: httpx.AsyncClient,
    clients: list[httpx.AsyncClient],
    ws_base: str,
    body: dict[str, Any],
) -> list[ClientConnection]:
    """Create the table with ``http`` and seat the other ``clients``, then connect them all."""
    humans = len(clients)
    try:
        r = await http.post("/api/tables", json=body)
    except httpx.HTTPError as exc:
        raise Refused("refused:create", repr(exc)) from None
    if r.status_code != 201:
        raise Refused(f"refused:create:{r.status_code}", r.text[:200])
    created = r.json()
    tokens = [created["token"]]
    for s in range(1, humans):
        try:
            r = await clients[s].post(
                f"/api/tables/{created['table']}/seats", json={"name": f"P{s}"}
            )
        except httpx.HTTPError as exc:
            raise Refused("refused:seat", repr(exc)) from None
        if r.status_code != 200:
            raise Refused(f"refused:seat:{r.status_code}", r.text[:200])
        tokens.append(r.json()["token"])
    sockets: list[ClientConnection] = []
    try:
        for t in tokens:
            # The seat token goes in the handshake's subprotocols, never in the URL.
            url = f"{ws_base}/ws/tables/{created['table']}"
            offered = [Subprotocol(s) for s in ws_protocols(t)]
            sockets.append(
                await connect(url, max_size=65536, open_timeout=30, subprotocols=offered)
            )
    except (OSError, TimeoutError, InvalidHandshake, WebSocketException) as exc:
        # A refused handshake (a proxy out of connections, a server out of descriptors) is
        # counted, not fatal: the report says how many tables could not be opened.
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        code = getattr(getattr(exc, "response", None), "status_code", None)
        raise Refused(f"refused:websocket{f':{code}' if code else ''}", repr(exc)) from None
    return sockets

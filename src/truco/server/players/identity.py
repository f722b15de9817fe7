"""Who is asking: the player identity of a request or a WebSocket, kept in a signed cookie.

The first visit gets an identity at once, with no form: a random player id (``players.py``) in
the cookie ``truco_player``, signed with HMAC-SHA256 under the server's secret so that nobody can
write another player's id into it. The cookie is ``HttpOnly`` (the page's scripts never see it),
``SameSite=Lax`` (a foreign site's form cannot act with it), ``Path=/``, ``Secure`` when the
request came over HTTPS (behind a trusted proxy, uvicorn takes the scheme from its
``X-Forwarded-Proto``), and lasts 400 days (the most a browser keeps one).

The secret is ``Settings.secret`` (``TRUCO_SECRET``); without it, one is made once and kept in the
database, so every process of a cluster signs alike and a restart logs nobody out.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Final

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from truco.server.players.records import Players, new_player_id, shared_secret
from truco.server.players.sessions import Sessions
from truco.server.players.sightings import Sightings
from truco.server.settings import Settings
from truco.server.store.database import Store
from truco.server.store.schema import StoreUnavailable

COOKIE: Final = "truco_player"
MAX_AGE: Final = 400 * 24 * 3600
"""Seconds the cookie lasts (400 days: browsers cap a cookie's life there)."""
SCOPE_KEY: Final = "truco.player"
"""Where the middleware leaves the request's player id in the ASGI scope."""
SESSION_KEY: Final = "truco.session"
"""...and the session its cookie names ('' for none)."""
_ID_LENGTH: Final = 32


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """The player behind a request: ``name`` is None until the player claims one."""

    id: str
    name: str | None


class Identity:
    """Signs and reads identity cookies; the key comes from the settings or the database."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.players = Players(store)
        self.sessions = Sessions(store, settings.session_check_seconds)
        self.sightings = Sightings(
            store, days=settings.sightings_days, memory=settings.sightings_memory
        )
        self._store = store
        self._secret = settings.secret
        self._key: bytes | None = None
        self._loading = asyncio.Lock()

    async def key(self) -> bytes:
        """The signing key (read once; raises ``StoreUnavailable`` while the database is away)."""
        if self._key is None:
            async with self._loading:
                if self._key is None:
                    secret = self._secret or await shared_secret(self._store, "identity")
                    salted = b"truco identity cookie\0" + secret.encode()
                    self._key = hashlib.sha256(salted).digest()
        return self._key

    def sign(self, key: bytes, player_id: str, session: str = "") -> str:
        """The cookie value of ``player_id`` (and of one of its sessions, once it claimed a
        name: ``sessions.py``)."""
        payload = f"{player_id}~{session}" if session else player_id
        mac = hmac.new(key, payload.encode(), hashlib.sha256).digest()
        return f"{payload}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"

    def verify(self, key: bytes, value: str) -> tuple[str, str] | None:
        """The player id and session ('' for none) a cookie value carries, if its signature is
        this server's (whether the session is still open is ``sessions.valid``'s to say)."""
        payload, _, _ = value.partition(".")
        player_id, _, session = payload.partition("~")
        if not _hex(player_id) or (session and not _hex(session)):
            return None
        if not hmac.compare_digest(self.sign(key, player_id, session), value):
            return None
        return player_id, session

    def set_cookie(
        self, response: Response, key: bytes, player_id: str, secure: bool, session: str = ""
    ) -> None:
        """Make ``player_id`` (in ``session``) the identity of the browser that gets
        ``response``."""
        response.headers.append("set-cookie", self.cookie_header(key, player_id, secure, session))

    def cookie_header(self, key: bytes, player_id: str, secure: bool, session: str = "") -> str:
        cookie = (
            f"{COOKIE}={self.sign(key, player_id, session)}; Max-Age={MAX_AGE}; Path=/; "
            "HttpOnly; SameSite=Lax"
        )
        return cookie + ("; Secure" if secure else "")


def _hex(text: str) -> bool:
    return len(text) == _ID_LENGTH and all(c in "0123456789abcdef" for c in text)


def is_https(scope: Scope) -> bool:
    return scope.get("scheme") in ("https", "wss")


def _cookie_value(scope: Scope) -> str | None:
    # Read by hand rather than with http.cookies, which gives up on a whole header for one
    # cookie it finds malformed (another site's on the same host): the player would get a new
    # identity on every request.
    for name, value in scope.get("headers") or ():
        if name == b"cookie":
            header: str = value.decode("latin-1")
            for pair in header.split(";"):
                key, eq, found = pair.strip().partition("=")
                if eq and key == COOKIE:
                    return found.strip().strip('"')
    return None


class IdentityCookie:
    """ASGI middleware: puts the caller's player id in the scope (``SCOPE_KEY``), and gives a
    browser without a valid cookie a new identity with the response (pages and API alike; not
    the hashed files under ``/assets/``, cached for a year). A WebSocket without one is
    anonymous (None): it plays by its seat token, as clients without cookies do."""

    def __init__(self, app: ASGIApp, identity: Identity) -> None:
        self.app = app
        self.identity = identity

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        value = _cookie_value(scope)
        try:
            key: bytes | None = await self.identity.key()
        except StoreUnavailable:
            key = None  # no identity this time; what needs one answers "unavailable"
        found = self.identity.verify(key, value) if key is not None and value else None
        player_id, session = found if found is not None else (None, "")
        if player_id is not None:
            try:
                if not await self.identity.sessions.valid(player_id, session):
                    # A claimed player's cookie whose session was ended: nobody's any more.
                    player_id, session = None, ""
            except StoreUnavailable:
                key = None  # as when the key cannot be read: no identity this time
                player_id, session = None, ""
        fresh = (
            player_id is None
            and key is not None
            and scope["type"] == "http"
            and not str(scope.get("path", "")).startswith("/assets/")
        )
        if fresh:
            player_id = new_player_id()
        scope[SCOPE_KEY] = player_id
        scope[SESSION_KEY] = session
        client = scope.get("client")
        if player_id is not None and not fresh and client:
            self.identity.sightings.saw(player_id, str(client[0]))
        if not fresh or key is None or player_id is None:
            await self.app(scope, receive, send)
            return
        cookie = self.identity.cookie_header(key, player_id, is_https(scope))

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                # A route that set the identity itself (a login) has the last word.
                if not any(v.startswith(f"{COOKIE}=") for v in headers.getlist("set-cookie")):
                    headers.append("set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def player_id_of(scope: Scope) -> str | None:
    """The player id the middleware found or made for this request or WebSocket."""
    found = scope.get(SCOPE_KEY)
    return found if isinstance(found, str) else None


def request_session(request: Request) -> str:
    """The session the request's cookie names ('' for none: a player who claimed no name)."""
    found = request.scope.get(SESSION_KEY)
    return found if isinstance(found, str) else ""


def socket_player(ws: WebSocket) -> str | None:
    """The player of a WebSocket (None: no valid identity cookie; it plays by seat token)."""
    return player_id_of(ws.scope)


def request_player(request: Request) -> str | None:
    """The player id of an HTTP request (None only while the database is unreachable)."""
    return player_id_of(request.scope)


async def current_player(request: Request) -> PlayerRef:
    """FastAPI dependency: the player behind the request, with the name claimed, if any."""
    player_id = request_player(request)
    if player_id is None:
        raise StoreUnavailable("no identity: the server's secret could not be read")
    identity: Identity = request.app.state.identity
    player = await identity.players.get(player_id)
    return PlayerRef(player_id, player.name if player is not None else None)


async def me_body(identity: Identity, player_id: str) -> dict[str, Any]:
    """What ``GET /api/me`` answers for ``player_id``."""
    player = await identity.players.get(player_id)
    seats = await identity.players.open_seats(player_id)
    return {
        "id": player_id,
        "name": player.name if player is not None else None,
        "seats": [{"table": t, "seat": s} for t, s in seats],
    }


class SeatRef(BaseModel):
    table: str
    seat: int


class MeBody(BaseModel):
    id: str
    name: str | None
    seats: list[SeatRef]


def install(
    app: FastAPI, store: Store, settings: Settings, errors: dict[int | str, dict[str, Any]]
) -> Identity:
    """Put the identity middleware on ``app`` and add ``GET /api/me`` (``errors``: its
    documented error answers)."""
    identity = Identity(store, settings)
    app.state.identity = identity
    app.add_middleware(IdentityCookie, identity=identity)
    # On the app itself, not an included router: app.py's catch-all for unknown API paths finds
    # the methods of a path among the app's own routes.

    @app.get("/api/me", response_model=MeBody, responses=errors)
    async def me(request: Request, response: Response) -> dict[str, Any]:
        player_id = request_player(request)
        if player_id is None:
            raise StoreUnavailable("no identity: the server's secret could not be read")
        response.headers["Cache-Control"] = "no-store"
        return await me_body(identity, player_id)

    return identity


__all__ = [
    "COOKIE",
    "MAX_AGE",
    "Identity",
    "IdentityCookie",
    "MeBody",
    "PlayerRef",
    "current_player",
    "install",
    "is_https",
    "me_body",
    "player_id_of",
    "request_player",
    "request_session",
    "socket_player",
]

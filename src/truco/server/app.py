"""The ASGI app: the HTTP API, the table WebSocket and the built web client (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from truco import protocol as p
from truco.notation import HandHistory, dumps
from truco.server.cluster.hub import make_hub
from truco.server.errors import TableError
from truco.server.net import redact
from truco.server.net.admission import TOO_LARGE, TOO_SLOW, BodyLimit
from truco.server.net.headers import add_security_headers
from truco.server.net.limits import (
    BAD_ORIGIN,
    Buckets,
    TokenBucket,
    frame_size,
    origin_ok,
)
from truco.server.net.static import mount_web_client
from truco.server.players import accounts, identity, ranking
from truco.server.players.names import BAD_NAME, NameRefused, clean_name
from truco.server.queue import playnow
from truco.server.schemas import (
    BotBody,
    CreateBody,
    CreatedBody,
    ErrorBody,
    JoinBody,
    JoinedBody,
    LobbyEntry,
    TableInfo,
    TomlResponse,
)
from truco.server.settings import Settings
from truco.server.store.database import Store, StoreUnavailable
from truco.server.tables import analysis, botpool, replay
from truco.server.tables.conn import Conn
from truco.server.tables.handle import TableHandle
from truco.server.tables.hands import as_seen_by
from truco.server.tables.table import FINISHED

NOT_BUILT = """<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>truco</title></head>
<body><h1>truco</h1>
<p>The web client is not built. Build it into <code>src/truco/web/dist</code>
(<code>make run</code> does it); the API is at <code>/api/tables</code> and the tables at
<code>/ws/tables/{id}</code>.</p></body></html>
"""

# HTTP-only error codes: a path or method the API does not have.
NOT_FOUND = "not_found"
METHOD_NOT_ALLOWED = "method_not_allowed"
INTERNAL = "internal_error"
"""A fault of the server's own (logged with its traceback), answered 500 in the API's shape."""

STATUS = {
    p.TABLE_NOT_FOUND: 404,
    p.SEAT_TAKEN: 409,
    p.BAD_OPTIONS: 422,
    p.BAD_MESSAGE: 422,
    p.BAD_TOKEN: 401,
    p.UNAVAILABLE: 503,
    BAD_NAME: 422,
    ranking.NAME_REQUIRED: 403,
    ranking.PLAYER_NOT_FOUND: 404,
    BAD_ORIGIN: 403,
    NOT_FOUND: 404,
    METHOD_NOT_ALLOWED: 405,
    p.RATE_LIMITED: 429,
    TOO_LARGE: 413,
    TOO_SLOW: 408,
    INTERNAL: 500,
    **accounts.STATUS,
}


def _errors(*codes: int, json: bool = False) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of one operation (the schema tests hold the app to them).

    ``json``: spell out the media type, for an operation whose own answers are not JSON
    (FastAPI would document its errors in the operation's media type).
    """
    if not json:
        return {code: {"model": ErrorBody} for code in codes}
    ref = {"schema": {"$ref": "#/components/schemas/ErrorBody"}}
    return {code: {"description": "Error", "content": {"application/json": ref}} for code in codes}


def _error(code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=STATUS.get(code, 400))


def static_dir(settings: Settings) -> Path:
    if settings.static_dir is not None:
        return Path(settings.static_dir)
    return Path(__file__).resolve().parent.parent / "web" / "dist"


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    redact.install()
    hub = make_hub(Store(settings.database_url, settings.db_wait_seconds), settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            botpool.close_all()

    async def same_origin(request: Request) -> None:
        # A browser sends Origin with every POST; a page on another site must not create tables
        # or take seats in the player's name. Clients that are not browsers send no Origin.
        origin = request.headers.get("origin")
        if origin is not None and not origin_ok(
            origin, request.headers.get("host", ""), settings.allowed_origins
        ):
            raise TableError(BAD_ORIGIN, f"requests from the origin {origin[:100]!r} are refused")

    app = FastAPI(title="truco", lifespan=lifespan)
    add_security_headers(app)
    app.add_middleware(BodyLimit, max_body=settings.max_body, body_seconds=settings.body_seconds)
    checked = [Depends(same_origin)]
    who = identity.install(app, hub.store, settings, _errors(503))
    accounts.install(app, who, settings, checked, _errors)
    ranking.install(app, hub.store, who.players, static_dir(settings), _errors(404, 422, 503))
    # auto_error=False: a missing token is answered as a wrong one (401 bad_token), not 403.
    creator = HTTPBearer(auto_error=False, description="the table creator's seat token")
    app.state.hub = hub
    # Per network address, over all its connections (a client must not get a fresh allowance
    # by connecting again; the seat's own allowances are kept by its table).
    connects = Buckets(settings.address_connect_burst, settings.address_connects_per_second)
    chats = Buckets(settings.address_chat_burst, settings.address_chat_per_second)

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        return _error(exc.code, exc.message)

    @app.exception_handler(NameRefused)
    async def bad_name(request: Request, exc: NameRefused) -> JSONResponse:
        return _error(BAD_NAME, exc.message)

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, exc: StoreUnavailable) -> JSONResponse:
        return _error(p.UNAVAILABLE, f"the database is unreachable, nothing was applied ({exc})")

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        # Starlette logs the traceback after this answer; the client learns nothing of it.
        return _error(INTERNAL, "the server failed to answer this request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # FastAPI's own refusals (a body it cannot decode, a route without that method) in the
        # API's one error shape instead of {"detail": ...}.
        if exc.status_code == 400:
            return _error(p.BAD_MESSAGE, f"body: {exc.detail}")
        code = {404: NOT_FOUND, 405: METHOD_NOT_ALLOWED}.get(exc.status_code, "http_error")
        return JSONResponse(
            {"code": code, "message": str(exc.detail)},
            status_code=exc.status_code,
            headers=exc.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return _error(p.BAD_MESSAGE, f"{where}: {first.get('msg', 'bad request')}")

    async def get_table(table_id: str) -> TableHandle:
        table = await hub.get(table_id) if len(table_id) <= 32 else None
        if table is None:
            raise TableError(p.TABLE_NOT_FOUND, f"no table {table_id!r}")
        return table

    @app.post(
        "/api/tables",
        status_code=201,
        response_model=CreatedBody,
        responses=_errors(403, 413, 422, 429, 503),
        dependencies=checked,
    )
    async def create_table(body: CreateBody, request: Request) -> dict[str, Any]:
        bots: dict[int, str] = {}
        for key, level in body.bots.items():
            try:
                bots[int(key)] = level
            except ValueError:
                raise TableError(p.BAD_OPTIONS, f"bots: {key!r} is not a seat") from None
        # The creator is the client's address until players have accounts (behind a proxy,
        # uvicorn took it from X-Forwarded-For).
        creator = request.client.host if request.client is not None else ""
        player_id = await _seated_player(request)
        name = await _rated_name(request) if body.rated else clean_name(body.name)
        created = await hub.create(
            name, body.options, bots, body.turn_seconds, creator, player_id, rated=body.rated
        )
        return {
            "table": created.table,
            "seat": created.seat,
            "token": created.token,
            "invite": f"/t/{created.table}",
        }

    @app.get(
        "/api/tables",
        response_model=list[LobbyEntry],
        responses={
            **_errors(422),
            200: {
                "headers": {
                    "X-Total-Count": {
                        "description": "Open tables in all pages",
                        "schema": {"type": "integer"},
                    }
                }
            },
        },
    )
    async def lobby(
        response: Response,
        offset: int = Query(0, ge=0, le=1_000_000, description="Entries to skip"),
        limit: int | None = Query(
            None, ge=1, le=settings.lobby_page_max, description="Entries in this page"
        ),
    ) -> list[dict[str, Any]]:
        total, page = await hub.lobby(offset, limit or settings.lobby_page)
        response.headers["X-Total-Count"] = str(total)
        return page

    @app.get("/api/tables/{table_id}", response_model=TableInfo, responses=_errors(404, 422))
    async def table_info(table_id: str) -> dict[str, Any]:
        return (await get_table(table_id)).info()

    @app.post(
        "/api/tables/{table_id}/seats",
        response_model=JoinedBody,
        responses=_errors(403, 404, 409, 422),
        dependencies=checked,
    )
    async def join(table_id: str, body: JoinBody, request: Request) -> dict[str, Any]:
        table = await get_table(table_id)
        rated = bool(table.info().get("rated"))
        name = await _rated_name(request) if rated else clean_name(body.name)
        seat, token = await table.join(name, body.seat, await _seated_player(request))
        return {"seat": seat, "token": token}

    @app.post(
        "/api/tables/{table_id}/bots",
        response_model=TableInfo,
        responses=_errors(401, 403, 404, 409, 422),
        dependencies=checked,
    )
    async def add_bot(
        table_id: str,
        body: BotBody,
        auth: HTTPAuthorizationCredentials | None = Depends(creator),  # noqa: B008
    ) -> dict[str, Any]:
        table = await get_table(table_id)
        token = auth.credentials if auth is not None else ""
        seat = table.find_seat(token) if token else None
        if seat is None or seat.seat != 0:
            raise TableError(p.BAD_TOKEN, "only the table's creator may add bots")
        try:
            await table.add_bot(body.seat, body.level)
        except ValueError as exc:  # an unknown bot (TrucoError)
            raise TableError(p.BAD_OPTIONS, str(exc)) from None
        return table.info()

    # auto_error=False here too: a download without a token is a 401 bad_token.
    player = HTTPBearer(auto_error=False, description="a seat token of the table")

    def hands_for(
        table: TableHandle, auth: HTTPAuthorizationCredentials | None
    ) -> list[HandHistory]:
        """The finished hands the caller may read: all of them once the match is over; during
        it, only a seated player's, as he saw them (issue 16: they are evidence until then)."""
        if table.info()["status"] == FINISHED:
            return list(table.hands)
        seat = table.find_seat(auth.credentials) if auth is not None else None
        if seat is None:
            raise TableError(
                p.BAD_TOKEN,
                "during a match only its players may download its hands "
                "(a seat token in Authorization: Bearer)",
            )
        return [as_seen_by(h, seat.seat) for h in table.hands]

    @app.get(
        "/api/tables/{table_id}/hands/{n}.toml",
        response_class=TomlResponse,
        responses=_errors(401, 404, 422, json=True),
    )
    async def hand_toml(
        table_id: str,
        n: int,
        auth: HTTPAuthorizationCredentials | None = Depends(player),  # noqa: B008
    ) -> TomlResponse:
        table = await get_table(table_id)
        hands = hands_for(table, auth)
        if not 1 <= n <= len(hands):
            raise TableError(p.TABLE_NOT_FOUND, f"hand {n} is not finished")
        return TomlResponse(dumps(hands[n - 1]))

    @app.get(
        "/api/tables/{table_id}/match.toml",
        response_class=TomlResponse,
        responses=_errors(401, 404, 422, json=True),
    )
    async def match_toml(
        table_id: str,
        auth: HTTPAuthorizationCredentials | None = Depends(player),  # noqa: B008
    ) -> TomlResponse:
        table = await get_table(table_id)
        text = "\n".join("[[hands]]\n" + dumps(h) for h in hands_for(table, auth))
        return TomlResponse(text)

    analysis.install(app, hub, settings)  # before the catch-all below: the coach's route
    replay.install(app, get_table, static_dir(settings))  # /api/tables/{id}/replay, /r/{id}

    async def claimed(player_id: str) -> bool:
        found = await who.players.get(player_id)
        return found is not None and found.name is not None

    # Jugar ahora: /api/queue (docs/players.md), paired by the players' skill in the mode.
    playnow.install(app, hub, settings, checked, ranking.skill_lookup(hub.store), claimed)

    @app.api_route(
        "/api/{rest:path}",
        methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "QUERY"],
        include_in_schema=False,
    )
    async def no_such_api(request: Request, rest: str) -> JSONResponse:
        # Without this, the web client's static files (mounted at /) would answer a wrong method
        # on an API path with their own 405 ("Allow: GET, HEAD"), and an unknown API path with
        # an HTML page.
        path = request.url.path
        allowed = sorted(
            {
                method
                for route in app.routes
                if isinstance(route, APIRoute)
                and route.endpoint is not no_such_api
                and route.path_regex.match(path)
                for method in route.methods or ()
            }
        )
        if allowed:
            response = _error(METHOD_NOT_ALLOWED, f"{path} answers {', '.join(allowed)} only")
            response.headers["allow"] = ", ".join(allowed)
            return response
        return _error(NOT_FOUND, f"no API at {path}")

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        origin = ws.headers.get("origin")
        if origin is not None and not origin_ok(
            origin, ws.headers.get("host", ""), settings.allowed_origins
        ):
            await ws.close(p.CLOSE_BAD_ORIGIN)  # before accept(): the handshake is refused with 403
            return
        offered = list(ws.scope.get("subprotocols") or ())
        # The seat token comes as an offered subprotocol (docs/protocol.md); the answer names
        # only ``truco``, never the token.
        await ws.accept(subprotocol=p.SUBPROTOCOL if p.SUBPROTOCOL in offered else None)
        if "token" in ws.query_params:
            # An old client: refused, so that it learns at once rather than playing as a
            # spectator (the log filter keeps the token out of the access log).
            message = "send the seat token as the subprotocol token.TOKEN, never in the URL"
            await ws.send_text(p.error(p.BAD_TOKEN, message))
            await ws.close(p.CLOSE_BAD_TOKEN)
            return
        token = p.token_of(offered)
        address = ws.client.host if ws.client is not None else ""
        if not connects.take(address):
            limit = (
                f"{settings.address_connect_burst} at once, "
                f"then {settings.address_connects_per_second:g}/s"
            )
            await ws.send_text(p.error(p.RATE_LIMITED, f"too many connections: at most {limit}"))
            await ws.close(p.CLOSE_TOO_FAST, "too many connections from this address")
            return
        try:
            last_v = max(0, int(ws.query_params.get("v") or 0))
        except ValueError:
            last_v = 0
        try:
            table = await hub.get(table_id) if len(table_id) <= 32 else None
        except TableError as exc:  # a cluster could not reach the table's owner: try again
            await ws.send_text(p.error(exc.code, exc.message))
            # An expired table, or one set aside, is not coming back: no retry.
            await ws.close(p.CLOSE_TRY_AGAIN if exc.code == p.UNAVAILABLE else p.CLOSE_NOT_FOUND)
            return
        if table is None:
            await ws.send_text(p.error(p.TABLE_NOT_FOUND, f"no table {table_id!r}"))
            await ws.close(p.CLOSE_NOT_FOUND)
            return
        conn = Conn(settings.outbox_size)
        try:
            # Without a token, a client that asks for it takes its player's seat (any device of
            # the player); the token, where there is one, decides alone.
            wanted = token is None and p.PLAYER_PROTOCOL in offered
            await table.connect(conn, token, last_v, identity.socket_player(ws) if wanted else None)
        except TableError as exc:
            await ws.send_text(p.error(exc.code, exc.message))
            refused = {p.UNAVAILABLE: p.CLOSE_TRY_AGAIN, p.RATE_LIMITED: p.CLOSE_TOO_FAST}
            await ws.close(refused.get(exc.code, p.CLOSE_BAD_TOKEN))
            return
        reader = asyncio.create_task(_read(ws, table, conn, settings, lambda: chats.take(address)))
        writer = asyncio.create_task(_write(ws, conn))
        try:
            await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
            if conn.closing is not None and not writer.done():
                # The reader stops as soon as the connection is to be closed; the writer still
                # has to send what is queued (the error that says why) and the close frame.
                await asyncio.wait({writer}, timeout=5)
        finally:
            for task in (reader, writer):
                task.cancel()
            for task in (reader, writer):
                with contextlib.suppress(BaseException):
                    await task
            await table.disconnect(conn)

    site = static_dir(settings)
    if (site / "index.html").is_file():
        mount_web_client(app, site)
    else:

        @app.get("/", include_in_schema=False)
        @app.get("/t/{table_id}", include_in_schema=False)
        async def not_built() -> HTMLResponse:
            return HTMLResponse(NOT_BUILT)

    return app


async def _rated_name(request: Request) -> str:
    """The claimed name of the player about to sit at a rated table: his seat's name there."""
    player = await identity.current_player(request)
    if player.name is None:
        raise TableError(
            ranking.NAME_REQUIRED, "a rated table needs a claimed name: claim yours first"
        )
    return player.name


async def _seated_player(request: Request) -> str | None:
    """The player about to take a seat, given its row in the players' table first."""
    player_id = identity.request_player(request)
    if player_id is not None:
        await request.app.state.identity.players.create(player_id)
    return player_id


async def _read(
    ws: WebSocket, table: TableHandle, conn: Conn, settings: Settings, chat_ok: Callable[[], bool]
) -> None:
    # Every message counts, pings and refused ones included: what costs the server is reading
    # and answering them, whatever they say.
    budget = TokenBucket(settings.message_burst, settings.messages_per_second)
    try:
        while conn.closing is None:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes")
            if raw is None:
                continue
            if frame_size(raw) > settings.max_frame:
                conn.close(p.CLOSE_TOO_BIG, f"a frame may hold at most {settings.max_frame} bytes")
                return
            if not budget.take():
                limit = f"{settings.message_burst} at once, then {settings.messages_per_second:g}/s"
                conn.send(p.error(p.RATE_LIMITED, f"too many messages: at most {limit}"))
                conn.close(p.CLOSE_TOO_FAST, f"too many messages (at most {limit})")
                return
            if isinstance(p.parse(raw), p.Chat | p.Sena) and not chat_ok():
                # The address's allowance is kept here, where the address is known, for a
                # relayed player too; the seat's own is kept by the table.
                conn.send(p.error(p.RATE_LIMITED, "too many chat lines from this address"))
                continue
            try:
                await table.receive(conn, raw)
            except RecursionError:
                # protocol.parse lets json's RecursionError out for deeply nested arrays; the
                # table did not see the message, so it is answered as the bad JSON it is.
                conn.send(p.error(p.BAD_JSON, "not JSON: nested too deeply"))
    except (WebSocketDisconnect, RuntimeError):
        return


def _utf8(text: str) -> str:
    """``text`` as it can go in a text frame.

    JSON lets a client write a lone surrogate (``"\\ud800"``) that Python decodes into a str
    that has no UTF-8 form; echoed in a chat line it would make the socket's send fail, and with
    it every connection of the table. Such characters go out as ``?``.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


async def _write(ws: WebSocket, conn: Conn) -> None:
    try:
        while True:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.pending:
                await ws.send_text(_utf8(conn.pending.popleft()))
            if conn.closing is not None:
                await ws.close(*conn.closing)
                return
    except (WebSocketDisconnect, RuntimeError, OSError):
        return

"""The ASGI app: the HTTP API, the table WebSocket and the built web client (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from truco import protocol as p
from truco.notation import dumps
from truco.server.settings import Settings
from truco.server.store import Store
from truco.server.tables import Conn, Hub, Table, TableError

NOT_BUILT = """<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>truco</title></head>
<body><h1>truco</h1>
<p>The web client is not built. Build it into <code>src/truco/web/dist</code>
(<code>make run</code> does it); the API is at <code>/api/tables</code> and the tables at
<code>/ws/tables/{id}</code>.</p></body></html>
"""

STATUS = {
    p.TABLE_NOT_FOUND: 404,
    p.SEAT_TAKEN: 409,
    p.BAD_OPTIONS: 422,
    p.BAD_MESSAGE: 422,
    p.BAD_TOKEN: 401,
}


class CreateBody(BaseModel):
    name: str = Field(min_length=1, max_length=24)
    options: dict[str, Any] = Field(default_factory=dict)
    bots: dict[str, str] = Field(default_factory=dict)
    turn_seconds: float | None = Field(default=None, gt=0, le=3600)


class JoinBody(BaseModel):
    name: str = Field(min_length=1, max_length=24)
    seat: int | None = None


class BotBody(BaseModel):
    seat: int
    level: str = "random"


def _error(code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=STATUS.get(code, 400))


def static_dir(settings: Settings) -> Path:
    if settings.static_dir is not None:
        return Path(settings.static_dir)
    return Path(__file__).resolve().parent.parent / "web" / "dist"


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    hub = Hub(Store(settings.database_url), settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="truco", lifespan=lifespan)
    app.state.hub = hub

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        return _error(exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return _error(p.BAD_MESSAGE, f"{where}: {first.get('msg', 'bad request')}")

    async def get_table(table_id: str) -> Table:
        table = await hub.get(table_id) if len(table_id) <= 32 else None
        if table is None:
            raise TableError(p.TABLE_NOT_FOUND, f"no table {table_id!r}")
        return table

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateBody) -> dict[str, Any]:
        bots: dict[int, str] = {}
        for key, level in body.bots.items():
            try:
                bots[int(key)] = level
            except ValueError:
                raise TableError(p.BAD_OPTIONS, f"bots: {key!r} is not a seat") from None
        created = await hub.create(body.name, body.options, bots, body.turn_seconds)
        return {
            "table": created.table,
            "seat": created.seat,
            "token": created.token,
            "invite": f"/t/{created.table}",
        }

    @app.get("/api/tables")
    async def lobby() -> list[dict[str, Any]]:
        return hub.lobby()

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        return (await get_table(table_id)).info()

    @app.post("/api/tables/{table_id}/seats")
    async def join(table_id: str, body: JoinBody) -> dict[str, Any]:
        table = await get_table(table_id)
        seat, token = await table.join(body.name, body.seat)
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/bots")
    async def add_bot(table_id: str, body: BotBody, request: Request) -> dict[str, Any]:
        table = await get_table(table_id)
        auth = request.headers.get("authorization", "")
        token = auth[7:] if auth.lower().startswith("bearer ") else ""
        seat = table.find_seat(token) if token else None
        if seat is None or seat.seat != 0:
            raise TableError(p.BAD_TOKEN, "only the table's creator may add bots")
        try:
            await table.add_bot(body.seat, body.level)
        except ValueError as exc:  # an unknown bot (TrucoError)
            raise TableError(p.BAD_OPTIONS, str(exc)) from None
        return table.info()

    @app.get("/api/tables/{table_id}/hands/{n}.toml")
    async def hand_toml(table_id: str, n: int) -> PlainTextResponse:
        table = await get_table(table_id)
        if not 1 <= n <= len(table.hands):
            raise TableError(p.TABLE_NOT_FOUND, f"hand {n} is not finished")
        return PlainTextResponse(dumps(table.hands[n - 1]), media_type="application/toml")

    @app.get("/api/tables/{table_id}/match.toml")
    async def match_toml(table_id: str) -> PlainTextResponse:
        table = await get_table(table_id)
        text = "\n".join("[[hands]]\n" + dumps(h) for h in table.hands)
        return PlainTextResponse(text, media_type="application/toml")

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        origin = ws.headers.get("origin")
        if origin and not _origin_ok(origin, ws.headers.get("host", ""), settings):
            await ws.close(1008)
            return
        await ws.accept()
        token = ws.query_params.get("token") or None
        try:
            last_v = max(0, int(ws.query_params.get("v") or 0))
        except ValueError:
            last_v = 0
        table = await hub.get(table_id) if len(table_id) <= 32 else None
        if table is None:
            await ws.send_text(p.error(p.TABLE_NOT_FOUND, f"no table {table_id!r}"))
            await ws.close(4404)
            return
        conn = Conn(settings.outbox_size, settings.chat_burst, settings.chat_per_second)
        try:
            await table.connect(conn, token, last_v)
        except TableError as exc:
            await ws.send_text(p.error(exc.code, exc.message))
            await ws.close(4401)
            return
        reader = asyncio.create_task(_read(ws, table, conn))
        writer = asyncio.create_task(_write(ws, conn))
        try:
            await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (reader, writer):
                task.cancel()
            for task in (reader, writer):
                with contextlib.suppress(BaseException):
                    await task
            await table.disconnect(conn)

    site = static_dir(settings)
    if (site / "index.html").is_file():
        index = site / "index.html"

        @app.get("/t/{table_id}", include_in_schema=False)
        async def invite(table_id: str) -> FileResponse:
            return FileResponse(index)

        @app.get("/anotador", include_in_schema=False)
        async def anotador() -> FileResponse:
            return FileResponse(index)

        app.mount("/", StaticFiles(directory=site, html=True), name="web")
    else:

        @app.get("/", include_in_schema=False)
        @app.get("/t/{table_id}", include_in_schema=False)
        async def not_built() -> HTMLResponse:
            return HTMLResponse(NOT_BUILT)

    return app


def _origin_ok(origin: str, host: str, settings: Settings) -> bool:
    return urlsplit(origin).netloc == host or origin in settings.allowed_origins


async def _read(ws: WebSocket, table: Table, conn: Conn) -> None:
    try:
        while conn.closing is None:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes")
            if raw is not None:
                await table.receive(conn, raw)
    except (WebSocketDisconnect, RuntimeError):
        return


async def _write(ws: WebSocket, conn: Conn) -> None:
    try:
        while True:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.pending:
                await ws.send_text(conn.pending.popleft())
            if conn.closing is not None:
                await ws.close(*conn.closing)
                return
    except (WebSocketDisconnect, RuntimeError, OSError):
        return

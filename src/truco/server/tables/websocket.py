"""The table WebSocket ``/ws/tables/{id}`` (docs/protocol.md): the handshake's checks, then one
task that reads the client's frames into the table and one that writes the table's outbox to
the client."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from fastapi import FastAPI, WebSocket
from starlette.websockets import WebSocketDisconnect

from truco import protocol as p
from truco.server.errors import TableError
from truco.server.net.limits import Buckets, TokenBucket, frame_size, origin_ok
from truco.server.players import identity
from truco.server.settings import Settings
from truco.server.tables.conn import Conn
from truco.server.tables.handle import TableHandle
from truco.server.tables.hub import Hub


def install(app: FastAPI, hub: Hub, settings: Settings) -> None:
    """Add the table WebSocket to ``app``."""
    # Per network address, over all its connections (a client must not get a fresh allowance
    # by connecting again; the seat's own allowances are kept by its table).
    connects = Buckets(settings.address_connect_burst, settings.address_connects_per_second)
    chats = Buckets(settings.address_chat_burst, settings.address_chat_per_second)

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
        reader = asyncio.create_task(
            _read(ws, table, conn, settings=settings, chat_ok=lambda: chats.take(address))
        )
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


async def _read(
    ws: WebSocket,
    table: TableHandle,
    conn: Conn,
    *,
    settings: Settings,
    chat_ok: Callable[[], bool],
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
            # Decoded once, here: the address's chat allowance needs the message's type, and
            # the table takes the decoded message on.
            msg = p.parse(raw)
            if isinstance(msg, p.Chat | p.Sena) and not chat_ok():
                # The address's allowance is kept here, where the address is known, for a
                # relayed player too; the seat's own is kept by the table.
                conn.send(p.error(p.RATE_LIMITED, "too many chat lines from this address"))
                continue
            try:
                await table.receive(conn, raw, msg)
            except RecursionError:
                # A deeply nested message the table could not take: answered as the bad JSON it
                # is.
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


__all__ = ["install"]

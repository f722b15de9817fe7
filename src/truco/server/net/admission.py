"""What the server lets in before the app sees a request: bodies, slow senders, open sockets.

- ``BodyLimit`` (ASGI middleware) refuses a body over ``Settings.max_body`` with 413 before
  reading it when ``Content-Length`` says so, and otherwise counts the bytes as they arrive (a
  chunked body has no length); a body that has not arrived whole within ``body_seconds`` of
  the request's start gets 408 (the whole body: a byte every few seconds does not keep it open).
- ``guarded(settings)`` is uvicorn's HTTP protocol with three bounds at the socket: at most
  ``connections_per_address`` open connections per client address (WebSockets included, since
  they keep their socket), ``header_seconds`` for a connection to send a whole request's
  headers (uvicorn itself waits for them forever, so half-sent requests would pile up until the
  process runs out of file descriptors), and the head's sizes (``heads.HeadLimit``: 431).

Behind a reverse proxy every socket comes from the proxy: its addresses (``Settings.proxies``)
are exempt, and the proxy bounds connections per client (docs/operations.md, nginx).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from truco.server.net import heads
from truco.server.net.heads import HeadLimit, HeadTooLarge
from truco.server.settings import Settings

TOO_LARGE: Final = "too_large"
"""Error code of a request body over ``Settings.max_body`` (HTTP 413)."""
TOO_SLOW: Final = "too_slow"
"""Error code of a request body that did not arrive in time (HTTP 408)."""
TOO_MANY_CONNECTIONS: Final = "too_many_connections"
"""Error code of a connection refused for its address's open connections (HTTP 429)."""
_PIECE: Final = 4 * 1024
"""The most bytes of a chunked body handed to the parser at once (see ``data_received``)."""
LINGER_SECONDS: Final = 2.0
"""How long a connection refused mid-head stays open after its answer, its bytes dropped: a
socket closed with bytes still unread is reset, and the reset takes the answer with it."""


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _error_body(code: str, message: str) -> bytes:
    return json.dumps({"code": code, "message": message}).encode()


class BodyLimit:
    """Refuse request bodies over ``max_body`` bytes, and bodies that trickle in too slowly."""

    def __init__(self, app: ASGIApp, max_body: int, body_seconds: float) -> None:
        self.app = app
        self.max_body = max_body
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = f"a request body may hold at most {self.max_body} bytes"
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_body:
                    await _answer(send, 413, TOO_LARGE, too_large)
                    return
        seen = 0
        started = False
        whole = False
        refused: _Refused | None = None
        # One deadline for the whole body, not one per chunk: a client sending a byte every
        # few seconds would otherwise hold its connection (and the app's task) for ever.
        deadline = asyncio.get_running_loop().time() + self.body_seconds

        async def limited() -> Message:
            nonlocal seen, refused, whole
            if whole:  # the body is in: what is left to receive is the client going away
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                refused = _Refused(
                    408, TOO_SLOW, f"the request body did not arrive in {self.body_seconds:g} s"
                )
                raise refused from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    refused = _Refused(413, TOO_LARGE, too_large)
                    raise refused
                whole = not message.get("more_body", False)
            return message

        async def watched(message: Message) -> None:
            # The app may catch the refusal and answer its own error (FastAPI: "error parsing
            # the body"): the refusal's answer is sent in its place.
            nonlocal started
            if refused is not None:
                if not started:
                    started = True
                    await _answer(send, refused.status, refused.code, refused.message)
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        with contextlib.suppress(_Refused):
            await self.app(scope, limited, watched)
        if refused is not None and not started:
            await _answer(send, refused.status, refused.code, refused.message)


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    body = _error_body(code, message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            # The rest of the body is not read: the connection cannot be reused.
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class _Registry:
    """The open connections of each address (a transport is gone once it is closing)."""

    def __init__(self) -> None:
        self.open: dict[str, list[asyncio.BaseTransport]] = {}
        self._added = 0

    def add(self, address: str, transport: asyncio.BaseTransport, limit: int) -> bool:
        self._added += 1
        if self._added % 1024 == 0:  # forget the addresses whose connections all closed
            for key in [k for k, ts in self.open.items() if all(t.is_closing() for t in ts)]:
                del self.open[key]
        live = [t for t in self.open.get(address, ()) if not t.is_closing()]
        if len(live) >= limit:
            self.open[address] = live
            return False
        live.append(transport)
        self.open[address] = live
        return True


def guarded(settings: Settings) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class (``http=``) bounded by ``settings`` (see the module)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    registry = _Registry()
    bounds = (settings.max_head_line, settings.max_headers, settings.max_head)
    exempt = frozenset(settings.proxies)
    limit = settings.connections_per_address
    header_seconds = settings.header_seconds
    refusal = _error_body(
        TOO_MANY_CONNECTIONS, f"at most {limit} connections from one address at once"
    )
    refused_response = (
        b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
        b"connection: close\r\ncontent-length: " + str(len(refusal)).encode() + b"\r\n\r\n"
    ) + refusal

    # uvicorn picks its protocol class at import time (httptools when installed, else h11).
    class Guarded(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
        _refused = False
        _header_timer: asyncio.TimerHandle | None = None
        _head_refused = False
        """A head over its bounds was answered 431: what else arrives is dropped."""
        _refusal = b""
        _in_head = True
        """The bytes arriving are a head's (counted), not a body's."""
        _head: HeadLimit | None = None
        _body_left = 0
        """Bytes of the body being received still due, when its length is known."""

        def connection_made(self, transport: asyncio.Transport) -> None:
            peer: Any = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            if address and address not in exempt and not registry.add(address, transport, limit):
                self._refused = True
                transport.write(refused_response)
                transport.close()
                return
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
            loop = asyncio.get_running_loop()
            self._header_timer = loop.call_later(header_seconds, self._headers_due)

        def _headers_due(self) -> None:
            self._header_timer = None
            transport: asyncio.Transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or now a WebSocket's (its own protocol)
            cycle = getattr(self, "cycle", None)
            if cycle is not None and not cycle.response_complete:
                self._arm()  # a request is being served: its body has its own limit
                return
            transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._head_refused and not getattr(self, "pipeline", ()):
                self.transport.resume_reading()  # paused in _refuse_head: dropped from now on
                self._answer_and_linger()
            elif not self.transport.is_closing():
                self._arm()  # the next request's headers are due in as long

        def data_received(self, data: bytes) -> None:
            if self._head is None:
                self._head = HeadLimit(*bounds)
            head = self._head
            while data and not self._refused and not self._head_refused:
                if self._in_head:
                    try:
                        n, ended = head.scan(data)
                    except HeadTooLarge as exc:
                        self._refuse_head(str(exc))
                        return
                    if ended:  # the parser's on_message_complete may set it back at once
                        self._in_head = False
                        head.reset()
                else:
                    # A body goes to the parser alone when its length is known, so that the
                    # head of a request sent right after it (pipelined) is counted from its
                    # first byte; a chunked one in pieces, a piece at most uncounted.
                    n = self._body_left if self._body_left > 0 else _PIECE
                    self._body_left = max(0, self._body_left - len(data[:n]))
                super().data_received(data[:n])
                data = data[n:]
                transport: asyncio.Transport = self.transport
                if transport.is_closing() or transport.get_protocol() is not self:
                    return  # refused by the parser, or now a WebSocket's

        def _refuse_head(self, message: str) -> None:
            self._head_refused = True
            self._refusal = heads.refusal(message)
            cycle = getattr(self, "cycle", None)
            if cycle is not None and not cycle.response_complete:
                # A request before this one (pipelined) is being answered: its answer first.
                self.transport.pause_reading()
                return
            self._answer_and_linger()

        def _answer_and_linger(self) -> None:
            """Write the refusal, end our side (a FIN after it) and drop what the client still
            sends until it closes, or ``LINGER_SECONDS``: closing at once with its bytes unread
            would reset the connection, and a reset client never reads the 431."""
            transport: asyncio.Transport = self.transport
            transport.write(self._refusal)
            if transport.can_write_eof():
                transport.write_eof()
            asyncio.get_running_loop().call_later(LINGER_SECONDS, transport.close)

        def on_headers_complete(self) -> None:
            self._in_head = False
            fields = dict(getattr(self, "headers", ()))
            length = fields.get(b"content-length", b"")
            chunked = b"transfer-encoding" in fields
            self._body_left = int(length) if length.isdigit() and not chunked else 0
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._in_head = True
            if self._head is not None:
                self._head.reset()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None
            if not self._refused:
                super().connection_lost(exc)

        def eof_received(self) -> None:
            if self._head_refused:
                self.transport.close()  # the client read its answer and is done
                return
            if not self._refused:
                super().eof_received()

    return Guarded


__all__ = ["TOO_LARGE", "TOO_MANY_CONNECTIONS", "TOO_SLOW", "BodyLimit", "guarded"]

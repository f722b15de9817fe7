"""What the WebSocket layers cost the server, apart from the game (docs/operations.md).

Two servers answer every message a client sends with two text frames, as the table answers an
action with an ``ev`` to each seat of a 1v1 table: ``asgi`` through uvicorn, Starlette and the
table socket's own shape (a reader, an owner task behind a queue, a writer task woken by an
event); ``raw`` on the event loop's transport (a handshake and unmasked frames, no ASGI, the
owner writing the frames itself). Clients send at a person's pace; the figure is the server's CPU
per message received, from /proc.

    python -m tools.wslayers [--clients 1000] [--rate 160] [--seconds 25]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import functools
import hashlib
import random
import struct
import subprocess
import sys
import time
from typing import Any, cast

from tools.loadtest.measure import _tree_cpu
from tools.localcluster import _listening, _wait, free_port

REPLY = (
    '{"t":"ev","v":12,"d":{"view":{"hand":[1,2,3],"score":[3,5],"legal":["play 1","truco"]},'
    '"events":[{"k":"played","seat":0,"card":7}]}}'
)
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def _asgi_app() -> Any:
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        pending: collections.deque[str] = collections.deque()
        wake = asyncio.Event()
        inbox: asyncio.Queue[str | None] = asyncio.Queue()

        async def owner() -> None:
            while True:
                await inbox.get()
                pending.extend((REPLY, REPLY))
                wake.set()

        async def write() -> None:
            while True:
                await wake.wait()
                wake.clear()
                while pending:
                    await ws.send_text(pending.popleft())

        tasks = (asyncio.create_task(owner()), asyncio.create_task(write()))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                await inbox.put(message.get("text"))
        finally:
            for task in tasks:
                task.cancel()

    return Starlette(routes=[WebSocketRoute("/ws", endpoint)])


def _frame(text: str) -> bytes:
    data = text.encode()
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    return struct.pack("!BBH", 0x81, 126, n) + data


class _Raw(asyncio.Protocol):
    def __init__(self, inbox: asyncio.Queue[asyncio.Transport]) -> None:
        self.inbox = inbox

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses, but have its methods.
        self.transport = cast(asyncio.Transport, transport)
        self.buf = b""
        self.open = False

    def data_received(self, data: bytes) -> None:
        buf = self.buf + data
        if not self.open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                self.buf = buf
                return
            lines = buf[:end].decode().split("\r\n")[1:]
            fields = {k.strip().lower(): v.strip() for k, v in (x.split(":", 1) for x in lines)}
            key = fields["sec-websocket-key"].encode()
            accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
            self.transport.write(
                b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n"
            )
            self.open = True
            buf = buf[end + 4 :]
        while len(buf) >= 2:
            n, at = buf[1] & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    break
                n, at = struct.unpack_from("!H", buf, 2)[0], 4
            if len(buf) < at + 4 + n:
                break
            mask = buf[at : at + 4]
            masked = buf[at + 4 : at + 4 + n]
            opcode = buf[0] & 0x0F
            buf = buf[at + 4 + n :]
            if opcode == 0x8:  # close: the client is done
                self.transport.close()
                return
            if opcode != 0x1:
                continue
            # Unmasked as the text a table would parse (the payload is not used further).
            bytes(b ^ mask[i & 3] for i, b in enumerate(masked)).decode()
            self.inbox.put_nowait(self.transport)
        self.buf = buf


async def _serve_raw(port: int) -> None:
    inbox: asyncio.Queue[asyncio.Transport] = asyncio.Queue()

    async def owner() -> None:
        while True:
            transport = await inbox.get()
            transport.write(_frame(REPLY))
            transport.write(_frame(REPLY))

    task = asyncio.create_task(owner())
    server = await asyncio.get_running_loop().create_server(lambda: _Raw(inbox), "127.0.0.1", port)
    try:
        await server.serve_forever()
    finally:
        task.cancel()


async def _load(port: int, pid: int, clients: int, rate: float, seconds: float) -> float:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    sent = 0

    async def client() -> None:
        nonlocal sent
        async with connect(f"ws://127.0.0.1:{port}/ws", compression=None) as ws:

            async def drain() -> None:
                with contextlib.suppress(ConnectionClosed):
                    async for _ in ws:
                        pass

            reader = asyncio.create_task(drain())
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                await asyncio.sleep(random.expovariate(rate / clients))
                await ws.send('{"t":"act","a":"play 12","v":5}')
                sent += 1
            reader.cancel()

    tasks = [asyncio.create_task(client()) for _ in range(clients)]
    await asyncio.sleep(3)  # connected and sending
    cpu0, sent0 = _tree_cpu([pid]), sent
    await asyncio.sleep(seconds - 6)
    cpu1, sent1 = _tree_cpu([pid]), sent
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return (cpu1 - cpu0) * 1000.0 / max(1, sent1 - sent0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.wslayers")
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=160.0, help="messages a second, in all")
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--serve", choices=("asgi", "raw"), help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.seconds <= 6:
        parser.error("--seconds must be over 6: the first and last 3 s are not measured")
    if args.clients < 1 or args.rate <= 0:
        parser.error("--clients must be at least 1 and --rate above 0")
    if args.serve == "raw":
        import uvloop

        uvloop.run(_serve_raw(args.port))
        return 0
    if args.serve == "asgi":
        import uvicorn

        uvicorn.run(
            _asgi_app(),
            host="127.0.0.1",
            port=args.port,
            ws_per_message_deflate=False,
            log_level="warning",
        )
        return 0
    for kind in ("asgi", "raw"):
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "tools.wslayers", "--serve", kind, "--port", str(port)]
        )
        try:
            _wait(functools.partial(_listening, port), f"the {kind} server")
            ms = asyncio.run(_load(port, server.pid, args.clients, args.rate, args.seconds))
            print(f"{kind}: {ms:.3f} ms of server CPU per message (two frames back)", flush=True)
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

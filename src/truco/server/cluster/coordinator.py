"""What several server processes share through Redis: table leases, the lobby and a message bus.

- A lease ``truco:lease:{table}`` names the one process that applies the table's actions. It is
  taken with SET NX, renewed by its holder every third of its life and dropped with a
  compare-and-delete, so a process can only extend or release its own. A lease is a hint, not a
  guarantee (a paused process may not notice it ran out): the event log's sequence numbers are
  the fence (store.py), so a process that lost its table can never write to it.
- Each process has a channel ``truco:to:{node}``: the frames the owner of a table sends to a
  player whose WebSocket is held by another process, that player's messages to the owner, and
  requests (join a seat, add a bot, ...) with their answers. Everything one process publishes goes
  out over one connection in order, so a player's frames arrive in the order they were sent.
- ``truco:node:{node}`` says a process is alive (it expires with the leases), and the hash
  ``truco:lobby`` holds the open tables of every process.

Nothing a game needs to resume lives here: losing Redis costs the relayed connections (their
clients reconnect) and the lobby's freshness, never a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from truco import protocol as p
from truco.server.errors import TableError

log = logging.getLogger("truco.server.cluster.coordinator")

LOBBY = "truco:lobby"

# Take the lease when it is free or already ours (a process restarted under the same name).
_ACQUIRE = """
local v = redis.call('GET', KEYS[1])
if v == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
elseif v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""

# Extend every lease still ours; retake those that vanished (Redis restarted): the log's fence
# makes that safe even if another process held the table meanwhile. Returns the lost ones.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('GET', key)
  if v == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif v == false then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

Handler = Callable[[str, str, str], None]
"""A bus message: (op, connection or call id, payload)."""
CallHandler = Callable[[str, str, dict[str, Any]], Awaitable[Any]]
"""A request from another process: (method, table, arguments) -> a JSON-able answer."""


def lease_key(table_id: str) -> str:
    return f"truco:lease:{table_id}"


def node_key(node: str) -> str:
    return f"truco:node:{node}"


def channel(node: str) -> str:
    return f"truco:to:{node}"


class Coordinator:
    """This process's link to Redis."""

    def __init__(self, url: str, node: str, lease_seconds: float, call_seconds: float) -> None:
        self.node = node
        self.lease_ms = int(lease_seconds * 1000)
        self.call_seconds = call_seconds
        options: dict[str, Any] = {
            "decode_responses": True,
            "socket_connect_timeout": 2,
            "socket_timeout": max(2.0, lease_seconds / 2),
        }
        self.redis: Redis = Redis.from_url(url, **options)
        # One connection for everything this process publishes: the order of a player's frames
        # is the order of the PUBLISH commands.
        self._publisher: Redis = Redis.from_url(url, single_connection_client=True, **options)
        self._subscriber: Redis = Redis.from_url(url, **{**options, "socket_timeout": None})
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._outbox: deque[tuple[str, str]] = deque()
        self._wake = asyncio.Event()
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self.on_message: Handler = lambda op, key, payload: None
        self.on_call: CallHandler | None = None
        self.on_lost: Callable[[], None] = lambda: None
        """The bus dropped: messages may have been lost in either direction."""

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(), name="cluster-listen"),
            loop.create_task(self._publish(), name="cluster-publish"),
        ]
        # Serve nothing before this process can hear answers and relayed players.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(10):
                await self._subscribed.wait()

    async def stop(self) -> None:
        # Let the last frames (closes, released tables) go out before the connection does.
        for _ in range(50):
            if not self._outbox:
                break
            await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for client in (self.redis, self._publisher, self._subscriber):
            with contextlib.suppress(RedisError, OSError):
                await client.aclose()

    # --- leases -------------------------------------------------------------------------------

    async def acquire(self, table_id: str) -> bool:
        return bool(
            await self._acquire(keys=[lease_key(table_id)], args=[self.node, self.lease_ms])
        )

    async def acquire_many(self, table_ids: list[str]) -> list[str]:
        """Take every free lease among ``table_ids``; returns those taken."""
        if not table_ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                await self._acquire(
                    keys=[lease_key(table_id)], args=[self.node, self.lease_ms], client=pipe
                )
            results = await pipe.execute()
        return [t for t, ok in zip(table_ids, results, strict=True) if ok]

    async def renew(self, table_ids: list[str]) -> list[str]:
        """Extend this process's leases and say it is alive; returns the tables it lost."""
        await self.redis.set(node_key(self.node), "1", px=self.lease_ms)
        if not table_ids:
            return []
        lost = await self._renew(
            keys=[lease_key(t) for t in table_ids], args=[self.node, self.lease_ms]
        )
        return [table_ids[int(i) - 1] for i in lost]

    async def release(self, table_ids: Iterable[str]) -> None:
        for table_id in table_ids:
            await self._release(keys=[lease_key(table_id)], args=[self.node])

    async def owner(self, table_id: str) -> str | None:
        return _text(await self.redis.get(lease_key(table_id)))

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        if not table_ids:
            return []
        return [_text(v) for v in await self.redis.mget([lease_key(t) for t in table_ids])]

    async def alive(self, nodes: Iterable[str]) -> set[str]:
        names = sorted(set(nodes))
        if not names:
            return set()
        values = await self.redis.mget([node_key(n) for n in names])
        return {n for n, v in zip(names, values, strict=True) if v is not None}

    # --- lobby --------------------------------------------------------------------------------

    async def lobby_update(self, entries: dict[str, dict[str, Any] | None]) -> None:
        """Set (an entry) or remove (None) tables of the lobby."""
        gone = [t for t, e in entries.items() if e is None]
        shown: dict[Any, Any] = {t: json.dumps(e) for t, e in entries.items() if e is not None}
        async with self.redis.pipeline(transaction=False) as pipe:
            if gone:
                pipe.hdel(LOBBY, *gone)
            if shown:
                pipe.hset(LOBBY, mapping=shown)
            await pipe.execute()

    async def lobby(self) -> list[dict[str, Any]]:
        entries = await self.redis.hgetall(LOBBY)
        return [json.loads(entries[k]) for k in sorted(entries)]

    # --- the bus ------------------------------------------------------------------------------

    def send(self, node: str, op: str, key: str, payload: str) -> None:
        """Publish one message to ``node`` (at most once, in order with the others)."""
        self._outbox.append((channel(node), f"{op} {key} {payload}"))
        self._wake.set()

    async def call(self, node: str, method: str, table_id: str, args: dict[str, Any]) -> Any:
        """Ask ``node`` to run ``method`` on a table it owns; raises ``TableError``."""
        call_id = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = future
        body = {"method": method, "table": table_id, "args": args, "reply": self.node}
        self.send(node, "c", call_id, json.dumps(body))
        try:
            async with asyncio.timeout(self.call_seconds):
                return await future
        except TimeoutError:
            raise TableError(
                p.UNAVAILABLE, "the server that holds the table did not answer"
            ) from None
        finally:
            self._calls.pop(call_id, None)

    async def _publish(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                batch = [self._outbox.popleft() for _ in range(min(len(self._outbox), 512))]
                try:
                    async with self._publisher.pipeline(transaction=False) as pipe:
                        for name, text in batch:
                            pipe.publish(name, text)
                        await pipe.execute()
                except (RedisError, OSError) as exc:
                    log.warning("cluster: publishing failed (%s); %d lost", exc, len(batch))
                    self.on_lost()
                    await asyncio.sleep(0.2)

    async def _listen(self) -> None:
        while True:
            pubsub = self._subscriber.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.node))
                self._subscribed.set()
                while True:
                    msg = await pubsub.get_message(timeout=None)
                    if msg is not None and msg["type"] == "message":
                        try:
                            self._dispatch(msg["data"])
                        except Exception:  # one bad message must not deafen the process
                            log.exception("cluster: could not handle %r", msg["data"][:200])
            except (RedisError, OSError) as exc:
                log.warning("cluster: the bus dropped (%s); reconnecting", exc)
                self._subscribed.clear()
                self.on_lost()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _dispatch(self, data: str) -> None:
        op, key, payload = data.split(" ", 2)
        if op == "r":
            future = self._calls.get(key)
            if future is not None and not future.done():
                answer = json.loads(payload)
                if answer.get("ok"):
                    future.set_result(answer.get("result"))
                else:
                    future.set_exception(TableError(answer["code"], answer["message"]))
        elif op == "c":
            body = json.loads(payload)
            # A task per request, created in arrival order: its first step (queueing on the
            # table) runs before any later message's, which keeps a player's messages in order.
            asyncio.get_running_loop().create_task(self._answer(key, body))
        else:
            self.on_message(op, key, payload)

    async def _answer(self, call_id: str, body: dict[str, Any]) -> None:
        answer: dict[str, Any]
        try:
            if self.on_call is None:
                raise TableError(p.UNAVAILABLE, "this server is starting")
            result = await self.on_call(body["method"], body["table"], body["args"])
            answer = {"ok": True, "result": result}
        except TableError as exc:
            answer = {"ok": False, "code": exc.code, "message": exc.message}
        except Exception as exc:
            code = getattr(exc, "code", p.UNAVAILABLE)
            answer = {"ok": False, "code": code, "message": getattr(exc, "message", str(exc))}
        self.send(body["reply"], "r", call_id, json.dumps(answer))


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


__all__ = ["Coordinator", "channel", "lease_key", "node_key"]

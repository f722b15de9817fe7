"""Who is online: a player is online for ``presence_seconds`` after a page of hers last asked for
her friends (the web client asks every 20 s while any page of the site is open).

One process keeps it in memory; a cluster keeps it in Redis, where every process reads what the
others wrote: the key ``truco:seen:{player}`` (its value the process's node id), written with
an expiry of ``presence_seconds``, so a closed tab or a dead process is offline when its keys
lapse. A process writes a player's key at most once every third of that, however often she
asks. docs/players.md, "Amigos".
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Protocol

from redis.asyncio import Redis

PREFIX = "truco:seen:"
KEPT = 100_000
"""The players a process remembers at most (memory: the online; both: when it last wrote)."""


def seen_key(player_id: str) -> str:
    return f"{PREFIX}{player_id}"


class Presence(Protocol):
    async def seen(self, player_id: str) -> None:
        """``player_id`` is online now."""
        ...

    async def online(self, player_ids: Sequence[str]) -> set[str]:
        """Those of ``player_ids`` who are online."""
        ...


class _Recent:
    """The time of each key's last write, the oldest forgotten past ``KEPT``."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.at: OrderedDict[str, float] = OrderedDict()

    def since(self, key: str) -> float | None:
        at = self.at.get(key)
        return None if at is None else self.clock() - at

    def mark(self, key: str) -> None:
        self.at[key] = self.clock()
        self.at.move_to_end(key)
        while len(self.at) > KEPT:
            self.at.popitem(last=False)


class MemoryPresence:
    """One process's presence."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._recent = _Recent(clock)

    async def seen(self, player_id: str) -> None:
        self._recent.mark(player_id)

    async def online(self, player_ids: Sequence[str]) -> set[str]:
        found = set()
        for pid in player_ids:
            since = self._recent.since(pid)
            if since is not None and since < self.seconds:
                found.add(pid)
        return found


class RedisPresence:
    """A cluster's presence, in Redis (on the hub's own connection)."""

    def __init__(
        self,
        redis: Redis,
        node: str,
        seconds: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.redis = redis
        self.node = node
        self.seconds = seconds
        self._recent = _Recent(clock)

    async def seen(self, player_id: str) -> None:
        since = self._recent.since(player_id)
        if since is not None and since < self.seconds / 3:
            return  # written lately: the key has most of its time left
        await self.redis.set(seen_key(player_id), self.node, px=int(self.seconds * 1000))
        self._recent.mark(player_id)

    async def online(self, player_ids: Sequence[str]) -> set[str]:
        if not player_ids:
            return set()
        values = await self.redis.mget([seen_key(pid) for pid in player_ids])
        return {pid for pid, v in zip(player_ids, values, strict=True) if v is not None}


__all__ = ["PREFIX", "MemoryPresence", "Presence", "RedisPresence", "seen_key"]

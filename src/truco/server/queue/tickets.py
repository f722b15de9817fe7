"""The "Jugar ahora" queue: its tickets, and the one kept in this process's memory.

A ticket goes ``waiting`` -> ``forming`` (claimed for a table, by exactly one process) ->
``matched`` (its table and seat are known). Each player holds one ticket at most: a new one
replaces her waiting one (keeping its place when the mode is the same). A ticket nobody asked
about for ``idle`` seconds is dropped (its tab was closed). ``RedisQueue`` (``queue_redis.py``)
keeps the same in Redis for a cluster; the matchmaker (``playnow.py``) drives either through
``Queue``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from truco.server.queue.matchmaking import MODES

WAITING, FORMING, MATCHED = "waiting", "forming", "matched"
ROUND_MOST = 2000
"""The oldest tickets of a mode one pairing round considers (``waiting``): a round of 2,000
that all pair at once takes 15-30 ms of the loop; 10,000 would take a quarter of a second."""


class QueueFull(Exception):
    """The mode's queue holds its most tickets."""


@dataclass(frozen=True, slots=True)
class Ticket:
    ticket: str
    mode: str
    player: str
    """Who holds it (one ticket per player)."""
    name: str
    """Her name at the table."""
    rating: float
    """Her rating in the mode when she joined."""
    since: float
    """When she joined the queue (seconds since the epoch: every process shares the clock)."""
    token_hash: str
    """The hash of the seat token she was given with the ticket; her seat will take it."""
    state: str = WAITING
    table: str | None = None
    seat: int | None = None


class Queue(Protocol):
    async def join(self, ticket: Ticket, most: int) -> Ticket:
        """Queue ``ticket`` (replacing its player's waiting one: then the place is kept when the
        mode is the same); returns it as queued. ``QueueFull`` past ``most`` in its mode."""
        ...

    async def look(self, ticket: str) -> Ticket | None:
        """The ticket (None: unknown or dropped); asking keeps it alive."""
        ...

    async def leave(self, ticket: str) -> Ticket | None:
        """Drop a waiting ticket; returns it as it was (a claimed one stays: it has a table)."""
        ...

    async def waiting(self, mode: str) -> list[Ticket]:
        """The ``ROUND_MOST`` oldest waiting tickets of ``mode``, oldest first (idle ones are
        dropped here)."""
        ...

    async def claim(self, tickets: list[str]) -> bool:
        """Take these waiting tickets for one table, all or none: True when this caller has them,
        and nobody else ever will."""
        ...

    async def unclaim(self, tickets: list[Ticket]) -> None:
        """Put claimed tickets back in their queue, in their place (their table failed)."""
        ...

    async def settle(self, ticket: str, table: str, seat: int) -> None:
        """A claimed ticket's table and seat."""
        ...

    async def changed(self, ticket: str, timeout: float) -> None:
        """Return when the ticket may have changed, or after ``timeout`` seconds."""
        ...


class MemoryQueue:
    """One process's queue (no Redis)."""

    def __init__(self, idle: float, clock: Callable[[], float] = time.time) -> None:
        self.idle = idle
        self.clock = clock
        self.tickets: dict[str, Ticket] = {}
        self._seen: dict[str, float] = {}
        self._players: dict[str, str] = {}
        self._queues: dict[str, set[str]] = {mode: set() for mode in MODES}
        """Each mode's waiting tickets."""
        self._news: dict[str, asyncio.Event] = {}

    async def join(self, ticket: Ticket, most: int) -> Ticket:
        self._sweep()
        old = self.tickets.get(self._players.get(ticket.player, ""))
        if old is not None and old.state == WAITING:
            if old.mode == ticket.mode:
                ticket = replace(ticket, since=old.since)
            self._drop(old.ticket)
        queue = self._queues[ticket.mode]
        if len(queue) >= most:
            raise QueueFull(ticket.mode)
        self.tickets[ticket.ticket] = ticket
        self._seen[ticket.ticket] = self.clock()
        self._players[ticket.player] = ticket.ticket
        queue.add(ticket.ticket)
        return ticket

    async def look(self, ticket: str) -> Ticket | None:
        found = self.tickets.get(ticket)
        if found is not None:
            self._seen[ticket] = self.clock()
        return found

    async def leave(self, ticket: str) -> Ticket | None:
        found = self.tickets.get(ticket)
        if found is not None and found.state == WAITING:
            self._drop(ticket)
        return found

    async def waiting(self, mode: str) -> list[Ticket]:
        self._sweep()
        return sorted((self.tickets[t] for t in self._queues[mode]), key=_age)[:ROUND_MOST]

    async def claim(self, tickets: list[str]) -> bool:
        found = [self.tickets.get(t) for t in tickets]
        if any(t is None or t.state != WAITING for t in found):
            return False
        for t in found:
            assert t is not None
            self._queues[t.mode].discard(t.ticket)
            self.tickets[t.ticket] = replace(t, state=FORMING)
        return True

    async def unclaim(self, tickets: list[Ticket]) -> None:
        for t in tickets:
            if t.ticket in self.tickets:
                self.tickets[t.ticket] = replace(t, state=WAITING)
                self._queues[t.mode].add(t.ticket)

    async def settle(self, ticket: str, table: str, seat: int) -> None:
        found = self.tickets.get(ticket)
        if found is not None:
            self.tickets[ticket] = replace(found, state=MATCHED, table=table, seat=seat)
            # The player has until ``idle`` from now to hear of it.
            self._seen[ticket] = self.clock()
        news = self._news.get(ticket)
        if news is not None:
            news.set()

    async def changed(self, ticket: str, timeout: float) -> None:
        news = self._news.setdefault(ticket, asyncio.Event())
        try:
            async with asyncio.timeout(timeout):
                await news.wait()
        except TimeoutError:
            pass
        finally:
            if self._news.get(ticket) is news:
                del self._news[ticket]

    def _drop(self, ticket: str) -> None:
        found = self.tickets.pop(ticket, None)
        self._seen.pop(ticket, None)
        if found is None:
            return
        self._queues[found.mode].discard(ticket)
        if self._players.get(found.player) == ticket:
            del self._players[found.player]

    def _sweep(self) -> None:
        """Drop the tickets nobody asked about for ``idle`` seconds (a claimed one stays until it
        is settled: its table is being made)."""
        cutoff = self.clock() - self.idle
        for ticket, seen in list(self._seen.items()):
            if seen < cutoff and self.tickets[ticket].state != FORMING:
                self._drop(ticket)


def _age(t: Ticket) -> tuple[float, str]:
    return (t.since, t.ticket)


__all__ = ["FORMING", "MATCHED", "WAITING", "MemoryQueue", "Queue", "QueueFull", "Ticket"]

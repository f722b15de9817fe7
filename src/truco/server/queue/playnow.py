"""Jugar ahora: the queue's HTTP API and the matchmaker that turns tickets into tables.

``POST /api/queue`` gives a ticket (and the seat token its seat will take), ``GET
/api/queue/{ticket}?wait=S`` waits up to S seconds for news (a long poll), ``DELETE`` leaves,
``POST /api/queue/{ticket}/bots`` takes a table with bots once they are offered. docs/protocol.md
("Jugar ahora") has the API, docs/players.md the pairing, docs/operations.md the limits.

There is no background task: the waiting players' own long polls run the pairing rounds (at
most one per ``queue_tick`` per process, and one at once after each new ticket), so rounds run
exactly while someone waits. In a cluster every process with waiting players does; the queue in
Redis makes each claim of a ticket atomic, so a ticket gets one table.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal, TypeVar

from fastapi import FastAPI, Path, Query, Request
from fastapi.params import Depends as DependsParam
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from redis.exceptions import RedisError

from truco import protocol as p
from truco.rules import from_options
from truco.server.cluster.hub import ClusterHub
from truco.server.errors import TableError
from truco.server.net.limits import Buckets
from truco.server.players import identity
from truco.server.players.accounts import seat_name
from truco.server.players.identity import PlayerRef
from truco.server.queue.matchmaking import MODES, Curve, Waiting, pair
from truco.server.queue.redis_queue import RedisQueue
from truco.server.queue.tickets import MATCHED, WAITING, MemoryQueue, Queue, QueueFull, Ticket
from truco.server.schemas import ErrorBody
from truco.server.settings import Settings
from truco.server.tables.hub import Hub
from truco.server.tables.seats import hash_token

log = logging.getLogger("truco.server.queue.playnow")

TICKET_NOT_FOUND = "ticket_not_found"
QUEUE_FULL = "queue_full"
NO_OFFER = "no_offer"
STATUS = {TICKET_NOT_FOUND: 404, QUEUE_FULL: 503, NO_OFFER: 409}

RatingOf = Callable[[str, str], Awaitable[float]]
"""A player's rating in a mode: ``await rating_of(player, mode)``, read once when she joins."""
Claimed = Callable[[str], Awaitable[bool]]
"""Whether a player has claimed a name (a table among claimed names only is rated)."""
Apart = Callable[[Sequence[str]], Awaitable[set[frozenset[str]]]]
"""The pairs of these players one of whom blocks the other (never seated together)."""

Mode = Literal["1v1", "2v2", "3v3"]
TICKET = r"^[0-9a-f]{32}$"
GUEST = "Invitado"
GUEST_KEY = "guest:"
"""The player key of a ticket without an identity (never a seat's player id)."""
T = TypeVar("T")


async def constant_rating(player: str, mode: str) -> float:
    """One rating for everybody (tests of the pairing alone): the oldest waiters meet."""
    return 0.0


async def nobody_apart(players: Sequence[str]) -> set[frozenset[str]]:
    """Nobody blocks anybody (tests of the queue alone)."""
    return set()


async def nobody_claimed(player: str) -> bool:
    """No table is rated (tests of the queue alone)."""
    return False


class QueueError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- the API's bodies ---------------------------------------------------------------------------


class QueueBody(BaseModel):
    mode: Mode
    name: str | None = Field(default=None, min_length=1, max_length=24)


class QueueStatus(BaseModel):
    ticket: str
    mode: Mode
    status: Literal["waiting", "matched", "left"]
    waited: float
    """Seconds since the ticket joined the queue."""
    offer: Literal["bots"] | None
    """``bots``: the table with bots is offered (``POST /api/queue/{ticket}/bots``)."""
    table: str | None
    seat: int | None
    invite: str | None


class QueueTicket(QueueStatus):
    token: str
    """The seat token: the seat the ticket gets (its table is not known yet) takes it."""


# --- the matchmaker -----------------------------------------------------------------------------


class Matchmaker:
    """Pairs the waiting tickets and seats them at new tables of the hub."""

    def __init__(
        self,
        hub: Hub,
        queue: Queue,
        settings: Settings,
        *,
        rating_of: RatingOf,
        claimed: Claimed = nobody_claimed,
        apart: Apart = nobody_apart,
    ) -> None:
        self.hub = hub
        self.apart = apart
        self.queue = queue
        self.settings = settings
        self.rating_of = rating_of
        self.claimed = claimed
        self.curve = Curve(*settings.queue_window)
        self._lock = asyncio.Lock()
        self._last = float("-inf")

    async def join(self, mode: str, player: str, name: str) -> tuple[Ticket, str]:
        """A new ticket (replacing the player's waiting one) and its seat token."""
        token = secrets.token_urlsafe(32)
        ticket = Ticket(
            ticket=secrets.token_hex(16),
            mode=mode,
            player=player,
            name=name,
            rating=await self.rating_of(player, mode),
            since=time.time(),
            token_hash=hash_token(token),
        )
        try:
            queued = await self.queue.join(ticket, self.settings.queue_max)
        except QueueFull:
            raise QueueError(
                QUEUE_FULL,
                f"{self.settings.queue_max} players wait for {mode} already; try again later",
            ) from None
        await self.pair_now(force=True)
        return (await self.queue.look(queued.ticket) or queued), token

    async def pair_now(self, force: bool = False) -> None:
        """One pairing round, unless one ran less than ``queue_tick`` ago (or runs now)."""
        if self._lock.locked() and not force:
            return
        async with self._lock:
            now = time.monotonic()
            if not force and now - self._last < self.settings.queue_tick:
                return
            self._last = now
            for mode in MODES:
                try:
                    await self._round(mode)
                except (RedisError, OSError, TableError) as exc:
                    log.warning("pairing %s failed: %s", mode, exc)
                except Exception:  # a pairing that failed must not fail a player's question
                    log.exception("pairing %s failed", mode)

    async def _round(self, mode: str) -> None:
        waiting = await self.queue.waiting(mode)
        by_ticket = {t.ticket: t for t in waiting}
        pool = [Waiting(t.ticket, t.rating, t.since) for t in waiting]
        # Blocks are read from the database, which every process shares: they hold whichever
        # process pairs the queue (in memory, or the cluster's in Redis).
        tickets_of: dict[str, list[str]] = {}
        for t in waiting:
            pid = _player_id(t)
            if pid is not None:
                tickets_of.setdefault(pid, []).append(t.ticket)
        apart = {
            frozenset((x, y))
            for a, b in (tuple(pair_) for pair_ in await self.apart(list(tickets_of)))
            for x in tickets_of[a]
            for y in tickets_of[b]
        }
        for match in pair(mode, pool, time.time(), self.curve, apart):
            if await self.queue.claim(list(match.seats)):
                people = [by_ticket[t] for t in match.seats]
                await self._seat(mode, people, {}, self.settings.queue_turn_seconds)

    async def take_bots(self, ticket: Ticket) -> None:
        """Seat a waiting ticket at a table of its own with bots in every other seat (no turn
        clock: a person alone with bots keeps the time she wants, as the home page's form)."""
        if not await self.queue.claim([ticket.ticket]):
            return  # matched meanwhile (or gone): the caller answers what it is now
        level = self.settings.queue_bot_level
        bots = {s: level for s in range(1, MODES[ticket.mode])}
        await self._seat(ticket.mode, [ticket], bots, None)

    async def _seat(
        self, mode: str, people: Sequence[Ticket], bots: dict[int, str], turn: float | None
    ) -> None:
        """A table for claimed tickets (by seat), at the site's default options for the mode.

        A table formed among people who all claimed a name is rated (docs/players.md); a table
        with bots, taken instead of waiting longer, is casual."""
        rules = from_options(None, {"players": MODES[mode]})
        seated = {s: (t.name, t.token_hash, _player_id(t)) for s, t in enumerate(people)}
        rated = not bots
        for t in people:
            pid = _player_id(t)
            rated = rated and pid is not None and await self.claimed(pid)
        try:
            table = await self.hub.open(rules, seated, bots, turn, rated=rated)
        except BaseException:
            await self.queue.unclaim(list(people))  # they wait again, in their places
            raise
        for s, t in enumerate(people):
            await self.queue.settle(t.ticket, table.id, s)

    async def watch(self, ticket: str, wait: float) -> Ticket | None:
        """The ticket once it is matched, or its bot offer comes, or ``wait`` seconds passed;
        pairing rounds run meanwhile."""
        deadline = time.monotonic() + wait
        offer_at = None
        while True:
            found = await self.queue.look(ticket)
            if found is None or found.state == MATCHED:
                return found
            if offer_at is None:
                offer_at = time.monotonic() + self.settings.queue_bots_after - _waited(found)
                if offer_at <= time.monotonic():
                    offer_at = float("inf")  # offered already: only a match is news
            now = time.monotonic()
            left = min(deadline, offer_at) - now
            if left <= 0:
                return found
            await self.pair_now()
            await self.queue.changed(ticket, min(left, self.settings.queue_tick))


def _holds(t: Ticket, request: Request) -> bool:
    return t.player.startswith(GUEST_KEY) or t.player == identity.request_player(request)


def _player_id(t: Ticket) -> str | None:
    return None if t.player.startswith(GUEST_KEY) else t.player


def _waited(t: Ticket) -> float:
    return max(0.0, time.time() - t.since)


def status_of(t: Ticket, settings: Settings, left: bool = False) -> dict[str, Any]:
    waited = _waited(t)
    matched = t.state == MATCHED and t.table is not None
    waiting = t.state == WAITING and not left
    return {
        "ticket": t.ticket,
        "mode": t.mode,
        "status": "matched" if matched else "left" if left else "waiting",
        "waited": round(waited, 1),
        "offer": "bots" if waiting and waited >= settings.queue_bots_after else None,
        "table": t.table if matched else None,
        "seat": t.seat if matched else None,
        "invite": f"/t/{t.table}" if matched else None,
    }


def make_queue(hub: Hub, settings: Settings) -> Queue:
    """In Redis for a cluster (on the hub's own connection), in memory for one process."""
    if isinstance(hub, ClusterHub):
        return RedisQueue(hub.bus.redis, settings.queue_idle_seconds)
    return MemoryQueue(settings.queue_idle_seconds)


# --- the routes ---------------------------------------------------------------------------------


def install(
    app: FastAPI,
    hub: Hub,
    settings: Settings,
    *,
    checked: Sequence[DependsParam],
    rating_of: RatingOf = constant_rating,
    claimed: Claimed = nobody_claimed,
    apart: Apart = nobody_apart,
) -> Matchmaker:
    """Add the queue's routes to ``app`` (before its catch-all ``/api`` route)."""
    maker = Matchmaker(
        hub,
        make_queue(hub, settings),
        settings,
        rating_of=rating_of,
        claimed=claimed,
        apart=apart,
    )
    app.state.matchmaker = maker
    joins = Buckets(settings.queue_burst, settings.queue_per_minute / 60)
    polls = Buckets(settings.queue_polls_burst, settings.queue_polls_per_second)
    held: dict[str, set[str]] = {}
    """Each address's tickets when last seen (the limit per address)."""

    @app.exception_handler(QueueError)
    async def queue_error(request: Request, exc: QueueError) -> JSONResponse:
        body = {"code": exc.code, "message": exc.message}
        return JSONResponse(body, status_code=STATUS.get(exc.code, 400))

    def address(request: Request) -> str:
        return request.client.host if request.client is not None else ""

    def polled(request: Request) -> None:
        if not polls.take(address(request)):
            burst, rate = settings.queue_polls_burst, settings.queue_polls_per_second
            limit = f"{burst} at once, then {rate:g}/s"
            raise TableError(p.RATE_LIMITED, f"too many questions about tickets: at most {limit}")

    async def found(ticket: str, request: Request) -> Ticket:
        """The caller's ticket. A ticket held by an identity answers that player only (its id
        travels in URLs, which access logs keep)."""
        t = await _redis_safe(maker.queue.look(ticket))
        if t is None or not _holds(t, request):
            message = "no such ticket: it left, idled, or was matched long ago"
            raise QueueError(TICKET_NOT_FOUND, message)
        return t

    errors = {code: {"model": ErrorBody} for code in (403, 404, 409, 413, 422, 429, 503)}

    @app.post(
        "/api/queue",
        status_code=201,
        response_model=QueueTicket,
        responses={k: v for k, v in errors.items() if k != 404 and k != 409},
        dependencies=list(checked),
    )
    async def join_queue(body: QueueBody, request: Request) -> dict[str, Any]:
        where = address(request)
        if not joins.take(where):
            raise TableError(
                p.RATE_LIMITED,
                f"too many tickets: at most {settings.queue_burst} at once, "
                f"then {settings.queue_per_minute:g} a minute",
            )
        name = await seat_name(request, body.name) if body.name is not None else GUEST
        mine = held.setdefault(where, set())
        for old in list(mine):
            t = await _redis_safe(maker.queue.look(old))
            if t is None or t.state != WAITING:
                mine.discard(old)
        if len(mine) >= settings.queue_per_address:
            raise TableError(
                p.RATE_LIMITED,
                f"{len(mine)} tickets of this address wait already; "
                f"at most {settings.queue_per_address} may",
            )
        player = await _player(request)
        if player is not None and player.name is not None:
            name = player.name  # a claimed name is the player's everywhere
        # Without an identity (the database is away) each ticket is a player of its own.
        who = player.id if player is not None else f"{GUEST_KEY}{secrets.token_hex(8)}"
        ticket, token = await _redis_safe(maker.join(body.mode, who, name))
        mine.add(ticket.ticket)
        if len(held) > 100_000:
            held.pop(next(iter(held)))
        return {**status_of(ticket, settings), "token": token}

    @app.get(
        "/api/queue/{ticket}",
        response_model=QueueStatus,
        responses={k: v for k, v in errors.items() if k in (404, 422, 429, 503)},
    )
    async def ticket_status(
        request: Request,
        ticket: str = Path(pattern=TICKET),
        wait: float = Query(
            0, ge=0, le=settings.queue_wait_seconds, description="Seconds to wait for news"
        ),
    ) -> dict[str, Any]:
        polled(request)
        t = await found(ticket, request)
        if wait > 0 and t.state != MATCHED:
            news = await _redis_safe(maker.watch(ticket, wait))
            t = news or t
        return status_of(t, settings)

    @app.delete(
        "/api/queue/{ticket}",
        response_model=QueueStatus,
        responses={k: v for k, v in errors.items() if k in (403, 404, 422, 429, 503)},
        dependencies=list(checked),
    )
    async def leave_queue(request: Request, ticket: str = Path(pattern=TICKET)) -> dict[str, Any]:
        polled(request)
        await found(ticket, request)
        t = await _redis_safe(maker.queue.leave(ticket))
        if t is None:
            raise QueueError(TICKET_NOT_FOUND, "no such ticket")
        return status_of(t, settings, left=t.state == WAITING)

    @app.post(
        "/api/queue/{ticket}/bots",
        response_model=QueueStatus,
        responses={k: v for k, v in errors.items() if k != 413},
        dependencies=list(checked),
    )
    async def take_bots(request: Request, ticket: str = Path(pattern=TICKET)) -> dict[str, Any]:
        polled(request)
        t = await found(ticket, request)
        if t.state == WAITING:
            if _waited(t) < settings.queue_bots_after:
                raise QueueError(
                    NO_OFFER,
                    f"bots are offered after {settings.queue_bots_after:g} s in the queue",
                )
            await _redis_safe(maker.take_bots(t))
            t = await found(ticket, request)
        return status_of(t, settings)

    return maker


async def _player(request: Request) -> PlayerRef | None:
    """The identity behind the request, given its row in the players' table (a seat records
    it); None while the database cannot say."""
    player_id = identity.request_player(request)
    if player_id is None:
        return None
    players = request.app.state.identity.players
    await players.create(player_id)
    found = await players.get(player_id)
    return PlayerRef(player_id, found.name if found is not None else None)


async def _redis_safe(work: Awaitable[T]) -> T:
    try:
        return await work
    except (RedisError, OSError) as exc:
        raise TableError(p.UNAVAILABLE, f"Redis is unreachable: {exc}") from None


__all__ = [
    "Matchmaker",
    "QueueError",
    "RatingOf",
    "constant_rating",
    "install",
    "nobody_claimed",
    "status_of",
]

"""Tables: one owner task per table applies everything that changes it, one command at a time.

Commands (a player's action, a connection, a seat taken, a timer that fired) go through the
table's queue; the owner validates an action, commits it to the store, and only then acks it and
sends each connection what its seat may see (``observe`` and ``visible_to``). Bots, players
whose turn time ran out and players who did not come back within the grace period are driven
here too, through the same path, with a random generator seeded per table and version (so a
restarted server makes the same choices).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from random import Random
from typing import Any

from truco import protocol as p
from truco.actions import Action, Deal
from truco.bots import make_bot
from truco.bots.personas import persona
from truco.cards import format_cards, parse_cards
from truco.engine import CHANCE, apply, check, deal, legal_actions, to_act
from truco.errors import IllegalActionError, RulesError, TrucoError
from truco.events import Event, visible_to
from truco.notation import HandHistory, from_state
from truco.rules import OPTION_NAMES, Rules, from_options
from truco.server import botpool
from truco.server.errors import CLOSE_EXPIRED, TableError, set_aside, unavailable
from truco.server.limits import Buckets, TokenBucket
from truco.server.settings import Settings
from truco.server.store import Fenced, LogRow, SeatRow, Store, StoreUnavailable, TableRow
from truco.state import OVER, PLAY, State, new_match
from truco.view import observe

log = logging.getLogger("truco.server")

HUMAN, BOT, EMPTY = "human", "bot", "empty"
WAITING, PLAYING, FINISHED = "waiting", "playing", "over"
EXPIRED, BROKEN = "expired", "broken"
"""Statuses only the store holds: nobody joined in time; the log cannot be replayed."""
ACKS_KEPT = 64
UNAVAILABLE = p.UNAVAILABLE
RETRY_SECONDS = 1.0


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Conn:
    """One client connection as a table sees it: a seat (None: spectator) and a bounded outbox.

    The WebSocket endpoint drains ``pending`` when ``wake`` is set, and closes the socket with
    ``closing`` once it is set. A client that does not read fast enough is closed, never queued
    without bound.
    """

    def __init__(self, limit: int = 512) -> None:
        self.seat: int | None = None
        self.limit = limit
        self.pending: deque[str] = deque()
        self.wake = asyncio.Event()
        self.closing: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        if self.closing is not None:
            return
        if len(self.pending) >= self.limit:
            self.close(p.CLOSE_TRY_AGAIN, "too slow")
            return
        self.pending.append(text)
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
            self.wake.set()


@dataclass(slots=True)
class Seat:
    seat: int
    name: str
    kind: str
    level: str | None
    token_hash: str | None
    conn: Conn | None = None
    replaced: bool = False
    """A bot plays for this person, who did not come back within the grace period."""
    rematch: bool = False
    grace: asyncio.TimerHandle | None = None
    acks: OrderedDict[int, tuple[int, str, int]] = field(default_factory=OrderedDict)
    """Acknowledged actions: a -> (version chosen at, action, version applied as)."""

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.name, self.kind, self.level, self.token_hash)


@dataclass(frozen=True, slots=True)
class Version:
    v: int
    state: State
    events: tuple[Event, ...]


class Table:
    """One table: its match state, seats, connections and owner task."""

    def __init__(
        self,
        table_id: str,
        rules: Rules,
        turn_seconds: float | None,
        seed: int,
        seats: list[Seat],
        store: Store,
        settings: Settings,
    ) -> None:
        self.id = table_id
        self.rules = rules
        self.turn_seconds = turn_seconds
        self.seed = seed
        self.seats = seats
        self.store = store
        self.settings = settings
        self.state: State = new_match(rules)
        self.v = 0
        self.match = 1
        self.status = WAITING
        self.recent: deque[Version] = deque(maxlen=settings.history_size)
        self.hands: list[HandHistory] = []
        """The finished hands of the current match."""
        self.spectators: set[Conn] = set()
        self.deadline: float | None = None
        """Wall-clock time (seconds since the epoch) when the seat to act runs out of time."""
        self._pool = botpool.shared(settings.bot_processes, settings.bot_seconds)
        # Allowances per seat, not per connection: connecting again must not refill them.
        self._chat_budget = Buckets(settings.chat_burst, settings.chat_per_second)
        """Chat and señas, which reach other people."""
        self._connect_budget = Buckets(
            settings.seat_connect_burst, settings.seat_connects_per_second
        )
        """Connections (reconnects): each one catches the seat up and tells the table."""
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any] | None]]
        self._queue = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._first_mano = 0
        self._stopped = False
        self.on_change: Callable[[], None] | None = None
        """Called when what the lobby shows of the table may have changed (the cluster's lobby)."""
        self.on_lost: Callable[[], None] | None = None
        """Called when the log refused an append: another process owns the table now."""

    # --- building and restoring ---------------------------------------------------------

    @classmethod
    def from_row(cls, row: TableRow, store: Store, settings: Settings) -> Table:
        """A table rebuilt from the database by replaying its log."""
        seats = [Seat(s.seat, s.name, s.kind, s.level, s.token_hash) for s in row.seats]
        table = cls(
            row.id,
            from_options(None, row.options),
            row.turn_seconds,
            row.seed,
            seats,
            store,
            settings,
        )
        table.status = row.status
        for entry in row.log:
            state, events = table._transition(entry)
            table._record(entry.kind, state, events)
        return table

    def _transition(self, entry: LogRow) -> tuple[State, tuple[Event, ...]]:
        data = entry.data
        if entry.kind == "deal":
            hands = tuple(tuple(parse_cards(h)) for h in data["hands"])
            return apply(self.state, Deal(hands))
        if entry.kind == "act":
            seat, action = data["seat"], Action.parse(data["action"])
            if to_act(self.state) != seat:
                raise IllegalActionError(f"version {entry.seq}: seat {seat} is not to act")
            return apply(self.state, action)
        if entry.kind == "rematch":
            return new_match(self.rules, mano=data["mano"]), ()
        raise ValueError(f"unknown log entry {entry.kind!r}")

    def _record(self, kind: str, state: State, events: tuple[Event, ...]) -> None:
        before = self.state
        self.state = state
        self.v += 1
        if kind == "rematch":
            self.recent.clear()
            self.hands.clear()
            self.match += 1
            self._first_mano = state.mano
            for seat in self.seats:
                seat.rematch = False
        else:
            self.recent.append(Version(self.v, state, events))
        if before.phase == PLAY and state.phase != PLAY:
            self.hands.append(from_state(state))

    def start(self) -> None:
        """Start the owner task, the timers, and the grace period of everyone not connected."""
        if self._task is not None:
            return
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        for seat in self.seats:
            if seat.kind == HUMAN and seat.conn is None and not seat.replaced:
                self._start_grace(seat)
        self._schedule()

    async def stop(self) -> None:
        self._stopped = True
        self._cancel_timer()
        for seat in self.seats:
            if seat.grace is not None:
                seat.grace.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        # Whoever still waits on a queued command hears that it will not run here.
        while not self._queue.empty():
            _, future = self._queue.get_nowait()
            if future is not None and not future.done():
                future.set_exception(TableError(UNAVAILABLE, "the table moved; reconnect"))

    # --- the owner ----------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            fn, future = await self._queue.get()
            try:
                result = await fn()
            except StoreUnavailable as exc:
                log.warning("table %s: database unavailable: %s", self.id, exc)
                if future is not None and not future.done():
                    future.set_exception(unavailable(exc))
            except Exception as exc:
                if future is not None and not future.done():
                    future.set_exception(exc)
                else:
                    log.exception("table %s: a command failed", self.id)
            else:
                if future is not None and not future.done():
                    future.set_result(result)

    async def submit(self, fn: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``fn`` on the owner task, after every command queued before it."""
        if self._stopped:
            raise TableError(UNAVAILABLE, "the table moved; reconnect")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((fn, future))
        return await future

    def post(self, fn: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``fn`` without waiting for it."""
        self._queue.put_nowait((fn, None))

    # --- what everyone sees -------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        """The table object of ``GET /api/tables/{id}`` and of the ``table`` message."""
        return {
            "table": self.id,
            "options": p.options_json(self.rules),
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "connected": s.kind == BOT or s.conn is not None,
                    "level": s.level,
                    "replaced": s.replaced,
                    "rematch": s.rematch,
                }
                for s in self.seats
            ],
            "status": self.status,
            "v": self.v,
            "match": self.match,
            "turn_seconds": self.turn_seconds,
        }

    def _deadline_ms(self) -> int | None:
        return None if self.deadline is None else int(self.deadline * 1000)

    def _connections(self) -> list[Conn]:
        conns = [s.conn for s in self.seats if s.conn is not None]
        return conns + list(self.spectators)

    def full(self, conn: Conn) -> str:
        return p.encode(
            "full",
            {
                "v": self.v,
                "seat": conn.seat,
                "view": p.view_json(observe(self.state, conn.seat)),
                "table": self.info(),
                "deadline": self._deadline_ms(),
            },
        )

    def _ev(self, version: Version, seat: int | None, deadline: int | None) -> str:
        return p.encode(
            "ev",
            {
                "v": version.v,
                "events": [p.event_json(e) for e in version.events if visible_to(e, seat)],
                "view": p.view_json(observe(version.state, seat)),
                "deadline": deadline,
            },
        )

    def _broadcast_table(self) -> None:
        if self.on_change is not None:
            self.on_change()
        text = p.encode("table", self.info())
        for conn in self._connections():
            conn.send(text)

    def _broadcast_version(self, kind: str) -> None:
        if kind == "rematch":
            for conn in self._connections():
                conn.send(self.full(conn))
            return
        version = self.recent[-1]
        deadline = self._deadline_ms()
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.send(self._ev(version, seat.seat, deadline))
        if self.spectators:
            text = self._ev(version, None, deadline)
            for conn in self.spectators:
                conn.send(text)

    def _catch_up(self, conn: Conn, last_v: int) -> None:
        missed = [ver for ver in self.recent if ver.v > last_v]
        if 0 < last_v <= self.v and (
            (not missed and last_v == self.v) or (missed and missed[0].v == last_v + 1)
        ):
            for ver in missed:
                conn.send(self._ev(ver, conn.seat, self._deadline_ms()))
            return
        conn.send(self.full(conn))

    # --- seats ----------------------------------------------------------------------------

    def find_seat(self, token: str) -> Seat | None:
        digest = hash_token(token)
        found = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = seat
        return found

    async def join(self, name: str, seat_no: int | None) -> tuple[int, str]:
        """Seat a person; returns the seat and its token."""

        async def run() -> tuple[int, str]:
            seat = self._free_seat(seat_no)
            token = secrets.token_urlsafe(32)
            row = SeatRow(seat.seat, name, HUMAN, None, hash_token(token))
            # Written first, with the status it brings: a failed write changes nothing.
            await self.store.set_seat(self.id, row, self._status_with(seat))
            seat.name, seat.kind, seat.level, seat.token_hash = name, HUMAN, None, row.token_hash
            self._start_grace(seat)
            await self._seated(stored=True)
            return seat.seat, token

        result: tuple[int, str] = await self.submit(run)
        return result

    async def add_bot(self, seat_no: int, level: str) -> None:
        async def run() -> None:
            seat = self._free_seat(seat_no)
            make_bot(level)  # an unknown level is refused here, before anything changes
            name = persona(level, seat.seat, self.id)
            row = SeatRow(seat.seat, name, BOT, level, None)
            await self.store.set_seat(self.id, row, self._status_with(seat))
            seat.name, seat.kind, seat.level, seat.token_hash = name, BOT, level, None
            await self._seated(stored=True)

        await self.submit(run)

    def _free_seat(self, seat_no: int | None) -> Seat:
        if seat_no is None:
            for seat in self.seats:
                if seat.kind == EMPTY:
                    return seat
            raise TableError(p.SEAT_TAKEN, "every seat is taken")
        if not 0 <= seat_no < len(self.seats):
            raise TableError(p.SEAT_TAKEN, f"there is no seat {seat_no} at this table")
        if self.seats[seat_no].kind != EMPTY:
            raise TableError(p.SEAT_TAKEN, f"seat {seat_no} is taken")
        return self.seats[seat_no]

    def _status_with(self, taken: Seat) -> str | None:
        """The new status once ``taken`` is seated (None: unchanged)."""
        empty = [s for s in self.seats if s.kind == EMPTY and s is not taken]
        return PLAYING if self.status == WAITING and not empty else None

    async def _seated(self, stored: bool = False) -> None:
        """Someone sat down; ``stored``: the status it brings is already in the database."""
        if self.status == WAITING and all(s.kind != EMPTY for s in self.seats):
            if not stored:
                await self.store.set_status(self.id, PLAYING)
            self.status = PLAYING
            self._schedule()
        self._broadcast_table()

    def _start_grace(self, seat: Seat) -> None:
        if seat.grace is not None:
            seat.grace.cancel()

        async def over() -> None:
            seat.grace = None
            if seat.kind == HUMAN and seat.conn is None and not seat.replaced:
                seat.replaced = True
                self._broadcast_table()
                self._schedule()

        loop = asyncio.get_running_loop()
        seat.grace = loop.call_later(self.settings.grace_seconds, self.post, over)

    # --- connections ----------------------------------------------------------------------

    async def connect(self, conn: Conn, token: str | None, last_v: int) -> None:
        """Bind ``conn`` to the seat of ``token`` (None: a spectator) and catch it up."""

        async def run() -> None:
            if token is None:
                self.spectators.add(conn)
                self._catch_up(conn, last_v)
                return
            seat = self.find_seat(token)
            if seat is None:
                raise TableError(p.BAD_TOKEN, "this token holds no seat at this table")
            if not self._connect_budget.take(seat.seat):
                raise TableError(
                    p.RATE_LIMITED,
                    f"this seat connected too often: at most {self.settings.seat_connect_burst} "
                    f"at once, then {self.settings.seat_connects_per_second:g}/s",
                )
            # What the others see changes only if the seat was away (or a bot played for it):
            # a connection that replaces an open one is not news for the table.
            news = seat.conn is None or seat.replaced
            if seat.conn is not None:
                seat.conn.close(p.CLOSE_REPLACED, "replaced by a new connection")
            seat.conn = conn
            conn.seat = seat.seat
            if seat.grace is not None:
                seat.grace.cancel()
                seat.grace = None
            if seat.replaced:
                seat.replaced = False
                self._schedule()
            self._catch_up(conn, last_v)
            if news:
                self._broadcast_table()
            else:  # the new connection itself still hears that it is seated again
                conn.send(p.encode("table", self.info()))

        await self.submit(run)

    async def disconnect(self, conn: Conn) -> None:
        if self._stopped:
            return

        async def run() -> None:
            self.spectators.discard(conn)
            if conn.seat is None:
                return
            seat = self.seats[conn.seat]
            if seat.conn is conn:
                seat.conn = None
                self._start_grace(seat)
                self._broadcast_table()

        await self.submit(run)

    async def receive(self, conn: Conn, raw: str | bytes) -> None:
        """Handle one message from a client."""
        msg = p.parse(raw)
        if isinstance(msg, p.Unexpected):
            conn.send(p.error(msg.code, msg.message, msg.a))
            return
        if isinstance(msg, p.Ping):
            conn.send(p.encode("pong", {}))
            return
        await self.submit(lambda: self._handle(conn, msg))

    async def _handle(self, conn: Conn, msg: p.Message) -> None:
        if conn.closing is not None:
            return
        a = msg.a if isinstance(msg, p.Act) else None
        if conn.seat is None:
            conn.send(p.error(p.NOT_SEATED, "spectators may only watch", a))
            return
        seat = self.seats[conn.seat]
        if seat.conn is not conn:
            return
        try:
            if isinstance(msg, p.Act):
                await self._act(conn, seat, msg)
            elif isinstance(msg, p.Chat):
                self._chat(conn, seat, msg)
            elif isinstance(msg, p.Sena):
                self._sena(conn, seat, msg)
            elif isinstance(msg, p.Rematch):
                await self._rematch(seat)
        except TableError as exc:
            conn.send(p.error(exc.code, exc.message, a))

    async def _act(self, conn: Conn, seat: Seat, msg: p.Act) -> None:
        text = str(msg.action)
        done = seat.acks.get(msg.a)
        if done is not None and done[0] == msg.v and done[1] == text:
            conn.send(p.encode("ack", {"a": msg.a, "v": done[2]}))
            return
        if self.state.phase == OVER:
            raise TableError(p.MATCH_OVER, "the match is over")
        if msg.v != self.v:
            raise TableError(
                p.STALE_VERSION,
                f"the action was chosen at version {msg.v}; the table is at {self.v}",
            )
        actor = to_act(self.state)
        if self.status != PLAYING or actor != seat.seat:
            whose = (
                "the match has not started"
                if self.status != PLAYING
                else ("the cards are being dealt" if actor == CHANCE else f"seat {actor} is to act")
            )
            raise TableError(p.NOT_YOUR_TURN, f"not your turn: {whose}")
        try:
            check(self.state, msg.action, seat.seat)
        except IllegalActionError as exc:
            raise TableError(p.ILLEGAL_ACTION, str(exc)) from None
        await self._commit("act", {"seat": seat.seat, "action": text})
        seat.acks[msg.a] = (msg.v, text, self.v)
        while len(seat.acks) > ACKS_KEPT:
            seat.acks.popitem(last=False)
        conn.send(p.encode("ack", {"a": msg.a, "v": self.v}))

    def _chat(self, conn: Conn, seat: Seat, msg: p.Chat) -> None:
        if not self._chat_budget.take(seat.seat):
            raise TableError(p.RATE_LIMITED, "too many messages; wait a little")
        at = datetime.now(UTC).isoformat(timespec="seconds")
        text = p.encode("chat", {"seat": seat.seat, "name": seat.name, "text": msg.text, "at": at})
        for c in self._connections():
            c.send(text)

    def _sena(self, conn: Conn, seat: Seat, msg: p.Sena) -> None:
        if not self._chat_budget.take(seat.seat):
            raise TableError(p.RATE_LIMITED, "too many messages; wait a little")
        teams = self.state.teams
        text = p.encode("sena", {"seat": seat.seat, "sena": msg.sena})
        for other in self.seats:
            if (
                other.seat != seat.seat
                and teams[other.seat] == teams[seat.seat]
                and other.conn is not None
            ):
                other.conn.send(text)

    async def _rematch(self, seat: Seat) -> None:
        if self.state.phase != OVER:
            raise TableError(p.BAD_MESSAGE, "a rematch can only be asked once the match is over")
        seat.rematch = True
        if all(s.rematch or s.kind != HUMAN or s.replaced for s in self.seats):
            mano = (self._first_mano + 1) % self.rules.players
            await self._commit("rematch", {"mano": mano})
        self._broadcast_table()

    # --- applying ---------------------------------------------------------------------------

    async def _commit(
        self,
        kind: str,
        data: dict[str, Any],
        transition: tuple[State, tuple[Event, ...]] | None = None,
    ) -> None:
        """Apply one version: compute it, make it durable, then tell everyone."""
        state, events = transition or self._transition(LogRow(self.v + 1, kind, data))
        status = FINISHED if state.phase == OVER else PLAYING
        try:
            await self.store.append(
                self.id, self.v + 1, kind, data, status if status != self.status else None
            )
        except StoreUnavailable as exc:
            raise unavailable(exc) from None
        except Fenced as exc:
            log.warning("table %s: %s; another process owns it now", self.id, exc)
            self._stopped = True
            for conn in self._connections():
                conn.close(p.CLOSE_MOVED, "the table moved to another server")
            if self.on_lost is not None:
                self.on_lost()
            raise TableError(UNAVAILABLE, "the table moved to another server; reconnect") from None
        if status != self.status and self.on_change is not None:
            self.on_change()
        self.status = status
        self._record(kind, state, events)
        self._schedule()
        self._broadcast_version(kind)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None

    def _bot_plays(self, seat_no: int) -> bool:
        seat = self.seats[seat_no]
        return seat.kind == BOT or seat.replaced

    def _schedule(self) -> None:
        """Arm the timer of the next decision: a deal, a bot's move or a turn's time limit."""
        self._cancel_timer()
        if self.status != PLAYING:
            return
        actor = to_act(self.state)
        if actor is None:
            return
        if actor == CHANCE:
            delay = self.settings.deal_delay if self.state.hand_no else 0.0
        elif self._bot_plays(actor):
            delay = self.settings.bot_delay
        elif self.turn_seconds:
            delay = self.turn_seconds
            self.deadline = time.time() + delay
        else:
            return
        v = self.v
        self._timer = asyncio.get_running_loop().call_later(
            delay, self.post, lambda: self._drive(v)
        )

    def _seed(self, *salt: object) -> str:
        return ":".join(str(x) for x in (self.seed, *salt))

    def _rng(self, *salt: object) -> Random:
        return Random(self._seed(*salt))

    async def _drive(self, v: int) -> None:
        """The timer of version ``v`` fired: deal, or let a bot choose for the seat to act."""
        if v != self.v or self.status != PLAYING:
            return
        actor = to_act(self.state)
        if actor is None:
            return
        try:
            await self._decide(actor)
        except TableError as exc:
            # The database is away: the same decision is tried again (its choice is seeded by
            # the version, so it is the same one) until the write goes through.
            log.warning("table %s: %s; retrying", self.id, exc.message)
            if not self._stopped:
                self._timer = asyncio.get_running_loop().call_later(
                    RETRY_SECONDS, self.post, lambda: self._drive(v)
                )

    async def _decide(self, actor: int) -> None:
        if actor == CHANCE:
            state, events = deal(self.state, self._rng("deal", self.v))
            data = {"hands": [format_cards(h) for h in state.dealt]}
            await self._commit("deal", data, (state, events))
            return
        seat = self.seats[actor]
        level = seat.level if seat.kind == BOT and seat.level else self.settings.takeover_bot
        # Decided in a worker process (botpool), seeded as ``_rng`` would be; only this owner
        # task applies it, and the state cannot change while it waits (it is the owner).
        action = await self._pool.choose(
            level,
            observe(self.state, actor),
            legal_actions(self.state),
            self._seed("bot", self.v, actor),
        )
        await self._commit("act", {"seat": actor, "action": str(action)})


# --- all the tables of a process ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Created:
    table: str
    seat: int
    token: str


class Hub:
    """Every table this process owns.

    Unfinished tables are restored from the log after start-up, a few per turn of the loop (and
    any table at once on its first request), so a restarted server answers at once. Tables
    nobody joined in time expire; a table whose log cannot be replayed is set aside.
    """

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self._loading = asyncio.Lock()
        self._born: dict[str, float] = {}
        """When each table was created (seconds since the epoch): tables expire by it."""
        self._creators: dict[str, set[str]] = {}
        """Each creator's tables that were waiting for players when last seen."""
        self._allowance: dict[str, TokenBucket] = {}
        """Table creation allowance per creator."""
        self._lobby: tuple[float, list[dict[str, Any]]] | None = None
        self._lobby_lock = asyncio.Lock()
        self._jobs: list[asyncio.Task[None]] = []
        self.restored = asyncio.Event()
        """Set once every unfinished table was restored after start-up."""

    async def start(self) -> None:
        await self.store.migrate()
        self._begin(self._restore_all())

    def _begin(self, restore: Coroutine[Any, Any, None]) -> None:
        loop = asyncio.get_running_loop()
        self._jobs = [
            loop.create_task(restore, name="restore"),
            loop.create_task(self._expire_loop(), name="expire"),
        ]

    async def stop(self) -> None:
        for job in self._jobs:
            job.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await job
        self._jobs = []
        for table in list(self.tables.values()):
            await table.stop()
        await self.store.close()

    async def _restore_all(self) -> None:
        """Bring back every unfinished table (their timers and bots run on their own)."""
        while True:
            try:
                ids = await self.store.unfinished()
                break
            except StoreUnavailable as exc:
                log.warning("restoring tables: %s; retrying", exc)
                await asyncio.sleep(RETRY_SECONDS * 5)
        for i, table_id in enumerate(ids):
            if i % max(1, self.settings.restore_batch) == 0:
                await asyncio.sleep(0)  # requests go first: this is catching up, not serving
            try:
                await self.get(table_id)
            except TableError as exc:
                log.warning("table %s not restored: %s", table_id, exc.message)
        self.restored.set()

    async def get(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is None:
                table = await self._restore(table_id)
                if table is None:
                    return None
        table.start()
        return table

    async def _restore(self, table_id: str) -> Table | None:
        """The table rebuilt from its log (called under ``_loading``); None: no such table.

        A table that expired or was set aside is refused; one whose log cannot be replayed (a
        damaged row, a rules change since it was written) is set aside now: every other table
        is served as usual.
        """
        try:
            row = await self.store.load(table_id)
        except StoreUnavailable as exc:
            raise unavailable(exc) from None
        except ValueError as exc:  # a row that is not JSON
            await self._set_aside(table_id, f"a row is not JSON: {exc}")
            raise set_aside(table_id) from None
        if row is None:
            return None
        if row.status == EXPIRED:
            raise TableError(p.TABLE_NOT_FOUND, f"table {table_id} expired: nobody joined in time")
        if row.status == BROKEN:
            raise set_aside(table_id)
        try:
            return self._build(row)
        except Exception as exc:
            await self._set_aside(table_id, f"{type(exc).__name__}: {exc}")
            raise set_aside(table_id) from None

    def _build(self, row: TableRow) -> Table:
        table = Table.from_row(row, self.store, self.settings)
        self._watch(table)
        self.tables[table.id] = table
        self._born[table.id] = row.created_at.timestamp() if row.created_at else time.time()
        return table

    async def _set_aside(self, table_id: str, problem: str) -> None:
        log.error("table %s set aside, its log cannot be replayed: %s", table_id, problem)
        try:
            await self.store.set_broken(table_id, problem)
        except StoreUnavailable as exc:  # marked at the next attempt
            log.warning("table %s: could not mark it: %s", table_id, exc)

    async def create(
        self,
        name: str,
        options: dict[str, Any],
        bots: dict[int, str],
        turn_seconds: float | None,
        creator: str = "",
    ) -> Created:
        """A new table seating its creator; ``creator`` (an address) is held to the limits."""
        try:
            _check_types(options)
            rules = from_options(None, options)
        except TrucoError as exc:
            raise TableError(p.BAD_OPTIONS, str(exc)) from None
        for seat_no, level in bots.items():
            if not 1 <= seat_no < rules.players:
                raise TableError(
                    p.BAD_OPTIONS, f"a bot may take seats 1 to {rules.players - 1}, not {seat_no}"
                )
            try:
                make_bot(level)
            except TrucoError as exc:
                raise TableError(p.BAD_OPTIONS, str(exc)) from None
        self._admit(creator, waits=len(bots) < rules.players - 1)
        table_id = secrets.token_hex(6)
        token = secrets.token_urlsafe(32)
        seats = [Seat(0, name, HUMAN, None, hash_token(token))]
        for s in range(1, rules.players):
            bot_level = bots.get(s)
            if bot_level is None:
                seats.append(Seat(s, "", EMPTY, None, None))
            else:
                seats.append(Seat(s, persona(bot_level, s, table_id), BOT, bot_level, None))
        seed = self.settings.seed if self.settings.seed is not None else secrets.randbits(62)
        try:
            await self.store.create_table(
                table_id, rules.options(), turn_seconds, seed, [s.row() for s in seats]
            )
        except StoreUnavailable as exc:
            raise unavailable(exc) from None
        table = Table(table_id, rules, turn_seconds, seed, seats, self.store, self.settings)
        await self._own(table)
        self._watch(table)
        self.tables[table_id] = table
        self._lobby = None  # a new table: the next lobby lists it
        self._born[table_id] = time.time()
        if creator and table.status == WAITING:
            self._creators.setdefault(creator, set()).add(table_id)
        table.start()
        await table.submit(table._seated)
        return Created(table_id, 0, token)

    def _admit(self, creator: str, waits: bool) -> None:
        """Refuse a new table to a creator over its limits (``p.RATE_LIMITED``); ``waits``: the
        table will wait for players (a table of bots starts at once)."""
        if not creator:
            return
        s = self.settings
        waiting = self._creators.get(creator)
        if waiting and waits:
            waiting.difference_update(
                [t for t in waiting if t not in self.tables or self.tables[t].status != WAITING]
            )
            if len(waiting) >= s.waiting_per_creator:
                raise TableError(
                    p.RATE_LIMITED,
                    f"{len(waiting)} of your tables are waiting for players; "
                    f"at most {s.waiting_per_creator} may wait at once",
                )
            if not waiting:
                del self._creators[creator]
        if len(self._allowance) > 10_000:  # forget the creators that are back to a full burst
            for key in [k for k, b in self._allowance.items() if b.full()]:
                del self._allowance[key]
        bucket = self._allowance.get(creator)
        if bucket is None:
            bucket = TokenBucket(s.tables_burst, s.tables_per_minute / 60)
            self._allowance[creator] = bucket
        if not bucket.take():
            raise TableError(
                p.RATE_LIMITED,
                f"too many new tables: at most {s.tables_burst} at once, "
                f"then {s.tables_per_minute:g} a minute",
            )

    async def _own(self, table: Table) -> None:
        """Hook: a new table is about to start in this process (a cluster takes its lease)."""

    def _watch(self, table: Table) -> None:
        """A change of what the lobby shows of ``table`` (seats, status) drops the cached lobby,
        so that the cache spares the loop from floods of requests, never hides a change. A
        cluster's hub watches its tables itself (its lobby lives in Redis)."""
        if table.on_change is None:
            table.on_change = self._lobby_changed

    def _lobby_changed(self) -> None:
        self._lobby = None

    # --- expiry ---------------------------------------------------------------------------------

    async def _expire_loop(self) -> None:
        period = min(60.0, max(0.5, self.settings.waiting_seconds / 10))
        while True:
            await asyncio.sleep(period)
            try:
                await self.expire_waiting()
            except Exception:
                log.exception("expiring tables failed")

    async def expire_waiting(self, now: float | None = None) -> list[str]:
        """Expire the tables still waiting for players ``waiting_seconds`` after they were
        created; returns their ids. Their connections are closed with ``CLOSE_EXPIRED``."""
        now = time.time() if now is None else now
        cutoff = now - self.settings.waiting_seconds
        old = [
            t for t in self.tables.values() if t.status == WAITING and self._born[t.id] <= cutoff
        ]
        expired = []
        for table in old:

            async def run(table: Table = table) -> bool:
                # On the owner task: a seat taken meanwhile keeps the table.
                if table.status != WAITING:
                    return False
                await self.store.set_status(table.id, EXPIRED)
                table.status = EXPIRED
                return True

            try:
                if not await table.submit(run):
                    continue
            except TableError as exc:
                log.warning("table %s not expired: %s", table.id, exc.message)
                continue
            log.info("table %s expired: nobody joined in time", table.id)
            await self._forget(table.id)
            for conn in table._connections():
                conn.close(CLOSE_EXPIRED, "the table expired: nobody joined in time")
            await table.stop()
            expired.append(table.id)
        return expired

    async def _forget(self, table_id: str) -> None:
        """A table this process holds ended here (it expired)."""
        self.tables.pop(table_id, None)
        self._born.pop(table_id, None)
        self._lobby = None

    # --- the lobby ------------------------------------------------------------------------------

    async def lobby(self, offset: int = 0, limit: int = 50) -> tuple[int, list[dict[str, Any]]]:
        """One page of the open tables, by table id, and how many there are in all.

        Built at most once per ``lobby_cache_seconds`` whatever the number of requests, and
        built in slices that give the loop back to the tables in between.
        """
        entries = self._cached_lobby()
        if entries is None:
            async with self._lobby_lock:
                entries = self._cached_lobby()
                if entries is None:
                    entries = await self._build_lobby()
                    entries.sort(key=lambda e: str(e["table"]))
                    self._lobby = (time.monotonic(), entries)
        return len(entries), entries[offset : offset + limit]

    def _cached_lobby(self) -> list[dict[str, Any]] | None:
        cached = self._lobby
        if cached is None or time.monotonic() - cached[0] >= self.settings.lobby_cache_seconds:
            return None
        return cached[1]

    async def _build_lobby(self) -> list[dict[str, Any]]:
        return await self.local_lobby()

    async def local_lobby(self) -> list[dict[str, Any]]:
        entries = []
        for i, table in enumerate(list(self.tables.values())):
            if i % 1000 == 999:
                await asyncio.sleep(0)
            if table.status == WAITING:
                info = table.info()
                entries.append({k: info[k] for k in ("table", "options", "seats", "status")})
        return entries


def _check_types(options: dict[str, Any]) -> None:
    """Each option's value has its option's own JSON type: ``4.0`` is not a number of players."""
    defaults = Rules()
    for name, value in options.items():
        if name not in OPTION_NAMES:
            continue  # from_options names the unknown ones
        expected = type(getattr(defaults, name))
        if type(value) is not expected:
            kind = {bool: "true or false", int: "a whole number", str: "a string"}.get(
                expected, expected.__name__
            )
            raise RulesError(f"{name} must be {kind}, not {value!r}")


__all__ = ["Conn", "Created", "Hub", "Seat", "Table", "TableError", "hash_token"]

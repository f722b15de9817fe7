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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from random import Random
from typing import Any

from truco import protocol as p
from truco.actions import Action, Deal
from truco.bots import Bot, make_bot
from truco.bots.personas import persona
from truco.cards import format_cards, parse_cards
from truco.engine import CHANCE, apply, check, deal, legal_actions, to_act
from truco.errors import IllegalActionError, TrucoError
from truco.events import Event, visible_to
from truco.notation import HandHistory, from_state
from truco.rules import Rules, from_options
from truco.server.limits import TokenBucket
from truco.server.settings import Settings
from truco.server.store import Fenced, LogRow, SeatRow, Store, StoreUnavailable, TableRow
from truco.state import OVER, PLAY, State, new_match
from truco.view import observe

log = logging.getLogger("truco.server")

HUMAN, BOT, EMPTY = "human", "bot", "empty"
WAITING, PLAYING, FINISHED = "waiting", "playing", "over"
ACKS_KEPT = 64
UNAVAILABLE = p.UNAVAILABLE
MOVED = 4012
"""Close code: this process no longer owns the table; reconnect (to any process)."""
RETRY_SECONDS = 1.0


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class TableError(Exception):
    """A refused request: ``code`` is a protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Conn:
    """One client connection as a table sees it: a seat (None: spectator) and a bounded outbox.

    The WebSocket endpoint drains ``pending`` when ``wake`` is set, and closes the socket with
    ``closing`` once it is set. A client that does not read fast enough is closed, never queued
    without bound.
    """

    def __init__(self, limit: int = 512, burst: int = 10, rate: float = 0.5) -> None:
        self.seat: int | None = None
        self.limit = limit
        self.pending: deque[str] = deque()
        self.wake = asyncio.Event()
        self.closing: tuple[int, str] | None = None
        self.chat = TokenBucket(burst, rate)
        """Chat and señas, which reach other people, have a budget of their own."""

    def send(self, text: str) -> None:
        if self.closing is not None:
            return
        if len(self.pending) >= self.limit:
            self.close(1013, "too slow")
            return
        self.pending.append(text)
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
            self.wake.set()

    def spend(self) -> bool:
        """Take one chat credit; False when the connection is over its rate."""
        return self.chat.take()


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
        self._bots: dict[int, Bot] = {}
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
                    future.set_exception(_unavailable(exc))
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
            bot = make_bot(level)
            name = persona(level, seat.seat, self.id)
            row = SeatRow(seat.seat, name, BOT, level, None)
            await self.store.set_seat(self.id, row, self._status_with(seat))
            seat.name, seat.kind, seat.level, seat.token_hash = name, BOT, level, None
            self._bots[seat.seat] = bot
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
            if seat.conn is not None:
                seat.conn.close(4001, "replaced by a new connection")
            seat.conn = conn
            conn.seat = seat.seat
            if seat.grace is not None:
                seat.grace.cancel()
                seat.grace = None
            if seat.replaced:
                seat.replaced = False
                self._schedule()
            self._catch_up(conn, last_v)
            self._broadcast_table()

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
        if not conn.spend():
            raise TableError(p.RATE_LIMITED, "too many messages; wait a little")
        at = datetime.now(UTC).isoformat(timespec="seconds")
        text = p.encode("chat", {"seat": seat.seat, "name": seat.name, "text": msg.text, "at": at})
        for c in self._connections():
            c.send(text)

    def _sena(self, conn: Conn, seat: Seat, msg: p.Sena) -> None:
        if not conn.spend():
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
            raise _unavailable(exc) from None
        except Fenced as exc:
            log.warning("table %s: %s; another process owns it now", self.id, exc)
            self._stopped = True
            for conn in self._connections():
                conn.close(MOVED, "the table moved to another server")
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

    def _rng(self, *salt: object) -> Random:
        return Random(":".join(str(x) for x in (self.seed, *salt)))

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
        bot = self._bots.get(actor)
        if bot is None:
            seat = self.seats[actor]
            level = seat.level if seat.kind == BOT and seat.level else self.settings.takeover_bot
            bot = self._bots[actor] = make_bot(level)
        action = bot.choose(
            observe(self.state, actor), legal_actions(self.state), self._rng("bot", self.v, actor)
        )
        await self._commit("act", {"seat": actor, "action": str(action)})


# --- all the tables of a process ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Created:
    table: str
    seat: int
    token: str


class Hub:
    """Every table this process owns; unfinished ones are rebuilt from the log on start-up."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self._loading = asyncio.Lock()

    async def start(self) -> None:
        await self.store.migrate()
        for table_id in await self.store.unfinished():
            table = await self.get(table_id)
            if table is not None:
                table.start()

    async def stop(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        await self.store.close()

    async def get(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is None:
                try:
                    row = await self.store.load(table_id)
                except StoreUnavailable as exc:
                    raise _unavailable(exc) from None
                if row is None:
                    return None
                table = Table.from_row(row, self.store, self.settings)
                self.tables[table_id] = table
        table.start()
        return table

    async def create(
        self,
        name: str,
        options: dict[str, Any],
        bots: dict[int, str],
        turn_seconds: float | None,
    ) -> Created:
        try:
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
        await self.store.create_table(
            table_id, rules.options(), turn_seconds, seed, [s.row() for s in seats]
        )
        table = Table(table_id, rules, turn_seconds, seed, seats, self.store, self.settings)
        await self._own(table)
        self.tables[table_id] = table
        table.start()
        await table.submit(table._seated)
        return Created(table_id, 0, token)

    async def _own(self, table: Table) -> None:
        """Hook: a new table is about to start in this process (a cluster takes its lease)."""

    async def lobby(self) -> list[dict[str, Any]]:
        return self.local_lobby()

    def local_lobby(self) -> list[dict[str, Any]]:
        return [
            {k: info[k] for k in ("table", "options", "seats", "status")}
            for info in (t.info() for t in self.tables.values())
            if info["status"] == WAITING
        ]


def _unavailable(exc: StoreUnavailable) -> TableError:
    return TableError(
        UNAVAILABLE, f"the database is unreachable, nothing was applied; try again ({exc})"
    )


__all__ = ["Conn", "Created", "Hub", "Seat", "Table", "TableError", "hash_token"]

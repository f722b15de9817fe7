"""A table as a room: its seats, who is connected and what each is sent, and the owner task.

One owner task applies everything that changes a table, one command at a time: commands (a
player's message, a connection, a seat taken, a timer that fired) go through its queue
(``submit``, ``post``). Here are the commands that seat and connect people and bots, and the
replay of the log (``from_row``), the one path that applies logged actions again. The play (a
player's messages, the commits, the bots the clock drives) is ``table.py``'s ``Table``.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Any, Self

from truco import protocol as p
from truco.actions import Action, Deal
from truco.bots import LEVELS, make_bot
from truco.bots.personas import persona
from truco.cards import Card, parse_cards
from truco.engine import Transition, apply, to_act
from truco.errors import IllegalActionError
from truco.notation import HandHistory, from_state
from truco.rules import Rules, from_options
from truco.server.errors import TableError, unavailable
from truco.server.net.limits import Buckets, spend
from truco.server.players import ratings
from truco.server.players.blocks import Blocks, kicked
from truco.server.players.rated import match_changes
from truco.server.settings import Settings
from truco.server.store.database import Store
from truco.server.store.schema import LogRow, SeatRow, StoreUnavailable, TableRow
from truco.server.tables import botpool, fanout, pista, spell
from truco.server.tables.clock import Clock
from truco.server.tables.conn import Conn
from truco.server.tables.fanout import Version
from truco.server.tables.pista import Pistas
from truco.server.tables.readings import TableReadings
from truco.server.tables.seats import (
    BOT,
    EMPTY,
    HUMAN,
    Seat,
    find_seat,
    free_seat,
    hash_token,
    player_seat,
    seats_json,
)
from truco.server.tables.senas import TableSenas
from truco.state import OVER, PLAY, State, new_match

log = logging.getLogger("truco.server")

WAITING, PLAYING, FINISHED = "waiting", "playing", "over"
EXPIRED, BROKEN = "expired", "broken"
"""Statuses only the store holds: nobody joined in time; the log cannot be replayed."""
MOVED = "the table moved; reconnect"
"""What a command hears that will not run here: the table stopped in this process."""
NOBODY, NO_SHOW, AWAY = "nobody", "no_show", "away"
"""Why a table expired: nobody joined its empty seats; some of its people never came; its one
person (with bots) did not come back."""


def _refuse(future: asyncio.Future[Any] | None, exc: BaseException) -> None:
    """Answer a command's waiter with ``exc``, unless nobody waits or it was answered already."""
    if future is not None and not future.done():
        future.set_exception(exc)


class Room(abc.ABC):
    """One table's match state, seats, connections and owner task; ``Table`` plays it."""

    def __init__(
        self,
        table_id: str,
        *,
        rules: Rules,
        turn_seconds: float | None,
        seed: int,
        seats: list[Seat],
        store: Store,
        settings: Settings,
        rated: bool = False,
        waits: bool = True,
    ) -> None:
        self.id = table_id
        self.rules = rules
        self.turn_seconds = turn_seconds
        self.seed = seed
        self.seats = seats
        self.rated = rated
        self.waits = waits
        """It waits for its people (to come; at a table of one person and bots, for her return).
        A tournament's table does not: its clock plays for whoever is absent."""
        """Its matches move the players' ratings (``rated.py``, docs/players.md)."""
        self._changes: p.Rated | None = None
        """The rating changes of the current match, once it ended rated."""
        self.store = store
        self.settings = settings
        self.state: State = new_match(rules)
        self.v = 0
        self.match = 1
        self.status = WAITING
        self.expired: str | None = None
        """Why the table expired (``AWAY``, ``NO_SHOW``, ``NOBODY``), once it did."""
        self.away_since: float | None = None
        """When the one person of a table of one person and bots went away (seconds since the
        epoch; kept in the store): the table waits for her, paused, and expires after
        ``waiting_seconds``."""
        self.filled_at = time.time()
        """When its seats were all taken (or it was restored): a table whose people did not all
        come expires ``arrival_seconds`` after it."""
        self.recent: deque[Version] = deque(maxlen=settings.history_size)
        self.hands: list[HandHistory] = []
        """The finished hands of the current match."""
        self.spectators: set[Conn] = set()
        self.clock = Clock(settings, turn_seconds, self.post)
        self._pool = botpool.shared(settings.bot_processes, settings.bot_seconds)
        # Allowances per seat, not per connection: connecting again must not refill them.
        self._chat_budget = Buckets(settings.chat_burst, settings.chat_per_second)
        """Chat and señas, which reach other people."""
        self._connect_budget = Buckets(
            settings.seat_connect_burst, settings.seat_connects_per_second
        )
        """Connections (reconnects): each one catches the seat up and tells the table."""
        self._senas = TableSenas(rules.players)
        """The señas of the hand: a person's and the bots', to partners only."""
        self._pistas = Pistas(settings, self._pool)
        """The pistas asked for here: their allowance per seat and the searches under way."""
        self._blocks = Blocks(store)
        """Who mutes or blocks whom: a chat line or seña skips the connections of those who
        mute or block its sender (read from the store at each, so that every process agrees)."""
        self._readings = TableReadings(self._pool)
        """What its expert bot seats have read of their rivals this match."""
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any] | None]]
        self._queue = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._first_mano = 0
        self._stopped = False
        self.on_change: Callable[[], None] | None = None
        """Called when what the lobby shows of the table may have changed (the cluster's lobby)."""
        self.on_lost: Callable[[], None] | None = None
        """Called when the log refused an append: another process owns the table now."""
        self.on_broken: Callable[[str], None] | None = None
        """Called with the problem when one of the table's own commands failed (``_fail``)."""

    # --- building and restoring ---------------------------------------------------------

    @classmethod
    def from_row(cls, row: TableRow, store: Store, settings: Settings) -> Self:
        """A table rebuilt from the database by replaying its log."""
        seats = [Seat.from_row(s) for s in row.seats]
        table = cls(
            row.id,
            rules=from_options(None, row.options),
            turn_seconds=row.turn_seconds,
            seed=row.seed,
            seats=seats,
            store=store,
            settings=settings,
            rated=row.rated,
            waits=row.waits,
        )
        table.status = row.status
        if row.away_since is not None:
            table.away_since = row.away_since.timestamp()
        for entry in row.log:
            table._record(entry.kind, table._replay(entry))
        return table

    def _replay(self, entry: LogRow) -> Transition:
        """The transition of a logged entry: the only place a logged action is applied again."""
        data = entry.data
        if entry.kind == "deal":
            hands = tuple(tuple(parse_cards(h)) for h in data["hands"])
            vira = Card.parse(data["vira"]) if data.get("vira") else None
            return apply(self.state, Deal(hands, vira))
        if entry.kind == "act":
            seat, action = data["seat"], Action.parse(data["action"])
            if to_act(self.state) != seat:
                raise IllegalActionError(f"version {entry.seq}: seat {seat} is not to act")
            return apply(self.state, action)
        if entry.kind == "rematch":
            return Transition(new_match(self.rules, mano=data["mano"]), ())
        raise ValueError(f"unknown log entry {entry.kind!r}")

    def _record(self, kind: str, transition: Transition) -> bool:
        """Record a committed (or replayed) transition; True when it ended a hand."""
        before = self.state
        state = self.state = transition.state
        self.v += 1
        if kind == "rematch":
            self.recent.clear()
            self.hands.clear()
            self.match += 1
            self._first_mano = state.mano
            self._readings.restart()
            for seat in self.seats:
                seat.rematch = False
        else:
            self.recent.append(Version(self.v, state, transition.events))
        if before.phase == PLAY and state.phase != PLAY:
            self.hands.append(from_state(state))
            return True
        return False

    def start(self) -> None:
        """Start the owner task, the timers, and the grace period of everyone not connected."""
        if self._task is not None:
            return
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        for seat in self.seats:
            if seat.kind == HUMAN and seat.conn is None and not seat.replaced:
                self._start_grace(seat)
        if self.paused() and self.away_since is None:  # she went away with the last process
            self.away_since = time.time()
            self.post(self._store_away)
        self._schedule()

    async def stop(self) -> None:
        self._stopped = True
        self.clock.cancel()
        for seat in self.seats:
            if seat.grace is not None:
                seat.grace.cancel()
        self._pistas.stop()
        self._readings.stop()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        # Whoever still waits on a queued command hears that it will not run here.
        while not self._queue.empty():
            _, future = self._queue.get_nowait()
            _refuse(future, TableError(p.UNAVAILABLE, MOVED))

    # --- the owner ----------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            fn, future = await self._queue.get()
            try:
                result = await fn()
            except asyncio.CancelledError:
                # ``stop`` cancels the owner in the middle of a command (the hub expiring or
                # setting aside a table while a person's action waits on its commit): whoever
                # waits on that command hears it will not run here, as the queued ones do,
                # rather than waiting for ever.
                _refuse(future, TableError(p.UNAVAILABLE, MOVED))
                raise
            except StoreUnavailable as exc:
                log.warning("table %s: database unavailable: %s", self.id, exc)
                _refuse(future, unavailable(exc))
            except TableError as exc:
                if future is not None and not future.done():
                    future.set_exception(exc)
                else:
                    log.warning("table %s: %s", self.id, exc.message)
            except Exception as exc:
                # Anything else is the table's own failure, whoever's command met it (a bot's
                # turn, or the señas of the bots after a person's action).
                self._fail(exc)
                _refuse(future, exc)
            else:
                if future is not None and not future.done():
                    future.set_result(result)

    def _fail(self, exc: Exception) -> None:
        """A command failed other than by refusing a request: the table cannot go on.
        It stops taking commands, its people are told, and it is set aside (``on_broken``)
        rather than left waiting for a turn that will never come."""
        problem = f"a command failed: {type(exc).__name__}: {exc}"
        log.error("table %s: %s", self.id, problem, exc_info=exc)
        self._stopped = True
        self.clock.cancel()
        self.status = BROKEN
        for conn in self.connections():
            conn.close(p.CLOSE_NOT_FOUND, "the table is set aside: it cannot go on")
        if self.on_broken is not None:
            self.on_broken(problem)

    async def submit(self, fn: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``fn`` on the owner task, after every command queued before it."""
        if self._stopped:
            raise TableError(p.UNAVAILABLE, MOVED)
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
            "seats": seats_json(self.seats),
            "status": self.status,
            "v": self.v,
            "match": self.match,
            "turn_seconds": self.turn_seconds,
            "pista": pista.allowed(self.seats) and not self.rated,
            "rated": self.rated,
            "paused": self.paused(),
            "arriving": self.arriving(),
            "expired": self.expired,
            "score": list(self.state.score),
        }

    def connections(self) -> list[Conn]:
        return fanout.connections(self.seats, self.spectators)

    def full(self, conn: Conn) -> str:
        return fanout.full(
            conn, self.v, self.state, info=self.info(), deadline=self.clock.deadline_ms()
        )

    def _broadcast_table(self) -> None:
        if self.on_change is not None:
            self.on_change()
        fanout.send_all(self.connections(), p.encode("table", self.info()))

    def _broadcast_version(self, kind: str, ack: tuple[Conn, int] | None = None) -> bool:
        """Tell every connection of the new version; True if the ``ev`` to ``ack``'s connection
        carried its acknowledgement (``fanout.send_version``)."""
        if kind == "rematch":
            for conn in self.connections():
                conn.send(self.full(conn))
            return False
        return fanout.send_version(
            self.recent[-1], self.seats, self.spectators, self.clock.deadline_ms(), ack
        )

    def _catch_up(self, conn: Conn, last_v: int) -> None:
        missed = fanout.missed(self.recent, self.v, last_v)
        if missed is None:
            conn.send(self.full(conn))
            return
        for ver in missed:
            conn.send(fanout.ev(ver, conn.seat, self.clock.deadline_ms()))

    # --- seats ----------------------------------------------------------------------------

    def find_seat(self, token: str) -> Seat | None:
        return find_seat(self.seats, token)

    async def join(
        self, name: str, seat_no: int | None, player_id: str | None = None
    ) -> tuple[int, str]:
        """Seat a person (``player_id``: the player's identity, if known); returns the seat and
        its token."""

        async def run() -> tuple[int, str]:
            seat = free_seat(self.seats, seat_no)
            if self.rated and player_id is not None and player_seat(self.seats, player_id):
                # Two seats of one player would rate him on both sides (or twice on one).
                raise TableError(p.SEAT_TAKEN, "you have a seat at this rated table already")
            if await kicked(self.store, self.id, player_id):
                raise TableError(p.REMOVED, "the table's creator removed you from this table")
            token = secrets.token_urlsafe(32)
            row = SeatRow(seat.seat, name, HUMAN, None, hash_token(token), player_id)
            # Written first, with the status it brings: a failed write changes nothing.
            await self.store.set_seat(self.id, row, self._status_with(seat))
            seat.name, seat.kind, seat.level, seat.token_hash = name, HUMAN, None, row.token_hash
            seat.player_id = player_id
            self._start_grace(seat)
            await self._seated(stored=True)
            return seat.seat, token

        result: tuple[int, str] = await self.submit(run)
        return result

    async def add_bot(self, seat_no: int, level: str) -> None:
        async def run() -> None:
            seat = free_seat(self.seats, seat_no)
            make_bot(level)  # an unknown level is refused here, before anything changes
            if self.rated:
                check_rated(self.rules, [level])
            name = persona(level, seat.seat, self.id)
            row = SeatRow(seat.seat, name, BOT, level, None)
            await self.store.set_seat(self.id, row, self._status_with(seat))
            seat.name, seat.kind, seat.level, seat.token_hash = name, BOT, level, None
            seat.player_id = None
            await self._seated(stored=True)

        await self.submit(run)

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
            self.filled_at = time.time()
            self._schedule()
        self._broadcast_table()

    # --- away: who plays for a person who left ---------------------------------------------

    def alone(self) -> bool:
        """One person and bots in every other seat: nobody else waits for her."""
        kinds = [s.kind for s in self.seats]
        return kinds.count(HUMAN) == 1 and kinds.count(BOT) == len(kinds) - 1

    def arriving(self) -> bool:
        """Its seats are all taken but not all of its people came yet: it does not start (and
        expires ``arrival_seconds`` after it was filled, ``hub.expire_waiting``)."""
        return (
            self.waits
            and self.status == PLAYING
            and self.v == 0
            and any(s.kind == HUMAN and not s.came for s in self.seats)
        )

    def paused(self) -> bool:
        """The one person of a table of one person and bots is away: nobody plays for her and
        no clock runs until she is back (it expires ``waiting_seconds`` after she left)."""
        return (
            self.waits
            and self.status == PLAYING
            and self.alone()
            and all(s.conn is None for s in self.seats if s.kind == HUMAN)
        )

    def held(self) -> bool:
        """Nothing is decided at the table now (``paused`` or ``arriving``)."""
        return self.arriving() or self.paused()

    async def _store_away(self) -> None:
        since = None if self.away_since is None else datetime.fromtimestamp(self.away_since, UTC)
        try:
            await self.store.set_away(self.id, since)
        except StoreUnavailable as exc:  # the table still waits; a restart counts anew
            log.warning("table %s: away time not written: %s", self.id, exc)

    def _start_grace(self, seat: Seat) -> None:
        async def over() -> None:
            seat.grace = None
            # Nobody plays for a person who never came (the table waits for its people), nor
            # for the one person of a table of bots (it waits for her).
            if self.arriving() or (self.waits and self.alone()):
                return
            if seat.kind == HUMAN and seat.conn is None and not seat.replaced:
                spell.begin(seat, self.match, len(self.hands))
                await self._store_spell(seat)
                self._broadcast_table()
                self._schedule()

        self.clock.grace(seat, over)

    async def _store_spell(self, seat: Seat) -> None:
        try:
            await self.store.set_seat(self.id, seat.row())
        except StoreUnavailable as exc:  # the caretaker plays (or stops) all the same
            log.warning("table %s: seat %d's caretaker not written: %s", self.id, seat.seat, exc)

    # --- connections ----------------------------------------------------------------------

    async def connect(
        self, conn: Conn, token: str | None, last_v: int, player_id: str | None = None
    ) -> None:
        """Bind ``conn`` to the seat of ``token``, or without one to the seat of ``player_id``
        (the player's identity: any device of the player takes the seat back), and catch it
        up; with neither, ``conn`` is a spectator."""

        async def run() -> None:
            if token is None:
                seat = player_seat(self.seats, player_id)
                if seat is None:
                    conn.player = player_id
                    self.spectators.add(conn)
                    self._catch_up(conn, last_v)
                    await self._tell_rating(conn)
                    return
            else:
                seat = self.find_seat(token)
            if seat is None:
                raise TableError(p.BAD_TOKEN, "this token holds no seat at this table")
            settings = self.settings
            spend(
                self._connect_budget,
                seat.seat,
                "this seat connected too often",
                burst=settings.seat_connect_burst,
                per_second=settings.seat_connects_per_second,
            )
            # What the others see changes only if the seat was away (or a bot played for it):
            # a connection that replaces an open one is not news for the table.
            news = seat.conn is None or seat.replaced
            held = self.held()
            if seat.conn is not None:
                seat.conn.close(p.CLOSE_REPLACED, "replaced by a new connection")
            seat.conn = conn
            seat.came = True
            conn.seat = seat.seat
            conn.player = seat.player_id
            self.clock.end_grace(seat)
            if self.away_since is not None and not self.paused():
                self.away_since = None
                await self._store_away()
            told = None
            if seat.replaced:
                told = spell.end(seat, self.match, len(self.hands), self.state.score)
                await self._store_spell(seat)
                self._schedule()
            elif held and not self.held():
                self._schedule()
            self._catch_up(conn, last_v)
            self._senas.catch_up(self.state, conn, seat.seat, await self._hidden_seats(seat))
            seat.spell = told if told and told["hands"] else None  # in this message only
            if news:
                self._broadcast_table()
            else:  # the new connection itself still hears that it is seated again
                conn.send(p.encode("table", self.info()))
            seat.spell = None
            await self._tell_rating(conn)

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
                if self.paused():
                    self.away_since = time.time()
                    await self._store_away()
                    self._schedule()  # no clock runs while she is away
                else:
                    self._start_grace(seat)
                self._broadcast_table()

        await self.submit(run)

    async def _tell_rating(self, conn: Conn) -> None:
        """A connection to a rated table whose match is over hears its rating changes too (after
        a restart they are read back from the database)."""
        if not self.rated or self.state.phase != OVER:
            return
        if self._changes is None:
            try:
                async with self.store.reading() as db:
                    self._changes = await match_changes(db, self.id, self.match)
            except StoreUnavailable as exc:  # the game goes on: the changes wait for later
                log.warning("table %s: rating changes not read: %s", self.id, exc)
                return
        if self._changes is not None:
            conn.send(p.encode("rated", p.rated_json(self._changes)))

    async def _hiding(self, sender: Seat, conns: Iterable[Conn]) -> set[Conn]:
        """Those of ``conns`` whose player mutes or blocks the person of ``sender``."""
        if sender.player_id is None:
            return set()
        conns = list(conns)
        players = {c.player for c in conns if c.player is not None}
        players.discard(sender.player_id)
        try:
            owners = await self._blocks.hiding(sender.player_id, players)
        except StoreUnavailable as exc:
            # Sent to nobody rather than to someone who muted its sender.
            raise unavailable(exc) from None
        return {c for c in conns if c.player in owners}

    async def _hidden_seats(self, seat: Seat) -> set[int]:
        """The seats of the people the person of ``seat`` mutes or blocks."""
        others = {s.player_id: s.seat for s in self.seats if s.player_id and s is not seat}
        if seat.player_id is None or not others:
            return set()
        try:
            kinds = await self._blocks.targets(seat.player_id, set(others))
        except StoreUnavailable as exc:
            log.warning("table %s: mutes not read: %s", self.id, exc)
            return set(others.values())
        return {others[pid] for found in kinds.values() for pid in found}

    @abc.abstractmethod
    def _schedule(self) -> None:
        """Arm the timer of the next decision (the play's: ``Table._schedule``)."""


def check_rated(rules: Rules, bots: Iterable[str]) -> None:
    """Refuse a rated table of ``rules`` with these bot levels (docs/players.md): the standard
    game only, and bots of the levels offered to people (their ratings are calibrated)."""
    mode = ratings.mode_of(rules)
    if mode is None:
        raise TableError(
            p.BAD_OPTIONS, "only the standard game with 2, 4 or 6 players can be rated"
        )
    for level in bots:
        if ratings.bot_skill(mode, level.strip().lower()) is None:
            raise TableError(
                p.BAD_OPTIONS,
                f"a rated table takes bots of the levels {', '.join(LEVELS)}, not {level!r}",
            )


__all__ = [
    "AWAY",
    "BROKEN",
    "EXPIRED",
    "FINISHED",
    "NOBODY",
    "NO_SHOW",
    "PLAYING",
    "WAITING",
    "Room",
    "check_rated",
]

"""The hub: every table this process owns, and what spans tables.

It creates tables (holding each creator to the limits), restores the unfinished ones from the
log after start-up, expires those nobody joined in time, sets aside those whose log cannot be
replayed, and serves the lobby. A cluster's hub (``cluster_hub.py``) adds leases and the tables
other processes own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

from truco import protocol as p
from truco.bots import make_bot
from truco.bots.personas import persona
from truco.errors import RulesError, TrucoError
from truco.rules import OPTION_NAMES, Rules, from_options
from truco.server.errors import CLOSE_EXPIRED, TableError, set_aside_error, unavailable
from truco.server.net.limits import TokenBucket
from truco.server.settings import Settings
from truco.server.store.database import Store
from truco.server.store.schema import StoreUnavailable, TableRow
from truco.server.tables.clock import RETRY_SECONDS
from truco.server.tables.handle import TableHandle
from truco.server.tables.room import AWAY, NO_SHOW, NOBODY
from truco.server.tables.rows import check_row
from truco.server.tables.seats import BOT, EMPTY, HUMAN, Seat, hash_token
from truco.server.tables.table import BROKEN, EXPIRED, WAITING, Table, check_rated

log = logging.getLogger("truco.server")


EXPIRED_REASONS = {
    NOBODY: "the table expired: nobody joined in time",
    NO_SHOW: "the table expired: not all of its players came",
    AWAY: "the table expired: its player did not come back",
}
"""The close reason of each way a table expires (``Room.expired``)."""

LOBBY_KEYS = ("table", "options", "seats", "status", "rated")
"""What the lobby shows of a table (``info()``'s fields)."""


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
        self._breaking: set[asyncio.Task[None]] = set()
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

    async def get(self, table_id: str) -> TableHandle | None:
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
            raise set_aside_error(table_id) from None
        if row is None:
            return None
        if row.status == EXPIRED:
            raise TableError(p.TABLE_NOT_FOUND, f"table {table_id} expired: nobody played at it")
        if row.status == BROKEN:
            raise set_aside_error(table_id)
        try:
            check_row(row)
            return self._build(row)
        except Exception as exc:
            await self._set_aside(table_id, f"{type(exc).__name__}: {exc}")
            raise set_aside_error(table_id) from None

    def _build(self, row: TableRow) -> Table:
        table = Table.from_row(row, self.store, self.settings)
        self._watch(table)
        self.tables[table.id] = table
        self._born[table.id] = row.created_at.timestamp() if row.created_at else time.time()
        return table

    async def _set_aside(self, table_id: str, problem: str) -> None:
        log.error("table %s set aside: %s", table_id, problem)
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
        *,
        creator: str = "",
        player_id: str | None = None,
        rated: bool = False,
    ) -> Created:
        """A new table seating its creator (``player_id``: the creator's identity, if known);
        ``creator`` (an address) is held to the limits."""
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
        if rated:
            check_rated(rules, bots.values())
            turn_seconds = self.rated_clock(turn_seconds)
        self._admit(creator, waits=len(bots) < rules.players - 1)
        token = secrets.token_urlsafe(32)
        table = await self.open(
            rules, {0: (name, hash_token(token), player_id)}, bots, turn_seconds, rated=rated
        )
        if creator and table.status == WAITING:
            self._creators.setdefault(creator, set()).add(table.id)
        return Created(table.id, 0, token)

    async def open(
        self,
        rules: Rules,
        people: dict[int, tuple[str, str, str | None]],
        bots: dict[int, str],
        turn_seconds: float | None,
        *,
        rated: bool = False,
        waits: bool = True,
    ) -> Table:
        """A new table, started, with ``people`` (seat -> name, token hash and player id, if
        known) and ``bots`` (seat -> level) seated; checked by the caller (``rated`` too), held
        to no creator's limits. ``waits``: false for a table that never waits for its people
        (a tournament's: its clock plays for whoever is absent)."""
        if rated:  # a rated table has a clock in the range always (the queue's is clamped)
            low, high = self.settings.rated_turn_range
            turn_seconds = min(max(turn_seconds or self.settings.rated_turn_seconds, low), high)
        prefix = self.settings.table_prefix
        table_id = prefix + secrets.token_hex(6)[len(prefix) :]
        seats = []
        for s in range(rules.players):
            bot_level = bots.get(s)
            if s in people:
                name_s, token_hash, player = people[s]
                seats.append(Seat(s, name_s, HUMAN, None, token_hash, player))
            elif bot_level is None:
                seats.append(Seat(s, "", EMPTY, None, None))
            else:
                seats.append(Seat(s, persona(bot_level, s, table_id), BOT, bot_level, None))
        seed = self.settings.seed if self.settings.seed is not None else secrets.randbits(62)
        try:
            await self.store.create_table(
                table_id,
                rules.options(),
                turn_seconds,
                seed,
                [s.row() for s in seats],
                rated,
                waits,
            )
        except StoreUnavailable as exc:
            raise unavailable(exc) from None
        table = Table(
            table_id,
            rules=rules,
            turn_seconds=turn_seconds,
            seed=seed,
            seats=seats,
            store=self.store,
            settings=self.settings,
            rated=rated,
            waits=waits,
        )
        await self._own(table)
        self._watch(table)
        self.tables[table_id] = table
        self._lobby = None  # a new table: the next lobby lists it
        self._born[table_id] = time.time()
        table.start()
        await table.submit(table._seated)
        return table

    def rated_clock(self, turn_seconds: float | None) -> float:
        """The turn clock of a new rated table asked with ``turn_seconds`` (None: the default);
        refused (``p.BAD_OPTIONS``) outside ``Settings.rated_turn_range``."""
        if turn_seconds is None:
            return self.settings.rated_turn_seconds
        low, high = self.settings.rated_turn_range
        if not low <= turn_seconds <= high:
            raise TableError(
                p.BAD_OPTIONS,
                f"a rated table has a turn clock of {low:g} to {high:g} seconds, "
                f"not {turn_seconds:g}",
            )
        return turn_seconds

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
        cluster's hub watches its tables itself (its lobby lives in Redis). A table whose
        command failed is set aside (``_break``)."""
        if table.on_change is None:
            table.on_change = self._lobby_changed
        table.on_broken = lambda problem: self._keep(self._break(table, problem))

    def _keep(self, coro: Coroutine[Any, Any, None]) -> None:
        # The loop holds only weak references to tasks: keep each until it is done.
        task = asyncio.get_running_loop().create_task(coro)
        self._breaking.add(task)
        task.add_done_callback(self._breaking.discard)

    async def _break(self, table: Table, problem: str) -> None:
        """Set aside a table whose command failed while it played: marked in the store with
        ``problem`` (``truco admin tables --broken``), gone from the lobby and from this
        process; its people were told (``Room._fail``)."""
        await self._set_aside(table.id, problem)
        if self.tables.get(table.id) is table:
            await self._forget(table.id)
        await table.stop()

    def _lobby_changed(self) -> None:
        self._lobby = None

    # --- expiry ---------------------------------------------------------------------------------

    async def _expire_loop(self) -> None:
        s = self.settings
        least = min(s.waiting_seconds, s.arrival_seconds)
        period = min(60.0, max(0.5, least / 10))
        while True:
            await asyncio.sleep(period)
            try:
                await self.expire_waiting()
            except Exception:
                log.exception("expiring tables failed")

    def _why_expired(self, table: Table, now: float) -> str | None:
        """Why ``table`` is to expire now (None: it is kept)."""
        s = self.settings
        if table.status == WAITING and self._born[table.id] <= now - s.waiting_seconds:
            return NOBODY
        if table.arriving() and table.filled_at <= now - s.arrival_seconds:
            return NO_SHOW
        away = table.away_since
        if table.paused() and away is not None and away <= now - s.waiting_seconds:
            return AWAY
        return None

    async def expire_waiting(self, now: float | None = None) -> list[str]:
        """Expire the tables nobody plays at; returns their ids. A table still waiting for
        players ``waiting_seconds`` after it was created (``NOBODY``); one whose seats are
        taken but whose people did not all come within ``arrival_seconds`` (``NO_SHOW``: it
        never started, so it is not rated); one of one person and bots whose person has been
        away ``waiting_seconds`` (``AWAY``: a rated one counts as her loss). Its people hear
        why (the ``table`` message's ``expired``), then their connections are closed with
        ``CLOSE_EXPIRED``."""
        now = time.time() if now is None else now
        old = [t for t in self.tables.values() if self._why_expired(t, now) is not None]
        expired = []
        for table in old:

            async def run(table: Table = table) -> bool:
                # On the owner task: a seat taken or a person back meanwhile keeps the table.
                why = self._why_expired(table, now)
                if why is None:
                    return False
                await self.store.expire(table.id, table.abandoned() if why == AWAY else None)
                table.status = EXPIRED
                table.expired = why
                return True

            try:
                if not await table.submit(run):
                    continue
            except TableError as exc:
                log.warning("table %s not expired: %s", table.id, exc.message)
                continue
            log.info("table %s expired (%s)", table.id, table.expired)
            await self._forget(table.id)
            told = p.encode("table", table.info())
            for conn in table.connections():
                conn.send(told)
                conn.close(CLOSE_EXPIRED, EXPIRED_REASONS.get(table.expired or "", "expired"))
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
                entries.append({k: info[k] for k in LOBBY_KEYS})
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


__all__ = ["LOBBY_KEYS", "Created", "Hub"]

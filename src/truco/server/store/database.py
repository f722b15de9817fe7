"""Persistence: tables, seats and each table's event log (SQLAlchemy 2 async; SQLite in WAL mode).

The log holds one row per table version: a deal (the hands dealt, so recovery needs no seed), an
action (seat and notation) or a rematch. ``append`` commits before it returns; the table owner
calls it before anyone hears of the new version, so a crash never loses an acknowledged action.

The log is also the fence between processes (docs/operations.md): an append is refused unless its
sequence number is the next one of that table's log, so a process that lost a table (its lease
ran out while it was paused, or another process took it) can never write over the new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Insert,
    Table,
    bindparam,
    event,
    func,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from truco.server.store.pg_log import PgLog
from truco.server.store.schema import (
    OPEN,
    BrokenRow,
    Fenced,
    Finishing,
    LogRow,
    SeatRow,
    StoreUnavailable,
    TableRow,
    check_next,
    collided,
    events_t,
    seats_t,
    tables_t,
)
from truco.server.store.sqlite_log import SqliteLog

Pending = tuple[dict[str, Any], str | None, Finishing | None, "asyncio.Future[Any]"]
"""A log entry waiting for its commit: the row, the table's new status, what it finishes."""


# Serialises the migrations of several processes starting at once against one PostgreSQL.
_MIGRATION_LOCK = 7_447_001


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(at: datetime) -> datetime:
    # SQLite keeps no time zone: what it gives back was written in UTC.
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _sqlite_pragmas(
    dbapi_connection: DBAPIConnection | sqlite3.Connection,
    record: ConnectionPoolEntry | None,
    busy_ms: int = 10000,
) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode survives a crash of the process (SIGKILL); FULL would also survive a
    # power cut, at an fsync per action.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
    cursor.close()


def _upgrade(connection: Any) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


class Store:
    """The database of a server process."""

    def __init__(self, url: str, wait_seconds: float = 10.0) -> None:
        self.url = url
        if url.startswith("sqlite"):
            busy_ms = int(wait_seconds * 1000)
            # timeout: the driver's own wait for the lock, which comes before busy_timeout's.
            self.engine: AsyncEngine = create_async_engine(
                url, connect_args={"timeout": wait_seconds}
            )
            event.listen(
                self.engine.sync_engine,
                "connect",
                lambda conn, record: _sqlite_pragmas(conn, record, busy_ms),
            )
        else:
            # A database that went away must fail a request in seconds, not hang it: the client
            # hears "unavailable" and the pool replaces the dead connections once it is back.
            self.engine = create_async_engine(
                url,
                pool_pre_ping=True,
                pool_size=10,
                connect_args={"timeout": 5, "command_timeout": 10},
            )
        # One writer at a time (SQLite has one write lock: waiting on it in the driver's busy
        # loop costs far more than waiting here), and log appends grouped into one transaction.
        self._lock = asyncio.Lock()
        self._pending: list[Pending] = []
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        # The log's appends skip the async engine (a hop to its thread or a round trip per
        # statement, once most of an action's CPU): SQLite's commit on the loop's own thread
        # (``sqlite_log``), PostgreSQL's in one statement a batch (``pg_log``).
        self.log: SqliteLog | PgLog | None = None
        parts = make_url(url)
        if parts.drivername.startswith("postgresql") and not parts.query:
            self.log = PgLog(
                {
                    "host": parts.host,
                    "port": parts.port,
                    "user": parts.username,
                    "password": parts.password,
                    "database": parts.database,
                    "timeout": 5,
                    "command_timeout": 10,
                }
            )
        if url.startswith("sqlite"):
            database = parts.database
            if database and database != ":memory:" and not database.startswith("file:"):
                self.log = SqliteLog(
                    database, wait_seconds, lambda db, busy_ms: _sqlite_pragmas(db, None, busy_ms)
                )

    async def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic)."""
        async with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execute(text(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})"))
            await conn.run_sync(_upgrade)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self.log is not None:
            await self.log.close()
        await self.engine.dispose()

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncConnection]:
        """One transaction that writes, in turn with every other writer of this process; any
        failure to reach the database becomes ``StoreUnavailable`` (for the stores of other
        modules: ``players.py``)."""
        async with _guard(), self._lock, self.engine.begin() as conn:
            yield conn

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection that only reads (failures become ``StoreUnavailable``)."""
        async with _guard(), self.engine.connect() as conn:
            yield conn

    async def create_table(
        self,
        table_id: str,
        options: dict[str, Any],
        turn_seconds: float | None,
        seed: int,
        seats: list[SeatRow],
        rated: bool = False,
        waits: bool = True,
    ) -> None:
        async with _guard(), self._lock, self.engine.begin() as conn:
            await conn.execute(
                tables_t.insert().values(
                    waits=waits,
                    id=table_id,
                    created_at=_now(),
                    options=json.dumps(options),
                    turn_seconds=turn_seconds,
                    seed=seed,
                    status="waiting",
                    rated=rated,
                )
            )
            await conn.execute(
                seats_t.insert(),
                [
                    {
                        "table_id": table_id,
                        "seat": s.seat,
                        "name": s.name,
                        "kind": s.kind,
                        "level": s.level,
                        "token_hash": s.token_hash,
                        "player_id": s.player_id,
                        **_spell_values(s),
                    }
                    for s in seats
                ],
            )

    async def set_seat(self, table_id: str, row: SeatRow, status: str | None = None) -> None:
        """Seat someone, and in the same transaction set the table's new ``status``."""
        async with _guard(), self._lock, self.engine.begin() as conn:
            await conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == row.seat)
                .values(
                    name=row.name,
                    kind=row.kind,
                    level=row.level,
                    token_hash=row.token_hash,
                    player_id=row.player_id,
                    **_spell_values(row),
                )
            )
            if status is not None:
                await conn.execute(
                    update(tables_t).where(tables_t.c.id == table_id).values(status=status)
                )

    async def set_broken(self, table_id: str, problem: str) -> None:
        """Set a table aside: its log cannot be replayed (``problem`` says why)."""
        async with _guard(), self._lock, self.engine.begin() as conn:
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status="broken", problem=problem[:2000])
            )

    async def broken(self) -> list[BrokenRow]:
        """The tables set aside, oldest first."""
        async with _guard(), self.engine.connect() as conn:
            rows = await conn.execute(
                select(tables_t.c.id, tables_t.c.created_at, tables_t.c.problem)
                .where(tables_t.c.status == "broken")
                .order_by(tables_t.c.created_at)
            )
            return [BrokenRow(r.id, _utc(r.created_at), r.problem or "") for r in rows]

    async def set_status(self, table_id: str, status: str) -> None:
        async with _guard(), self._lock, self.engine.begin() as conn:
            await conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(status=status)
            )

    async def set_away(self, table_id: str, since: datetime | None) -> None:
        """When the one person of a table of one person and bots went away (None: back)."""
        async with _guard(), self._lock, self.engine.begin() as conn:
            await conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(away_since=since)
            )

    async def expire(self, table_id: str, finish: Finishing | None = None) -> Any:
        """Mark a table expired, and write what ``finish`` writes (a rated match left
        unfinished) in the same transaction; returns what that returns."""
        async with _guard(), self._lock, self.engine.begin() as conn:
            await conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(status="expired")
            )
            return await finish.write(conn) if finish is not None else None

    async def append(
        self,
        table_id: str,
        seq: int,
        kind: str,
        data: dict[str, Any],
        status: str | None = None,
        finish: Finishing | None = None,
    ) -> Any:
        """Commit one version of a table's log (and its new status); returns once it is durable.

        Appends that arrive while a commit is running go together in the next transaction; one
        that ends a rated match (``finish``) has a transaction of its own, which also writes
        what ``finish`` writes, and returns what that returns.
        """
        row = {"table_id": table_id, "seq": seq, "kind": kind, "data": json.dumps(data)}
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((row, status, finish, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())
        self._wake.set()
        return await future

    async def _write(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                taken, self._pending = self._pending, []
                # A rated match's end goes alone: its ratings must not fail other tables' rows.
                batch = [item for item in taken if item[2] is None]
                for item in (item for item in taken if item[2] is not None):
                    await self._write_alone(item)
                if not batch:
                    continue
                try:
                    await self._commit(batch)
                except Fenced:
                    # One refused row must not fail the others of its batch: write them alone.
                    for item in batch:
                        await self._write_alone(item)
                except Exception as exc:
                    _fail(batch, exc)
                else:
                    _succeed(batch)

    async def _write_alone(self, item: Pending) -> None:
        try:
            result = await self._commit([item])
        except Exception as exc:
            _fail([item], exc)
        else:
            _succeed([item], result)

    async def _commit(self, batch: list[Pending]) -> Any:
        """Write ``batch`` in one transaction; returns what a ``finish`` of it wrote."""
        if self.log is not None and all(finish is None for _, _, finish, _ in batch):
            async with self._lock:
                await self.log.commit([(row, status) for row, status, _, _ in batch])
            return None
        # The engine's way, for a rated match's end (its ratings go in the same transaction) and
        # the URLs the log's own writers do not take: the heads, the rows, the new statuses.
        async with self._lock, self.engine.begin() as conn:
            ids = sorted({row["table_id"] for row, _, _, _ in batch})
            heads: dict[str, int] = {
                table_id: seq
                for table_id, seq in (
                    await conn.execute(
                        select(events_t.c.table_id, func.max(events_t.c.seq))
                        .where(events_t.c.table_id.in_(ids))
                        .group_by(events_t.c.table_id)
                    )
                ).all()
            }
            check_next(heads, (row for row, _, _, _ in batch))
            at = _now()
            try:
                # Someone who wrote since the heads were read holds one of these keys.
                await conn.execute(events_t.insert(), [{**row, "at": at} for row, _, _, _ in batch])
            except IntegrityError:
                raise collided([row for row, _, _, _ in batch]) from None
            statuses = [
                {"tid": row["table_id"], "new": status}
                for row, status, _, _ in batch
                if status is not None
            ]
            if statuses:
                await conn.execute(
                    update(tables_t)
                    .where(tables_t.c.id == bindparam("tid"))
                    .values(status=bindparam("new")),
                    statuses,
                )
            finished = [finish for _, _, finish, _ in batch if finish is not None]
            return await finished[0].write(conn) if finished else None

    async def load(self, table_id: str) -> TableRow | None:
        async with _guard(), self.engine.connect() as conn:
            row = (await conn.execute(select(tables_t).where(tables_t.c.id == table_id))).first()
            if row is None:
                return None
            seats = (
                await conn.execute(
                    select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
                )
            ).all()
            log = (
                await conn.execute(
                    select(events_t.c.seq, events_t.c.kind, events_t.c.data)
                    .where(events_t.c.table_id == table_id)
                    .order_by(events_t.c.seq)
                )
            ).all()
        # A row that is not JSON raises here (ValueError): the hub sets such a table aside.
        return TableRow(
            id=row.id,
            options=json.loads(row.options),
            turn_seconds=row.turn_seconds,
            seed=row.seed,
            status=row.status,
            seats=tuple(
                SeatRow(
                    s.seat,
                    s.name,
                    s.kind,
                    s.level,
                    s.token_hash,
                    s.player_id,
                    None if s.spell_match is None else (s.spell_match, s.spell_hands or 0),
                )
                for s in seats
            ),
            log=tuple(LogRow(e.seq, e.kind, json.loads(e.data)) for e in log),
            created_at=_utc(row.created_at),
            problem=row.problem,
            rated=bool(row.rated),
            away_since=_utc(row.away_since) if row.away_since is not None else None,
            waits=bool(row.waits),
        )

    async def exists(self, table_id: str) -> bool:
        async with _guard(), self.engine.connect() as conn:
            found = await conn.execute(select(tables_t.c.id).where(tables_t.c.id == table_id))
            return found.first() is not None

    async def unfinished(self) -> list[str]:
        """The ids of tables whose match goes on (waiting or playing), oldest first."""
        async with _guard(), self.engine.connect() as conn:
            rows = await conn.execute(
                select(tables_t.c.id)
                .where(tables_t.c.status.in_(OPEN))
                .order_by(tables_t.c.created_at)
            )
            return [r.id for r in rows]


def insert_new(conn: AsyncConnection, table: Table) -> Insert:
    """An INSERT into ``table`` that leaves a row whose key is there already as it is (SQLite
    and PostgreSQL alike)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    insert: Insert = dialect.insert(table).on_conflict_do_nothing()
    return insert


@contextlib.asynccontextmanager
async def _guard() -> AsyncIterator[None]:
    """Any failure to reach the database becomes ``StoreUnavailable``."""
    try:
        yield
    except (StoreUnavailable, Fenced):
        raise
    except Exception as exc:
        raise StoreUnavailable(_reason(exc)) from exc


def _spell_values(row: SeatRow) -> dict[str, int | None]:
    """A seat's caretaker spell (``SeatRow.spell_from``) as its two columns."""
    match, hands = row.spell_from or (None, None)
    return {"spell_match": match, "spell_hands": hands}


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": ")


def _fail(batch: list[Pending], exc: Exception) -> None:
    if not isinstance(exc, Fenced | StoreUnavailable):
        exc = StoreUnavailable(_reason(exc))
    for _, _, _, future in batch:
        if not future.done():
            future.set_exception(exc)


def _succeed(batch: list[Pending], result: Any = None) -> None:
    for _, _, _, future in batch:
        if not future.done():
            future.set_result(result)

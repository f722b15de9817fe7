"""SQLite's log appends: committed on the event loop's own thread when the write lock is free.

A commit of a few log rows in WAL mode with ``synchronous=NORMAL`` is a few tens of microseconds
of CPU and no fsync; handing it to a thread and back cost three times that (the thread's wake,
the GIL passed both ways, the loop's wake through its self-pipe; docs/operations.md, "Fourth
pass"). So a batch is first tried on the loop's thread, on a connection that never waits for
the lock (``busy_timeout=0``): within a process every writer takes the store's lock first, so
the write lock is free unless another process holds it. Only then does the batch go to the
log's thread, on a connection that waits as long as the store waits, so the loop never stalls
on someone else's transaction. The same holds for the WAL's checkpoints, the one part of a
commit that copies pages and syncs the file: the loop's connection never checkpoints on its
own, and every ``CHECKPOINT_EVERY`` commits the thread runs a passive one (which never blocks a
writer, and which SQLite would otherwise run inside a commit on the loop).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, Final

from truco.server.store.schema import Row, check_next, collided

log = logging.getLogger("truco.server")

CHECKPOINT_EVERY: Final = 256
"""Commits on the loop's connection between two passive checkpoints in the log's thread (a few
rows and pages each: a WAL of a few MB at most before it is copied back)."""


def _busy(exc: sqlite3.OperationalError) -> bool:
    return getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class SqliteLog:
    """The log appends of one SQLite file. Its caller holds the store's writer lock around
    ``commit``, so two commits never overlap."""

    def __init__(
        self, path: str, wait_seconds: float, pragmas: Callable[[sqlite3.Connection, int], None]
    ) -> None:
        self._path = path
        self._wait = wait_seconds
        self._pragmas = pragmas
        self._fast: sqlite3.Connection | None = None
        self._slow: sqlite3.Connection | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Future[None] | None = None
        self.contended = 0
        """Batches that found the write lock held and went to the log's thread."""
        self.checkpoints = 0
        """Passive checkpoints run by the log's thread."""

    async def commit(self, rows: Sequence[tuple[Row, str | None]]) -> None:
        """Write ``rows`` (each with its table's new status, or None) in one transaction, or
        raise ``Fenced`` if one of them is not the next version of its table's log."""
        try:
            if self._fast is None:
                # The loop's connection leaves the WAL to the thread's checkpoints.
                self._fast = self._connect(0, checkpoints=False)
            _write(self._fast, rows)
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            self.contended += 1
            await self._in_thread(self._write_slow, rows)
        else:
            self._since_checkpoint += 1
            if self._since_checkpoint >= CHECKPOINT_EVERY and self._checkpointing is None:
                self._since_checkpoint = 0
                self._checkpointing = asyncio.ensure_future(self._in_thread(self._checkpoint))
                self._checkpointing.add_done_callback(self._checked)

    async def close(self) -> None:
        if self._checkpointing is not None:
            await asyncio.gather(self._checkpointing, return_exceptions=True)
        if self._fast is not None:
            self._fast.close()
            self._fast = None
        if self._thread is not None:
            if self._slow is not None:
                await self._in_thread(self._slow.close)
                self._slow = None
            self._thread.shutdown(wait=False)
            self._thread = None

    def _connect(self, busy_ms: int, checkpoints: bool = True) -> sqlite3.Connection:
        db = sqlite3.connect(
            self._path, timeout=busy_ms / 1000, isolation_level=None, check_same_thread=False
        )
        try:
            self._pragmas(db, busy_ms)
            if not checkpoints:
                db.execute("PRAGMA wal_autocheckpoint=0")
        except BaseException:
            db.close()
            raise
        return db

    async def _in_thread(self, work: Callable[..., Any], *args: Any) -> Any:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="truco-log")
        return await asyncio.get_running_loop().run_in_executor(self._thread, work, *args)

    def _waiting(self) -> sqlite3.Connection:
        """The log thread's connection, which waits for the lock as long as the store does."""
        if self._slow is None:
            self._slow = self._connect(int(self._wait * 1000))
        return self._slow

    def _write_slow(self, rows: Sequence[tuple[Row, str | None]]) -> None:
        _write(self._waiting(), rows)

    def _checkpoint(self) -> None:
        self._waiting().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        self.checkpoints += 1

    def _checked(self, done: asyncio.Future[None]) -> None:
        self._checkpointing = None
        if not done.cancelled() and done.exception() is not None:
            # A checkpoint that failed leaves the pages in the WAL for the next one: no row lost.
            log.warning("the log's checkpoint failed: %s", done.exception())


def _write(db: sqlite3.Connection, rows: Sequence[tuple[Row, str | None]]) -> None:
    """The three statements of a batch in one transaction: the heads of the logs, the rows, the
    new statuses."""
    ids = sorted({row["table_id"] for row, _ in rows})
    db.execute("BEGIN IMMEDIATE")
    try:
        marks = ",".join("?" * len(ids))
        heads: dict[str, int] = dict(
            db.execute(
                "SELECT table_id, max(seq) FROM truco_events"
                f" WHERE table_id IN ({marks}) GROUP BY table_id",
                ids,
            ).fetchall()
        )
        check_next(heads, (row for row, _ in rows))
        # As the engine writes a DateTime in SQLite: UTC, without its zone.
        at = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
        try:
            db.executemany(
                "INSERT INTO truco_events (table_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)",
                [(r["table_id"], r["seq"], r["kind"], r["data"], at) for r, _ in rows],
            )
        except sqlite3.IntegrityError:
            raise collided([row for row, _ in rows]) from None
        db.executemany(
            "UPDATE truco_tables SET status = ? WHERE id = ?",
            [(status, r["table_id"]) for r, status in rows if status is not None],
        )
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise

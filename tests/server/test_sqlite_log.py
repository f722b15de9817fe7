"""SQLite's log appends commit on the loop's thread, and leave it for the log's thread when the
write lock is held by someone else (another process) or when the WAL is to be checkpointed."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

from truco.server import sqlite_url
from truco.server.store.database import Store
from truco.server.store.schema import SeatRow
from truco.server.store.sqlite_log import CHECKPOINT_EVERY, SqliteLog


def _run(
    path: Path,
    body: Callable[[Store], Awaitable[None]],
    tables: int = 1,
    wait_seconds: float = 10.0,
) -> None:
    """``body`` with a store on the file ``path`` that holds ``tables`` tables (t0, t1...)."""

    async def run() -> None:
        store = Store(sqlite_url(str(path)), wait_seconds=wait_seconds)
        await store.migrate()
        try:
            for n in range(tables):
                seats = [SeatRow(0, "Ana", "human", None, None)]
                await store.create_table(f"t{n}", {}, None, 1, seats)
            await body(store)
        finally:
            await store.close()

    asyncio.run(run())


def test_a_held_write_lock_is_waited_for_off_the_loop(tmp_path: Path) -> None:
    db = tmp_path / "log.db"

    async def body(store: Store) -> None:
        log = store.log
        assert isinstance(log, SqliteLog)
        await store.append("t0", 1, "rematch", {"mano": 0})
        assert log.contended == 0
        other = sqlite3.connect(db, isolation_level=None)  # as another process would
        other.execute("BEGIN IMMEDIATE")
        append = asyncio.create_task(store.append("t0", 2, "rematch", {"mano": 1}))
        # The append waits for the lock in the log's thread: the loop goes on meanwhile.
        ticks = 0
        while ticks < 20:
            await asyncio.sleep(0.01)
            ticks += 1
        assert not append.done()
        other.execute("COMMIT")
        other.close()
        await asyncio.wait_for(append, 10)
        assert log.contended == 1
        await store.append("t0", 3, "rematch", {"mano": 0})  # and the loop's path again
        assert log.contended == 1
        row = await store.load("t0")
        assert row is not None
        assert [(e.seq, e.data["mano"]) for e in row.log] == [(1, 0), (2, 1), (3, 0)]

    _run(db, body)


def test_a_lock_held_too_long_is_an_error_and_nothing_is_written(tmp_path: Path) -> None:
    db = tmp_path / "log.db"

    async def body(store: Store) -> None:
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            failed = await asyncio.gather(
                store.append("t0", 1, "rematch", {"mano": 0}), return_exceptions=True
            )
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert "locked" in str(failed[0])
        await store.append("t0", 1, "rematch", {"mano": 1})  # the same version, now written
        row = await store.load("t0")
        assert row is not None and [(e.seq, e.data["mano"]) for e in row.log] == [(1, 1)]

    _run(db, body, wait_seconds=0.2)


def test_the_wal_is_checkpointed_by_the_logs_thread(tmp_path: Path) -> None:
    db = tmp_path / "log.db"

    async def body(store: Store) -> None:
        log = store.log
        assert isinstance(log, SqliteLog)
        size = db.stat().st_size
        for seq in range(1, CHECKPOINT_EVERY // 8 + 2):
            for n in range(8):
                await store.append(f"t{n}", seq, "act", {"seat": 0, "action": "x" * 500})
        for _ in range(500):
            if log.checkpoints:
                break
            await asyncio.sleep(0.01)
        assert log.checkpoints == 1
        # The rows' pages were copied from the WAL into the database's own file.
        assert db.stat().st_size > size

    _run(db, body, tables=8)
    with sqlite3.connect(db) as conn:
        count = conn.execute("SELECT count(*) FROM truco_events").fetchone()[0]
    assert count == 8 * (CHECKPOINT_EVERY // 8 + 1)

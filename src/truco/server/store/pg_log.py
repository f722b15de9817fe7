"""PostgreSQL's log appends: a batch in one statement, one round trip, on a connection of its own.

Through the async engine a group commit cost five round trips (the pool's ping on checkout,
``BEGIN``, the heads, the rows, ``COMMIT``) and SQLAlchemy's work around each: a third of a
cluster server's CPU (docs/operations.md, "Fourth pass"). Here the batch is one statement with
its own implicit transaction: the rows go in only if every one of them is the next version of
its table's log (else nothing is written and ``Fenced`` is raised, as the engine's transaction
did), and the tables' new statuses are set in the same statement. Two processes that write the
same version at once meet on the log's primary key: one of them gets ``Fenced`` too.

A connection that fails is dropped and the next batch opens a new one (within the engine's own
timeouts: 5 s to connect, 10 s a statement), so a database that went away and came back costs
the batches in between their ``StoreUnavailable``, nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import asyncpg

from truco.server.store.schema import Fenced, Row, collided, not_next

_APPEND = """
WITH batch AS (
    SELECT * FROM unnest($1::varchar[], $2::int[], $3::varchar[], $4::text[], $5::varchar[])
        AS b(table_id, seq, kind, data, status)
), fresh AS (
    SELECT batch.* FROM batch
    WHERE batch.seq = 1 + coalesce(
        (SELECT max(e.seq) FROM truco_events AS e WHERE e.table_id = batch.table_id), 0)
), whole AS (
    SELECT (SELECT count(*) FROM fresh) = (SELECT count(*) FROM batch) AS ok
), written AS (
    INSERT INTO truco_events (table_id, seq, kind, data, at)
    SELECT table_id, seq, kind, data, $6::timestamptz FROM fresh WHERE (SELECT ok FROM whole)
    RETURNING table_id
), moved AS (
    UPDATE truco_tables AS t SET status = fresh.status FROM fresh
    WHERE t.id = fresh.table_id AND fresh.status IS NOT NULL AND (SELECT ok FROM whole)
    RETURNING t.id
)
SELECT count(*) FROM written
"""
"""The whole batch, or nothing: the rows written (all of them, or 0 when one is not next)."""


class PgLog:
    """The log appends of one PostgreSQL database. Its caller holds the store's writer lock
    around ``commit``, so the connection runs one statement at a time."""

    def __init__(self, connect: dict[str, Any]) -> None:
        self._connect = connect
        self._conn: Any = None

    async def commit(self, rows: Sequence[tuple[Row, str | None]]) -> None:
        """Write ``rows`` (each with its table's new status, or None), or raise ``Fenced`` if one
        of them is not the next version of its table's log (then none is written)."""
        try:
            if self._conn is None:
                self._conn = await asyncpg.connect(**self._connect)
            written = await self._conn.fetchval(
                _APPEND,
                [r["table_id"] for r, _ in rows],
                [r["seq"] for r, _ in rows],
                [r["kind"] for r, _ in rows],
                [r["data"] for r, _ in rows],
                [status for _, status in rows],
                datetime.now(UTC),
            )
        except asyncpg.UniqueViolationError:
            raise collided([row for row, _ in rows]) from None
        except BaseException:
            await self.close()
            raise
        if written != len(rows):
            raise Fenced(not_next(rows[0][0]) if len(rows) == 1 else "a row is not next")

    @property
    def connected(self) -> bool:
        """Whether the log's own connection is open (it opens with the first batch)."""
        return self._conn is not None

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.terminate()

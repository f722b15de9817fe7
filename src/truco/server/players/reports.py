"""Reports of a player, or of one of his chat lines, kept for the operator
(``truco admin reports``; docs/players.md, "Denunciar").

A report names its reporter and the reported player by identity (``identity.py``), the table
and seat where he was seen and the name he had there, a reason among ``REASONS``, the
reporter's own words (at most ``Settings.report_text_most`` characters) and, for a message, the
line as the reporter's page showed it (the server keeps no chat: it is the reporter's quote, at
most ``QUOTE_MOST`` characters). A player may send ``Settings.reports_per_day`` reports in 24
hours; each is kept as a row of its own (the same player reported again is another report).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from sqlalchemy import Column, DateTime, Index, Integer, String, Table, Text, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from truco import protocol as p
from truco.server.store.database import Store
from truco.server.store.schema import metadata, players_t

REASONS: Final = ("acoso", "trampa", "nombre", "spam", "otro")
"""Why: harassment, cheating (a partner's cards told outside the señas, say), an offensive name,
spam, something else."""
QUOTE_MOST: Final = p.MAX_CHAT
"""The longest quoted chat line: a chat line's most."""

reports_t = Table(
    "truco_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("reporter_id", String(32), nullable=False),
    Column("target_id", String(32), nullable=False),
    Column("target_name", String(64), nullable=False),
    Column("table_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("reason", String(16), nullable=False),
    Column("text", Text, nullable=False),
    Column("quoted", Text, nullable=True),
    Index("ix_truco_reports_reporter", "reporter_id", "created_at"),
)
"""One report: who reported whom, where, why, and what was said."""


class TooManyReports(Exception):
    """The reporter sent ``most`` reports in the last 24 hours."""


@dataclass(frozen=True, slots=True)
class Report:
    id: int
    at: datetime
    reporter: str
    """The reporter's claimed name, or her player id when she has none."""
    target: str
    """The reported player's id."""
    target_name: str
    table: str | None
    seat: int | None
    reason: str
    text: str
    quoted: str | None


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


async def _send(conn: AsyncConnection, most: int, values: dict[str, object]) -> bool:
    reporter = values["reporter_id"]
    if conn.dialect.name == "postgresql":
        await conn.execute(
            select(players_t.c.id).where(players_t.c.id == reporter).with_for_update()
        )
    since = datetime.now(UTC) - timedelta(days=1)
    count = await conn.execute(
        select(func.count())
        .select_from(reports_t)
        .where(reports_t.c.reporter_id == reporter, reports_t.c.created_at >= since)
    )
    if count.scalar_one() >= most:
        return False
    await conn.execute(reports_t.insert().values(**values))
    return True


class Reports:
    """The reports of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def send(
        self,
        reporter: str,
        target: str,
        target_name: str,
        *,
        table: str | None,
        seat: int | None,
        reason: str,
        text: str,
        quoted: str | None,
        most: int,
    ) -> None:
        """Keep a report; raises :class:`TooManyReports` past ``most`` in 24 hours."""
        values: dict[str, object] = {
            "created_at": datetime.now(UTC),
            "reporter_id": reporter,
            "target_id": target,
            "target_name": target_name[:64],
            "table_id": table,
            "seat": seat,
            "reason": reason,
            "text": text,
            "quoted": quoted,
        }
        async with self.store.writing() as conn:
            sent = await _send(conn, most, values)
        if not sent:
            raise TooManyReports(most)

    async def listed(self, limit: int = 100, target: str | None = None) -> list[Report]:
        """The newest reports first (of one reported player id, or of all)."""
        reporter = players_t.alias("reporter")
        query = (
            select(reports_t, reporter.c.name.label("reporter_name"))
            .outerjoin(reporter, reporter.c.id == reports_t.c.reporter_id)
            .order_by(reports_t.c.created_at.desc(), reports_t.c.id.desc())
            .limit(limit)
        )
        if target is not None:
            query = query.where(reports_t.c.target_id == target)
        async with self.store.reading() as conn:
            rows = await conn.execute(query)
            return [
                Report(
                    r.id,
                    _utc(r.created_at),
                    r.reporter_name or r.reporter_id,
                    r.target_id,
                    r.target_name,
                    r.table_id,
                    r.seat,
                    r.reason,
                    r.text,
                    r.quoted,
                )
                for r in rows
            ]


__all__ = ["QUOTE_MOST", "REASONS", "Report", "Reports", "TooManyReports", "reports_t"]

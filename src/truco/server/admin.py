"""``truco admin``: what an operator asks of a server's database (docs/operations.md)."""

from __future__ import annotations

import asyncio
import json
import os
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, case, func, select

from truco.server.exercises.service import Pass, generation_pass, in_thread
from truco.server.exercises.store import Exercises
from truco.server.players.rated import rivals
from truco.server.players.reports import Report, Reports
from truco.server.players.sightings import seen_together
from truco.server.settings import Settings, sqlite_url
from truco.server.store.database import Store
from truco.server.store.schema import BrokenRow


def database_url(db: str) -> str:
    """``TRUCO_DATABASE_URL`` if set (as ``truco serve``), else the SQLite file ``db``."""
    return os.environ.get("TRUCO_DATABASE_URL") or sqlite_url(db)


async def broken_tables(url: str) -> list[BrokenRow]:
    store = Store(url)
    try:
        await store.migrate()
        return await store.broken()
    finally:
        await store.close()


def list_broken(db: str, as_json: bool) -> str:
    """The tables set aside because their log could not be replayed, one per line."""
    rows = asyncio.run(broken_tables(database_url(db)))
    if as_json:
        return json.dumps(
            [
                {"table": r.id, "created_at": r.created_at.isoformat(), "problem": r.problem}
                for r in rows
            ]
        )
    if not rows:
        return "no table is set aside"
    return "\n".join(f"{r.id}  {r.created_at:%Y-%m-%d %H:%M}  {r.problem}" for r in rows)


EARLY: float = 0.2
"""A match the loser ended with at most this share of the winner's points was conceded early
(the 0 to 30 of somebody who went to the mazo at every hand)."""


async def one_sided(url: str, days: float, matches: int) -> list[dict[str, Any]]:
    """Pairs of people who met in at least ``matches`` rated matches (1v1 or on opposite sides)
    in the last ``days`` days, always won by the same one: results to review for rating farming
    (docs/players.md). With each: how many of them the loser left or conceded early, and whether
    the two were seen from one address in those days. Newest first."""
    store = Store(url)
    try:
        await store.migrate()
        since = datetime.now(UTC) - timedelta(days=days)
        mine, theirs, facing = rivals()
        query = (
            select(
                mine.c.player_id,
                mine.c.name,
                theirs.c.player_id.label("rival_id"),
                theirs.c.name.label("rival"),
                func.count().label("met"),
                func.sum(case((mine.c.won, 1), else_=0)).label("won"),
                func.sum(case((theirs.c.left, 1), else_=0)).label("rival_left"),
                func.sum(
                    case(
                        (
                            and_(
                                mine.c.won,
                                theirs.c.points.is_not(None),
                                mine.c.points.is_not(None),
                                theirs.c.points <= mine.c.points * EARLY,
                            ),
                            1,
                        ),
                        else_=0,
                    )
                ).label("rival_early"),
                func.max(mine.c.finished_at).label("last"),
            )
            .select_from(mine)
            .join(theirs, facing)
            .where(
                mine.c.player_id.is_not(None),
                theirs.c.player_id.is_not(None),
                mine.c.finished_at >= since,
            )
            .group_by(mine.c.player_id, mine.c.name, theirs.c.player_id, theirs.c.name)
        )
        async with store.reading() as conn:
            rows = (await conn.execute(query)).all()
        rows = [r for r in rows if int(r.met) >= matches and int(r.won) == int(r.met)]
        together = await seen_together(
            store, [(r.player_id, r.rival_id) for r in rows], since.date()
        )
    finally:
        await store.close()
    flagged = [
        {
            "winner": r.name,
            "loser": r.rival,
            "matches": int(r.met),
            "loser_left": int(r.rival_left),
            "loser_early": int(r.rival_early),
            "same_address": (r.player_id, r.rival_id) in together,
            "last": r.last.isoformat(timespec="seconds"),
        }
        for r in rows
    ]
    return sorted(flagged, key=lambda f: str(f["last"]), reverse=True)


def list_flags(db: str, as_json: bool, days: float = 7, matches: int = 3) -> str:
    """``truco admin flags``: the one-sided pairs of rated rivals, one per line."""
    flagged = asyncio.run(one_sided(database_url(db), days, matches))
    if as_json:
        return json.dumps(flagged)
    if not flagged:
        return "no result is flagged"
    return "\n".join(
        f"{f['winner']} beat {f['loser']} in all {f['matches']} rated matches "
        f"({f['loser_left']} left, {f['loser_early']} conceded early"
        f"{'; seen from one address' if f['same_address'] else ''}), the last at {f['last']}"
        for f in flagged
    )


async def reports(url: str, limit: int) -> list[Report]:
    store = Store(url)
    try:
        await store.migrate()
        return await Reports(store).listed(limit)
    finally:
        await store.close()


def list_reports(db: str, as_json: bool, limit: int = 100) -> str:
    """The players' reports, newest first: when, who reported, whom (his name then and his
    player id), where, why, the reporter's words and the quoted line."""
    rows = asyncio.run(reports(database_url(db), limit))
    if as_json:
        return json.dumps(
            [
                {
                    "id": r.id,
                    "at": r.at.isoformat(),
                    "reporter": r.reporter,
                    "player": r.target,
                    "name": r.target_name,
                    "table": r.table,
                    "seat": r.seat,
                    "reason": r.reason,
                    "text": r.text,
                    "quoted": r.quoted,
                }
                for r in rows
            ],
            ensure_ascii=False,
        )
    if not rows:
        return "no report"
    lines = []
    for r in rows:
        where = f" at {r.table} seat {r.seat}" if r.table else ""
        lines.append(
            f"#{r.id}  {r.at:%Y-%m-%d %H:%M}  {r.reason}  {r.target_name!r} ({r.target}){where}"
            f"  by {r.reporter}"
        )
        if r.quoted:
            lines.append(f"    said: {r.quoted!r}")
        if r.text:
            lines.append(f"    {r.text!r}")
    return "\n".join(lines)


async def exercises_pass(url: str, settings: Settings) -> Pass:
    store = Store(url)
    try:
        await store.migrate()
        return await generation_pass(Exercises(store), settings, in_thread)
    finally:
        await store.close()


def make_exercises(
    db: str, as_json: bool, *, tables: int | None = None, worlds: int | None = None
) -> str:
    """``truco admin ejercicios``: one generation pass (docs/players.md, "Ejercicios"), with the
    server's bounds (``TRUCO_EXERCISES_*``) unless ``tables`` or ``worlds`` say otherwise."""
    overrides: dict[str, Any] = {}
    if tables is not None:
        overrides["exercises_tables"] = max(1, min(tables, 10_000))
    if worlds is not None:
        overrides["exercises_worlds"] = max(1, min(worlds, 5000))
    settings = Settings.from_env(**overrides)
    done = asyncio.run(exercises_pass(database_url(db), settings))
    if as_json:
        return json.dumps({"tables": done.tables, "found": done.found})
    return f"{done.tables} finished tables read, {done.found} exercises kept"


__all__ = [
    "broken_tables",
    "database_url",
    "list_broken",
    "list_flags",
    "list_reports",
    "make_exercises",
    "one_sided",
    "reports",
]

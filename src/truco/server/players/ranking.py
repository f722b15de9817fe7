"""The players' pages on the server (docs/players.md): the ranking of a mode, a player's ratings,
rating history and rated matches, and the browser's addresses of those pages.

Only claimed names are listed: a player's ratings are found by his name, as the ranking shows
it. The ranking is one indexed read per page and is kept ``CACHE_SECONDS``, so that a flood of
requests costs the database one read a second per page asked for.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import FastAPI, Query, Request, Response
from pydantic import BaseModel
from sqlalchemy import func, select

from truco.server.errors import TableError
from truco.server.players import ratings
from truco.server.players.accounts import name_key
from truco.server.players.periods import Period, period_page, period_start
from truco.server.players.rated import ratings_t, results_t
from truco.server.players.records import Players
from truco.server.store.database import Store
from truco.server.store.schema import players_t

PLAYER_NOT_FOUND = "player_not_found"
"""No player has claimed that name (HTTP 404)."""
NAME_REQUIRED = "name_required"
"""A rated table was asked for, or joined, by a player without a claimed name (HTTP 403)."""

PAGE, PAGE_MAX = 50, 200
"""The ranking's page: its default and largest size."""
MATCHES, MATCHES_MAX = 20, 100
"""A player's rated matches per page: default and largest."""
HISTORY = 200
"""The points of a player's rating history per mode: his last rated matches."""
OFFSET_MAX = 1_000_000
CACHE_SECONDS = 1.0
CACHE_PAGES = 256
"""Ranking pages kept (mode, period, offset, size); the oldest is dropped first."""


Mode = Literal["1v1", "2v2", "3v3"]


class LeaderboardRow(BaseModel):
    name: str
    rating: int
    matches: int
    """All-time: his rated matches in the mode; a period's: those he finished in it."""
    provisional: bool
    gained: int | None = None
    """A period's ranking: the rating points he won in it (the sum of its matches' changes)."""
    won: int | None = None
    """A period's ranking: the matches of it he won."""


class LeaderboardBody(BaseModel):
    mode: Mode
    period: Period = "all"
    since: str | None = None
    """When the period began (ISO 8601, UTC); null for the all-time ranking."""
    players: list[LeaderboardRow]


class ModeRating(BaseModel):
    rating: int
    matches: int
    provisional: bool


class HistoryPoint(BaseModel):
    at: str
    rating: int


class Someone(BaseModel):
    name: str
    level: str | None
    """A bot's level (its name is its persona); null for a person."""


class PlayedMatch(BaseModel):
    table: str
    match: int
    mode: Mode
    at: str
    result: Literal["won", "lost", "left"]
    before: int
    after: int
    partners: list[Someone]
    rivals: list[Someone]
    replay: str
    """The replay viewer's address of the match."""


class PlayerBody(BaseModel):
    name: str
    ratings: dict[str, ModeRating]
    history: dict[str, list[HistoryPoint]]
    matches: list[PlayedMatch]


class Ranking:
    """The ranking's pages, each read at most once per ``CACHE_SECONDS``."""

    def __init__(self, store: Store, zone: ZoneInfo) -> None:
        self.store = store
        self.zone = zone
        self._pages: OrderedDict[
            tuple[str, str, datetime | None, int, int], tuple[float, int, list[dict[str, Any]]]
        ]
        self._pages = OrderedDict()

    def since(self, period: Period, now: datetime | None = None) -> datetime | None:
        return period_start(period, now or datetime.now(UTC), self.zone)

    async def page(
        self, mode: str, offset: int, limit: int, period: Period = "all"
    ) -> tuple[int, list[dict[str, Any]]]:
        since = self.since(period)
        # The start is in the key: at midnight on Monday the week's page is a new page.
        key = (mode, period, since, offset, limit)
        cached = self._pages.get(key)
        if cached is not None and time.monotonic() - cached[0] < CACHE_SECONDS:
            return cached[1], cached[2]
        if since is not None:
            async with self.store.reading() as conn:
                total, players = await period_page(conn, mode, since, offset, limit)
            return self._keep(key, total, players)
        claimed = (ratings_t.c.mode == mode) & players_t.c.name.is_not(None)
        joined = ratings_t.join(players_t, players_t.c.id == ratings_t.c.player_id)
        async with self.store.reading() as conn:
            total = (
                await conn.execute(select(func.count()).select_from(joined).where(claimed))
            ).scalar_one()
            rows = (
                await conn.execute(
                    select(players_t.c.name, ratings_t.c.rating, ratings_t.c.matches)
                    .select_from(joined)
                    .where(claimed)
                    .order_by(ratings_t.c.rating.desc(), players_t.c.name_key)
                    .offset(offset)
                    .limit(limit)
                )
            ).all()
        players = [
            {
                "name": r.name,
                "rating": r.rating,
                "matches": r.matches,
                "provisional": ratings.provisional(r.matches),
            }
            for r in rows
        ]
        return self._keep(key, int(total), players)

    def _keep(
        self, key: tuple[str, str, datetime | None, int, int], total: int, players: list[Any]
    ) -> tuple[int, list[dict[str, Any]]]:
        self._pages[key] = (time.monotonic(), total, players)
        self._pages.move_to_end(key)
        while len(self._pages) > CACHE_PAGES:
            self._pages.popitem(last=False)
        return total, players


async def player_page(
    store: Store, player_id: str, name: str, *, offset: int, limit: int
) -> dict[str, Any]:
    """What ``GET /api/players/{name}`` answers for the player ``player_id``."""
    async with store.reading() as conn:
        rated = (
            await conn.execute(select(ratings_t).where(ratings_t.c.player_id == player_id))
        ).all()
        history: dict[str, list[dict[str, Any]]] = {}
        for mode in ratings.MODES:
            rows = (
                await conn.execute(
                    select(
                        results_t.c.finished_at,
                        results_t.c.rating_before,
                        results_t.c.rating_after,
                    )
                    .where(results_t.c.player_id == player_id, results_t.c.mode == mode)
                    .order_by(results_t.c.finished_at.desc())
                    .limit(HISTORY + 1)
                )
            ).all()
            if not rows:
                continue
            points = [{"at": _iso(r.finished_at), "rating": r.rating_after} for r in rows[:HISTORY]]
            if len(rows) <= HISTORY:  # the whole history: it starts where the first match did
                points.append({"at": _iso(rows[-1].finished_at), "rating": rows[-1].rating_before})
            history[mode] = points[::-1]
        mine = (
            await conn.execute(
                select(results_t)
                .where(results_t.c.player_id == player_id)
                .order_by(results_t.c.finished_at.desc(), results_t.c.table_id)
                .offset(offset)
                .limit(limit)
            )
        ).all()
        others = (
            (
                await conn.execute(
                    select(results_t).where(results_t.c.table_id.in_({r.table_id for r in mine}))
                )
            ).all()
            if mine
            else []
        )
    matches = []
    for r in mine:
        seats = [o for o in others if o.table_id == r.table_id and o.match == r.match]
        seats.sort(key=lambda o: int(o.seat))

        def who(o: Any) -> dict[str, Any]:
            return {"name": o.name, "level": o.level}

        matches.append(
            {
                "table": r.table_id,
                "match": r.match,
                "mode": r.mode,
                "at": _iso(r.finished_at),
                "result": "left" if r.left else "won" if r.won else "lost",
                "before": r.rating_before,
                "after": r.rating_after,
                "partners": [who(o) for o in seats if o.team == r.team and o.seat != r.seat],
                "rivals": [who(o) for o in seats if o.team != r.team],
                "replay": f"/r/{r.table_id}?match={r.match}",
            }
        )
    return {
        "name": name,
        "ratings": {
            row.mode: {
                "rating": row.rating,
                "matches": row.matches,
                "provisional": ratings.provisional(row.matches),
            }
            for row in rated
            if row.matches > 0
        },
        "history": history,
        "matches": matches,
    }


def skill_lookup(store: Store) -> Callable[[str, str], Awaitable[float]]:
    """What "Jugar ahora" pairs by: a player's skill μ in a mode (OpenSkill's scale, where its
    window is written); a player with no rated match yet, or a guest, has the prior's."""

    async def rating_of(player: str, mode: str) -> float:
        async with store.reading() as conn:
            mu = (
                await conn.execute(
                    select(ratings_t.c.mu).where(
                        (ratings_t.c.player_id == player) & (ratings_t.c.mode == mode)
                    )
                )
            ).scalar_one_or_none()
        return ratings.MU if mu is None else float(mu)

    return rating_of


def zone_of(name: str) -> ZoneInfo:
    """The zone ``TRUCO_RANKING_ZONE`` names; a clear error at start-up when there is none."""
    try:
        return ZoneInfo(name)
    except (ValueError, ZoneInfoNotFoundError):
        raise ValueError(
            f"TRUCO_RANKING_ZONE: no time zone is called {name!r} (for example"
            " America/Argentina/Buenos_Aires, UTC)"
        ) from None


def _iso(at: Any) -> str:
    text: str = at.isoformat() if at.tzinfo is not None else at.isoformat() + "+00:00"
    return text


def install(
    app: FastAPI,
    store: Store,
    players: Players,
    *,
    site: Path | None,
    errors: dict[int | str, dict[str, Any]],
    zone: ZoneInfo,
) -> None:
    """Add the ranking's and the players' routes to ``app`` (``players``: the identity's store,
    which finds a claimed name); ``site``: the built web client, whose page answers the
    browser's addresses of these pages."""
    ranking = Ranking(store, zone)
    # On the app itself, as identity's routes: app.py's catch-all for unknown API paths finds a
    # path's methods among the app's own routes, and it must come after these.

    @app.get(
        "/api/leaderboard",
        response_model=LeaderboardBody,
        responses={
            **errors,
            200: {
                "headers": {
                    "X-Total-Count": {
                        "description": "Ranked players in all pages",
                        "schema": {"type": "integer"},
                    }
                }
            },
        },
    )
    async def leaderboard(
        response: Response,
        mode: Mode = Query("1v1", description="1v1, 2v2 or 3v3"),  # noqa: B008
        offset: int = Query(0, ge=0, le=OFFSET_MAX, description="Players to skip"),
        limit: int = Query(PAGE, ge=1, le=PAGE_MAX, description="Players in this page"),
        period: Period = Query(  # noqa: B008
            "all", description="all (by rating), week or month (by the points won in it)"
        ),
    ) -> dict[str, Any]:
        total, players = await ranking.page(mode, offset, limit, period)
        response.headers["X-Total-Count"] = str(total)
        since = ranking.since(period)
        return {
            "mode": mode,
            "period": period,
            "since": None if since is None else _iso(since),
            "players": players,
        }

    @app.get("/api/players/{name}", response_model=PlayerBody, responses={**errors})
    async def player(
        name: str,
        offset: int = Query(0, ge=0, le=OFFSET_MAX, description="Matches to skip"),
        limit: int = Query(MATCHES, ge=1, le=MATCHES_MAX, description="Matches in this page"),
    ) -> dict[str, Any]:
        found = await players.by_key(name_key(name.strip())) if len(name) <= 100 else None
        if found is None or found.name is None:
            raise TableError(PLAYER_NOT_FOUND, "no player has claimed that name")
        return await player_page(store, found.id, found.name, offset=offset, limit=limit)

    if site is not None and (site / "index.html").is_file():
        from truco.server.net.static import file_answer

        index = site / "index.html"

        @app.get("/ranking", include_in_schema=False)
        async def ranking_page(request: Request) -> Response:
            return file_answer(site, index, request.scope)

        @app.get("/jugador/{name}", include_in_schema=False)
        async def player_page_html(request: Request, name: str) -> Response:
            return file_answer(site, index, request.scope)


__all__ = ["NAME_REQUIRED", "PLAYER_NOT_FOUND", "Ranking", "install", "player_page"]

"""The ranking of a period: the week's and the month's best of a mode (docs/players.md).

The all-time ranking orders players by their rating, which moves slowly once many matches are
behind it; a period's ranking orders them by the rating points they won in it (the sum of their
matches' changes), so a good week shows at once and every week starts even. A week starts on
Monday at 00:00 and a month on its 1st, by the clock of the zone in ``Settings.ranking_zone``
(Buenos Aires by default: where the players' week starts, not the server's).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from sqlalchemy import Integer, cast, func, select

from truco.server.players import ratings
from truco.server.players.rated import ratings_t, results_t
from truco.server.store.schema import players_t

Period = Literal["all", "week", "month"]
PERIODS: tuple[Period, ...] = ("all", "week", "month")


def period_start(period: Period, now: datetime, zone: ZoneInfo) -> datetime | None:
    """When ``period`` began, as a time in UTC, for a request made at ``now`` (aware); None for
    the all-time ranking."""
    if period == "all":
        return None
    local = now.astimezone(zone)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        start = midnight - timedelta(days=local.weekday())
    else:
        start = midnight.replace(day=1)
    # Arithmetic on the zone's wall clock: the start's UTC offset is the one in force at that
    # midnight, so a change of offset since (daylight saving, where a zone has it) moves nothing.
    return start.astimezone(UTC)


async def period_page(
    conn: Any, mode: str, since: datetime, offset: int, limit: int
) -> tuple[int, list[dict[str, Any]]]:
    """The players of ``mode`` who finished a rated match since ``since`` (UTC), best first:
    (how many there are, the page ``offset``/``limit`` of them)."""
    gained = func.sum(results_t.c.rating_after - results_t.c.rating_before)
    won = func.sum(cast(results_t.c.won, Integer))
    played = func.count()
    in_period = (
        select(
            results_t.c.player_id.label("player_id"),
            gained.label("gained"),
            won.label("won"),
            played.label("played"),
        )
        .where(
            results_t.c.mode == mode,
            results_t.c.finished_at >= since,
            results_t.c.player_id.is_not(None),
        )
        .group_by(results_t.c.player_id)
        .subquery()
    )
    joined = in_period.join(players_t, players_t.c.id == in_period.c.player_id).join(
        ratings_t,
        (ratings_t.c.player_id == in_period.c.player_id) & (ratings_t.c.mode == mode),
    )
    claimed = players_t.c.name.is_not(None)
    total = (
        await conn.execute(select(func.count()).select_from(joined).where(claimed))
    ).scalar_one()
    rows = (
        await conn.execute(
            select(
                players_t.c.name,
                ratings_t.c.rating,
                ratings_t.c.matches,
                in_period.c.gained,
                in_period.c.won,
                in_period.c.played,
            )
            .select_from(joined)
            .where(claimed)
            .order_by(in_period.c.gained.desc(), in_period.c.won.desc(), players_t.c.name_key)
            .offset(offset)
            .limit(limit)
        )
    ).all()
    players = [
        {
            "name": r.name,
            "rating": r.rating,
            "matches": int(r.played),
            "provisional": ratings.provisional(r.matches),
            "gained": int(r.gained or 0),
            "won": int(r.won or 0),
        }
        for r in rows
    ]
    return int(total), players


__all__ = ["PERIODS", "Period", "period_page", "period_start"]

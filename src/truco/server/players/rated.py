"""Rated matches in the database: the players' ratings per mode and each rated match's results.

A rated match's end moves its players' ratings in the same transaction as the log entry that
ends it (``Finish.write``, run by ``Store.append``): the log's fence lets only one process write
that entry, once, so a restart, a retried write or a cluster's takeover can never apply a result
twice, and a crash can never keep the end without the ratings or the ratings without the end.
The ratings' arithmetic is ``ratings.py``; docs/players.md says what is rated and how.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    String,
    Table,
    func,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from truco.protocol import Rated, RatingChange
from truco.server.players import devices, ratings
from truco.server.players.ratings import NEW, Entry, Skill
from truco.server.store.database import insert_new
from truco.server.store.schema import metadata

ratings_t = Table(
    "truco_ratings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("mode", String(8), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rating", Integer, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_truco_ratings_mode_rating", "mode", "rating"),
)
"""A player's skill in one mode; ``rating`` is the number shown (``ratings.shown``), kept so
that the ranking is one indexed read."""

results_t = Table(
    "truco_results",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("mode", String(8), nullable=False),
    Column("player_id", String(32), nullable=True),
    Column("level", String(32), nullable=True),
    Column("name", String(64), nullable=False),
    Column("team", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("left", Boolean, nullable=False),
    Column("rating_before", Integer, nullable=False),
    Column("rating_after", Integer, nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Column("points", Integer, nullable=True),
    Index("ix_truco_results_player", "player_id", "finished_at"),
    # The ranking of a period reads a mode's results since a time (docs/players.md).
    Index("ix_truco_results_mode_finished", "mode", "finished_at"),
)
"""One row per seat of a finished rated match: a person (``player_id``) or a bot (``level``),
his side, the result for him (``left``: he left for good, so ``won`` is false), his rating
before and after (a bot's is its fixed one) and his side's points when the match ended
(``points``; None in the rows written before migration 0016)."""


def rivals() -> tuple[Any, Any, Any]:
    """The results twice (``mine``, ``theirs``) and what joins a seat's result to a rival's of
    the same match: the same table and match, the other side."""
    mine, theirs = results_t.alias("mine"), results_t.alias("theirs")
    facing = (
        (mine.c.table_id == theirs.c.table_id)
        & (mine.c.match == theirs.c.match)
        & (mine.c.team != theirs.c.team)
    )
    return mine, theirs, facing


@dataclass(frozen=True, slots=True)
class Sitter:
    """Who held one seat when a rated match ended."""

    seat: int
    name: str
    team: int
    player_id: str | None
    """A person (None: a bot)."""
    level: str | None
    """A bot's level."""
    left: bool = False
    """The person left for good: a bot finished the match in his place (or he stalled)."""
    excused: bool = False
    """He left after a rival stalled: his rating does not move (docs/players.md)."""


@dataclass(frozen=True, slots=True)
class Finish:
    """The end of match ``match`` of a rated table: ``winner`` (a team) won it.

    ``Store.append`` runs ``write`` in the transaction of the log entry that ended the match.
    """

    table_id: str
    match: int
    mode: str
    winner: int
    sitters: tuple[Sitter, ...]
    pair_per_day: int = 0
    """Rated matches two rival people may have in 24 hours; after them, a match between them
    moves no rating (0: no limit)."""
    points: tuple[int, ...] = ()
    """Each side's points when the match ended (what tells a match conceded early)."""

    def excused(self) -> frozenset[str]:
        """The people whose rating this match leaves as it was, whoever they played."""
        return frozenset(s.player_id for s in self.sitters if s.excused and s.player_id)

    def rivals(self) -> set[tuple[str, str]]:
        """The pairs (a < b) of people on opposite sides."""
        people = [(s.player_id, s.team) for s in self.sitters if s.player_id is not None]
        return {
            (min(a, b), max(a, b)) for a, ta in people for b, tb in people if ta != tb and a != b
        }

    async def frozen(self, conn: AsyncConnection) -> str | None:
        """Why this match moves nobody's rating (None: it moves them): two rivals one browser
        has been, or two rivals who reached ``pair_per_day`` matches (docs/players.md)."""
        pairs = self.rivals()
        if not pairs:
            return None
        people = sorted({x for pair in pairs for x in pair})
        if await devices.linked(conn, people) & pairs:
            return "shared browser"
        if self.pair_per_day <= 0:
            return None
        since = datetime.now(UTC) - timedelta(days=1)
        mine, theirs, facing = rivals()
        for a, b in sorted(pairs):
            count = (
                await conn.execute(
                    select(func.count())
                    .select_from(mine)
                    .join(theirs, facing)
                    .where(
                        mine.c.player_id == a,
                        theirs.c.player_id == b,
                        mine.c.finished_at >= since,
                        mine.c.rating_before != mine.c.rating_after,
                    )
                )
            ).scalar_one()
            if count >= self.pair_per_day:
                return "daily limit"
        return None

    async def write(self, conn: AsyncConnection) -> Rated:
        """Move the ratings of the people, record every seat's result; returns the changes."""
        now = datetime.now(UTC)
        people = sorted({s.player_id for s in self.sitters if s.player_id is not None})
        if people:
            # Rows first (a newcomer has none), then read them locked, in one order: two
            # matches that end at once with a player in common wait for each other.
            await conn.execute(
                insert_new(conn, ratings_t).values(
                    [
                        {
                            "player_id": pid,
                            "mode": self.mode,
                            "mu": NEW.mu,
                            "sigma": NEW.sigma,
                            "rating": NEW.rating,
                            "matches": 0,
                            "updated_at": now,
                        }
                        for pid in people
                    ]
                )
            )
        rows = (
            await conn.execute(
                select(ratings_t)
                .where(ratings_t.c.mode == self.mode, ratings_t.c.player_id.in_(people))
                .order_by(ratings_t.c.player_id)
                .with_for_update()
            )
        ).all()
        known = {r.player_id: (Skill(r.mu, r.sigma), int(r.matches)) for r in rows}
        unmoved = set(people) if await self.frozen(conn) is not None else set(self.excused())
        entries = [self._entry(s, known) for s in self.sitters]
        after = ratings.rate(entries, self.winner)
        changes = []
        results = []
        for sitter, entry, skill in zip(self.sitters, entries, after, strict=True):
            won = sitter.team == self.winner and not sitter.left
            if sitter.player_id is not None:
                matches = known.get(sitter.player_id, (NEW, 0))[1]
                if sitter.player_id in unmoved:
                    skill = entry.skill  # not counted: the rating stays as it was
                else:
                    matches += 1
                await conn.execute(
                    update(ratings_t)
                    .where(ratings_t.c.player_id == sitter.player_id, ratings_t.c.mode == self.mode)
                    .values(
                        mu=skill.mu,
                        sigma=skill.sigma,
                        rating=skill.rating,
                        matches=matches,
                        updated_at=now,
                    )
                )
                changes.append(
                    RatingChange(
                        seat=sitter.seat,
                        name=sitter.name,
                        before=entry.skill.rating,
                        after=skill.rating,
                        provisional=ratings.provisional(matches),
                        left=sitter.left,
                    )
                )
            results.append(
                {
                    "table_id": self.table_id,
                    "match": self.match,
                    "seat": sitter.seat,
                    "mode": self.mode,
                    "player_id": sitter.player_id,
                    "level": sitter.level,
                    "name": sitter.name[:64],
                    "team": sitter.team,
                    "won": won,
                    "left": sitter.left,
                    "rating_before": entry.skill.rating,
                    "rating_after": skill.rating,
                    "finished_at": now,
                    "points": self.points[sitter.team] if sitter.team < len(self.points) else None,
                }
            )
        await conn.execute(results_t.insert(), results)
        return Rated(self.match, self.mode, tuple(changes))

    def _entry(self, sitter: Sitter, known: dict[str, tuple[Skill, int]]) -> Entry:
        if sitter.player_id is None:
            bot = ratings.bot_skill(self.mode, (sitter.level or "").strip().lower())
            return Entry(sitter.team, bot or NEW, fixed=True)
        skill = known.get(sitter.player_id, (NEW, 0))[0]
        return Entry(sitter.team, skill, left=sitter.left)


async def match_changes(conn: AsyncConnection, table_id: str, match: int) -> Rated | None:
    """The rating changes of a rated match already over (None: not recorded)."""
    rows = (
        await conn.execute(
            select(results_t)
            .where(
                results_t.c.table_id == table_id,
                results_t.c.match == match,
                results_t.c.player_id.is_not(None),
            )
            .order_by(results_t.c.seat)
        )
    ).all()
    if not rows:
        return None
    counts = dict(
        (
            await conn.execute(
                select(ratings_t.c.player_id, ratings_t.c.matches).where(
                    ratings_t.c.mode == rows[0].mode,
                    ratings_t.c.player_id.in_([r.player_id for r in rows]),
                )
            )
        ).all()
    )
    # The count of matches now, not then: only whether the number is settled is shown.
    changes = tuple(
        RatingChange(
            seat=r.seat,
            name=r.name,
            before=r.rating_before,
            after=r.rating_after,
            provisional=ratings.provisional(int(counts.get(r.player_id, 0))),
            left=bool(r.left),
        )
        for r in rows
    )
    return Rated(match, rows[0].mode, changes)


__all__ = ["Finish", "Sitter", "match_changes", "ratings_t", "results_t", "rivals"]

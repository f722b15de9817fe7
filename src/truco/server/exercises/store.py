"""Ejercicios in the database: the exercises, the finished tables taken, the day's exercise, the
players' puzzle ratings and their first attempts.

Every process of a cluster reads and writes the same rows, so nothing here lives in memory: a
finished table is taken by inserting its row in ``truco_exercise_sources`` (the primary key lets
one process have it), the day's exercise by inserting the day's row (the first request of the day
chooses, every later one reads it), and an attempt by inserting its row, in the same transaction
as the two ratings it moves (a second answer to the same exercise finds the row and moves
nothing).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import case, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from truco.server.exercises import glicko
from truco.server.exercises.generate import Found
from truco.server.exercises.glicko import Rating
from truco.server.store.database import Store, insert_new
from truco.server.store.schema import (
    StoreUnavailable,
    exercise_attempts_t,
    exercise_days_t,
    exercise_sources_t,
    exercises_t,
    puzzle_ratings_t,
    seats_t,
    tables_t,
)

OWN_BONUS = 150.0
"""A player's stream prefers positions of his own finished hands: one of his counts as this many
rating points nearer to him than it is."""


@dataclass(frozen=True, slots=True)
class Exercise:
    id: str
    position: dict[str, Any]
    best: str
    options: list[tuple[str, float]]
    words_es: str
    words_en: str
    rating: Rating
    attempts: int
    solved: int
    player_id: str | None


@dataclass(frozen=True, slots=True)
class Attempt:
    answer: str
    solved: bool
    rating_before: float
    rating_after: float


def _now() -> datetime:
    return datetime.now(UTC)


def _duplicate(exc: StoreUnavailable) -> bool:
    """Whether the store refused a write for a key already there (its guard wraps every error)."""
    return isinstance(exc.__cause__, IntegrityError)


def _exercise(row: Any) -> Exercise:
    return Exercise(
        id=row.id,
        position=json.loads(row.position),
        best=row.best,
        options=[(a, float(e)) for a, e in json.loads(row.options)],
        words_es=row.words_es,
        words_en=row.words_en,
        rating=Rating(row.rating, row.deviation, row.volatility),
        attempts=row.attempts,
        solved=row.solved,
        player_id=row.player_id,
    )


class Exercises:
    """The exercises' rows, through the server's store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --- generation ----------------------------------------------------------------------

    async def unscanned(self, limit: int) -> list[str]:
        """Finished tables no pass has taken yet, the oldest first."""
        taken = select(exercise_sources_t.c.table_id)
        query = (
            select(tables_t.c.id)
            .where(tables_t.c.status == "over", tables_t.c.id.not_in(taken))
            .order_by(tables_t.c.created_at, tables_t.c.id)
            .limit(limit)
        )
        async with self.store.reading() as conn:
            return [r.id for r in (await conn.execute(query)).all()]

    async def claim(self, table_id: str) -> bool:
        """Take a finished table for this pass; False when another pass has it."""
        try:
            async with self.store.writing() as conn:
                await conn.execute(
                    insert(exercise_sources_t).values(
                        table_id=table_id, found=None, scanned_at=_now()
                    )
                )
        except StoreUnavailable as exc:
            if not _duplicate(exc):
                raise
            return False
        return True

    async def save(self, table_id: str, found: list[Found]) -> int:
        """Store a table's exercises (an id already stored is left as it is); returns how many
        are new."""
        async with self.store.writing() as conn:
            seats = {
                r.seat: r.player_id
                for r in await conn.execute(
                    select(seats_t.c.seat, seats_t.c.player_id).where(
                        seats_t.c.table_id == table_id
                    )
                )
            }
            ids = [f.id for f in found]
            known = set()
            if ids:
                known = {
                    r.id
                    for r in await conn.execute(
                        select(exercises_t.c.id).where(exercises_t.c.id.in_(ids))
                    )
                }
            new = [f for f in found if f.id not in known]
            now = _now()
            for f in new:
                await conn.execute(
                    insert(exercises_t).values(
                        id=f.id,
                        table_id=table_id,
                        match=f.match,
                        hand=f.hand,
                        idx=f.index,
                        seat=f.seat,
                        player_id=seats.get(f.seat),
                        position=json.dumps(f.position, separators=(",", ":")),
                        best=f.best,
                        margin=f.margin,
                        options=json.dumps(f.options),
                        words_es=f.words_es,
                        words_en=f.words_en,
                        rating=glicko.START,
                        deviation=glicko.START_DEVIATION,
                        volatility=glicko.START_VOLATILITY,
                        attempts=0,
                        solved=0,
                        created_at=now,
                    )
                )
            await conn.execute(
                update(exercise_sources_t)
                .where(exercise_sources_t.c.table_id == table_id)
                .values(found=len(new))
            )
        return len(new)

    async def count(self) -> int:
        async with self.store.reading() as conn:
            return int(
                (await conn.execute(select(func.count()).select_from(exercises_t))).scalar_one()
            )

    # --- reading ------------------------------------------------------------------------

    async def get(self, exercise_id: str) -> Exercise | None:
        async with self.store.reading() as conn:
            row = (
                await conn.execute(select(exercises_t).where(exercises_t.c.id == exercise_id))
            ).first()
        return None if row is None else _exercise(row)

    async def daily(self, day: str) -> Exercise | None:
        """The exercise of the UTC day ``day`` (``YYYY-MM-DD``): chosen once, by the first request
        of the day (any process), among those never a day's exercise before, by a hash of the day
        (so two processes choosing at once choose the same); None while there is none."""
        async with self.store.reading() as conn:
            chosen = (
                await conn.execute(
                    select(exercise_days_t.c.exercise_id).where(exercise_days_t.c.day == day)
                )
            ).scalar_one_or_none()
        if chosen is None:
            used = select(exercise_days_t.c.exercise_id)
            async with self.store.reading() as conn:
                ids = [
                    r.id
                    for r in await conn.execute(
                        select(exercises_t.c.id)
                        .where(exercises_t.c.id.not_in(used))
                        .order_by(exercises_t.c.id)
                        .limit(1000)
                    )
                ]
            if not ids:
                return None
            pick = int(hashlib.sha256(day.encode()).hexdigest(), 16) % len(ids)
            try:
                async with self.store.writing() as conn:
                    await conn.execute(
                        insert(exercise_days_t).values(day=day, exercise_id=ids[pick])
                    )
            except StoreUnavailable as exc:
                if not _duplicate(exc):  # else another request chose first: its choice stands
                    raise
            return await self.daily_chosen(day)
        return await self.get(chosen)

    async def daily_chosen(self, day: str) -> Exercise | None:
        async with self.store.reading() as conn:
            chosen = (
                await conn.execute(
                    select(exercise_days_t.c.exercise_id).where(exercise_days_t.c.day == day)
                )
            ).scalar_one_or_none()
        return None if chosen is None else await self.get(chosen)

    async def next_for(self, player_id: str) -> Exercise | None:
        """The player's next exercise: one he has not tried, the nearest to his puzzle rating
        (his own positions counted ``OWN_BONUS`` nearer)."""
        mine = await self.rating(player_id)
        tried = select(exercise_attempts_t.c.exercise_id).where(
            exercise_attempts_t.c.player_id == player_id
        )
        distance = func.abs(exercises_t.c.rating - mine.rating) - case(
            (exercises_t.c.player_id == player_id, OWN_BONUS), else_=0.0
        )
        query = (
            select(exercises_t)
            .where(exercises_t.c.id.not_in(tried))
            .order_by(distance, exercises_t.c.id)
            .limit(1)
        )
        async with self.store.reading() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _exercise(row)

    async def rating(self, player_id: str) -> Rating:
        async with self.store.reading() as conn:
            row = (
                await conn.execute(
                    select(puzzle_ratings_t).where(puzzle_ratings_t.c.player_id == player_id)
                )
            ).first()
        return glicko.NEW if row is None else Rating(row.rating, row.deviation, row.volatility)

    async def attempts_of(self, player_id: str) -> int:
        async with self.store.reading() as conn:
            row = (
                await conn.execute(
                    select(puzzle_ratings_t.c.attempts).where(
                        puzzle_ratings_t.c.player_id == player_id
                    )
                )
            ).first()
        return 0 if row is None else int(row.attempts)

    async def attempt_of(self, player_id: str, exercise_id: str) -> Attempt | None:
        async with self.store.reading() as conn:
            row = (
                await conn.execute(
                    select(exercise_attempts_t).where(
                        exercise_attempts_t.c.player_id == player_id,
                        exercise_attempts_t.c.exercise_id == exercise_id,
                    )
                )
            ).first()
        if row is None:
            return None
        return Attempt(row.answer, bool(row.solved), row.rating_before, row.rating_after)

    # --- answering ------------------------------------------------------------------------

    async def answer(self, player_id: str, exercise: Exercise, action: str) -> tuple[Attempt, bool]:
        """The player's answer: (his attempt, whether this was the first). A first attempt moves
        his puzzle rating and the exercise's, in the same transaction that records it."""
        solved = action == exercise.best
        try:
            async with self.store.writing() as conn:
                now = _now()
                # The player's row made first if new, then both ratings read under a lock (on
                # PostgreSQL; SQLite writes one at a time): two first answers at once would
                # both insert it, and two answers at once would each move a rating read before
                # the other wrote it.
                await conn.execute(
                    insert_new(conn, puzzle_ratings_t).values(
                        player_id=player_id,
                        rating=glicko.NEW.rating,
                        deviation=glicko.NEW.deviation,
                        volatility=glicko.NEW.volatility,
                        attempts=0,
                        updated_at=now,
                    )
                )
                row = (
                    await conn.execute(
                        select(puzzle_ratings_t)
                        .where(puzzle_ratings_t.c.player_id == player_id)
                        .with_for_update()
                    )
                ).one()
                mine = Rating(row.rating, row.deviation, row.volatility)
                current = (
                    await conn.execute(
                        select(
                            exercises_t.c.rating, exercises_t.c.deviation, exercises_t.c.volatility
                        )
                        .where(exercises_t.c.id == exercise.id)
                        .with_for_update()
                    )
                ).one()
                theirs = Rating(current.rating, current.deviation, current.volatility)
                after, their_after = glicko.game(mine, theirs, solved)
                await conn.execute(
                    insert(exercise_attempts_t).values(
                        player_id=player_id,
                        exercise_id=exercise.id,
                        answer=action,
                        solved=solved,
                        rating_before=mine.rating,
                        rating_after=after.rating,
                        at=now,
                    )
                )
                values = {
                    "rating": after.rating,
                    "deviation": after.deviation,
                    "volatility": after.volatility,
                    "updated_at": now,
                }
                await conn.execute(
                    update(puzzle_ratings_t)
                    .where(puzzle_ratings_t.c.player_id == player_id)
                    .values(attempts=puzzle_ratings_t.c.attempts + 1, **values)
                )
                await conn.execute(
                    update(exercises_t)
                    .where(exercises_t.c.id == exercise.id)
                    .values(
                        rating=their_after.rating,
                        deviation=their_after.deviation,
                        volatility=their_after.volatility,
                        attempts=exercises_t.c.attempts + 1,
                        solved=exercises_t.c.solved + (1 if solved else 0),
                    )
                )
        except StoreUnavailable as exc:
            found = await self.attempt_of(player_id, exercise.id) if _duplicate(exc) else None
            if found is None:
                raise
            return found, False
        return Attempt(action, solved, mine.rating, after.rating), True


__all__ = ["OWN_BONUS", "Attempt", "Exercise", "Exercises"]

"""Answers to Ejercicios at once, on SQLite and PostgreSQL (the store alone, through two stores
as two processes would hold them: one store writes one transaction at a time): a newcomer's
first answers to two exercises both count, and every answer to one exercise is counted, none
lost."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from server.test_players_store import run, url  # noqa: F401 (the fixture)
from truco.server.exercises import glicko
from truco.server.exercises.store import Exercises
from truco.server.store.database import Store
from truco.server.store.schema import exercises_t

PLAYERS = [c * 32 for c in "abcdef"]
NEWCOMERS = [f"{n:032x}" for n in range(1, 13)]


async def _exercise(store: Store, exercise_id: str) -> None:
    async with store.writing() as conn:
        await conn.execute(
            exercises_t.insert().values(
                id=exercise_id,
                table_id="t" + exercise_id,
                match=1,
                hand=1,
                idx=0,
                seat=0,
                player_id=None,
                position="{}",
                best="quiero",
                margin=0.1,
                options='[["quiero", 0.6], ["no-quiero", 0.4]]',
                words_es="",
                words_en="",
                rating=glicko.START,
                deviation=glicko.START_DEVIATION,
                volatility=glicko.START_VOLATILITY,
                attempts=0,
                solved=0,
                created_at=datetime.now(UTC),
            )
        )


def test_answers_at_once_are_each_counted(url: str) -> None:  # noqa: F811
    async def body(store: Store) -> None:
        await _exercise(store, "e1")
        await _exercise(store, "e2")
        other = Store(url)
        try:
            rows, elsewhere = Exercises(store), Exercises(other)
            one, two = await rows.get("e1"), await rows.get("e2")
            assert one is not None and two is not None
            # Newcomers each answer two exercises at the same instant, one through each store:
            # both are first attempts (each used to insert his rating row, and one failed).
            firsts = await asyncio.gather(
                *(
                    answer
                    for p in NEWCOMERS
                    for answer in (
                        rows.answer(p, one, "quiero"),
                        elsewhere.answer(p, two, "no-quiero"),
                    )
                )
            )
            assert all(first for _, first in firsts)
            for p in NEWCOMERS:
                assert await rows.attempts_of(p) == 2
            # Five players answer e2 at once through the two: its attempts count them all.
            await asyncio.gather(
                *(
                    (rows, elsewhere)[i % 2].answer(p, two, "quiero")
                    for i, p in enumerate(PLAYERS[1:])
                )
            )
            after = await rows.get("e2")
            assert after is not None and after.attempts == len(NEWCOMERS) + len(PLAYERS[1:])
            assert after.solved == len(PLAYERS[1:])
        finally:
            await other.close()

    run(url, body)

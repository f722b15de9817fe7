"""Ejercicios' routes: the day's exercise, a player's next one, an answer, and the page.

- ``GET /api/ejercicios/hoy``: the UTC day's exercise, the same for everyone.
- ``GET /api/ejercicios/siguiente``: the player's next exercise (one he has not tried, near his
  puzzle rating).
- ``GET /api/ejercicios/{id}``: one exercise.
- ``POST /api/ejercicios/{id}/respuesta`` with ``{"action": "truco"}``: the answer, the coach's
  explanation and the ratings; only a player's first attempt at an exercise is rated.

An exercise is sent without its answer until the player has answered it: the position (its
seat's own view), its rating and how often it was solved. The player is the identity cookie's
(docs/players.md): a guest has a puzzle rating too. Every request spends a credit of the player
and of the address (``exercises_burst``, ``address_exercises_burst``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, Field

from truco import protocol as p
from truco.server.api import NOT_FOUND, errors
from truco.server.errors import TableError
from truco.server.exercises.store import Attempt, Exercise, Exercises
from truco.server.net.limits import Buckets, spend
from truco.server.players.identity import request_player
from truco.server.settings import Settings

MAX_ID = 16


class AnswerIn(BaseModel):
    action: str = Field(max_length=32, description="One of the position's legal actions")


class Option(BaseModel):
    action: str
    equity: float
    """The match-win probability after it (0 to 1), by the coach."""


class Words(BaseModel):
    es: str
    en: str


class Answered(BaseModel):
    id: str
    answer: str
    solved: bool
    best: str
    options: list[Option]
    words: Words
    rating_before: int
    rating_after: int
    first: bool
    """Whether this answer was the player's first at this exercise (the one rated)."""


class Mine(BaseModel):
    rating: int
    """The player's puzzle rating (Glicko-2; 1500 for a newcomer)."""
    deviation: int
    attempts: int


class ExerciseBody(BaseModel):
    id: str
    position: dict[str, Any]
    """The deciding seat's view (the table protocol's codec, docs/protocol.md "The view")."""
    rating: int
    attempts: int
    solved: int
    own: bool
    """A position of the player's own hands."""
    answered: Answered | None
    """His answer, if he has answered it (with the coach's)."""


class Stream(BaseModel):
    exercise: ExerciseBody | None
    """None when there is none (yet)."""
    me: Mine


def today() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")


def answered(exercise: Exercise, attempt: Attempt, first: bool) -> dict[str, Any]:
    return {
        "id": exercise.id,
        "answer": attempt.answer,
        "solved": attempt.solved,
        "best": exercise.best,
        "options": [{"action": a, "equity": e} for a, e in exercise.options],
        "words": {"es": exercise.words_es, "en": exercise.words_en},
        "rating_before": round(attempt.rating_before),
        "rating_after": round(attempt.rating_after),
        "first": first,
    }


def install(
    app: FastAPI, exercises: Exercises, settings: Settings, *, checked: list[Any], site: Path
) -> None:
    """Add the routes (before the catch-all for unknown API paths), and ``/ejercicios``'s page when
    the web client in ``site`` is built."""
    players = Buckets(settings.exercises_burst, settings.exercises_per_second)
    addresses = Buckets(settings.address_exercises_burst, settings.address_exercises_per_second)

    def caller(request: Request) -> str:
        address = request.client.host if request.client is not None else ""
        spend(
            addresses,
            address,
            "too many exercises from this address",
            burst=settings.address_exercises_burst,
            per_second=settings.address_exercises_per_second,
        )
        player = request_player(request)
        if player is None:
            raise TableError(p.UNAVAILABLE, "no identity: the server's secret could not be read")
        spend(
            players,
            player,
            "too many exercises",
            burst=settings.exercises_burst,
            per_second=settings.exercises_per_second,
        )
        return player

    async def body(exercise: Exercise, player: str) -> dict[str, Any]:
        attempt = await exercises.attempt_of(player, exercise.id)
        return {
            "id": exercise.id,
            "position": exercise.position,
            "rating": round(exercise.rating.rating),
            "attempts": exercise.attempts,
            "solved": exercise.solved,
            "own": exercise.player_id == player,
            "answered": None if attempt is None else answered(exercise, attempt, False),
        }

    async def mine(player: str) -> dict[str, Any]:
        rating = await exercises.rating(player)
        return {
            "rating": round(rating.rating),
            "deviation": round(rating.deviation),
            "attempts": await exercises.attempts_of(player),
        }

    async def stream(exercise: Exercise | None, player: str) -> dict[str, Any]:
        return {
            "exercise": None if exercise is None else await body(exercise, player),
            "me": await mine(player),
        }

    async def find(exercise_id: str) -> Exercise:
        found = await exercises.get(exercise_id) if len(exercise_id) <= MAX_ID else None
        if found is None:
            raise TableError(NOT_FOUND, f"no exercise {exercise_id[:MAX_ID]!r}")
        return found

    @app.get("/api/ejercicios/hoy", response_model=Stream, responses=errors(429, 503))
    async def daily(request: Request) -> dict[str, Any]:
        player = caller(request)
        return await stream(await exercises.daily(today()), player)

    @app.get("/api/ejercicios/siguiente", response_model=Stream, responses=errors(429, 503))
    async def following(request: Request) -> dict[str, Any]:
        player = caller(request)
        return await stream(await exercises.next_for(player), player)

    @app.get(
        "/api/ejercicios/{exercise_id}", response_model=Stream, responses=errors(404, 422, 429, 503)
    )
    async def one(request: Request, exercise_id: str) -> dict[str, Any]:
        player = caller(request)
        return await stream(await find(exercise_id), player)

    @app.post(
        "/api/ejercicios/{exercise_id}/respuesta",
        response_model=Answered,
        responses=errors(403, 404, 422, 429, 503),
        dependencies=checked,
    )
    async def answer(request: Request, exercise_id: str, given: AnswerIn) -> dict[str, Any]:
        player = caller(request)
        exercise = await find(exercise_id)
        legal = exercise.position.get("legal") or []
        if given.action not in legal:
            raise TableError(p.BAD_MESSAGE, "the answer is not one of the position's actions")
        attempt, first = await exercises.answer(player, exercise, given.action)
        return answered(exercise, attempt, first)

    if (site / "index.html").is_file():
        from truco.server.net.static import file_answer

        index = site / "index.html"

        @app.get("/ejercicios", include_in_schema=False)
        async def page(request: Request) -> Response:
            return file_answer(site, index, request.scope)


__all__ = ["install", "today"]

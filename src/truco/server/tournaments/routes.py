"""Torneos over HTTP (docs/protocol.md, "Torneos"): list, create, look (the standings), join
and withdraw. A page polls ``GET /api/tournaments/{id}`` for its live standings; the tables
themselves are ordinary tables (``/t/{table}``), which a player reaches by his identity.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request, Response
from fastapi import Path as PathParam
from fastapi.params import Depends as DependsParam
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from truco import protocol as p
from truco.server.errors import TableError
from truco.server.net.limits import Buckets
from truco.server.net.static import file_answer
from truco.server.players import identity
from truco.server.players.names import clean_name
from truco.server.schemas import ErrorBody
from truco.server.settings import Settings
from truco.server.tables.hub import Hub
from truco.server.tournaments.service import Claimed, RatingOf, TournamentService
from truco.server.tournaments.store import (
    ARENA,
    BYE,
    SCHEDULED,
    SWISS,
    Closed,
    EntrantRow,
    Full,
    GameRow,
    InTooMany,
    TournamentRow,
)

NOT_FOUND = "tournament_not_found"
FULL = "tournament_full"
CLOSED = "tournament_closed"
NEEDS_IDENTITY = "needs_identity"
NEEDS_NAME = "needs_name"
TOO_MANY = "too_many_tournaments"
STATUS = {
    NOT_FOUND: 404,
    FULL: 409,
    CLOSED: 409,
    NEEDS_IDENTITY: 403,
    NEEDS_NAME: 403,
    TOO_MANY: 429,
}
ID = r"^[0-9a-f]{12}$"
GUEST = "Invitado"
MINUTES = (1, 240)
ROUNDS = (1, 15)
STARTS_IN = 7 * 24 * 3600


class TournamentError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _integral(value: object) -> object:
    """JSON's 30.0 is the integer 30 (JSON Schema says so); strict mode alone would refuse it."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# Each integer field's bounds come before the validator, or the schema would not show them.
Minutes = Annotated[int, Field(ge=MINUTES[0], le=MINUTES[1]), BeforeValidator(_integral)]
Rounds = Annotated[int, Field(ge=ROUNDS[0], le=ROUNDS[1]), BeforeValidator(_integral)]
Players = Annotated[int, Field(ge=2), BeforeValidator(_integral)]


class NewTournament(BaseModel):
    model_config = ConfigDict(strict=True)  # "5" is not a number here: the schema says so
    name: str = Field(min_length=1, max_length=24)
    mode: Literal["1v1", "2v2", "3v3"] = "1v1"
    kind: Literal["arena", "swiss"] = "arena"
    minutes: Minutes | None = None
    """An arena's length."""
    rounds: Rounds | None = None
    """A Swiss's rounds."""
    target: Annotated[Literal[15, 30], BeforeValidator(_integral)] = 30
    flor: bool = False
    rated: bool = False
    bots: bool = False
    """Bots may fill the seats nobody else takes."""
    starts_in: float = Field(default=60, ge=0, le=STARTS_IN)
    """Seconds from now."""
    max_players: Players | None = None

    @model_validator(mode="after")
    def _length(self) -> NewTournament:
        if self.kind == ARENA and self.minutes is None:
            self.minutes = 30
        if self.kind == SWISS and self.rounds is None:
            self.rounds = 5
        return self


class JoinBody(BaseModel):
    name: str | None = Field(default=None, min_length=1, max_length=24)


def summary(t: TournamentRow, players: int) -> dict[str, Any]:
    return {
        "id": t.id,
        "name": t.name,
        "mode": t.mode,
        "kind": t.kind,
        "minutes": t.minutes,
        "rounds": t.rounds,
        "round": t.round,
        "target": t.target,
        "flor": t.flor,
        "rated": t.rated,
        "bots": t.bots,
        "status": t.status,
        "starts_at": t.starts_at.isoformat(),
        "ends_at": t.ends_at.isoformat() if t.ends_at is not None else None,
        "players": players,
        "max_players": t.max_players,
        "link": f"/torneo/{t.id}",
    }


def standings(
    t: TournamentRow, entrants: Sequence[EntrantRow], games: Sequence[GameRow], me: str | None
) -> dict[str, Any]:
    names = {e.player_id: e.name for e in entrants}
    playing = {
        pid: g.table_id for g in games if g.winner is None for s in g.sides for pid in s if pid
    }
    order = sorted(entrants, key=lambda e: (-e.score, -e.wins, -e.rating, e.name))
    rows = [
        {
            "rank": i + 1,
            "name": e.name,
            "score": e.score,
            "games": e.games,
            "wins": e.wins,
            "active": e.active,
            "playing": playing.get(e.player_id),
            "you": e.player_id == me,
        }
        for i, e in enumerate(order)
    ]
    shown = [
        {
            "table": None if g.winner == BYE else g.table_id,
            "round": g.round,
            "sides": [[names.get(x, "Bot") if x else "Bot" for x in side] for side in g.sides],
            "winner": g.winner if g.winner is None or g.winner >= 0 else None,
            "bye": g.winner == BYE,
        }
        for g in reversed(games[-200:])
    ]
    mine = next((e for e in entrants if e.player_id == me), None)
    return {
        "tournament": summary(t, sum(1 for e in entrants if e.active)),
        "standings": rows,
        "games": shown,
        "you": {
            "joined": mine is not None and mine.active,
            "table": playing.get(me) if me is not None else None,
            "creator": me == t.creator_id,
        },
    }


def install(
    app: FastAPI,
    hub: Hub,
    settings: Settings,
    *,
    checked: Sequence[DependsParam],
    rating_of: RatingOf,
    claimed: Claimed,
    site: Path | None = None,
) -> TournamentService:
    """Add the tournaments' routes (before the catch-all ``/api`` route); the app's lifespan
    starts and stops the service returned."""
    service = TournamentService(hub, settings, rating_of=rating_of, claimed=claimed)
    rows = service.rows
    app.state.tournaments = service
    creations = Buckets(settings.tournaments_burst, settings.tournaments_per_hour / 3600)
    joins = Buckets(settings.tournament_joins_burst, settings.tournament_joins_per_minute / 60)
    # The one error shape (api.py), for every refusal these routes may answer.
    errors: dict[int | str, dict[str, Any]] = {
        code: {"model": ErrorBody} for code in (403, 404, 409, 413, 422, 429, 503)
    }

    @app.exception_handler(TournamentError)
    async def tournament_error(request: Request, exc: TournamentError) -> JSONResponse:
        body = {"code": exc.code, "message": exc.message}
        return JSONResponse(body, status_code=STATUS.get(exc.code, 400))

    def address(request: Request) -> str:
        return request.client.host if request.client is not None else ""

    async def who(request: Request) -> tuple[str, str | None]:
        """The caller's player id and claimed name (a tournament needs an identity)."""
        player_id = identity.request_player(request)
        if player_id is None:
            raise TournamentError(
                NEEDS_IDENTITY, "a tournament needs your identity: allow the site's cookie"
            )
        players = request.app.state.identity.players
        await players.create(player_id)
        found = await players.get(player_id)
        return player_id, found.name if found is not None else None

    async def found(tournament_id: str) -> TournamentRow:
        t = await rows.get(tournament_id)
        if t is None:
            raise TournamentError(NOT_FOUND, "no such tournament")
        return t

    @app.get("/api/tournaments", responses=errors)
    async def list_tournaments() -> dict[str, Any]:
        return {"tournaments": [summary(t, n) for t, n in await rows.listing()]}

    @app.post("/api/tournaments", status_code=201, dependencies=list(checked), responses=errors)
    async def create_tournament(body: NewTournament, request: Request) -> dict[str, Any]:
        player_id, claimed_name = await who(request)
        if body.rated and claimed_name is None:
            raise TournamentError(NEEDS_NAME, "a rated tournament is created with a claimed name")
        if await rows.created_open(player_id) >= settings.tournaments_per_player:
            raise TournamentError(
                TOO_MANY,
                f"you have {settings.tournaments_per_player} tournaments not over yet; "
                "that is the most one player may have",
            )
        if not creations.take(address(request)):
            raise TableError(
                p.RATE_LIMITED,
                f"too many new tournaments: at most {settings.tournaments_burst} at once, "
                f"then {settings.tournaments_per_hour:g} an hour",
            )
        most = settings.tournament_max_players
        now = datetime.now(UTC)
        t = TournamentRow(
            id=secrets.token_hex(6),
            name=clean_name(body.name),
            creator_id=player_id,
            mode=body.mode,
            target=body.target,
            flor=body.flor,
            rated=body.rated,
            kind=body.kind,
            minutes=body.minutes if body.kind == ARENA else None,
            rounds=body.rounds if body.kind == SWISS else None,
            bots=body.bots,
            turn_seconds=settings.tournament_turn_seconds,
            max_players=min(most, body.max_players or most),
            starts_at=now + timedelta(seconds=body.starts_in),
            ends_at=None,
            status=SCHEDULED,
            round=0,
            created_at=now,
        )
        await rows.create(t)
        service.wake()
        return summary(t, 0)

    @app.get("/api/tournaments/{tournament_id}", responses=errors)
    async def get_tournament(
        request: Request, tournament_id: str = PathParam(pattern=ID)
    ) -> dict[str, Any]:
        t = await found(tournament_id)
        me = identity.request_player(request)
        return standings(t, await rows.entrants(t.id), await rows.games(t.id), me)

    @app.post(
        "/api/tournaments/{tournament_id}/players", dependencies=list(checked), responses=errors
    )
    async def join_tournament(
        request: Request, body: JoinBody | None = None, tournament_id: str = PathParam(pattern=ID)
    ) -> dict[str, Any]:
        if not joins.take(address(request)):
            raise TableError(
                p.RATE_LIMITED,
                f"too many joins: at most {settings.tournament_joins_burst} at once, "
                f"then {settings.tournament_joins_per_minute:g} a minute",
            )
        t = await found(tournament_id)
        player_id, claimed_name = await who(request)
        if t.rated and claimed_name is None:
            raise TournamentError(NEEDS_NAME, "a rated tournament takes players with a name")
        if t.kind == SWISS and t.status != SCHEDULED:
            raise TournamentError(CLOSED, "a Swiss takes its players before it starts")
        name = claimed_name or (clean_name(body.name) if body and body.name else GUEST)
        rating = await rating_of(player_id, t.mode)
        try:
            await rows.join(t.id, player_id, name, rating, most=settings.tournaments_joined_most)
        except InTooMany:
            raise TournamentError(
                TOO_MANY,
                f"you are in {settings.tournaments_joined_most} tournaments not over yet; "
                "that is the most one player may be in at once",
            ) from None
        except Full:
            raise TournamentError(FULL, f"the tournament has its {t.max_players} players") from None
        except Closed:
            raise TournamentError(CLOSED, "the tournament is over") from None
        service.wake()
        return standings(t, await rows.entrants(t.id), await rows.games(t.id), player_id)

    @app.delete(
        "/api/tournaments/{tournament_id}/players", dependencies=list(checked), responses=errors
    )
    async def withdraw(
        request: Request, tournament_id: str = PathParam(pattern=ID)
    ) -> dict[str, Any]:
        if not joins.take(address(request)):
            raise TableError(p.RATE_LIMITED, "too many joins and withdrawals; wait a minute")
        t = await found(tournament_id)
        player_id, _ = await who(request)
        await rows.withdraw(t.id, player_id)
        return standings(t, await rows.entrants(t.id), await rows.games(t.id), player_id)

    if site is not None and (site / "index.html").is_file():
        index = site / "index.html"

        @app.get("/torneo/{tournament_id}", include_in_schema=False)
        async def tournament_page(request: Request, tournament_id: str) -> Response:
            return file_answer(site, index, request.scope)

    return service


__all__ = ["STATUS", "TournamentError", "install", "standings", "summary"]

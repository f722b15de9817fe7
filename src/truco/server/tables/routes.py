"""The tables' HTTP API (docs/protocol.md, "HTTP"): create a table, the lobby, a table's state,
take a seat, add a bot, and download the finished hands."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from truco import protocol as p
from truco.notation import HandHistory, dumps
from truco.server.api import errors
from truco.server.errors import TableError
from truco.server.players import identity, ranking
from truco.server.players.accounts import seat_name
from truco.server.schemas import (
    BotBody,
    CreateBody,
    CreatedBody,
    JoinBody,
    JoinedBody,
    LobbyEntry,
    TableInfo,
    TomlResponse,
)
from truco.server.settings import Settings
from truco.server.tables.handle import TableHandle
from truco.server.tables.hands import as_seen_by
from truco.server.tables.hub import Hub
from truco.server.tables.table import FINISHED

TableGetter = Callable[[str], Awaitable[TableHandle]]
"""A table by its id, wherever it lives; a 404 ``table_not_found`` when there is none."""


def install(app: FastAPI, hub: Hub, settings: Settings, checked: list[Any]) -> TableGetter:
    """Add the tables' routes to ``app`` (``checked``: the dependencies of every request that
    changes something); returns how the other routes find a table."""
    # auto_error=False: a missing token is answered as a wrong one (401 bad_token), not 403.
    creator = HTTPBearer(auto_error=False, description="the table creator's seat token")

    async def get_table(table_id: str) -> TableHandle:
        table = await hub.get(table_id) if len(table_id) <= 32 else None
        if table is None:
            raise TableError(p.TABLE_NOT_FOUND, f"no table {table_id!r}")
        return table

    @app.post(
        "/api/tables",
        status_code=201,
        response_model=CreatedBody,
        responses=errors(403, 413, 422, 429, 503),
        dependencies=checked,
    )
    async def create_table(body: CreateBody, request: Request) -> dict[str, Any]:
        bots: dict[int, str] = {}
        for key, level in body.bots.items():
            try:
                bots[int(key)] = level
            except ValueError:
                raise TableError(p.BAD_OPTIONS, f"bots: {key!r} is not a seat") from None
        # The creator is the client's address until players have accounts (behind a proxy,
        # uvicorn took it from X-Forwarded-For).
        creator = request.client.host if request.client is not None else ""
        player_id = await _seated_player(request)
        name = await _rated_name(request) if body.rated else await seat_name(request, body.name)
        created = await hub.create(
            name,
            body.options,
            bots,
            body.turn_seconds,
            creator=creator,
            player_id=player_id,
            rated=body.rated,
        )
        return {
            "table": created.table,
            "seat": created.seat,
            "token": created.token,
            "invite": f"/t/{created.table}",
        }

    @app.get(
        "/api/tables",
        response_model=list[LobbyEntry],
        responses={
            **errors(422),
            200: {
                "headers": {
                    "X-Total-Count": {
                        "description": "Open tables in all pages",
                        "schema": {"type": "integer"},
                    }
                }
            },
        },
    )
    async def lobby(
        response: Response,
        offset: int = Query(0, ge=0, le=1_000_000, description="Entries to skip"),
        limit: int | None = Query(
            None, ge=1, le=settings.lobby_page_max, description="Entries in this page"
        ),
    ) -> list[dict[str, Any]]:
        total, page = await hub.lobby(offset, limit or settings.lobby_page)
        response.headers["X-Total-Count"] = str(total)
        return page

    @app.get("/api/tables/{table_id}", response_model=TableInfo, responses=errors(404, 422))
    async def table_info(table_id: str) -> dict[str, Any]:
        return (await get_table(table_id)).info()

    @app.post(
        "/api/tables/{table_id}/seats",
        response_model=JoinedBody,
        responses=errors(403, 404, 409, 422),
        dependencies=checked,
    )
    async def join(table_id: str, body: JoinBody, request: Request) -> dict[str, Any]:
        table = await get_table(table_id)
        rated = bool(table.info().get("rated"))
        name = await _rated_name(request) if rated else await seat_name(request, body.name)
        seat, token = await table.join(name, body.seat, await _seated_player(request))
        return {"seat": seat, "token": token}

    @app.post(
        "/api/tables/{table_id}/bots",
        response_model=TableInfo,
        responses=errors(401, 403, 404, 409, 422),
        dependencies=checked,
    )
    async def add_bot(
        table_id: str,
        body: BotBody,
        auth: HTTPAuthorizationCredentials | None = Depends(creator),  # noqa: B008
    ) -> dict[str, Any]:
        table = await get_table(table_id)
        _as_creator(table, auth, "add bots")
        try:
            await table.add_bot(body.seat, body.level)
        except ValueError as exc:  # an unknown bot (TrucoError)
            raise TableError(p.BAD_OPTIONS, str(exc)) from None
        return table.info()

    @app.delete(
        "/api/tables/{table_id}/seats/{seat}",
        response_model=TableInfo,
        responses=errors(401, 403, 404, 409, 422),
        dependencies=checked,
    )
    async def remove_seat(
        table_id: str,
        seat: int,
        auth: HTTPAuthorizationCredentials | None = Depends(creator),  # noqa: B008
    ) -> dict[str, Any]:
        """The creator removes a person (or a bot) from a casual table before it starts: the
        seat empties and that person may not sit here again (docs/players.md, "Sacar de la
        mesa")."""
        table = await get_table(table_id)
        _as_creator(table, auth, "remove someone")
        await table.kick(seat)
        return table.info()

    # auto_error=False here too: a download without a token is a 401 bad_token.
    player = HTTPBearer(auto_error=False, description="a seat token of the table")

    @app.get(
        "/api/tables/{table_id}/hands/{n}.toml",
        response_class=TomlResponse,
        responses=errors(401, 404, 422, json=True),
    )
    async def hand_toml(
        table_id: str,
        n: int,
        auth: HTTPAuthorizationCredentials | None = Depends(player),  # noqa: B008
    ) -> TomlResponse:
        table = await get_table(table_id)
        hands = _hands_for(table, auth)
        if not 1 <= n <= len(hands):
            raise TableError(p.TABLE_NOT_FOUND, f"hand {n} is not finished")
        return TomlResponse(dumps(hands[n - 1]))

    @app.get(
        "/api/tables/{table_id}/match.toml",
        response_class=TomlResponse,
        responses=errors(401, 404, 422, json=True),
    )
    async def match_toml(
        table_id: str,
        auth: HTTPAuthorizationCredentials | None = Depends(player),  # noqa: B008
    ) -> TomlResponse:
        table = await get_table(table_id)
        text = "\n".join("[[hands]]\n" + dumps(h) for h in _hands_for(table, auth))
        return TomlResponse(text)

    return get_table


def _hands_for(table: TableHandle, auth: HTTPAuthorizationCredentials | None) -> list[HandHistory]:
    """The finished hands the caller may read: all of them once the match is over; during it,
    only a seated player's, as he saw them (issue 16: they are evidence until then)."""
    if table.info()["status"] == FINISHED:
        return list(table.hands)
    seat = table.find_seat(auth.credentials) if auth is not None else None
    if seat is None:
        raise TableError(
            p.BAD_TOKEN,
            "during a match only its players may download its hands "
            "(a seat token in Authorization: Bearer)",
        )
    return [as_seen_by(h, seat.seat) for h in table.hands]


async def _rated_name(request: Request) -> str:
    """The claimed name of the player about to sit at a rated table: his seat's name there."""
    player = await identity.current_player(request)
    if player.name is None:
        raise TableError(
            ranking.NAME_REQUIRED, "a rated table needs a claimed name: claim yours first"
        )
    return player.name


async def _seated_player(request: Request) -> str | None:
    """The player about to take a seat, given its row in the players' table first."""
    player_id = identity.request_player(request)
    if player_id is not None:
        await request.app.state.identity.players.create(player_id)
    return player_id


def _as_creator(table: TableHandle, auth: HTTPAuthorizationCredentials | None, doing: str) -> None:
    """Refuse unless ``auth`` holds the token of the table's creator (seat 0)."""
    token = auth.credentials if auth is not None else ""
    own = table.find_seat(token) if token else None
    if own is None or own.seat != 0:
        raise TableError(p.BAD_TOKEN, f"only the table's creator may {doing}")


__all__ = ["TableGetter", "install"]

"""Moderation's routes: mute, block and report a player (docs/players.md, "Silenciar, bloquear y
denunciar").

Every one is the asker's identity's (``identity.py``): a player without a claimed name has one
too (his browser's cookie), so he mutes, blocks and reports as one with a name, and is muted or
blocked by that identity. The player acted on is named by a seat of a table (``table`` and
``seat``: whoever sits there, named or not) or by a claimed name (``name``); his player id is
never shown. The asker's own list names each entry by a handle of hers (``blocks.entry_key``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import Depends, FastAPI, Path, Query, Response
from fastapi.params import Depends as DependsParam
from pydantic import BaseModel, Field

from truco import protocol as p
from truco.server.errors import TableError
from truco.server.net.limits import Buckets
from truco.server.players.accounts import name_key
from truco.server.players.blocks import BLOCK, MUTE, Blocks, TooMany, entry_key
from truco.server.players.friends import iso_utc
from truco.server.players.identity import Identity, PlayerRef, current_player
from truco.server.players.ranking import PLAYER_NOT_FOUND
from truco.server.players.reports import QUOTE_MOST, Reports, TooManyReports
from truco.server.settings import Settings

MODERATE_SELF = "moderate_self"
"""A player asked to mute, block or report herself (HTTP 422)."""
TOO_MANY_MUTES = "too_many_mutes"
TOO_MANY_BLOCKS = "too_many_blocks"
"""The player mutes (blocks) ``max_mutes`` (``max_blocks``) players already (HTTP 409)."""
TOO_MANY_REPORTS = "too_many_reports"
"""The player sent ``reports_per_day`` reports in the last 24 hours (HTTP 429)."""
BAD_REPORT = "bad_report"
"""A report's words are too long (HTTP 422; a reason not among ``reports.REASONS`` is the
body's ``422 bad_message``)."""

STATUS = {
    MODERATE_SELF: 422,
    TOO_MANY_MUTES: 409,
    TOO_MANY_BLOCKS: 409,
    TOO_MANY_REPORTS: 429,
    BAD_REPORT: 422,
}

NAME_MOST = 100


class TargetBody(BaseModel):
    """Who: a seat of a table (whoever sits there), or a claimed name."""

    table: str | None = Field(default=None, min_length=1, max_length=32)
    seat: int | None = Field(default=None, ge=0, le=5)
    name: str | None = Field(default=None, min_length=1, max_length=NAME_MOST)


class ReportBody(TargetBody):
    reason: Literal["acoso", "trampa", "nombre", "spam", "otro"] = Field(
        description="harassment, cheating, an offensive name, spam, something else"
    )
    text: str = Field(default="", max_length=500, description="at most report_text_most")
    quoted: str | None = Field(default=None, max_length=QUOTE_MOST, description="a chat line")


class EntryBody(BaseModel):
    key: str
    kind: Literal["mute", "block"]
    label: str
    at: str


class SeatEntry(BaseModel):
    seat: int
    kind: Literal["mute", "block"]
    key: str


class TableSeats(BaseModel):
    muted: list[int]
    blocked: list[int]
    keys: list[SeatEntry]
    """The entry of each seat muted or blocked there (to undo it from the table)."""


class ModerationBody(BaseModel):
    mutes: list[EntryBody]
    blocks: list[EntryBody]
    table: TableSeats | None
    """With ``?table=ID``: the seats there the asker mutes and blocks."""
    most_mutes: int
    most_blocks: int


class ReportedBody(BaseModel):
    reported: str
    reason: str


def install(
    app: FastAPI,
    identity: Identity,
    settings: Settings,
    *,
    checked: Sequence[DependsParam],
    errors: Callable[..., dict[int | str, dict[str, Any]]],
) -> Blocks:
    """Add moderation's routes to ``app``; returns the store of mutes and blocks."""
    blocks = Blocks(identity.players.store)
    reports = Reports(identity.players.store)
    app.state.blocks = blocks
    app.state.reports = reports
    budget = Buckets(settings.moderation_burst, settings.moderation_per_second)

    def spend(player: PlayerRef) -> None:
        """Each request costs the player one of his budget (each of them a database read or
        write: a mute made and undone in a loop would be a write each time)."""
        if not budget.take(player.id):
            raise TableError(
                p.RATE_LIMITED,
                f"too many moderation requests: at most {settings.moderation_burst} at once, "
                f"then {settings.moderation_per_second:g} a second",
            )

    async def target(body: TargetBody, me: PlayerRef) -> tuple[str, str, str | None, int | None]:
        """The player named: id, name shown, and the table and seat he was named by."""
        if body.table is not None and body.seat is not None:
            found = await blocks.seat_player(body.table, body.seat)
            if found is None:
                raise TableError(PLAYER_NOT_FOUND, "nobody with an identity sits in that seat")
            pid, name = found
            where: tuple[str | None, int | None] = (body.table, body.seat)
        elif body.name is not None:
            player = await identity.players.by_key(name_key(body.name.strip()))
            if player is None or player.name is None:
                raise TableError(PLAYER_NOT_FOUND, "no player has claimed that name")
            pid, name, where = player.id, player.name, (None, None)
        else:
            raise TableError(PLAYER_NOT_FOUND, "name a player: a table and a seat, or a name")
        if pid == me.id:
            raise TableError(MODERATE_SELF, "that is you")
        return pid, name, where[0], where[1]

    def no_store(response: Response) -> None:
        response.headers["Cache-Control"] = "no-store"

    @app.get("/api/me/moderation", response_model=ModerationBody, responses=errors(422, 429, 503))
    async def listed(
        response: Response,
        table: str | None = Query(default=None, max_length=32),
        player: PlayerRef = Depends(current_player),  # noqa: B008
    ) -> dict[str, Any]:
        no_store(response)
        spend(player)
        entries = await blocks.entries(player.id)
        at_table = None
        if table is not None:
            seats = await blocks.table_players(table)
            ids = {pid for _, pid in seats}
            kinds = await blocks.targets(player.id, ids)
            at_table = {
                "muted": [s for s, pid in seats if pid in kinds[MUTE]],
                "blocked": [s for s, pid in seats if pid in kinds[BLOCK]],
                "keys": [
                    {"seat": s, "kind": kind, "key": entry_key(player.id, pid)}
                    for s, pid in seats
                    for kind in (MUTE, BLOCK)
                    if pid in kinds[kind]
                ],
            }

        def shown(kind: str) -> list[dict[str, Any]]:
            return [
                {"key": e.key, "kind": e.kind, "label": e.label, "at": iso_utc(e.at)}
                for e in entries
                if e.kind == kind
            ]

        return {
            "mutes": shown(MUTE),
            "blocks": shown(BLOCK),
            "table": at_table,
            "most_mutes": settings.max_mutes,
            "most_blocks": settings.max_blocks,
        }

    def adder(kind: str) -> Callable[..., Any]:
        most = settings.max_mutes if kind == MUTE else settings.max_blocks
        code = TOO_MANY_MUTES if kind == MUTE else TOO_MANY_BLOCKS

        async def add(
            body: TargetBody,
            response: Response,
            player: PlayerRef = Depends(current_player),  # noqa: B008
        ) -> dict[str, Any]:
            no_store(response)
            spend(player)
            pid, name, _, _ = await target(body, player)
            await identity.players.create(player.id)  # so that the count's lock has a row
            try:
                await blocks.add(player.id, pid, kind, name, most)
            except TooMany:
                raise TableError(code, f"you {kind} {most} players, the most one may") from None
            return {
                "key": entry_key(player.id, pid),
                "kind": kind,
                "label": name,
                "at": iso_utc(datetime.now(UTC)),
            }

        return add

    def remover(kind: str) -> Callable[..., Any]:
        async def remove(
            response: Response,
            key: str = Path(pattern=r"^[0-9a-f]{24}$"),
            player: PlayerRef = Depends(current_player),  # noqa: B008
        ) -> dict[str, Any]:
            no_store(response)
            spend(player)
            label = await blocks.remove(player.id, key, kind)
            if label is None:
                raise TableError(PLAYER_NOT_FOUND, f"you do not {kind} that player")
            return {"key": key, "kind": kind, "label": label, "at": iso_utc(datetime.now(UTC))}

        return remove

    for kind, path in ((MUTE, "/api/me/mutes"), (BLOCK, "/api/me/blocks")):
        app.post(
            path,
            response_model=EntryBody,
            status_code=201,
            responses=errors(403, 404, 409, 413, 422, 429, 503),
            dependencies=list(checked),
        )(adder(kind))
        app.delete(
            path + "/{key}",
            response_model=EntryBody,
            responses=errors(403, 404, 422, 429, 503),
            dependencies=list(checked),
        )(remover(kind))

    @app.post(
        "/api/reports",
        response_model=ReportedBody,
        status_code=201,
        responses=errors(403, 404, 413, 422, 429, 503),
        dependencies=list(checked),
    )
    async def report(
        body: ReportBody,
        response: Response,
        player: PlayerRef = Depends(current_player),  # noqa: B008
    ) -> dict[str, Any]:
        no_store(response)
        spend(player)
        text = body.text.strip()
        if len(text) > settings.report_text_most:
            raise TableError(
                BAD_REPORT, f"a report's words are at most {settings.report_text_most} characters"
            )
        pid, name, table, seat = await target(body, player)
        await identity.players.create(player.id)  # so that the count's lock has a row
        try:
            await reports.send(
                player.id,
                pid,
                name,
                table=table,
                seat=seat,
                reason=body.reason,
                text=text,
                quoted=body.quoted,
                most=settings.reports_per_day,
            )
        except TooManyReports:
            raise TableError(
                TOO_MANY_REPORTS,
                f"at most {settings.reports_per_day} reports a day; thank you, we read them",
            ) from None
        return {"reported": name, "reason": body.reason}

    return blocks


__all__ = [
    "BAD_REPORT",
    "MODERATE_SELF",
    "STATUS",
    "TOO_MANY_BLOCKS",
    "TOO_MANY_MUTES",
    "TOO_MANY_REPORTS",
    "install",
]

"""The HTTP API's bodies and answers (pydantic models): what the OpenAPI schema documents and
the schema tests hold the app to (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field, JsonValue

from truco.bots import LEVELS
from truco.rules import OPTION_NAMES

BOT_NAMES: list[JsonValue] = [*LEVELS]
"""The bot levels offered to people. The bot programs (``truco.bots.BOTS``: ``random``, the
fuzzer, ``expert``...) are accepted too, for tests and tools, but never offered."""


class CreateBody(BaseModel):
    name: str = Field(min_length=1, max_length=24)
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Rules options by name (docs/rules.md); their values are checked by Rules.",
        json_schema_extra={
            "properties": {name: {} for name in sorted(OPTION_NAMES)},
            "additionalProperties": False,
        },
    )
    bots: dict[
        Annotated[str, Field(pattern=r"^[1-9]$")],
        Annotated[str, Field(json_schema_extra={"enum": BOT_NAMES})],
    ] = Field(
        default_factory=dict,
        description="Seat number -> bot level, for seats 1 to players - 1.",
        json_schema_extra={"additionalProperties": False},
    )
    turn_seconds: float | None = Field(default=None, gt=0, le=3600)
    rated: bool = Field(
        default=False,
        description="A rated table (docs/players.md): the standard game only, every person "
        "with a claimed name, bots of the four levels.",
    )


class JoinBody(BaseModel):
    name: str = Field(min_length=1, max_length=24)
    seat: int | None = None


class BotBody(BaseModel):
    seat: int
    level: str = Field(default="normal", json_schema_extra={"enum": BOT_NAMES})


class ErrorBody(BaseModel):
    """Every error answer of the HTTP API."""

    code: str
    message: str


class CreatedBody(BaseModel):
    table: str
    seat: int
    token: str
    invite: str


class JoinedBody(BaseModel):
    seat: int
    token: str


class Caretaker(BaseModel):
    hands: list[int]
    """The hands of the match it played for her (their numbers, 1 the first)."""
    score: list[int]
    """The score she came back to, by team."""


class SeatInfo(BaseModel):
    seat: int
    name: str
    kind: Literal["human", "bot", "empty"]
    connected: bool
    level: str | None
    replaced: bool
    rematch: bool
    caretaker: Caretaker | None = None
    """What the caretaker played for this person: only in the one ``table`` message of her
    return, so null in this answer."""


class LobbyEntry(BaseModel):
    table: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    status: Literal["waiting", "playing", "over"]
    rated: bool = False
    """Its matches move the players' ratings (docs/players.md)."""


class TableInfo(LobbyEntry):
    v: int
    match: int
    turn_seconds: float | None
    pista: bool = False
    """The seat's person may ask for pistas: she plays alone against bots."""
    paused: bool = False
    """Its one person (the others are bots) is away: it waits for her, no clock runs."""
    arriving: bool = False
    """Its seats are taken, but not all of its people came yet: it has not started."""
    expired: Literal["nobody", "no_show", "away"] | None = None
    """Why it expired (in the last ``table`` message before its connections close)."""
    score: list[int] = []
    """Each side's points when this was asked (the lobby's "Tus mesas")."""


class TomlResponse(PlainTextResponse):
    media_type = "application/toml"

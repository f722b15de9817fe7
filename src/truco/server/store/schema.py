"""The database's tables (SQLAlchemy Core, the one metadata the migrations are compared with),
the rows the store reads and writes, and the store's two refusals."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.ext.asyncio import AsyncConnection

metadata = MetaData()

tables_t = Table(
    "truco_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("options", Text, nullable=False),
    Column("turn_seconds", Float, nullable=True),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("problem", Text, nullable=True),
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("away_since", DateTime(timezone=True), nullable=True),
    Column("waits", Boolean, nullable=False, server_default=true()),
)
"""``away_since``: when the one person of a table of one person and bots went away (the table
waits for her, paused, and expires ``waiting_seconds`` after it); None while she is there.
``waits``: the table waits for its people (to come, and a table of one person and bots for her
return); false at a tournament's tables, whose clock plays for whoever is absent."""

seats_t = Table(
    "truco_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("truco_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("level", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("player_id", String(32), nullable=True, index=True),
    Column("spell_match", Integer, nullable=True),
    Column("spell_hands", Integer, nullable=True),
)
"""``spell_match``, ``spell_hands``: while the caretaker plays for the person of a seat (she did
not come back within the grace period), the match and how many of its hands had ended when it
began; null otherwise. Kept so that after a restart it plays on and she still hears what it
played (``tables/spell.py``)."""

players_t = Table(
    "truco_players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(20), nullable=True),
    Column("name_key", String(80), nullable=True),
    Column("name_skeleton", Text, nullable=True, index=True),
    Column("password_hash", Text, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_seen", DateTime(timezone=True), nullable=False),
    UniqueConstraint("name_key", name="uq_truco_players_name_key"),
)
"""A player (``players.py``): a row from the first seat taken or name claimed; ``name`` is the
claimed name as shown, ``name_key`` its NFKC + casefold form that keeps names unique,
``name_skeleton`` its look (``names.name_skeleton``) that keeps look-alikes out."""

sessions_t = Table(
    "truco_sessions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(32), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""The open sessions of players who claimed a name (``identity.py``): a login or a claim opens
one, named in the device's cookie; logging out ends it, and "cerrar las otras sesiones" or a new
password ends the player's others."""

secrets_t = Table(
    "truco_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)
"""Secrets every process of a cluster shares (the identity cookie's key, ``identity.py``)."""

events_t = Table(
    "truco_events",
    metadata,
    Column("table_id", String(32), ForeignKey("truco_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

exercises_t = Table(
    "truco_exercises",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("table_id", String(32), nullable=False, index=True),
    Column("match", Integer, nullable=False),
    Column("hand", Integer, nullable=False),
    Column("idx", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", String(32), nullable=True, index=True),
    Column("position", Text, nullable=False),
    Column("best", String(32), nullable=False),
    Column("margin", Float, nullable=False),
    Column("options", Text, nullable=False),
    Column("words_es", Text, nullable=False),
    Column("words_en", Text, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_truco_exercises_rating", "rating"),
)
"""Ejercicios (``server/exercises``): a position of a finished match as its deciding seat saw
it (``position``: that seat's view, JSON), the coach's best action and every option with its
equity (``options``, JSON), the answer in words, and the exercise's own Glicko-2 rating.
``player_id``: the person who made that decision at the table (None for a bot)."""

exercise_sources_t = Table(
    "truco_exercise_sources",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("found", Integer, nullable=True),
    Column("scanned_at", DateTime(timezone=True), nullable=False),
)
"""Finished tables taken by a generation pass (once each, by one process: the row is the
claim); ``found`` the exercises kept, None while its pass runs (or if it died)."""

exercise_days_t = Table(
    "truco_exercise_days",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("exercise_id", String(16), nullable=False),
)
"""The exercise of each UTC day (``YYYY-MM-DD``), the same for everyone, chosen by the first
request of the day."""

puzzle_ratings_t = Table(
    "truco_puzzle_ratings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
"""A player's puzzle rating (Glicko-2), apart from his game ratings."""

exercise_attempts_t = Table(
    "truco_exercise_attempts",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("exercise_id", String(16), primary_key=True),
    Column("answer", String(32), nullable=False),
    Column("solved", Boolean, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)
"""A player's first attempt at an exercise (the one that is rated; later ones change nothing)."""


class Finishing(Protocol):
    """What the log entry that ends a rated match writes in its own transaction
    (``rated.Finish``: the ratings move exactly when the match's end is written)."""

    async def write(self, conn: AsyncConnection) -> Any: ...


class StoreUnavailable(Exception):
    """The database could not be reached or did not answer; nothing was written."""


class Fenced(Exception):
    """An append was refused: its sequence is not the next one of the log (another process wrote
    it, or the write was already made), so this process's copy of the table is out of date."""


Row = dict[str, Any]
"""A log row as it is written: ``table_id``, ``seq``, ``kind`` and ``data`` (JSON text)."""


def not_next(row: Row) -> str:
    """Why ``row`` was refused (``Fenced``)."""
    return f"table {row['table_id']}: version {row['seq']} is not the next one of its log"


def check_next(heads: dict[str, int], rows: Iterable[Row]) -> None:
    """Raise ``Fenced`` unless each row is the next version of its table's log, whose last
    written versions are ``heads`` (a table absent from it has none yet); ``heads`` moves on
    with each row, so a batch may hold several versions of one table."""
    for row in rows:
        if row["seq"] != heads.get(row["table_id"], 0) + 1:
            raise Fenced(not_next(row))
        heads[row["table_id"]] = row["seq"]


def collided(rows: Sequence[Row]) -> Fenced:
    """The refusal of a batch that met a version already written (the log's primary key):
    another process wrote it after the heads were read."""
    return Fenced(not_next(rows[0]) if len(rows) == 1 else "a race")


OPEN = ("waiting", "playing")
"""The statuses of a table whose match goes on; the others: ``over``, ``expired`` (nobody joined
in time) and ``broken`` (its log could not be replayed: set aside, see ``problem``)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str
    kind: str
    level: str | None
    token_hash: str | None
    player_id: str | None = None
    """The player (``players.py``) seated here; None for bots, empty seats and old rows."""
    spell_from: tuple[int, int] | None = None
    """While the caretaker plays for this person: the match and its hands ended when it began."""


@dataclass(frozen=True, slots=True)
class LogRow:
    seq: int
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    options: dict[str, Any]
    turn_seconds: float | None
    seed: int
    status: str
    seats: tuple[SeatRow, ...]
    log: tuple[LogRow, ...]
    created_at: datetime | None = None
    problem: str | None = None
    rated: bool = False
    away_since: datetime | None = None
    waits: bool = True


@dataclass(frozen=True, slots=True)
class BrokenRow:
    id: str
    created_at: datetime
    problem: str


__all__ = [
    "OPEN",
    "BrokenRow",
    "Fenced",
    "Finishing",
    "LogRow",
    "SeatRow",
    "StoreUnavailable",
    "TableRow",
    "events_t",
    "exercise_attempts_t",
    "exercise_days_t",
    "exercise_sources_t",
    "exercises_t",
    "metadata",
    "players_t",
    "puzzle_ratings_t",
    "seats_t",
    "secrets_t",
    "tables_t",
]

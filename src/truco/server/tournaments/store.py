"""Torneos in the database: each tournament, its players and their scores, and its games.

Everything a tournament needs to go on lives here, so a restarted process (or another of the
cluster, once it holds the pairing lease) resumes it where it stood: the pairing reads the
standings and the games still open from these rows, never from memory. A game's result is
recorded at most once (``record`` updates a game only while it has none), so two rounds that
saw one table end, or a retried round, never count it twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from truco.server.store.database import Store
from truco.server.store.schema import metadata

SCHEDULED, RUNNING, OVER = "scheduled", "running", "over"
ARENA, SWISS = "arena", "swiss"
BYE = -1
"""The winner recorded for a bye (Swiss, nobody to meet): its player scores a win."""
NONE_WON = -2
"""The winner recorded for a game that ended without a result (its table was set aside)."""

tournaments_t = Table(
    "truco_tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("creator_id", String(32), nullable=False, index=True),
    Column("mode", String(8), nullable=False),
    Column("target", Integer, nullable=False),
    Column("flor", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("minutes", Integer, nullable=True),
    Column("rounds", Integer, nullable=True),
    Column("bots", Boolean, nullable=False),
    Column("turn_seconds", Float, nullable=True),
    Column("max_players", Integer, nullable=False),
    Column("starts_at", DateTime(timezone=True), nullable=False),
    Column("ends_at", DateTime(timezone=True), nullable=True),
    Column("status", String(16), nullable=False, index=True),
    Column("round", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""A tournament: an arena of ``minutes`` (``ends_at`` once it started) or a Swiss of
``rounds``; ``round`` is the Swiss round under way (0 before the first)."""

entrants_t = Table(
    "truco_tournament_players",
    metadata,
    Column("tournament_id", String(16), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("rating", Float, nullable=False),
    Column("score", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("active", Boolean, nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    Index("ix_truco_tournament_players_player", "player_id"),
)
"""A player of a tournament: his score (a win is a point, a bye too) and the rating he joined
with (the pairing's second key); ``active`` false once he withdrew (he keeps his score)."""

games_t = Table(
    "truco_tournament_games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("tournament_id", String(16), nullable=False, index=True),
    Column("round", Integer, nullable=False),
    Column("sides", Text, nullable=False),
    Column("winner", Integer, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""A table of a tournament: its two sides (player ids, bots as ``None``), as JSON; ``winner``
the side that won its first match (null while it plays; ``BYE``, ``NONE_WON``). A bye's
``table_id`` is made up (``bye-...``): no table stands behind it."""


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: str
    name: str
    creator_id: str
    mode: str
    target: int
    flor: bool
    rated: bool
    kind: str
    minutes: int | None
    rounds: int | None
    bots: bool
    turn_seconds: float | None
    max_players: int
    starts_at: datetime
    ends_at: datetime | None
    status: str
    round: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class EntrantRow:
    player_id: str
    name: str
    rating: float
    score: float
    games: int
    wins: int
    active: bool


@dataclass(frozen=True, slots=True)
class GameRow:
    table_id: str
    round: int
    sides: tuple[tuple[str | None, ...], tuple[str | None, ...]]
    winner: int | None
    created_at: datetime


class Full(Exception):
    """The tournament has its ``max_players`` already."""


class InTooMany(Exception):
    """The player is in the most tournaments not over yet that one may be in at once."""


class Closed(Exception):
    """The tournament is over (or gone): nobody joins it any more."""


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _tournament(r: object) -> TournamentRow:
    m = r._mapping  # type: ignore[attr-defined]
    values = dict(m)
    for key in ("starts_at", "created_at"):
        values[key] = _utc(values[key])
    if values["ends_at"] is not None:
        values["ends_at"] = _utc(values["ends_at"])
    return TournamentRow(**values)


def _game(r: object) -> GameRow:
    m = r._mapping  # type: ignore[attr-defined]
    a, b = json.loads(m["sides"])
    return GameRow(
        m["table_id"], m["round"], (tuple(a), tuple(b)), m["winner"], _utc(m["created_at"])
    )


async def _join(
    conn: AsyncConnection, tournament_id: str, player_id: str, name: str, rating: float, most: int
) -> str:
    """One join's reads and writes: "new", "there" (in it already), or why not ("closed",
    "full", "too_many")."""
    t = (
        await conn.execute(
            select(tournaments_t.c.status, tournaments_t.c.max_players).where(
                tournaments_t.c.id == tournament_id
            )
        )
    ).first()
    if t is None or t.status == OVER:
        return "closed"
    there = (
        await conn.execute(
            select(entrants_t.c.active).where(
                entrants_t.c.tournament_id == tournament_id,
                entrants_t.c.player_id == player_id,
            )
        )
    ).first()
    if there is not None and there.active:
        return "there"
    n = (
        await conn.execute(
            select(func.count())
            .select_from(entrants_t)
            .where(entrants_t.c.tournament_id == tournament_id, entrants_t.c.active)
        )
    ).scalar_one()
    if n >= t.max_players:
        return "full"
    joined = (
        await conn.execute(
            select(func.count())
            .select_from(
                entrants_t.join(tournaments_t, tournaments_t.c.id == entrants_t.c.tournament_id)
            )
            .where(
                entrants_t.c.player_id == player_id,
                entrants_t.c.active,
                tournaments_t.c.status != OVER,
            )
        )
    ).scalar_one()
    if joined >= most:
        return "too_many"
    if there is not None:
        await conn.execute(
            update(entrants_t)
            .where(
                entrants_t.c.tournament_id == tournament_id,
                entrants_t.c.player_id == player_id,
            )
            .values(active=True, name=name[:64])
        )
    else:
        await conn.execute(
            entrants_t.insert().values(
                tournament_id=tournament_id,
                player_id=player_id,
                name=name[:64],
                rating=rating,
                score=0.0,
                games=0,
                wins=0,
                active=True,
                joined_at=_now(),
            )
        )
    return "new"


class Tournaments:
    """The tournaments' rows (``Store.writing`` serialises the writes of one process; a
    cluster's processes share them through the database)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, row: TournamentRow) -> None:
        async with self.store.writing() as conn:
            await conn.execute(
                tournaments_t.insert().values(
                    **{k: getattr(row, k) for k in TournamentRow.__slots__}
                )
            )

    async def get(self, tournament_id: str) -> TournamentRow | None:
        async with self.store.reading() as conn:
            r = (
                await conn.execute(select(tournaments_t).where(tournaments_t.c.id == tournament_id))
            ).first()
        return None if r is None else _tournament(r)

    async def listing(self, limit: int = 50) -> list[tuple[TournamentRow, int]]:
        """The tournaments not over, soonest first, then the latest over; each with its count
        of active players."""
        count = (
            select(entrants_t.c.tournament_id, func.count().label("n"))
            .where(entrants_t.c.active)
            .group_by(entrants_t.c.tournament_id)
            .subquery()
        )
        query = select(tournaments_t, func.coalesce(count.c.n, 0).label("n")).outerjoin(
            count, count.c.tournament_id == tournaments_t.c.id
        )
        async with self.store.reading() as conn:
            live = (
                await conn.execute(
                    query.where(tournaments_t.c.status != OVER)
                    .order_by(tournaments_t.c.starts_at, tournaments_t.c.id)
                    .limit(limit)
                )
            ).all()
            done = (
                await conn.execute(
                    query.where(tournaments_t.c.status == OVER)
                    .order_by(tournaments_t.c.starts_at.desc(), tournaments_t.c.id)
                    .limit(max(0, limit - len(live)))
                )
            ).all()
        out = []
        for r in [*live, *done]:
            values = {k: r._mapping[k] for k in TournamentRow.__slots__}
            out.append((_tournament(_Mapped(values)), int(r._mapping["n"])))
        return out

    async def open_ids(self) -> list[str]:
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(tournaments_t.c.id)
                .where(tournaments_t.c.status != OVER)
                .order_by(tournaments_t.c.starts_at)
            )
            return [r.id for r in rows]

    async def created_open(self, creator_id: str) -> int:
        """The creator's tournaments not over yet."""
        async with self.store.reading() as conn:
            n = await conn.execute(
                select(func.count())
                .select_from(tournaments_t)
                .where(tournaments_t.c.creator_id == creator_id, tournaments_t.c.status != OVER)
            )
            return int(n.scalar_one())

    async def join(
        self, tournament_id: str, player_id: str, name: str, rating: float, *, most: int
    ) -> bool:
        """Join (or come back to) a tournament; False: in it already. ``most``: the tournaments
        not over yet the player may be in (counted in the joining transaction itself). A refusal
        is raised once the transaction is closed: raised inside it, it would read as the
        database failing (``_guard``)."""
        async with self.store.writing() as conn:
            outcome = await _join(conn, tournament_id, player_id, name, rating, most)
        if outcome == "closed":
            raise Closed(tournament_id)
        if outcome == "full":
            raise Full(tournament_id)
        if outcome == "too_many":
            raise InTooMany(player_id)
        return outcome == "new"

    async def withdraw(self, tournament_id: str, player_id: str) -> bool:
        async with self.store.writing() as conn:
            done = await conn.execute(
                update(entrants_t)
                .where(
                    entrants_t.c.tournament_id == tournament_id,
                    entrants_t.c.player_id == player_id,
                    entrants_t.c.active,
                )
                .values(active=False)
            )
            return bool(done.rowcount)

    async def entrants(self, tournament_id: str) -> list[EntrantRow]:
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(entrants_t).where(entrants_t.c.tournament_id == tournament_id)
            )
            return [
                EntrantRow(
                    r.player_id,
                    r.name,
                    float(r.rating),
                    float(r.score),
                    int(r.games),
                    int(r.wins),
                    bool(r.active),
                )
                for r in rows
            ]

    async def games(self, tournament_id: str) -> list[GameRow]:
        async with self.store.reading() as conn:
            rows = await conn.execute(
                select(games_t)
                .where(games_t.c.tournament_id == tournament_id)
                .order_by(games_t.c.created_at, games_t.c.table_id)
            )
            return [_game(r) for r in rows]

    async def add_game(
        self,
        tournament_id: str,
        table_id: str,
        round_no: int,
        sides: tuple[tuple[str | None, ...], tuple[str | None, ...]],
    ) -> None:
        async with self.store.writing() as conn:
            await conn.execute(
                games_t.insert().values(
                    table_id=table_id,
                    tournament_id=tournament_id,
                    round=round_no,
                    sides=json.dumps([list(sides[0]), list(sides[1])]),
                    winner=None,
                    created_at=_now(),
                )
            )

    async def record(self, tournament_id: str, table_id: str, winner: int) -> bool:
        """A game's result and its players' scores, once; False: recorded before."""
        async with self.store.writing() as conn:
            r = (await conn.execute(select(games_t).where(games_t.c.table_id == table_id))).first()
            if r is None or r.winner is not None:
                return False
            await conn.execute(
                update(games_t)
                .where(games_t.c.table_id == table_id, games_t.c.winner.is_(None))
                .values(winner=winner)
            )
            game = _game(r)
            for side_no, side in enumerate(game.sides):
                won = winner == BYE or side_no == winner
                for player in side:
                    if player is None:
                        continue
                    await conn.execute(
                        update(entrants_t)
                        .where(
                            entrants_t.c.tournament_id == tournament_id,
                            entrants_t.c.player_id == player,
                        )
                        .values(
                            score=entrants_t.c.score + (1.0 if won else 0.0),
                            games=entrants_t.c.games + (0 if winner == BYE else 1),
                            wins=entrants_t.c.wins + (1 if won and winner != BYE else 0),
                        )
                    )
            return True

    async def set_state(
        self,
        tournament_id: str,
        *,
        status: str | None = None,
        round_no: int | None = None,
        ends_at: datetime | None = None,
    ) -> None:
        values: dict[str, object] = {}
        if status is not None:
            values["status"] = status
        if round_no is not None:
            values["round"] = round_no
        if ends_at is not None:
            values["ends_at"] = ends_at
        async with self.store.writing() as conn:
            await conn.execute(
                update(tournaments_t).where(tournaments_t.c.id == tournament_id).values(**values)
            )


class _Mapped:
    """A plain mapping dressed as a row (``_tournament`` reads ``_mapping``)."""

    def __init__(self, values: dict[str, object]) -> None:
        self._mapping = values


__all__ = [
    "ARENA",
    "BYE",
    "NONE_WON",
    "OVER",
    "RUNNING",
    "SCHEDULED",
    "SWISS",
    "Closed",
    "EntrantRow",
    "Full",
    "GameRow",
    "InTooMany",
    "TournamentRow",
    "Tournaments",
    "entrants_t",
    "games_t",
    "tournaments_t",
]

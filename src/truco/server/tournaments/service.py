"""The tournaments' engine: one pairing round at a time, over the rows in the database.

A round (``tick``) looks at every tournament not over: one whose start time came starts (one
short of players waits for them up to ``START_WAIT``, then ends); the games of its tables whose
first match ended are recorded (``_result`` reads the winner from the table's stored log,
wherever the table lives); then an arena pairs its idle players again at once, until its time
is up, and a Swiss pairs its next round once every game of the last one is over. The tables are
opened through the tables' hub like any other (their players reach them by identity from the
tournament's page), rated when the tournament is and every person at the table claimed a name:
the rated path (``players/rated.py``) moves the ratings at the end of the match, as for any
rated table.

Rounds run in one process at a time: alone, this one; in a cluster, the one holding the lease
``truco:lease:tournaments``, taken and kept at each round (another process takes it over when
its holder dies). Nothing lives in memory between rounds, so a restart resumes every tournament
where its rows left it. A crash between opening a table and recording its game leaves that
table outside the tournament: its players are idle to the next round, which seats them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta

from redis.exceptions import RedisError
from sqlalchemy import select

from truco.actions import Action, Deal
from truco.cards import Card, parse_cards
from truco.engine import apply
from truco.rules import Rules, from_options
from truco.server.cluster.hub import ClusterHub
from truco.server.errors import TableError
from truco.server.settings import Settings
from truco.server.store.schema import StoreUnavailable, events_t, tables_t
from truco.server.tables.hub import Hub
from truco.server.tables.seats import hash_token
from truco.server.tournaments.pairing import Entrant, pair
from truco.server.tournaments.store import (
    ARENA,
    BYE,
    NONE_WON,
    OVER,
    RUNNING,
    SCHEDULED,
    EntrantRow,
    GameRow,
    TournamentRow,
    Tournaments,
)
from truco.state import OVER as MATCH_OVER
from truco.state import new_match

log = logging.getLogger("truco.server.tournaments")

LEASE = "tournaments"
"""The name of the pairing lease (``truco:lease:tournaments``) in a cluster."""
PER_SIDE = {"1v1": 1, "2v2": 2, "3v3": 3}
GONE = ("expired", "broken")
START_WAIT = timedelta(minutes=10)
"""How long past its start time a tournament with too few players waits for more (then it
ends without a game)."""

RatingOf = Callable[[str, str], Awaitable[float]]
Claimed = Callable[[str], Awaitable[bool]]


def rules_of(t: TournamentRow) -> Rules:
    return from_options(None, {"players": 2 * PER_SIDE[t.mode], "target": t.target, "flor": t.flor})


class TournamentService:
    def __init__(
        self, hub: Hub, settings: Settings, *, rating_of: RatingOf, claimed: Claimed
    ) -> None:
        self.hub = hub
        self.settings = settings
        self.rows = Tournaments(hub.store)
        self.rating_of = rating_of
        self.claimed = claimed
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()

    # --- life -----------------------------------------------------------------------------------

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="tournaments")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if isinstance(self.hub, ClusterHub):
            with contextlib.suppress(RedisError, OSError):
                await self.hub.bus.release([LEASE])

    def wake(self) -> None:
        """Run a round now (a player joined, a tournament was created)."""
        self._wake.set()

    async def _loop(self) -> None:
        while True:
            try:
                await self.tick()
            except (StoreUnavailable, RedisError, OSError, TableError) as exc:
                log.warning("tournaments: a round failed: %s", exc)
            except Exception:
                log.exception("tournaments: a round failed")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.settings.tournament_tick):
                    await self._wake.wait()
            self._wake.clear()

    async def _holds_lease(self) -> bool:
        if isinstance(self.hub, ClusterHub):
            return bool(await self.hub.bus.acquire(LEASE))
        return True

    # --- a round --------------------------------------------------------------------------------

    async def tick(self, now: datetime | None = None) -> bool:
        """One round over every tournament not over; False: another process holds the lease."""
        async with self._lock:
            if not await self._holds_lease():
                return False
            for tournament_id in await self.rows.open_ids():
                try:
                    await self.advance(tournament_id, now or datetime.now(UTC))
                except TableError as exc:  # one tournament's trouble must not stop the others
                    log.warning("tournament %s: %s", tournament_id, exc.message)
            return True

    async def advance(self, tournament_id: str, now: datetime) -> None:
        t = await self.rows.get(tournament_id)
        if t is None or t.status == OVER:
            return
        active = [e for e in await self.rows.entrants(t.id) if e.active]
        size = 2 * PER_SIDE[t.mode]
        if t.status == SCHEDULED:
            if now < t.starts_at:
                return
            if len(active) < 2 or (len(active) < size and not t.bots):
                if now < t.starts_at + START_WAIT:
                    return  # it starts once enough players came, or ends
                log.info("tournament %s ends: %d players came", t.id, len(active))
                await self.rows.set_state(t.id, status=OVER)
                return
            ends = now + timedelta(minutes=t.minutes or 0) if t.kind == ARENA else None
            await self.rows.set_state(t.id, status=RUNNING, ends_at=ends)
            t = await self.rows.get(t.id) or t
        games = await self.rows.games(t.id)
        for g in games:
            if g.winner is None:
                won = await self._result(g.table_id)
                if won is not None:
                    await self.rows.record(t.id, g.table_id, won)
        games = await self.rows.games(t.id)
        entrants = await self.rows.entrants(t.id)
        active = [e for e in entrants if e.active]
        playing = {p for g in games if g.winner is None for p in _people(g)}
        if t.kind == ARENA:
            if t.ends_at is not None and now < t.ends_at:
                idle = [e for e in active if e.player_id not in playing]
                await self._seat(t, idle, games, 0, avoid=False, fill=not playing, byes=False)
            elif not playing:
                await self.rows.set_state(t.id, status=OVER)
            return
        # Swiss: the next round once every game of the last one is over.
        if playing:
            return
        seated = {p for g in games if g.round == t.round for p in _people(g)}
        missing = [e for e in active if e.player_id not in seated]
        round_no = t.round
        if round_no == 0 or not missing:
            if round_no >= (t.rounds or 0):
                await self.rows.set_state(t.id, status=OVER)
                return
            round_no += 1
            await self.rows.set_state(t.id, round_no=round_no)
            missing = active
        await self._seat(t, missing, games, round_no, avoid=True, fill=True, byes=True)

    async def _seat(
        self,
        t: TournamentRow,
        players: Sequence[EntrantRow],
        games: Sequence[GameRow],
        round_no: int,
        *,
        avoid: bool,
        fill: bool,
        byes: bool,
    ) -> None:
        """Open tables for ``players``; those left over get bots (where allowed and ``fill``),
        else a bye (``byes``), else they wait."""
        met: dict[str, set[str]] = {e.player_id: set() for e in players}
        for g in games:
            people = _people(g)
            for a in people:
                if a in met:
                    met[a].update(x for x in people if x != a)
        field = [
            Entrant(e.player_id, e.score, e.rating, frozenset(met[e.player_id])) for e in players
        ]
        per_side = PER_SIDE[t.mode]
        tables, left = pair(field, per_side, avoid_rematches=avoid)
        names = {e.player_id: e.name for e in players}
        for pairing in tables:
            await self._open(t, pairing.sides, names, round_no)
        if not left:
            return
        if t.bots and fill and len(left) >= 1 and (len(players) >= 2 or games):
            group: list[str | None] = [*left, *([None] * (2 * per_side - len(left)))]
            # In strength order over both sides, as a snake would; bots in the last seats.
            sides = (tuple(group[0::2]), tuple(group[1::2]))
            await self._open(t, sides, names, round_no)
        elif byes:
            for player in left:
                table_id = f"bye-{secrets.token_hex(6)}"
                await self.rows.add_game(t.id, table_id, round_no, ((player,), ()))
                await self.rows.record(t.id, table_id, BYE)

    async def _open(
        self,
        t: TournamentRow,
        sides: tuple[tuple[str | None, ...], tuple[str | None, ...]],
        names: dict[str, str],
        round_no: int,
    ) -> None:
        people: dict[int, tuple[str, str, str | None]] = {}
        bots: dict[int, str] = {}
        level = self.settings.tournament_bot_level
        for side_no, side in enumerate(sides):
            for i, player in enumerate(side):
                seat = 2 * i + side_no
                if player is None:
                    bots[seat] = level
                else:
                    # Its players sit by identity: the seat's token is never handed out.
                    people[seat] = (names[player], hash_token(secrets.token_urlsafe(32)), player)
        rated = t.rated
        for _, _, player in people.values():
            rated = rated and player is not None and await self.claimed(player)
        table = await self.hub.open(
            rules_of(t),
            people,
            bots,
            self.settings.tournament_turn_seconds,
            rated=rated,
            waits=False,  # a player who does not come loses on the clock, as at any tournament
        )
        await self.rows.add_game(t.id, table.id, round_no, sides)
        log.info("tournament %s: table %s opened (round %d)", t.id, table.id, round_no)

    async def _result(self, table_id: str) -> int | None:
        """The side that won the table's first match; None: it plays on; ``NONE_WON``: the
        table is gone (expired or set aside) without a result."""
        store = self.hub.store
        async with store.reading() as conn:
            status = (
                await conn.execute(select(tables_t.c.status).where(tables_t.c.id == table_id))
            ).scalar_one_or_none()
            if status is None or status in GONE:
                return NONE_WON
            if status != "over":
                again = (
                    await conn.execute(
                        select(events_t.c.seq)
                        .where(events_t.c.table_id == table_id, events_t.c.kind == "rematch")
                        .limit(1)
                    )
                ).first()
                if again is None:
                    return None  # the first match goes on
        row = await store.load(table_id)
        if row is None:
            return NONE_WON
        state = new_match(from_options(None, row.options))
        for entry in row.log:
            data = entry.data
            if entry.kind == "rematch":
                break
            if entry.kind == "deal":
                hands = tuple(tuple(parse_cards(h)) for h in data["hands"])
                vira = Card.parse(data["vira"]) if data.get("vira") else None
                state = apply(state, Deal(hands, vira)).state
            elif entry.kind == "act":
                state = apply(state, Action.parse(data["action"])).state
            if state.phase == MATCH_OVER:
                return 0 if state.winner == state.teams[0] else 1
        return None


def _people(g: GameRow) -> list[str]:
    return [p for side in g.sides for p in side if p is not None]


__all__ = ["LEASE", "PER_SIDE", "TournamentService", "rules_of"]

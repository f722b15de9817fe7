"""The analysis of a finished hand, served: ``POST /api/tables/{id}/hands/{n}/analysis``.

The coach's ``analyse_hand`` (docs/coach.md) for one seat's decisions, as ``truco analizar
--json`` prints them. It is a second or more of search, so it runs in a pool of worker processes
of its own (never on the event loop, never in the bots' workers, so no table waits for it),
bounded: a few workers, and at most ``analysis_queue`` analyses running or waiting in the
process; one more is refused at once with 503 ``analysis_busy``, never queued without end.
Starting one costs a credit of the caller's address, of his seat and of his player identity;
answers are kept per table, match, hand, seat and seed (the same request is the same answer: the
analysis is deterministic for a seed), and a request that finds its analysis under way waits.

Nothing hidden leaves through it. During a match a hand's analysis is given only to the seat
that made the decisions (the caller holds its token), and without the face-up line: the
sampled part is computed from that seat's own views alone (``evaluate(observe(state, seat))``),
while the face-up line is the exact value of the true deal, so it would tell the rivals' cards.
Once the match is over every hand is public, and any seat's analysis comes whole.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, Literal

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

from truco import protocol as p
from truco.coach import analyse_hand, to_json
from truco.coach.faceup import NODES
from truco.notation import dumps, loads
from truco.server.errors import TableError
from truco.server.net.limits import BAD_ORIGIN, Buckets, origin_ok, spend
from truco.server.players.identity import request_player
from truco.server.schemas import ErrorBody
from truco.server.settings import Settings
from truco.server.tables.botpool import spawn_workers
from truco.server.tables.handle import TableHandle
from truco.server.tables.hub import Hub
from truco.server.tables.table import FINISHED

BUSY: Final = "analysis_busy"
"""Error code (503): the process has ``analysis_queue`` analyses under way; ask again later."""

Key = tuple[str, int, int, int, int, bool]
"""(table, match, hand, seat, seed, with the face-up line)."""


def analyse(
    text: str, seat: int, hand: int, worlds: int, seed: int, face_up: bool
) -> dict[str, Any]:
    """One seat's decisions of one hand (runs in a worker): ``truco analizar --json``'s object.
    Without ``face_up`` the exact search is given no positions at all (it answers "unknown" at
    once), and the line is left out of every decision."""
    history = loads(text)
    nodes = NODES if face_up else 0
    decisions = analyse_hand(
        history, seat=seat, worlds=worlds, seed=seed, hand=hand, face_up_nodes=nodes
    )
    out = to_json(decisions)
    if not face_up:
        for decision in out["decisions"]:
            del decision["face_up"]
    return out


class Busy(Exception):
    """Every place of the queue is taken."""


class AnalysisPool:
    """At most ``processes`` workers, and at most ``queue`` analyses submitted and not finished.

    An analysis counts until its worker is done with it, even if nobody waits for it any more
    (a request that timed out): the bound is on the work the process has taken on.
    """

    def __init__(self, processes: int, queue: int) -> None:
        self.processes = max(1, processes)
        self.queue = queue
        self.running = 0
        self._executor: Executor | None = None

    def full(self) -> bool:
        return self.running >= self.queue

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = spawn_workers(self.processes)
        return self._executor

    async def run(self, *args: Any) -> dict[str, Any]:
        """``analyse(*args)`` in a worker; ``Busy`` when the queue is full, ``TableError``
        (unavailable) when the pool broke (it is replaced for the next one)."""
        if self.full():
            raise Busy
        self.running += 1  # the place is taken from now on
        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            # In a thread: the first analysis starts the worker process, tens of milliseconds
            # (far more on a loaded machine) that the loop must not spend.
            work = await asyncio.to_thread(pool.submit, analyse, *args)
        except (BrokenProcessPool, RuntimeError) as exc:
            self.running -= 1
            self._replace(pool)
            raise TableError(p.UNAVAILABLE, "the analysis workers failed; try again") from exc
        work.add_done_callback(lambda _: loop.call_soon_threadsafe(self._finished))
        try:
            return await asyncio.wrap_future(work)
        except (BrokenProcessPool, OSError) as exc:
            self._replace(pool)
            raise TableError(p.UNAVAILABLE, "the analysis workers failed; try again") from exc

    def _finished(self) -> None:
        self.running -= 1

    def _replace(self, broken: Executor) -> None:
        if self._executor is broken:
            self._executor = None
            broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self._executor is not None:
            old, self._executor = self._executor, None
            old.shutdown(wait=False, cancel_futures=True)


class Analyses:
    """The process's analyses: who may have which, their allowances, the pool and the cache."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = AnalysisPool(settings.analysis_processes, settings.analysis_queue)
        self.cache: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self.under_way: dict[Key, asyncio.Task[dict[str, Any]]] = {}
        self.seats = Buckets(settings.analysis_burst, settings.analysis_per_second)
        """Per seat of a table, and per player (the identity cookie's), over all his seats."""
        self.addresses = Buckets(
            settings.address_analysis_burst, settings.address_analysis_per_second
        )

    async def answer(
        self,
        table: TableHandle,
        n: int,
        seat: int,
        seed: int,
        token: str | None,
        address: str,
        player: str | None = None,
    ) -> dict[str, Any]:
        """The analysis of ``seat``'s decisions in hand ``n`` of the table's match, as the
        caller may have it; refused (``TableError``, ``Busy``) otherwise."""
        info = table.info()
        over = info["status"] == FINISHED
        caller = table.find_seat(token) if token else None
        if not over and (caller is None or caller.seat != seat):
            raise TableError(
                p.BAD_TOKEN,
                "during a match a player may analyse only his own decisions "
                "(his seat's token in Authorization: Bearer)",
            )
        hands = table.hands
        if not 1 <= n <= len(hands):
            raise TableError(p.TABLE_NOT_FOUND, f"hand {n} is not finished")
        history = hands[n - 1]
        if not 0 <= seat < history.rules.players:
            raise TableError(p.BAD_MESSAGE, f"seat: the table has no seat {seat}")
        key: Key = (table.id, int(info["match"]), n, seat, seed, over)
        found = self.cache.get(key)
        if found is None:
            task = self.under_way.get(key)
            if task is None:
                task = self._start(
                    key, dumps(history), seated=caller is not None, address=address, player=player
                )
            try:
                async with asyncio.timeout(self.settings.analysis_seconds):
                    found = await asyncio.shield(task)
            except TimeoutError:
                raise TableError(
                    p.UNAVAILABLE,
                    "the analysis is taking long; ask again later (it goes on, and is kept)",
                ) from None
        else:
            self.cache.move_to_end(key)
        return {
            "table": table.id,
            "hand": n,
            "seat": seat,
            "seed": seed,
            "worlds": self.settings.analysis_worlds,
            "face_up": over,
            "decisions": found["decisions"],
        }

    def _start(
        self, key: Key, text: str, *, seated: bool, address: str, player: str | None
    ) -> asyncio.Task[dict[str, Any]]:
        s = self.settings
        if self.pool.full():
            raise Busy
        spend(
            self.addresses,
            address,
            "too many analyses from this address",
            burst=s.address_analysis_burst,
            per_second=s.address_analysis_per_second,
        )
        burst, rate = s.analysis_burst, s.analysis_per_second
        # The player first: one who ran out at one of his seats keeps the others' credit.
        if player is not None:
            spend(self.seats, ("player", player), "too many analyses", burst=burst, per_second=rate)
        if seated:
            who: Hashable = key[:2] + (key[3],)  # table, match, seat
            spend(self.seats, who, "too many analyses", burst=burst, per_second=rate)
        table_id, _, hand, seat, seed, over = key
        task = asyncio.get_running_loop().create_task(
            self._run(key, text, seat=seat, hand=hand, seed=seed, over=over),
            name=f"analysis-{table_id}-{hand}",
        )
        self.under_way[key] = task
        # Nobody may be waiting for it any more (a request that timed out): its failure is
        # still retrieved, so that it is not reported as lost.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return task

    async def _run(
        self, key: Key, text: str, *, seat: int, hand: int, seed: int, over: bool
    ) -> dict[str, Any]:
        try:
            found = await self.pool.run(text, seat, hand, self.settings.analysis_worlds, seed, over)
        finally:
            del self.under_way[key]
        self.cache[key] = found
        while len(self.cache) > self.settings.analysis_cache:
            self.cache.popitem(last=False)
        return found

    def close(self) -> None:
        self.pool.close()


class AnalysisBody(BaseModel):
    seat: int = Field(ge=0, le=5, description="The seat whose decisions are analysed")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="The same seed, the same numbers")


class OptionValue(BaseModel):
    action: str
    equity: float


class FaceUpLine(BaseModel):
    best: str
    equity: float
    played_equity: float


class DecisionBody(BaseModel):
    hand: int
    index: int
    seat: int
    played: str
    best: str
    label: Literal["best", "imprecisión", "error", "error grave"]
    loss: float
    options: list[OptionValue]
    face_up: FaceUpLine | None = Field(
        default=None,
        description="Absent during the match (it would tell hidden cards); null when the "
        "exact search ran past its budget",
    )


class AnalysisAnswer(BaseModel):
    table: str
    hand: int
    seat: int
    seed: int
    worlds: int
    face_up: bool = Field(description="The decisions carry the face-up line (the match is over)")
    decisions: list[DecisionBody]


def install(app: FastAPI, hub: Hub, settings: Settings) -> None:
    """Add the analysis route to ``app`` and stop its workers with the app."""
    analyses = Analyses(settings)
    app.state.analyses = analyses
    player = HTTPBearer(auto_error=False, description="a seat token of the table")

    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        async with inner(app) as state:
            try:
                yield state
            finally:
                analyses.close()

    app.router.lifespan_context = lifespan

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> JSONResponse:
        message = f"{settings.analysis_queue} analyses are under way; ask again in a while"
        return JSONResponse({"code": BUSY, "message": message}, status_code=503)

    @app.post(
        "/api/tables/{table_id}/hands/{n}/analysis",
        response_model=AnalysisAnswer,
        response_model_exclude_unset=True,
        responses={code: {"model": ErrorBody} for code in (401, 403, 404, 422, 429, 503)},
    )
    async def analysis(
        table_id: str,
        n: int,
        body: AnalysisBody,
        request: Request,
        auth: HTTPAuthorizationCredentials | None = Depends(player),  # noqa: B008
    ) -> dict[str, Any]:
        origin = request.headers.get("origin")
        if origin is not None and not origin_ok(
            origin, request.headers.get("host", ""), settings.allowed_origins
        ):
            raise TableError(BAD_ORIGIN, f"requests from the origin {origin[:100]!r} are refused")
        table = await hub.get(table_id) if len(table_id) <= 32 else None
        if table is None:
            raise TableError(p.TABLE_NOT_FOUND, f"no table {table_id!r}")
        address = request.client.host if request.client is not None else ""
        token = auth.credentials if auth is not None else None
        player = request_player(request)
        return await analyses.answer(table, n, body.seat, body.seed, token, address, player)


__all__ = ["BUSY", "Analyses", "AnalysisPool", "Busy", "analyse", "install"]

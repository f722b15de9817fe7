"""The replay of a match (docs/protocol.md, "Replay"): its hands, step by step, as views.

Built on what the table already keeps, not on a second format: the finished hands of its match
(``Table.hands``, hand histories rebuilt from the stored event log) replayed through the engine
(``notation.states``), each state seen through the core's ``observe``. A frame's view is in the
table protocol's own codec (``protocol.view_json``), so a client draws it with the code that
draws a live table.

Who sees what is decided here, once: a finished match is shown with every card face up
(``observe(..., reveal=True)``) to anyone; during a match only its players may replay its
finished hands, each as he saw them (his own ``observe``: never another seat's hidden card).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel

from truco import protocol as p
from truco.events import HandStarted, visible_to
from truco.notation import HandHistory, states
from truco.server.errors import TableError
from truco.server.net.static import file_answer
from truco.server.schemas import ErrorBody, SeatInfo
from truco.server.tables.handle import TableHandle
from truco.server.tables.hands import as_seen_by
from truco.server.tables.hub import Hub
from truco.server.tables.table import FINISHED, Table
from truco.view import observe

MAX_FRAMES: Final = 400
"""The most frames one hand's answer holds. The rules bound a hand far below it (a hand of six
seats with every call and raise has about 60 actions); a stored hand over it is refused rather
than rebuilt."""
CACHE_MATCHES: Final = 64
"""Earlier matches of a table (before a rematch), rebuilt from its stored log, kept."""
CACHE_HANDS: Final = 512
"""Rebuilt hands kept, the least recently asked dropped first. A finished hand never changes,
so its frames are rebuilt once per viewer (everyone, or one seat during the match)."""

K = TypeVar("K")
V = TypeVar("V")

EVERYONE: Final = -1
"""The viewer of a finished match in the cache's key: every card face up."""
_SUMMARY: Final = -2
"""A hand's line in the match's list, in the cache's key."""


class ReplayHand(BaseModel):
    hand: int
    """From 1."""
    mano: int
    score_before: list[int]
    score_after: list[int]
    points: list[int]
    """What each team (or player) scored in this hand."""
    steps: int
    """The actions of the hand: frames 0 (after the deal) to ``steps``."""


class ReplayMatch(BaseModel):
    table: str
    match: int
    """Which match of the table this is (from 1)."""
    matches: int
    """How many the table has had (its current one is the last)."""
    status: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    seat: int | None
    """The viewer's seat during the match; null once it is over (every card face up)."""
    reveal: bool
    """Whether the frames show every card face up (the match is over)."""
    hands: list[ReplayHand]


class ReplayFrame(BaseModel):
    step: int
    seat: int | None
    """Who acted (null for frame 0, the deal)."""
    action: str | None
    """The action in the notation (``play 1e``, ``tapada ??`` for a card the viewer did not
    see); null for frame 0."""
    events: list[dict[str, Any]]
    """The events of this step, as the table protocol sends them."""
    view: dict[str, Any]
    """The view after this step, in the table protocol's codec (docs/protocol.md, "The view")."""


class ReplayHandFrames(BaseModel):
    table: str
    match: int
    hand: int
    seat: int | None
    reveal: bool
    frames: list[ReplayFrame]


def viewer(table: TableHandle, token: str | None, match: int | None = None) -> int:
    """Whose eyes the replay uses: ``EVERYONE`` once the match is over (an earlier match of the
    table always is), else the caller's seat.

    Raises ``bad_token`` during a match for anyone but its players.
    """
    info = table.info()
    current = int(info["match"])
    if match is not None and not 1 <= match <= current:
        raise TableError(p.TABLE_NOT_FOUND, f"the table has no match {match} (it is at {current})")
    if info["status"] == FINISHED or (match is not None and match < current):
        return EVERYONE
    seat = table.find_seat(token) if token else None
    if seat is None:
        raise TableError(
            p.BAD_TOKEN,
            "during a match only its players may replay its hands "
            "(a seat token in Authorization: Bearer)",
        )
    return seat.seat


async def match_hands(
    hub: Hub, table: TableHandle, match: int | None, past: Lru[tuple[str, int], list[HandHistory]]
) -> tuple[int, list[HandHistory]]:
    """The number and the finished hands of match ``match`` of ``table`` (None: its current
    one; ``viewer`` has checked that it exists). An earlier match (before a rematch) is rebuilt
    from the table's stored log, cut before the rematch that ended it, by the table's own
    replay of its log (``Table.from_row``)."""
    current = int(table.info()["match"])
    if match is None or match >= current:  # ``viewer`` refused any match after the current one
        return current, list(table.hands)
    found = past.peek((table.id, match))
    if found is not None:
        return match, found
    row = await hub.store.load(table.id)
    if row is None:
        raise TableError(p.TABLE_NOT_FOUND, f"no table {table.id!r}")
    rematches = [i for i, entry in enumerate(row.log) if entry.kind == "rematch"]
    cut = dataclasses.replace(row, log=row.log[: rematches[match - 1]])
    hands = list(Table.from_row(cut, hub.store, hub.settings).hands)
    return match, past.get((table.id, match), lambda: hands)


def hand_summary(n: int, history: HandHistory) -> dict[str, Any]:
    """What the match's list says of hand ``n``: nothing hidden in it, for any viewer."""
    frames = list(states(history))
    last = frames[-1][0]
    return {
        "hand": n,
        "mano": history.mano,
        "score_before": list(history.score),
        "score_after": list(last.score),
        "points": list(last.hand_points),
        "steps": len(history.actions),
    }


def frames(history: HandHistory, who: int, hand: int) -> list[dict[str, Any]]:
    """Every step of ``history``, hand ``hand`` of its match, as ``who`` may see it
    (``EVERYONE``: every card face up)."""
    if len(history.actions) + 1 > MAX_FRAMES:
        raise TableError(p.TOO_LARGE, f"a hand of more than {MAX_FRAMES} frames is not replayed")
    reveal = who == EVERYONE
    seat = None if reveal else who
    # The actions as the viewer knew them: another seat's tapada or discard is "??" to him.
    actions = history.actions if reveal else as_seen_by(history, who).actions
    out: list[dict[str, Any]] = []
    for step, (state, events) in enumerate(states(history)):
        # A hand history replays from a match of its own, as its first hand: the view and the
        # deal's event say which hand of the match it was.
        state = state._replace(hand_no=hand)
        acted = actions[step - 1] if step else None
        out.append(
            {
                "step": step,
                "seat": acted[0] if acted else None,
                "action": str(acted[1]) if acted else None,
                "events": [
                    p.event_json(e._replace(hand=hand) if type(e) is HandStarted else e)
                    for e in events
                    if reveal or visible_to(e, seat)
                ],
                "view": p.view_json(observe(state, seat, reveal=reveal)),
            }
        )
    return out


def _summary_list(n: int, history: HandHistory) -> list[dict[str, Any]]:
    return [hand_summary(n, history)]


class Lru(Generic[K, V]):
    """Values by key, built once, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def peek(self, key: K) -> V | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def get(self, key: K, build: Callable[[], V]) -> V:
        found = self.peek(key)
        if found is not None:
            return found
        found = self._items[key] = build()
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return found

    def __len__(self) -> int:
        return len(self._items)


FrameCache = Lru[tuple[str, int, int, int], list[dict[str, Any]]]
"""Rebuilt hands by (table, match, hand, viewer)."""


def install(app: FastAPI, get_table: Callable[[str], Awaitable[TableHandle]], site: Path) -> None:
    """Add the replay's routes to ``app`` (before its catch-all for unknown API paths), and the
    replay's page (``/r/{id}``, ``/r/{id}/{hand}/{step}``) when the web client in ``site`` is
    built."""
    index = site / "index.html"
    if index.is_file():

        @app.get("/r/{table_id}", include_in_schema=False)
        @app.get("/r/{table_id}/{hand}/{step}", include_in_schema=False)
        async def page(request: Request) -> Response:
            return file_answer(site, index, request.scope)

    cache = FrameCache(CACHE_HANDS)
    past: Lru[tuple[str, int], list[HandHistory]] = Lru(CACHE_MATCHES)
    hub: Hub = app.state.hub
    # auto_error=False: a missing token is answered as a wrong one (401 bad_token).
    player = HTTPBearer(auto_error=False, description="a seat token of the table (mid-match)")
    errors: dict[int | str, dict[str, Any]] = {
        code: {"model": ErrorBody} for code in (401, 404, 413, 422, 503)
    }
    which = Query(
        None, ge=1, le=1_000_000, description="A match of the table (default: its current one)"
    )

    async def replaying(
        table_id: str, match: int | None, auth: HTTPAuthorizationCredentials | None
    ) -> tuple[TableHandle, int, int, list[HandHistory]]:
        """The table, whose eyes, and the number and hands of the match asked for."""
        table = await get_table(table_id)
        who = viewer(table, auth.credentials if auth is not None else None, match)
        number, hands = await match_hands(hub, table, match, past)
        return table, who, number, hands

    @app.get("/api/tables/{table_id}/replay", response_model=ReplayMatch, responses=errors)
    async def replay_match(
        table_id: str,
        match: int | None = which,
        auth: HTTPAuthorizationCredentials | None = Depends(player),  # noqa: B008
    ) -> dict[str, Any]:
        table, who, number, hands = await replaying(table_id, match, auth)
        info = table.info()
        return {
            "table": table.id,
            "match": number,
            "matches": info["match"],
            "status": info["status"] if number == info["match"] else FINISHED,
            "options": info["options"],
            "seats": info["seats"],
            "seat": None if who == EVERYONE else who,
            "reveal": who == EVERYONE,
            "hands": [
                cache.get((table.id, number, n, _SUMMARY), partial(_summary_list, n, h))[0]
                for n, h in enumerate(hands, 1)
            ],
        }

    @app.get("/api/tables/{table_id}/replay/{n}", response_model=ReplayHandFrames, responses=errors)
    async def replay_hand(
        table_id: str,
        n: int,
        match: int | None = which,
        auth: HTTPAuthorizationCredentials | None = Depends(player),  # noqa: B008
    ) -> dict[str, Any]:
        table, who, number, hands = await replaying(table_id, match, auth)
        if not 1 <= n <= len(hands):
            raise TableError(p.TABLE_NOT_FOUND, f"hand {n} is not finished")
        history = hands[n - 1]
        return {
            "table": table.id,
            "match": number,
            "hand": n,
            "seat": None if who == EVERYONE else who,
            "reveal": who == EVERYONE,
            "frames": cache.get((table.id, number, n, who), partial(frames, history, who, n)),
        }


__all__ = [
    "CACHE_HANDS",
    "CACHE_MATCHES",
    "EVERYONE",
    "MAX_FRAMES",
    "FrameCache",
    "Lru",
    "frames",
    "install",
    "match_hands",
    "viewer",
]

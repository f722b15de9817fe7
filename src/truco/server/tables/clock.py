"""Timers and bots: the turn clock, the grace period of a seat left empty, and the decisions
the table takes by itself (a deal, a bot's move, the move of a person whose time ran out).

A table has one timer, for its next decision; it fires by posting a command on the table's
queue (``post``), so that the decision is applied by the owner task like any other. Each
decision's randomness is seeded by the table's seed and the version it is taken at, so that a
restarted server takes the same one.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from random import Random
from typing import Any

from truco.bots.driver import situation
from truco.bots.rivals import Reading
from truco.bots.senas import Heard
from truco.cards import DECK, format_cards
from truco.engine import CHANCE, Transition, apply, deal, to_act
from truco.server.settings import Settings
from truco.server.tables.botpool import BotPool
from truco.server.tables.seats import BOT, Seat
from truco.state import State

RETRY_SECONDS = 1.0
"""A decision the database did not take is tried again after this long."""

Command = Callable[[], Awaitable[Any]]
Post = Callable[[Command], None]


def seeded(seed: int, *salt: object) -> str:
    """The seed of one decision: the table's seed and what the decision is (kind, version...)."""
    return ":".join(str(x) for x in (seed, *salt))


class Clock:
    """The table's one timer and the grace periods of its seats."""

    def __init__(self, settings: Settings, turn_seconds: float | None, post: Post) -> None:
        self.settings = settings
        self.turn_seconds = turn_seconds
        self._post = post
        self._timer: asyncio.TimerHandle | None = None
        self.deadline: float | None = None
        """Wall-clock time (seconds since the epoch) when the seat to act runs out of time."""

    def deadline_ms(self) -> int | None:
        return None if self.deadline is None else int(self.deadline * 1000)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None

    def arm(self, state: State, seats: Sequence[Seat], fire: Command) -> None:
        """Arm the timer of the next decision: a deal, a bot's move or a turn's time limit."""
        self.cancel()
        actor = to_act(state)
        if actor is None:
            return
        if actor == CHANCE:
            delay = self.settings.deal_delay if state.hand_no else 0.0
        elif seats[actor].bot_plays:
            delay = self.settings.bot_delay
        elif self.turn_seconds:
            delay = self.turn_seconds
            self.deadline = time.time() + delay
        else:
            return
        self._timer = asyncio.get_running_loop().call_later(delay, self._post, fire)

    def retry(self, fire: Command) -> None:
        """The decision failed (the database is away): take it again in a moment."""
        self._timer = asyncio.get_running_loop().call_later(RETRY_SECONDS, self._post, fire)

    def grace(self, seat: Seat, over: Command) -> None:
        """(Re)start the grace period of ``seat``, whose person is away; ``over`` runs at its
        end."""
        self.end_grace(seat)
        loop = asyncio.get_running_loop()
        seat.grace = loop.call_later(self.settings.grace_seconds, self._post, over)

    @staticmethod
    def end_grace(seat: Seat) -> None:
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None


async def decide(
    pool: BotPool,
    settings: Settings,
    state: State,
    seats: Sequence[Seat],
    seed: int,
    v: int,
    *,
    heard: Heard = (),
    reading: Reading | None = None,
) -> tuple[str, dict[str, Any], Transition]:
    """The decision the table takes at version ``v``: a deal, or a bot's action for the seat to
    act (told the señas it received in this hand, ``heard``, and what the table has read of its
    rivals, ``reading``: ``driver.situation``). Returns the log entry (kind, data) and its
    transition, applied here once."""
    actor = to_act(state)
    assert actor is not None
    if actor == CHANCE:
        transition = deal(state, Random(seeded(seed, "deal", v)))
        dealt = transition.state
        data: dict[str, Any] = {"hands": [format_cards(h) for h in dealt.dealt]}
        if dealt.vira >= 0:  # Truco Paulista's vira is part of the deal: the log keeps it
            data["vira"] = str(DECK[dealt.vira])
        return "deal", data, transition
    seat = seats[actor]
    bot_seat = seat.kind == BOT and bool(seat.level)
    level = seat.level if bot_seat and seat.level else settings.takeover_bot
    # Decided in a worker process (botpool), seeded as a ``Random`` of ``seeded`` would be;
    # only the owner task applies it, and the state cannot change while it waits. A bot seat
    # plays with its persona's style, the señas its seat received and the table's reading; a
    # caretaker for a person is told none of them.
    told = situation(state, actor, heard, reading) if bot_seat else situation(state, actor)
    action = await pool.choose(
        level, told, seeded(seed, "bot", v, actor), seat.name if bot_seat else ""
    )
    return "act", {"seat": actor, "action": str(action)}, apply(state, action)


__all__ = ["RETRY_SECONDS", "Clock", "decide", "seeded"]

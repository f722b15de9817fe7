"""The one match driver: how a state and the bots seated at it become the next state.

Every table that seats bots (the arena, the terminal's local game, a server's table) goes the
same way: deal, let the bots of the side to act make their señas (to their partners only,
``senas.Exchange``), tell the bot to act what its seat knows (``Situation``: the view, the legal
actions, the señas it received this hand and its reading of the rivals this match), let it
choose, apply. The pieces are pure functions and one small object:

- ``situation(state, seat, heard, reading)``: what a bot seat is told now;
- ``decide(bot, told, rng)``: its choice (what a server's worker process runs: ``Situation`` is
  plain data and pickles);
- ``Driver``: the rest of one match, for whoever drives it step by step (``deal``, ``act``,
  ``play``; each returns a ``Step``: the new state, its events and the señas made for the next
  decision). It keeps the hand's señas and, for each bot seat that reads its rivals (``Reader``),
  the seat's reading, fed the seat's own view at the end of each hand.

No I/O, no clock and no randomness of its own: the caller hands in the generators (a seeded one
per hand for the arena's deals, one per decision at a server), so a seeded match is the same
wherever it is driven.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import NamedTuple

from truco import CHANCE, Transition, apply, deal, legal_actions, observe, to_act
from truco.actions import Action
from truco.bots.base import Bot, Situation, reading_for
from truco.bots.guard import guarded
from truco.bots.rivals import Reading
from truco.bots.senas import Exchange, Heard, signs
from truco.events import Event
from truco.state import State

Made = tuple[int, str, tuple[int, ...]]
"""A seña made: its sender, the seña, and the seats it reached (the sender's partners)."""


class Step(NamedTuple):
    """One step of a match."""

    state: State
    events: tuple[Event, ...]
    senas: tuple[Made, ...] = ()
    """The señas the bots of the side to act next made once ``state`` was reached (before
    that decision: a partner's choice may depend on them)."""


def situation(
    state: State, seat: int, heard: Heard = (), reading: Reading | None = None
) -> Situation:
    """What the bot of ``seat`` (the seat to act) is told: its view and legal actions, the
    señas it received this hand and its reading of the rivals."""
    return Situation(observe(state, seat), legal_actions(state), heard, reading)


def decide(bot: Bot, told: Situation, rng: Random) -> Action:
    """The bot's choice for the situation it is told; never a falta that throws the match
    (``guard``)."""
    return guarded(bot.choose, told, rng)


class BotSeats:
    """What a match keeps for its bot seats: the señas of the hand being played (what each seat
    made and received), which seats sign, and per bot seat that reads its rivals, what it has
    read this match."""

    def __init__(self, players: int, bots: Mapping[int, Bot]) -> None:
        self.bots = dict(bots)
        self.senas = Exchange(players)
        self.signers = [s in self.bots and signs(self.bots[s]) for s in range(players)]
        self.readings: dict[int, Reading] = {}
        for seat, bot in self.bots.items():
            reading = reading_for(bot)
            if reading is not None:
                self.readings[seat] = reading


class Driver(BotSeats):
    """One match with bots in some seats (the others are people, who act through ``act``)."""

    def __init__(self, state: State, bots: Mapping[int, Bot]) -> None:
        super().__init__(state.rules.players, bots)
        self.state = state

    def to_act(self) -> int | None:
        """The seat to act, ``CHANCE`` for a deal, None once the match is over."""
        return to_act(self.state)

    def told(self, seat: int) -> Situation:
        """What the bot of ``seat``, the seat to act, is told now."""
        heard = self.senas.heard_by(seat, self.state.hand_no)
        return situation(self.state, seat, heard, self.readings.get(seat))

    def deal(self, rng: Random) -> Step:
        """Deal the next hand with ``rng``; first the seats that read their rivals see the hand
        that ended, each from its own view, as a person at the table sees it."""
        if self.state.hand_no:
            for seat, reading in self.readings.items():
                reading.watch(observe(self.state, seat))
        return self._step(deal(self.state, rng))

    def act(self, action: Action) -> Step:
        """Apply the action of the seat to act (a bot's choice or a person's)."""
        return self._step(apply(self.state, action))

    def play(self, rng: Random) -> tuple[Action, Step]:
        """The bot of the seat to act chooses with ``rng`` what it is told, and acts."""
        seat = to_act(self.state)
        assert seat is not None and seat in self.bots, f"seat {seat} holds no bot"
        action = decide(self.bots[seat], self.told(seat), rng)
        return action, self.act(action)

    def _step(self, transition: Transition) -> Step:
        self.state = transition.state
        return Step(transition.state, transition.events, self._sign())

    def _sign(self) -> tuple[Made, ...]:
        actor = to_act(self.state)
        if actor is None or actor == CHANCE or not any(self.signers):
            return ()
        return tuple(self.senas.before(self.state, actor, self.signers))


__all__ = ["BotSeats", "Driver", "Made", "Step", "decide", "situation"]

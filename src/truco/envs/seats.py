"""Our bots in some seats of a research game, asked as every table asks them (``bots.driver``):
each is told its ``Situation`` (its view, its legal actions, the señas its partners made it this
hand, its reading of the rivals this match) and its choice goes through ``driver.decide``."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

from truco.bots.base import Bot
from truco.bots.driver import BotSeats, decide, situation
from truco.research.actions import ACTION_ID
from truco.research.match import CHANCE, Match
from truco.view import observe


class Seated(BotSeats):
    """The bots of some seats of one game, with the señas and readings a table keeps for them."""

    def __init__(self, match: Match, bots: Mapping[int, Bot]) -> None:
        super().__init__(match.rules.players, bots)
        self.match = match
        self._hands_seen = match.hands_done

    def after_action(self) -> None:
        """Once an action is taken: at a hand's end (before the next deal) the seats that read
        their rivals see the hand, each from its own view."""
        match = self.match
        if match.hands_done != self._hands_seen:
            self._hands_seen = match.hands_done
            for seat, reading in self.readings.items():
                reading.watch(observe(match.state, seat))

    def before_decision(self) -> None:
        """Before the seat to act decides, the bots of its side make the señas due."""
        actor = self.match.to_act()
        if actor is not None and actor != CHANCE and any(self.signers):
            self.senas.before(self.match.state, actor, self.signers)

    def play(self, rng: Random) -> int:
        """The number of the choice of the bot of the seat to act."""
        state = self.match.state
        seat = self.match.to_act()
        assert seat is not None and seat in self.bots, f"seat {seat} holds no bot"
        heard = self.senas.heard_by(seat, state.hand_no)
        told = situation(state, seat, heard, self.readings.get(seat))
        return ACTION_ID[decide(self.bots[seat], told, rng)]

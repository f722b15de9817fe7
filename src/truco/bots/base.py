"""The bot protocol: a bot is told one seat's situation (``Situation``) and picks a legal action.

Everything a bot may know of a decision comes in that one value: the seat's view, its legal
actions, the señas its partners made it this hand and what the seat has read of its rivals this
match. Whoever seats the bot (``driver.Driver``, a server's table) keeps the señas and the
reading and tells them; a bot holds nothing of a match between decisions, so one bot may play
many tables at once.
"""

from __future__ import annotations

from random import Random
from typing import NamedTuple, Protocol, runtime_checkable

from truco.actions import Action
from truco.bots.rivals import Reading
from truco.bots.senas import Heard
from truco.view import SeatView


class Situation(NamedTuple):
    """What a bot is told for one decision of its seat."""

    view: SeatView
    """What the seat may know (``truco.observe``)."""
    legal: tuple[Action, ...]
    """What it may do (never empty when a bot is asked)."""
    heard: Heard = ()
    """The señas the seat received in this hand, from its partners (``senas.Heard``)."""
    reading: Reading | None = None
    """What the seat has read of its rivals this match (``rivals.Reading``), for a bot that
    reads them (``Reader``); the bot only reads it."""


class Bot(Protocol):
    """A player program. It may only use what it is told (``Situation``) and the RNG."""

    name: str

    def choose(self, told: Situation, rng: Random) -> Action:
        """One of ``told.legal``."""
        ...


@runtime_checkable
class Reader(Protocol):
    """A bot that reads its rivals over a match: the reading its seat keeps for it."""

    def fresh_reading(self) -> Reading | None:
        """A new match's reading (None: this bot reads nobody after all)."""
        ...


def reading_for(bot: object) -> Reading | None:
    """The reading a seat keeps for ``bot`` over a new match (None: it reads no rival)."""
    return bot.fresh_reading() if isinstance(bot, Reader) else None


__all__ = ["Bot", "Reader", "Situation", "reading_for"]

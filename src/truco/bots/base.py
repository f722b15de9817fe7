"""The bot protocol: a bot sees one seat's view and its legal actions, and picks one."""

from __future__ import annotations

from random import Random
from typing import Protocol

from truco.actions import Action
from truco.view import SeatView


class Bot(Protocol):
    """A player program. It may only use the view (what its seat may know) and the RNG."""

    name: str

    def choose(self, view: SeatView, legal: tuple[Action, ...], rng: Random) -> Action:
        """One of ``legal`` (never empty when a bot is asked)."""
        ...

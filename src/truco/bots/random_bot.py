"""The baseline: uniform over the legal actions (also a fuzzer)."""

from __future__ import annotations

from random import Random

from truco.actions import Action
from truco.view import SeatView


class RandomBot:
    name = "random"

    def choose(self, view: SeatView, legal: tuple[Action, ...], rng: Random) -> Action:
        return legal[rng.randrange(len(legal))]

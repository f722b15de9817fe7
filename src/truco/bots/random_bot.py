"""The baseline: uniform over the legal actions (also a fuzzer)."""

from __future__ import annotations

from random import Random

from truco.actions import Action
from truco.bots.base import Situation


class RandomBot:
    name = "random"

    def choose(self, told: Situation, rng: Random) -> Action:
        return told.legal[rng.randrange(len(told.legal))]

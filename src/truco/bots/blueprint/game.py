"""The abstract game the blueprint is trained and measured in: real 1v1 hands on the real
engine, from a score drawn at random, scored as match equity (docs/bots.md, "The blueprint").

Chance draws the score (each side's points uniform below the target, so that every bucket of
the score is trained), who is mano, and the deal. A hand is played on ``truco.engine.apply``
with the abstract actions of ``abstraction``; its payoff to a seat is the probability of winning
the match from the score after it (``equity.match_equity``; 1 or 0 once the match is over), so a
falta at 0-0 and a falta at 27-27 are weighed as the match weighs them.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import NamedTuple

from truco.engine import deal
from truco.rules import Rules
from truco.state import State, new_match

Utility = Callable[[State, int], float]


class Setting(NamedTuple):
    """What a blueprint is trained for: the rules of its 1v1 game."""

    name: str
    rules: Rules
    starts: tuple[State, ...] = ()
    """A fixed set of chance outcomes to draw from instead (a tiny game, for tests)."""

    def start(self, rng: Random) -> State:
        """A chance outcome: a score, a mano, a deal."""
        if self.starts:
            return self.starts[rng.randrange(len(self.starts))]
        target = self.rules.target
        score = (rng.randrange(target), rng.randrange(target))
        state = new_match(self.rules, mano=rng.randrange(2), score=score)
        return deal(state, rng).state


SETTINGS: dict[str, Setting] = {
    "standard": Setting("standard", Rules()),
    "flor": Setting("flor", Rules(flor=True)),
    "paulista": Setting("paulista", Rules(game="paulista")),
}
"""The blueprints there are, by name: 1v1 to 30 without and with flor, and Truco Paulista."""


def points_won(state: State, seat: int) -> float:
    """Another payoff, for the exploitability in points: what ``seat`` scored in the hand less
    what its rival scored."""
    team = state.teams[seat]
    return float(state.hand_points[team] - state.hand_points[1 - team])


def setting_of(rules: Rules) -> str | None:
    """The blueprint that covers a table with these rules, if any (1v1 only)."""
    if rules.players != 2 or rules.variant != "standard":
        return None
    if rules.game == "paulista":
        return "paulista"
    return "flor" if rules.flor else "standard"


__all__ = ["SETTINGS", "Setting", "Utility", "points_won", "setting_of"]

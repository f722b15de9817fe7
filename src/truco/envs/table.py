"""What the PettingZoo and Gymnasium environments share: their options, spaces and observations.

Options are every field of ``truco.Rules`` (same names) and ``returns``; like the OpenSpiel game
(``research.openspiel``), a value equal to its default is left for ``Rules`` to fill in (a variant
given alone gets its own number of seats). The observation is a dict: ``observation``, the seat's
``research.encode`` observation tensor, and ``action_mask``, its legal actions by number.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from truco.research.actions import NUM_ACTIONS
from truco.research.encode import Encoder
from truco.research.match import CHANCE, Match
from truco.research.options import max_hand_points
from truco.rules import Rules
from truco.state import draw

Observation = dict[str, npt.NDArray[Any]]


def score_bound(rules: Rules) -> float:
    """The most the observation's ``score`` piece can hold: a score is counted over the target
    (or all the porotos), and the hand that ends a match may take a side past it, by at most a
    falta (twice the target), the truco's top value, every seat's flor and the envido chain's
    (``research.options.max_hand_points``)."""
    if rules.variant == "destantado":
        return 1.0
    return (rules.target - 1 + max_hand_points(rules)) / rules.target


def observation_space(encoder: Encoder, rules: Rules) -> spaces.Dict:
    """A seat's observation: the tensor (each piece in 0..1, the score up to ``score_bound``)
    and the action mask."""
    high = np.ones(encoder.size, np.float32)
    at = 0
    for piece in encoder.pieces:
        if piece.name == "score":
            high[at : at + piece.size] = score_bound(rules)
        at += piece.size
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, high, (encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


def observe(encoder: Encoder, match: Match, seat: int) -> Observation:
    """What ``seat`` sees now, as new arrays; its mask is empty unless it is to act."""
    encoder.set_from(match, seat)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if match.to_act() == seat:
        mask[match.legal()] = 1
    return {"observation": encoder.tensor.copy(), "action_mask": mask}


def deal_chance(match: Match, rng: np.random.Generator) -> None:
    """Deal every card due now, each uniform over the cards left (``chance_outcomes``)."""
    while match.to_act() == CHANCE:
        outcomes = match.chance_outcomes()
        match.step(outcomes[int(rng.integers(len(outcomes)))][0])


def render(mode: str | None, match: Match) -> str | None:
    """The table as text (every seat's cards: the drawing of ``truco.state.draw``): printed in
    ``human`` mode, returned in ``ansi``."""
    if mode is None:
        gymnasium.logger.warn("render called without a render_mode ('human' or 'ansi')")
        return None
    text = draw(match.state)
    if mode == "human":
        print(text)
        return None
    return text

"""Truco as an OpenSpiel game: ``pyspiel.load_game("python_truco(players=4,flor=True)")``.

Importing this module registers ``python_truco``. Its parameters are every option of
``truco.Rules`` (the same names and defaults) and ``returns`` (``match``: +1 to the winning
side, the others share -1; ``hand``: the game is the first hand, and its return the points one's
side won less the others' mean). The game is ``research.match.Match``: the real engine, a chance
node for each card dealt, the fixed action numbering of ``research.actions``; what a seat knows
comes from ``observe`` only (``research.encode``). docs/research.md has it all.
"""

from __future__ import annotations

import functools
from random import Random
from typing import Any, Final

import numpy as np
import pyspiel

from truco.cards import DECK
from truco.research.actions import NUM_ACTIONS, action_text
from truco.research.encode import Encoder, history_rows
from truco.research.match import CHANCE, Match
from truco.research.options import RULES_DEFAULTS, max_hand_points, rules_of
from truco.rules import Rules
from truco.state import State, draw

NAME: Final = "python_truco"
PARAMETERS: Final[dict[str, Any]] = {**RULES_DEFAULTS, "returns": "match"}
"""The game's parameters and their defaults: every option of ``Rules``, and ``returns``."""

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=NAME,
    long_name="Truco (Argentine truco and Truco Paulista, every variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def max_hands(rules: Rules) -> int:
    """A bound on the hands of a match: each hand scores at least a point for some side, so a
    match has at most ``scorers * (target - 1) + 1``. Destantado (porotos go back and forth) and
    Truco Paulista (three tied tricks score nothing) have no strict bound: there it is four times
    that, and random play stays far below it (docs/research.md)."""
    scorers = rules.scorers
    if rules.variant == "destantado":
        bound = rules.players * rules.porotos + 1
    else:
        bound = scorers * (rules.target - 1) + 1
    if rules.variant == "destantado" or rules.game == "paulista":
        bound *= 4
    return bound


def game_info(rules: Rules, returns: str) -> pyspiel.GameInfo:
    """The game's sizes and bounds for ``rules``."""
    rows = history_rows(rules.players)
    if returns == "match":
        low, high, length = -1.0, 1.0, rows * max_hands(rules)
        if rules.scorers > 2:
            low = -1.0 / (rules.scorers - 1)
    else:
        high = float(max_hand_points(rules))
        low, length = -high, rows
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=40,
        num_players=rules.players,
        min_utility=low,
        max_utility=high,
        utility_sum=0.0,
        max_game_length=length,
    )


class TrucoGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_truco``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.rules, self.returns_mode = rules_of({**PARAMETERS, **given})
        super().__init__(_GAME_TYPE, game_info(self.rules, self.returns_mode), given)

    def new_initial_state(self) -> TrucoState:
        return TrucoState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> TrucoObserver:
        if params:
            raise ValueError(f"python_truco's observer takes no parameters, not {params!r}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return TrucoObserver(self.rules, kind)


@functools.lru_cache(maxsize=32)
def pyspiel_game(rules: Rules, returns: str = "match") -> TrucoGame:
    """The ``python_truco`` game of ``rules`` (every option given as a parameter)."""
    params = {name: getattr(rules, name) for name in RULES_DEFAULTS}
    game = TrucoGame({**params, "returns": returns})
    if game.rules != rules:
        raise ValueError(f"python_truco cannot be given these rules: {rules}")
    return game


class TrucoState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_truco``: a ``Match`` and OpenSpiel's record of its steps.

    ``start``: the game starts from that engine state about to deal a hand (``Match``'s
    ``start``) rather than the match's start; its resampled states start there too. A bot seated
    in a match of ours searches from the hand it is in (``research.bots``)."""

    def __init__(self, game: TrucoGame, start: State | None = None) -> None:
        super().__init__(game)
        self.start = start
        self.match = Match(game.rules, game.returns_mode, start)

    def current_player(self) -> int:
        actor = self.match.to_act()
        if actor is None:
            return int(pyspiel.PlayerId.TERMINAL)
        if actor == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return actor

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.match.to_act():
            return []
        return self.match.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.match.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.match.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {DECK[action]}"
        return action_text(action)

    def is_terminal(self) -> bool:
        return self.match.is_over()

    def returns(self) -> list[float]:
        return self.match.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TrucoState:
        """A state ``player_id`` cannot tell from this one, its unseen cards drawn uniformly
        among those that agree with all it saw (``Match.resample``)."""
        rng = Random(int(probability_sampler() * 2**53))
        world = self.match.resample(player_id, rng)
        state = TrucoState(self.get_game(), self.start)
        for number in world.history:
            state.apply_action(number)
        return state

    def __str__(self) -> str:
        return draw(self.match.state)

    def __deepcopy__(self, memo: dict[int, Any]) -> TrucoState:
        # The engine's states are immutable: a clone shares them (see Match.copy).
        other = self.__class__.__new__(self.__class__)
        pyspiel.State.__init__(other, self.get_game())
        other.__dict__.update(self.__dict__)
        other.match = self.match.copy()
        return other


class TrucoObserver:
    """OpenSpiel's observer: the information state (``perfect_recall``) or the observation, as
    a tensor (``tensor``, ``dict``) and as text."""

    def __init__(self, rules: Rules, iig_obs_type: pyspiel.IIGObservationType) -> None:
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
            iig_obs_type.public_info
        ):
            raise ValueError("python_truco observes for one seat: its own and the public facts")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self._encoder = Encoder(rules, self.perfect_recall)
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] = self._encoder.tensor
        self.dict = self._encoder.dict

    def set_from(self, state: TrucoState, player: int) -> None:
        self._encoder.set_from(state.match, player)

    def string_from(self, state: TrucoState, player: int) -> str:
        if self.perfect_recall:
            return state.match.information_state(player)
        return state.match.observation(player)


pyspiel.register_game(_GAME_TYPE, TrucoGame)

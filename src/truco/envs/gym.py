"""Truco as a Gymnasium environment for one learner: the other seats are our bots.

``TrucoEnv(seat=0, rivals="experto", **options)``: the learner plays ``seat``; every other seat
(partners too) is a bot by name (``truco.bots.make_bot``), or one name per other seat in seat
order. Options are those of ``truco.envs.env`` (every ``Rules`` field, ``returns``). The deals
and the bots' choices draw on the environment's ``np_random``, so a seed gives the same game for
the same actions. The observation is the learner's dict (``observation``, ``action_mask``); the
reward is its return at the end (``Match.returns``), 0 before. An illegal action ends the
episode with ``illegal_reward`` (-1, as ``truco.envs.env`` does; None: it raises
``IllegalActionError`` instead).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from truco.bots import make_bot
from truco.envs.aec import ILLEGAL_REWARD
from truco.envs.seats import Seated
from truco.envs.table import Observation, deal_chance, observation_space, observe, render
from truco.errors import IllegalActionError
from truco.research.actions import NUM_ACTIONS, action_text
from truco.research.encode import Encoder
from truco.research.match import Match
from truco.research.options import rules_of


class TrucoEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One game of truco (a match, or one hand) from one seat, the others played by bots."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        seat: int = 0,
        rivals: str | Sequence[str] = "experto",
        render_mode: str | None = None,
        illegal_reward: float | None = ILLEGAL_REWARD,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.rules, self.returns_mode = rules_of(options)
        players = self.rules.players
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat}")
        self.seat = seat
        self.others = [s for s in range(players) if s != seat]
        names = [rivals] * len(self.others) if isinstance(rivals, str) else list(rivals)
        if len(names) != len(self.others):
            raise ValueError(f"rivals: one name for all, or one per other seat ({self.others})")
        for name in names:
            make_bot(name)  # an unknown name fails here, not at the first reset
        self.rival_names = names
        self.illegal_reward = illegal_reward
        self.encoder = Encoder(self.rules, perfect_recall=False)
        self.observation_space = observation_space(self.encoder, self.rules)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.match = Match(self.rules, self.returns_mode)
        self.seated = Seated(self.match, {})
        self._rng = Random(0)
        self._over = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self.match = Match(self.rules, self.returns_mode)
        bots = {s: make_bot(name) for s, name in zip(self.others, self.rival_names, strict=True)}
        self.seated = Seated(self.match, bots)
        self._rng = Random(int(self.np_random.integers(2**63)))
        self._over = False
        self._advance()
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._over:
            raise IllegalActionError("the episode is over: reset the environment")
        number = int(action)
        legal = self.match.legal()
        if number not in legal:
            if self.illegal_reward is None:
                raise IllegalActionError(
                    f"action {number} is not legal now; legal: "
                    + ", ".join(f"{n} ({action_text(n)})" for n in legal)
                )
            self._over = True
            return self._observe(), float(self.illegal_reward), True, False, {"illegal": number}
        self.match.step(number)
        self.seated.after_action()
        self._advance()
        if self.render_mode == "human":
            self.render()
        reward = self.match.returns()[self.seat] if self._over else 0.0
        return self._observe(), reward, self._over, False, self._info()

    def _advance(self) -> None:
        """Deal and let the bots play until the learner is to act or the game is over."""
        while True:
            deal_chance(self.match, self.np_random)
            actor = self.match.to_act()
            if actor is None:
                self._over = True
                return
            self.seated.before_decision()
            if actor == self.seat:
                return
            self.match.step(self.seated.play(self._rng))
            self.seated.after_action()

    def _observe(self) -> Observation:
        return observe(self.encoder, self.match, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"legal_moves": [action_text(n) for n in self.match.legal()]}

    def render(self) -> str | None:
        """The table as text (every seat's cards: the drawing of ``truco.state.draw``)."""
        return render(self.render_mode, self.match)


ID = "truco/Truco-v0"
"""The environment's Gymnasium id: ``gymnasium.make("truco/Truco-v0", rivals="simple")``."""
if ID not in gymnasium.registry:
    gymnasium.register(ID, entry_point="truco.envs.gym:TrucoEnv")

__all__ = ["ID", "TrucoEnv"]

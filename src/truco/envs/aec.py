"""Truco as a PettingZoo AEC environment (``truco_v0``), on ``research.match.Match``.

The agents are ``player_0`` .. ``player_{n-1}``, one per seat. Chance (each card dealt) is
resolved inside the environment with its ``np_random``, seeded by ``reset(seed=...)``, so the
agents only meet decisions. Rewards are given once, at the end: ``Match.returns()``. The raw
environment refuses an illegal action (``IllegalActionError``); ``truco.envs.env`` wraps it as
PettingZoo's classic games are wrapped, so that an illegal action ends the game with -1 for the
agent that made it and 0 for the others (``TerminateIllegalWrapper``).
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from truco.envs.table import Observation, deal_chance, observation_space, observe, render
from truco.errors import IllegalActionError
from truco.research.actions import NUM_ACTIONS, action_text
from truco.research.encode import Encoder
from truco.research.match import Match
from truco.research.options import rules_of

ILLEGAL_REWARD = -1.0
"""What ``env``'s wrapper gives the agent that takes an illegal action (the others get 0)."""


def env(**options: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (as its classic games have them)."""
    wrapped: AECEnv = raw_env(**options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's own name for it
    """One game of truco (a match, or one hand with ``returns="hand"``) for PettingZoo.

    Options: every field of ``truco.Rules`` by name, ``returns`` (``match`` or ``hand``) and
    ``render_mode`` (None, ``human``: print the table, ``ansi``: return it as text)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["human", "ansi"],
        "name": "truco_v0",
        "is_parallelizable": False,
    }

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.rules, self.returns_mode = rules_of(options)
        self.encoder = Encoder(self.rules, perfect_recall=False)
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        obs_space = observation_space(self.encoder, self.rules)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        act_space = spaces.Discrete(NUM_ACTIONS)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.np_random, _ = seeding.np_random(None)
        self.match = Match(self.rules, self.returns_mode)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; with ``seed``, its deals (and so the whole game, for the same actions)
        are the same each time."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.match = Match(self.rules, self.returns_mode)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()

    def observe(self, agent: str) -> Observation:
        return observe(self.encoder, self.match, self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        number = int(action)
        if number not in self.match.legal():
            raise IllegalActionError(
                f"{agent} cannot take action {number} now; legal: "
                + ", ".join(f"{n} ({action_text(n)})" for n in self.match.legal())
            )
        self._cumulative_rewards[agent] = 0.0
        self.match.step(number)
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Deal what is due; then select the seat to act, or end the game and pay."""
        deal_chance(self.match, self.np_random)
        for agent in self.agents:
            self.infos[agent] = {}
        actor = self.match.to_act()
        if actor is None:
            for agent, value in zip(self.possible_agents, self.match.returns(), strict=True):
                self.rewards[agent] = value
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        for agent in self.agents:
            self.rewards[agent] = 0.0
        self.agent_selection = self.possible_agents[actor]
        self.infos[self.agent_selection] = {
            "legal_moves": [action_text(n) for n in self.match.legal()]
        }

    def render(self) -> str | None:
        """The table as text (every seat's cards: the drawing of ``truco.state.draw``)."""
        return render(self.render_mode, self.match)

    def close(self) -> None:
        pass


__all__ = ["ILLEGAL_REWARD", "env", "raw_env"]

"""Truco as a PettingZoo environment (``env``, ``raw_env``: ``truco_v0``) and as a Gymnasium
environment for one learner against our bots (``truco.envs.gym.TrucoEnv``).

Both are the research game (``truco.research.match``) with its chance resolved inside: the
agents only meet decisions. docs/research.md, "PettingZoo and Gymnasium", has examples.
"""

from __future__ import annotations

from truco.envs.aec import ILLEGAL_REWARD, env, raw_env

__all__ = ["ILLEGAL_REWARD", "env", "raw_env"]

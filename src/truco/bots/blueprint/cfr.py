"""Monte Carlo counterfactual regret minimisation with external sampling (docs/bots.md, "The
blueprint").

Why this member of the family: the game is played on the real engine, so the abstract game is
only known by playing it (no tree to hold in memory, as CFR+ on the whole game would need);
external sampling samples chance and the other seat and walks every abstract action of the
seat being trained, which keeps the variance low where outcome sampling's is high, and costs a
few hundred engine steps an iteration. Regrets are floored at zero (regret matching+) and the
average strategy weighs iteration ``t`` by ``t`` (linear averaging), which converges faster in
practice than plain averaging.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from random import Random

from truco.bots.blueprint.abstraction import choices, options_of, resolve, state_key
from truco.bots.blueprint.game import Setting
from truco.bots.equity import equity_after
from truco.engine import apply, to_act
from truco.state import State

Policy = Callable[[str, int], list[float] | None]
"""A strategy to look up: the probabilities of a key's abstract actions (None: unknown key)."""


def regret_matching(regrets: list[float]) -> list[float]:
    positive = [r if r > 0.0 else 0.0 for r in regrets]
    total = sum(positive)
    if total <= 0.0:
        return [1.0 / len(regrets)] * len(regrets)
    return [r / total for r in positive]


class Trainer:
    """The regret and average-strategy tables of one blueprint, and the sampling that fills
    them. ``iterations`` counts traversals of both seats."""

    def __init__(self, setting: Setting, seed: int) -> None:
        self.setting = setting
        self.seed = seed
        self.rng = Random(seed)
        self.iterations = 0
        self.regrets: dict[str, list[float]] = {}
        self.strategy: dict[str, list[float]] = {}

    def run(self, iterations: int, progress: Callable[[int], None] | None = None) -> None:
        """``iterations`` more iterations (each: one sampled hand per seat being trained)."""
        for _ in range(iterations):
            self.iterations += 1
            weight = float(self.iterations)
            for seat in (0, 1):
                self._walk(self.setting.start(self.rng), seat, weight)
            if progress is not None:
                progress(self.iterations)

    def _walk(self, state: State, trained: int, weight: float) -> float:
        while state.phase == 1:
            actor = to_act(state)
            assert actor is not None
            found = choices(state.legal)
            if len(found) == 1:
                state = apply(state, resolve(state, actor, found[0])).state
                continue
            key = state_key(state, actor, options_of(found))
            regrets = self.regrets.get(key)
            if regrets is None:
                regrets = self.regrets[key] = [0.0] * len(found)
                self.strategy[key] = [0.0] * len(found)
            sigma = regret_matching(regrets)
            if actor == trained:
                values = [
                    self._walk(apply(state, resolve(state, actor, c)).state, trained, weight)
                    for c in found
                ]
                expected = sum(p * v for p, v in zip(sigma, values, strict=True))
                for i, v in enumerate(values):
                    r = regrets[i] + v - expected
                    regrets[i] = r if r > 0.0 else 0.0
                return expected
            average = self.strategy[key]
            for i, p in enumerate(sigma):
                average[i] += weight * p
            draw = self.rng.random()
            pick = len(sigma) - 1
            for i, p in enumerate(sigma):
                draw -= p
                if draw < 0.0:
                    pick = i
                    break
            state = apply(state, resolve(state, actor, found[pick])).state
        return equity_after(state, trained)

    def average(self, key: str, n: int) -> list[float] | None:
        """The average strategy at ``key`` (None: never reached as the other seat)."""
        sums = self.strategy.get(key)
        if sums is None or len(sums) != n:
            return None
        total = sum(sums)
        if total <= 0.0:
            return None
        return [s / total for s in sums]

    def save(self, path: Path) -> None:
        """A checkpoint to resume from (a local file of this program's own: a pickle)."""
        tmp = path.with_suffix(path.suffix + ".tmp")
        with tmp.open("wb") as f:
            pickle.dump(
                {
                    "setting": self.setting.name,
                    "seed": self.seed,
                    "iterations": self.iterations,
                    "rng": self.rng.getstate(),
                    "regrets": self.regrets,
                    "strategy": self.strategy,
                },
                f,
                protocol=pickle.HIGHEST_PROTOCOL,
            )
        tmp.replace(path)  # a checkpoint is whole or absent, even if training is killed

    @classmethod
    def load(cls, path: Path, setting: Setting) -> Trainer:
        with path.open("rb") as f:
            data = pickle.load(f)
        if data["setting"] != setting.name:
            raise ValueError(f"{path} is a checkpoint of {data['setting']!r}, not {setting.name!r}")
        trainer = cls(setting, data["seed"])
        trainer.iterations = data["iterations"]
        trainer.rng.setstate(data["rng"])
        trainer.regrets = data["regrets"]
        trainer.strategy = data["strategy"]
        return trainer


__all__ = ["Policy", "Trainer", "regret_matching"]

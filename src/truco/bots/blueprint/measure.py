"""``truco explotabilidad``: the exploitability of blueprint files (a training's snapshots make
its curve), in sample and on held-out deals (docs/bots.md, "Exploitability")."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple, TextIO

from truco.bots.blueprint import store
from truco.bots.blueprint.exploit import Exploitability, Strategy, exploitability, sample
from truco.bots.blueprint.game import SETTINGS
from truco.errors import TrucoError

UNIFORM = "uniforme"
"""The name that measures the untrained strategy (every abstract action alike)."""
MOST_DEALS = 20_000
"""The most deals a measure takes, fitted or held out (about 0.3 s of CPU each per seat and
payoff: 20,000 is hours)."""
HELD_SEED = 1_000_003
"""Added to the seed for the held-out deals, so that they are never the fitted ones."""


class Measured(NamedTuple):
    name: str
    iterations: int
    inside: Exploitability
    held: Exploitability | None
    seconds: float

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "blueprint": self.name,
            "iterations": self.iterations,
            "deals": self.inside.deals,
            "equity_in_sample": self.inside.equity,
            "points_in_sample": self.inside.points,
            "seconds": self.seconds,
        }
        if self.held is not None:
            out |= {
                "held_out_deals": self.held.deals,
                "equity_held_out": self.held.equity,
                "points_held_out": self.held.points,
            }
        return out


def strategy_of(name: str) -> tuple[Strategy, int]:
    """A file's strategy and its iterations (``uniforme``: no file, 0)."""
    if name == UNIFORM:
        return (lambda key, n: None), 0
    bp = store.read(Path(name))
    return bp.probs, int(bp.meta.get("iterations", "0"))


def measure(
    names: Sequence[str],
    setting_name: str,
    deals: int,
    held_out: int,
    seed: int,
    err: TextIO = sys.stderr,
) -> list[Measured]:
    """Each blueprint's exploitability over the same ``deals`` (and ``held_out`` others)."""
    setting = SETTINGS.get(setting_name)
    if setting is None:
        raise TrucoError(f"no blueprint named {setting_name!r}; blueprints: {', '.join(SETTINGS)}")
    if not 1 <= deals <= MOST_DEALS or not 0 <= held_out <= MOST_DEALS:
        raise TrucoError(f"--deals must be 1 to {MOST_DEALS} and --held-out 0 to {MOST_DEALS}")
    strategies = [(n, *strategy_of(n)) for n in names]  # every file read before any long work
    starts = sample(setting, deals, seed)
    held = sample(setting, held_out, seed + HELD_SEED) if held_out else []
    out: list[Measured] = []
    for i, (name, strategy, iterations) in enumerate(strategies, 1):
        print(f"[{i}/{len(strategies)}] {name} ...", end="", file=err, flush=True)
        start = time.process_time()
        inside, outside = exploitability(strategy, starts, held)
        spent = time.process_time() - start
        print(f" {spent:.0f} s", file=err)
        out.append(Measured(name, iterations, inside, outside, spent))
    return out


def format_rows(rows: Sequence[Measured]) -> str:
    """The curve as a table: equity per hand (and points per hand), in sample and held out."""
    lines = [
        "iteraciones  en muestra (equidad, puntos)  fuera de muestra (equidad, puntos)  archivo"
    ]
    for r in rows:
        held = "-" if r.held is None else f"{r.held.equity:+.4f} {r.held.points:+.3f}"
        lines.append(
            f"{r.iterations:>11}  {r.inside.equity:+.4f} {r.inside.points:+.3f}"
            f"{'':>15}{held:>20}{'':>16}{r.name}"
        )
    return "\n".join(lines)


__all__ = ["MOST_DEALS", "UNIFORM", "Measured", "format_rows", "measure", "strategy_of"]

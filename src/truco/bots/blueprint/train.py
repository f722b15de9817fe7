"""``truco entrenar``: train a blueprint, with checkpoints to resume from and a seed, and write
its data file (docs/bots.md, "Training").

Training is counts, never clocks: the same seed and iterations give the same blueprint.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from truco.bots.blueprint import store
from truco.bots.blueprint.cfr import Trainer
from truco.bots.blueprint.game import SETTINGS
from truco.errors import TrucoError


def rows(trainer: Trainer, min_weight: float) -> Iterator[tuple[str, list[float]]]:
    """The average strategy of every information set whose strategy weight (the iterations it
    was reached at as the other seat, each counted by its number) is at least ``min_weight``."""
    for key in sorted(trainer.strategy):
        sums = trainer.strategy[key]
        total = sum(sums)
        if total > 0.0 and total >= min_weight:
            yield key, [s / total for s in sums]


def export(trainer: Trainer, path: Path, command: str, keep: float) -> int:
    """Write the blueprint file, keeping the most reached information sets whose weights sum
    to ``keep`` of the whole (the rest are left to the rules of thumb)."""
    weights = sorted((sum(v) for v in trainer.strategy.values()), reverse=True)
    whole = sum(weights)
    bound, running = 0.0, 0.0
    for w in weights:
        running += w
        bound = w
        if running >= keep * whole:
            break
    meta = {
        "setting": trainer.setting.name,
        "command": command,
        "seed": str(trainer.seed),
        "iterations": str(trainer.iterations),
        "information sets trained": str(len(trainer.strategy)),
        "kept": f"{keep:.4f} of the strategy weight",
    }
    return store.write(path, meta, rows(trainer, bound))


def train(
    setting_name: str,
    iterations: int,
    seed: int,
    checkpoint: Path | None,
    every: int,
    out: Path | None,
    keep: float,
    command: str,
    err: TextIO = sys.stderr,
    snapshots: Path | None = None,
) -> Trainer:
    """Train ``setting_name`` up to ``iterations`` in all (resuming from ``checkpoint`` when it
    exists), saving the checkpoint every ``every`` iterations, and write ``out``."""
    setting = SETTINGS.get(setting_name)
    if setting is None:
        raise TrucoError(f"no blueprint named {setting_name!r}; blueprints: {', '.join(SETTINGS)}")
    if iterations < 1 or every < 1:
        raise TrucoError("iterations and the checkpoint interval must be 1 or more")
    if not 0.0 < keep <= 1.0:
        raise TrucoError("--keep must be over 0 and at most 1")
    if checkpoint is not None and checkpoint.exists():
        trainer = Trainer.load(checkpoint, setting)
        if trainer.seed != seed:
            raise TrucoError(f"{checkpoint} was trained with seed {trainer.seed}, not {seed}")
        print(f"reanudando / resuming at iteration {trainer.iterations}", file=err)
    else:
        trainer = Trainer(setting, seed)
    start = time.monotonic()
    first = trainer.iterations
    last_shown = 0.0

    def progress(done: int) -> None:
        nonlocal last_shown
        now = time.monotonic()
        if now - last_shown < 2.0 and done != iterations:
            return
        last_shown = now
        rate = (done - first) / max(now - start, 1e-9)
        left = (iterations - done) / rate if rate > 0 else 0.0
        bar = "#" * int(30 * done / iterations)
        print(
            f"\r[{bar:<30}] {done}/{iterations} iteraciones, {len(trainer.regrets)} conjuntos"
            f" de información, {rate:.0f}/s, faltan {left / 60:.1f} min",
            end="",
            file=err,
            flush=True,
        )

    while trainer.iterations < iterations:
        step = min(every - trainer.iterations % every, iterations - trainer.iterations)
        trainer.run(step, progress)
        if checkpoint is not None:
            trainer.save(checkpoint)
        if snapshots is not None:
            snapshots.mkdir(parents=True, exist_ok=True)
            export(
                trainer, snapshots / f"{setting.name}-{trainer.iterations}.txt.gz", command, keep
            )
    print(file=err)
    if out is not None:
        count = export(trainer, out, command, keep)
        print(f"{out}: {count} conjuntos de información, {out.stat().st_size} bytes", file=err)
    return trainer


__all__ = ["export", "rows", "train"]

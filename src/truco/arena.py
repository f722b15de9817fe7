"""Bot-vs-bot matches: duplicate pairs, win rates with Wilson intervals, Elo, latencies.

A *pair* is two matches with the same deals (hand ``h`` of pair ``i`` is dealt from a seed made
of ``(seed, i, h)``) and the bots' seats swapped: bot A holds the even seats (team 0) in the first
match and the odd seats in the second. Luck of the cards is shared, so fewer matches tell the
bots apart. Pairs run in worker processes; everything is reproducible from ``seed``.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from truco.bots import make_bot
from truco.bots.base import Bot
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.rules import Rules
from truco.state import new_match
from truco.view import observe

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``wins / n``."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(p: float) -> float:
    """The Elo difference that predicts a score of ``p`` (clamped at +-1200 for 0 and 1)."""
    if p <= 0.0:
        return -1200.0
    if p >= 1.0:
        return 1200.0
    return max(-1200.0, min(1200.0, 400.0 * math.log10(p / (1.0 - p))))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    data = sorted(values)
    pos = (len(data) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def deal_rng(seed: int, pair: int, hand_no: int) -> Random:
    """The RNG that deals hand ``hand_no`` of both matches of pair ``pair``."""
    return Random(f"deal:{seed}:{pair}:{hand_no}")


@dataclass
class MatchResult:
    winner_is_a: bool
    hands: int
    points_a: int
    points_b: int
    latency_a: list[float] = field(default_factory=list)
    latency_b: list[float] = field(default_factory=list)


def play_match(
    bot_a: str,
    bot_b: str,
    rules: Rules,
    seed: int,
    pair: int,
    a_team: int,
    clock: Callable[[], float] = time.perf_counter,
) -> MatchResult:
    """One match: bot A on team ``a_team``, B on the other; deals fixed by ``(seed, pair)``."""
    players = rules.players
    bots: list[Bot] = [make_bot(bot_a if s % 2 == a_team else bot_b) for s in range(players)]
    rngs = [Random(f"bot:{seed}:{pair}:{a_team}:{s}") for s in range(players)]
    lat: list[list[float]] = [[], []]  # A, B
    state = new_match(rules)
    while True:
        actor = to_act(state)
        if actor is None:
            break
        if actor == CHANCE:
            state = deal(state, deal_rng(seed, pair, state.hand_no + 1)).state
            continue
        legal = legal_actions(state)
        view = observe(state, actor)
        start = clock()
        action = bots[actor].choose(view, legal, rngs[actor])
        elapsed = (clock() - start) * 1000.0
        if len(legal) > 1:
            lat[0 if actor % 2 == a_team else 1].append(elapsed)
        state = apply(state, action).state
    return MatchResult(
        winner_is_a=state.winner == a_team,
        hands=state.hand_no,
        points_a=state.score[a_team],
        points_b=state.score[1 - a_team],
        latency_a=lat[0],
        latency_b=lat[1],
    )


def play_pair(args: tuple[str, str, Rules, int, int]) -> tuple[MatchResult, MatchResult]:
    """Both matches of a duplicate pair."""
    bot_a, bot_b, rules, seed, pair = args
    return (
        play_match(bot_a, bot_b, rules, seed, pair, 0),
        play_match(bot_a, bot_b, rules, seed, pair, 1),
    )


@dataclass
class Report:
    bot_a: str
    bot_b: str
    players: int
    target: int
    seed: int
    matches: int
    wins_a: int
    hands: int
    points_a: int
    points_b: int
    pair_scores: list[int]
    """Per pair: A's wins minus B's wins (-2, 0 or 2)."""
    latency_a: list[float]
    latency_b: list[float]
    seconds: float = 0.0
    flor: bool = False

    @property
    def win_rate_a(self) -> float:
        return self.wins_a / self.matches if self.matches else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins_a, self.matches)
        split = sum(1 for s in self.pair_scores if s == 0)
        return {
            "bot_a": self.bot_a,
            "bot_b": self.bot_b,
            "players": self.players,
            "target": self.target,
            "flor": self.flor,
            "seed": self.seed,
            "matches": self.matches,
            "pairs": len(self.pair_scores),
            "split_pairs": split,
            "wins_a": self.wins_a,
            "wins_b": self.matches - self.wins_a,
            "win_rate_a": self.win_rate_a,
            "ci95_a": [lo, hi],
            "elo_a": elo(self.win_rate_a),
            "elo_ci95_a": [elo(lo), elo(hi)],
            "hands": self.hands,
            "points_per_hand_a": self.points_a / self.hands if self.hands else 0.0,
            "points_per_hand_b": self.points_b / self.hands if self.hands else 0.0,
            "seconds": self.seconds,
            "a": _latency(self.bot_a, self.latency_a),
            "b": _latency(self.bot_b, self.latency_b),
        }


def _latency(name: str, values: Sequence[float]) -> dict[str, Any]:
    return {
        "name": name,
        "decisions": len(values),
        "latency_ms_p50": percentile(values, 0.5),
        "latency_ms_p99": percentile(values, 0.99),
        "latency_ms_max": max(values, default=0.0),
    }


def summarize(
    bot_a: str,
    bot_b: str,
    rules: Rules,
    seed: int,
    pairs: Iterable[tuple[MatchResult, MatchResult]],
) -> Report:
    report = Report(bot_a, bot_b, rules.players, rules.target, seed, 0, 0, 0, 0, 0, [], [], [])
    report.flor = rules.flor
    for first, second in pairs:
        score = 0
        for m in (first, second):
            report.matches += 1
            report.wins_a += m.winner_is_a
            score += 1 if m.winner_is_a else -1
            report.hands += m.hands
            report.points_a += m.points_a
            report.points_b += m.points_b
            report.latency_a.extend(m.latency_a)
            report.latency_b.extend(m.latency_b)
        report.pair_scores.append(score)
    return report


def run_arena(
    bot_a: str,
    bot_b: str,
    *,
    matches: int,
    rules: Rules | None = None,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Play ``matches`` (rounded up to whole pairs) and summarize them."""
    rules = rules or Rules()
    make_bot(bot_a), make_bot(bot_b)  # fail early on a bad name
    n_pairs = max(1, (matches + 1) // 2)
    tasks = [(bot_a, bot_b, rules, seed, i) for i in range(n_pairs)]
    results: list[tuple[MatchResult, MatchResult]] = []
    start = time.perf_counter()
    if jobs <= 1:
        for task in tasks:
            results.append(play_pair(task))
            if progress:
                progress(len(results), n_pairs)
    else:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for pair in pool.imap(play_pair, tasks, chunksize=1):
                results.append(pair)
                if progress:
                    progress(len(results), n_pairs)
    report = summarize(bot_a, bot_b, rules, seed, results)
    report.seconds = time.perf_counter() - start
    return report


def progress_bar(done: int, total: int, *, width: int = 30) -> None:
    """Draw a progress bar on stderr."""
    filled = int(width * done / total) if total else width
    end = "\n" if done >= total else ""
    sys.stderr.write(f"\rarena [{'#' * filled}{'.' * (width - filled)}] {done}/{total} pairs{end}")
    sys.stderr.flush()


def format_report(report: Report) -> str:
    j = report.to_json()
    lo, hi = j["ci95_a"]
    elo_lo, elo_hi = j["elo_ci95_a"]
    lines = [
        f"{report.bot_a} vs {report.bot_b}: {report.players} players, to {report.target}"
        f"{' with flor' if report.flor else ''}, "
        f"seed {report.seed}, {report.matches} matches ({len(report.pair_scores)} duplicate pairs)",
        f"  {report.bot_a} won {report.wins_a}/{report.matches} = {report.win_rate_a:.1%} "
        f"(95% CI {lo:.1%} .. {hi:.1%})",
        f"  Elo difference {j['elo_a']:+.0f} (95% CI {elo_lo:+.0f} .. {elo_hi:+.0f})",
        f"  points per hand: {report.bot_a} {j['points_per_hand_a']:.3f}, "
        f"{report.bot_b} {j['points_per_hand_b']:.3f} over {report.hands} hands",
    ]
    for key in ("a", "b"):
        lat = j[key]
        lines.append(
            f"  {lat['name']} ({key.upper()}): decision latency "
            f"p50 {lat['latency_ms_p50']:.2f} ms, "
            f"p99 {lat['latency_ms_p99']:.2f} ms over {lat['decisions']} decisions"
        )
    lines.append(f"  took {report.seconds:.1f} s")
    return "\n".join(lines)

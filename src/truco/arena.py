"""Bot-vs-bot matches: duplicate groups, win rates with Wilson intervals, Elo, latencies.

A *group* is a set of matches with the same deals (hand ``h`` of group ``i`` is dealt from a seed
made of ``(seed, i, h)``) and the bots' seats rotated, so that luck of the cards is shared and
fewer matches tell the bots apart:

- team play (2, 4 or 6 players, and pica-pica's teams of three): a *pair*; bot A holds the even
  seats (team 0) in the first match and the odd seats in the second;
- the three-player variants (pata de gallo, destantado), where every player is on his own in
  the match: six matches, A alone in each seat against two B's, then B alone in each seat
  against two A's. A wins a match when one of his seats wins it; equal bots win half.

Groups run in worker processes; everything is reproducible from ``seed``.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from random import Random
from typing import Any

from truco import CHANCE
from truco.bots import arena_bot as _our_arena_bot
from truco.bots.base import Bot
from truco.bots.driver import Driver, decide
from truco.errors import TrucoError
from truco.rules import Rules
from truco.state import State, hand_teams, new_match
from truco.variants import variant_of

Z95 = 1.959963984540054


OPENSPIEL = "openspiel:"
"""The prefix of OpenSpiel's bots: ``openspiel:ismcts[:SIMS]``, ``openspiel:mcts[:SIMS]``."""


def arena_bot(name: str) -> Bot:
    """A bot for the arena: ``bots.arena_bot``'s names and OpenSpiel's searches
    (``research.bots``, with the research extra)."""
    if not name.strip().lower().startswith(OPENSPIEL):
        return _our_arena_bot(name)
    try:
        from truco.research.bots import openspiel_bot
    except ImportError as exc:
        if exc.name not in ("pyspiel", "open_spiel") and not str(exc.name).startswith(
            "open_spiel."
        ):
            raise
        raise TrucoError(
            f"{name!r} needs OpenSpiel: pip install 'truco[research]' ({exc})"
        ) from None
    return openspiel_bot(name)


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


def seat_plans(rules: Rules) -> list[tuple[int, ...]]:
    """Bot A's seats in each match of a duplicate group (see the module's docstring)."""
    players = rules.players
    if rules.individual:
        alone = [(s,) for s in range(players)]
        two = [tuple(x for x in range(players) if x != s) for s in range(players)]
        return alone + two
    teams = hand_teams(rules, 0)  # team play: the sides stay the same all match
    return [tuple(s for s in range(players) if teams[s] == team) for team in (0, 1)]


def describe_seats(rules: Rules) -> str:
    """How the seats rotate in a group, in words (for the report)."""
    if rules.individual:
        n = rules.players
        return f"A alone in each of {n} seats vs {n - 1} B, then B alone vs {n - 1} A"
    return "A on team 0, then on team 1"


@dataclass
class MatchResult:
    winner_is_a: bool
    hands: int
    points_a: float
    points_b: float
    """Points won by each bot over the match (per seat where players score on their own; in
    destantado, porotos passed)."""
    latency_a: list[float] = field(default_factory=list)
    latency_b: list[float] = field(default_factory=list)


def play_match(
    bot_a: str,
    bot_b: str,
    rules: Rules,
    seed: int,
    pair: int,
    a_seats: int | tuple[int, ...],
    clock: Callable[[], float] = time.perf_counter,
    plan: int | None = None,
    on_sena: Callable[[State, int, str, tuple[int, ...]], None] | None = None,
) -> MatchResult:
    """One match: bot A in ``a_seats`` (an int: the seats of that team, in team play), B in the
    others; deals fixed by ``(seed, pair)``. ``plan`` numbers the seat plan in its group (it
    seeds the bots' RNGs; by default the team number in team play, else A's first seat).
    ``on_sena`` sees each seña made: the state, its sender, the seña and the seats it reached."""
    players = rules.players
    teams = hand_teams(rules, 0)
    if isinstance(a_seats, int):
        team = a_seats
        a_seats = tuple(s for s in range(players) if teams[s] == team)
    if plan is None:
        plan = a_seats[0] if rules.individual else teams[a_seats[0]]
    is_a = [s in a_seats for s in range(players)]
    bots: list[Bot] = [arena_bot(bot_a if is_a[s] else bot_b) for s in range(players)]
    rngs = [Random(f"bot:{seed}:{pair}:{plan}:{s}") for s in range(players)]
    lat: list[list[float]] = [[], []]  # A, B
    driver = Driver(new_match(rules), dict(enumerate(bots)))
    while (actor := driver.to_act()) is not None:
        if actor == CHANCE:
            step = driver.deal(deal_rng(seed, pair, driver.state.hand_no + 1))
        else:
            told = driver.told(actor)
            start = clock()  # the bot's own thinking, not the driver's bookkeeping
            action = decide(bots[actor], told, rngs[actor])
            elapsed = (clock() - start) * 1000.0
            if len(told.legal) > 1:
                lat[0 if is_a[actor] else 1].append(elapsed)
            step = driver.act(action)
        if on_sena is not None:
            for sender, sena, receivers in step.senas:
                on_sena(step.state, sender, sena, receivers)
    state = driver.state
    points_a, points_b = _points(rules, state.score, state.teams, is_a)
    if rules.individual:
        won = is_a[state.winner]
    else:
        won = state.winner == state.teams[a_seats[0]]
    return MatchResult(
        winner_is_a=won,
        hands=state.hand_no,
        points_a=points_a,
        points_b=points_b,
        latency_a=lat[0],
        latency_b=lat[1],
    )


def _points(
    rules: Rules, score: tuple[int, ...], teams: tuple[int, ...], is_a: list[bool]
) -> tuple[float, float]:
    """Points won by A and by B: their team's score; per seat (the mean of their seats) where
    players score on their own; in destantado, the porotos each passed (the mean)."""
    if not rules.individual:
        team_a = next(teams[s] for s in range(len(is_a)) if is_a[s])
        return float(score[team_a]), float(score[1 - team_a])
    if variant_of(rules).piles:
        won = [rules.porotos - p for p in score]
    else:
        won = list(score)
    a = [won[s] for s in range(len(is_a)) if is_a[s]]
    b = [won[s] for s in range(len(is_a)) if not is_a[s]]
    return sum(a) / len(a), sum(b) / len(b)


def play_group(
    args: tuple[str, str, Rules, int, int], clock: Callable[[], float] = time.perf_counter
) -> tuple[MatchResult, ...]:
    """Every match of a duplicate group: the same deals, the seats rotated (``seat_plans``)."""
    bot_a, bot_b, rules, seed, pair = args
    return tuple(
        play_match(bot_a, bot_b, rules, seed, pair, seats, clock=clock, plan=i)
        for i, seats in enumerate(seat_plans(rules))
    )


play_pair = play_group
"""The old name: in team play a group is a pair."""


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
    points_a: float
    points_b: float
    pair_scores: list[int]
    """Per duplicate group: A's wins minus B's wins (-2, 0 or 2 for a pair)."""
    latency_a: list[float]
    latency_b: list[float]
    seconds: float = 0.0
    flor: bool = False
    variant: str = "standard"
    porotos: int = 0
    """Destantado: the porotos each player started with (0 elsewhere)."""
    goal: str = ""
    """What wins the match, in words: "to 30", "to 30 with flor", "10 porotos"."""
    seats: str = ""
    group_size: int = 2
    wins_a_alone: int = 0
    matches_alone: int = 0
    """Three-player variants: the matches where A held one seat against two B's, and his wins."""
    clock: str = "wall"
    """How decisions were timed: "wall" (perf_counter) or "cpu" (the process's CPU time)."""

    @property
    def win_rate_a(self) -> float:
        return self.wins_a / self.matches if self.matches else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins_a, self.matches)
        split = sum(1 for s in self.pair_scores if s == 0)
        return {
            "bot_a": self.bot_a,
            "bot_b": self.bot_b,
            "variant": self.variant,
            "players": self.players,
            "target": self.target,
            "porotos": self.porotos,
            "seats": self.seats,
            "group_size": self.group_size,
            "flor": self.flor,
            "seed": self.seed,
            "matches": self.matches,
            "pairs": len(self.pair_scores),
            "split_pairs": split,
            "wins_a": self.wins_a,
            "wins_b": self.matches - self.wins_a,
            "win_rate_a": self.win_rate_a,
            "ci95_a": [lo, hi],
            "matches_a_alone": self.matches_alone,
            "wins_a_alone": self.wins_a_alone,
            "elo_a": elo(self.win_rate_a),
            "elo_ci95_a": [elo(lo), elo(hi)],
            "hands": self.hands,
            "points_per_hand_a": self.points_a / self.hands if self.hands else 0.0,
            "points_per_hand_b": self.points_b / self.hands if self.hands else 0.0,
            "seconds": self.seconds,
            "clock": self.clock,
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
    pairs: Iterable[Sequence[MatchResult]],
) -> Report:
    """The report over duplicate groups (each the results of ``play_group``, in seat-plan order)."""
    report = Report(bot_a, bot_b, rules.players, rules.target, seed, 0, 0, 0, 0, 0, [], [], [])
    report.flor = rules.flor
    report.variant = rules.variant
    if variant_of(rules).piles:
        report.porotos = rules.porotos
        report.goal = f"{rules.porotos} porotos"
    else:
        report.goal = f"to {rules.target}{' with flor' if rules.flor else ''}"
    report.seats = describe_seats(rules)
    plans = seat_plans(rules)
    report.group_size = len(plans)
    for group in pairs:
        score = 0
        for i, m in enumerate(group):
            report.matches += 1
            report.wins_a += m.winner_is_a
            score += 1 if m.winner_is_a else -1
            report.hands += m.hands
            report.points_a += m.points_a
            report.points_b += m.points_b
            report.latency_a.extend(m.latency_a)
            report.latency_b.extend(m.latency_b)
            if rules.individual and i < len(plans) and len(plans[i]) == 1:
                report.matches_alone += 1
                report.wins_a_alone += m.winner_is_a
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
    cpu_clock: bool = False,
) -> Report:
    """Play ``matches`` (rounded up to whole duplicate groups) and summarize them. With
    ``cpu_clock`` the decisions are timed in the process's CPU time, not wall time: on a shared
    machine, time spent waiting for a core then does not count (one core's latency)."""
    rules = rules or Rules()
    arena_bot(bot_a), arena_bot(bot_b)  # fail early on a bad name
    size = len(seat_plans(rules))
    n_pairs = max(1, -(-matches // size))
    tasks = [(bot_a, bot_b, rules, seed, i) for i in range(n_pairs)]
    results: list[tuple[MatchResult, ...]] = []
    start = time.perf_counter()
    play = partial(play_group, clock=time.process_time if cpu_clock else time.perf_counter)
    if jobs <= 1:
        for task in tasks:
            results.append(play(task))
            if progress:
                progress(len(results), n_pairs)
    else:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for pair in pool.imap(play, tasks, chunksize=1):
                results.append(pair)
                if progress:
                    progress(len(results), n_pairs)
    report = summarize(bot_a, bot_b, rules, seed, results)
    report.clock = "cpu" if cpu_clock else "wall"
    report.seconds = time.perf_counter() - start
    return report


def progress_bar(done: int, total: int, *, width: int = 30) -> None:
    """Draw a progress bar on stderr."""
    filled = int(width * done / total) if total else width
    end = "\n" if done >= total else ""
    sys.stderr.write(f"\rarena [{'#' * filled}{'.' * (width - filled)}] {done}/{total} groups{end}")
    sys.stderr.flush()


def format_report(report: Report) -> str:
    j = report.to_json()
    lo, hi = j["ci95_a"]
    elo_lo, elo_hi = j["elo_ci95_a"]
    variant = "" if report.variant == "standard" else f"{report.variant}, "
    group = "pairs" if report.group_size == 2 else f"groups of {report.group_size}"
    lines = [
        f"{report.bot_a} vs {report.bot_b}: {variant}{report.players} players, {report.goal}, "
        f"seed {report.seed}, {report.matches} matches ({len(report.pair_scores)} duplicate "
        f"{group})",
        f"  seats: {report.seats}",
        f"  {report.bot_a} won {report.wins_a}/{report.matches} = {report.win_rate_a:.1%} "
        f"(95% CI {lo:.1%} .. {hi:.1%})",
        f"  Elo difference {j['elo_a']:+.0f} (95% CI {elo_lo:+.0f} .. {elo_hi:+.0f})",
        *(
            [
                f"  {report.bot_a} alone against two won {report.wins_a_alone}/"
                f"{report.matches_alone}, with two seats "
                f"{report.wins_a - report.wins_a_alone}/{report.matches - report.matches_alone}"
            ]
            if report.matches_alone
            else []
        ),
        f"  points per hand: {report.bot_a} {j['points_per_hand_a']:.3f}, "
        f"{report.bot_b} {j['points_per_hand_b']:.3f} over {report.hands} hands",
    ]
    for key in ("a", "b"):
        lat = j[key]
        lines.append(
            f"  {lat['name']} ({key.upper()}): decision latency "
            f"p50 {lat['latency_ms_p50']:.2f} ms, "
            f"p99 {lat['latency_ms_p99']:.2f} ms over {lat['decisions']} decisions"
            f" ({report.clock} clock)"
        )
    lines.append(f"  took {report.seconds:.1f} s")
    return "\n".join(lines)

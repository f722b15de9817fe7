"""Engine benchmarks: random legal playouts through the public API, on one core; and the time
the coach takes to analyse a whole 1v1 hand (issue 13 asks for under 2 s on one core).

Not part of the pure core (it reads the clock). ``truco bench --json`` prints one object.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

import truco
from truco.bots.driver import situation
from truco.bots.expert import ExpertBot
from truco.engine import apply, deal, legal_actions, to_act
from truco.notation import HandHistory, from_state
from truco.rules import Rules
from truco.state import DEAL, PLAY, State, new_match


def random_hands(rules: Rules, hands: int, rng: Random) -> int:
    """Play whole matches with uniformly random legal actions until ``hands`` hands were played."""
    played = 0
    state = new_match(rules)
    random = rng.random
    while played < hands:
        phase = state.phase
        if phase == PLAY:
            legal = legal_actions(state)
            state = apply(state, legal[int(random() * len(legal))])[0]
        elif phase == DEAL:
            played += 1
            state = deal(state, rng)[0]
        else:
            state = new_match(rules)
    return played


# CPU time of this process, not wall time: on a shared machine another process taking the core
# would otherwise count against the engine. (Per-process CPU time is what "one core" means.)
_clock = time.process_time


def _rate(run: Callable[[int], int], seconds: float) -> float:
    """Best of three timed rounds, each sized to last about ``seconds / 3`` of CPU time."""
    n = 200
    while True:  # calibrate
        start = _clock()
        run(n)
        elapsed = _clock() - start
        if elapsed > 0.2:
            break
        n *= 2
    per_round = max(1, int(n * (seconds / 3) / elapsed))
    best = 0.0
    for _ in range(3):
        start = _clock()
        done = run(per_round)
        best = max(best, done / (_clock() - start))
    return best


def hands_per_second(rules: Rules, seconds: float = 6.0, seed: int = 1) -> float:
    rng = Random(seed)
    return _rate(lambda n: random_hands(rules, n, rng), seconds)


def copy_ns(state: State, rounds: int = 200_000) -> float:
    """Nanoseconds to copy a state the way the engine does for every action."""
    new = tuple.__new__
    start = _clock()
    for _ in range(rounds):
        new(State, list(state))
    return (_clock() - start) / rounds * 1e9


def pytruco_hands_per_second(seconds: float = 6.0, seed: int = 1) -> float | None:
    """Random 1v1 hands per second of the PyPI package ``pytruco`` (Uruguayan truco), if installed.

    Measured in its fastest mode (``verbose=False``: no messages) with its own random walker,
    mazo allowed, in matches to 30; a hand is counted each time it starts a new one.
    """
    try:
        import random as global_random

        from pytruco.pdt.chi import random_action
        from pytruco.pdt.partida import Partida
    except ImportError:
        return None

    counter = [0]

    class Counted(Partida):  # type: ignore[misc]
        def nueva_ronda(self, el_mano: int) -> None:
            counter[0] += 1
            super().nueva_ronda(el_mano)

    global_random.seed(seed)  # pytruco draws from the global generator

    def run(hands: int) -> int:
        counter[0] = 0
        while counter[0] < hands:
            match = Counted(30, ["Alice"], ["Bob"], verbose=False)
            while not match.terminada():
                random_action(match, allow_mazo=True).hacer(match)
            counter[0] += 1
        return counter[0]

    return _rate(run, seconds)


def expert_hand(rules: Rules, seed: int) -> HandHistory:
    """A whole hand played by the expert in every seat (calls, answers and cards: a hand with
    the decisions a person's would have)."""
    rng = Random(seed)
    state = deal(new_match(rules), rng).state
    bot = ExpertBot()
    while state.phase == PLAY:
        seat = to_act(state)
        assert seat is not None
        state = apply(state, bot.choose(situation(state, seat), rng)).state
    return from_state(state)


def analysis_seconds(hands: int = 8, seed: int = 1) -> tuple[float, float]:
    """CPU seconds to analyse a whole 1v1 hand (every decision of both seats, the coach's
    default worlds, and the face-up search): the mean and the slowest of ``hands`` hands."""
    from truco.coach import analyse_hand

    times = []
    for i in range(hands):
        history = expert_hand(Rules(players=2), seed + i)
        start = _clock()
        analyse_hand(history, seed=i)
        times.append(_clock() - start)
    return sum(times) / len(times), max(times)


BUDGET_MS = (50.0, 250.0)
"""The expert's time budget per decision on one core: median and p99 (issue 14, docs/bots.md)."""

MODES: tuple[tuple[str, dict[str, object]], ...] = (
    ("1v1", {}),
    ("1v1 flor", {"flor": True}),
    ("2v2", {"players": 4}),
    ("3v3", {"players": 6}),
    ("pata de gallo", {"variant": "pata_de_gallo"}),
    ("destantado", {"variant": "destantado"}),
    ("pica-pica", {"variant": "pica_pica"}),
    ("paulista 1v1", {"variant": "paulista"}),
    ("paulista 2v2", {"variant": "paulista", "players": 4}),
    ("paulista 3v3", {"variant": "paulista", "players": 6}),
)
"""Every mode and variant the expert plays, by the arena's options."""


def expert_latency(
    bot: str = "experto",
    matches: int = 12,
    seed: int = 50000,
    modes: Sequence[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """The decision latency of ``bot`` against ``simple`` in every mode (``MODES``): duplicate
    matches on one core, each decision timed in this process's CPU time (so other work on the
    machine does not count), with the median and p99 against ``BUDGET_MS``."""
    from truco.arena import run_arena
    from truco.rules import from_options

    rows = []
    for mode, options in MODES:
        if modes is not None and mode not in modes:
            continue
        rules = from_options(Rules(), dict(options))
        report = run_arena(bot, "simple", matches=matches, rules=rules, seed=seed, cpu_clock=True)
        lat = report.to_json()["a"]
        p50, p99 = lat["latency_ms_p50"], lat["latency_ms_p99"]
        rows.append(
            {
                "mode": mode,
                "bot": bot,
                "matches": report.matches,
                "decisions": lat["decisions"],
                "latency_ms_p50": round(p50, 2),
                "latency_ms_p99": round(p99, 2),
                "latency_ms_max": round(lat["latency_ms_max"], 2),
                "within_budget": p50 <= BUDGET_MS[0] and p99 <= BUDGET_MS[1],
            }
        )
        if progress:
            progress(f"{mode}: p50 {p50:.1f} ms, p99 {p99:.1f} ms over {lat['decisions']}")
    return rows


def run_all(seconds: float = 6.0, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    def say(text: str) -> None:
        if progress:
            progress(text)

    say("random 1v1 hands ...")
    one = hands_per_second(Rules(players=2), seconds)
    say(f"{one:,.0f} hands/s; random 2v2 hands ...")
    two = hands_per_second(Rules(players=4), seconds)
    say(f"{two:,.0f} hands/s; random 1v1 hands with flor ...")
    flor = hands_per_second(Rules(players=2, flor=True), seconds)
    say(f"{flor:,.0f} hands/s; random Truco Paulista 1v1 hands ...")
    paulista = hands_per_second(Rules(game="paulista"), seconds)
    say(f"{paulista:,.0f} hands/s; random Truco Paulista 2v2 hands ...")
    paulista_2v2 = hands_per_second(Rules(game="paulista", players=4), seconds)
    state = deal(new_match(Rules()), Random(1)).state
    copy = copy_ns(state)
    say(f"{paulista_2v2:,.0f} hands/s; the coach's analysis of whole 1v1 hands ...")
    mean, worst = analysis_seconds()
    say(f"{mean:.2f} s a hand; pytruco random 1v1 hands ...")
    ref = pytruco_hands_per_second(seconds)
    return {
        "hands_per_s_1v1": round(one),
        "hands_per_s_2v2": round(two),
        "hands_per_s_1v1_flor": round(flor),
        "hands_per_s_paulista_1v1": round(paulista),
        "hands_per_s_paulista_2v2": round(paulista_2v2),
        "state_copy_ns": round(copy, 1),
        "analysis_s_per_1v1_hand": round(mean, 3),
        "analysis_s_per_1v1_hand_max": round(worst, 3),
        "pytruco_hands_per_s_1v1": None if ref is None else round(ref),
        "ratio_vs_pytruco": None if not ref else round(one / ref, 1),
        "compiled": truco.NATIVE,
        "seconds_per_measure": seconds,
        "clock": "process CPU time, best of 3 rounds",
    }

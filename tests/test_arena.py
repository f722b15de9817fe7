"""The arena: statistics on known inputs, duplicate pairing, the command line."""

from __future__ import annotations

import json
import math
from random import Random
from typing import ClassVar

import pytest

from truco import arena
from truco.actions import Action
from truco.arena import (
    MatchResult,
    elo,
    percentile,
    play_pair,
    run_arena,
    summarize,
    wilson,
)
from truco.bots import BOTS
from truco.cli import main
from truco.rules import Rules
from truco.view import SeatView


def test_wilson_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == pytest.approx(1.0)
    lo, hi = wilson(600, 1000)
    assert lo == pytest.approx(0.5693, abs=1e-4) and hi == pytest.approx(0.6299, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_elo_known_values() -> None:
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(400 * math.log10(3))
    assert elo(0.6) == pytest.approx(70.4, abs=0.1)
    assert elo(0.25) == pytest.approx(-elo(0.75))
    assert elo(1.0) == 1200.0 and elo(0.0) == -1200.0


def test_percentile() -> None:
    assert percentile([], 0.5) == 0.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile(list(map(float, range(101))), 0.99) == pytest.approx(99.0)
    assert percentile([1.0, 2.0], 0.5) == 1.5


def test_summarize_counts_pairs_points_and_latency() -> None:
    pairs = [
        (MatchResult(True, 10, 30, 20, [1.0], [2.0]), MatchResult(True, 12, 31, 25, [3.0], [])),
        (MatchResult(True, 8, 30, 5, [], []), MatchResult(False, 10, 10, 30, [], [4.0])),
    ]
    report = summarize("x", "y", Rules(), 7, pairs)
    j = report.to_json()
    assert j["matches"] == 4 and j["wins_a"] == 3 and j["wins_b"] == 1
    assert j["win_rate_a"] == 0.75
    assert j["ci95_a"] == list(wilson(3, 4))
    assert j["pairs"] == 2 and j["split_pairs"] == 1
    assert report.pair_scores == [2, 0]
    assert j["hands"] == 40
    assert j["points_per_hand_a"] == pytest.approx(101 / 40)
    assert j["points_per_hand_b"] == pytest.approx(80 / 40)
    assert j["a"]["decisions"] == 2 and j["b"]["latency_ms_p50"] == 3.0
    assert j["elo_a"] == pytest.approx(elo(0.75))


class Recorder:
    """Records the cards it holds at its first decision of each hand, then plays randomly."""

    name = "recorder"
    seen: ClassVar[list[tuple[int, int, tuple[int, ...]]]] = []

    def choose(self, view: SeatView, legal: tuple[Action, ...], rng: Random) -> Action:
        assert view.seat is not None
        if view.trick == 0 and not any(w == view.seat for w, _ in view.history):
            Recorder.seen.append((view.hand_no, view.seat, tuple(view.hand)))
        return legal[rng.randrange(len(legal))]


def test_duplicate_pairs_share_deals_with_seats_swapped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "recorder", Recorder)
    compared = 0
    for pair in range(6):
        # First match: the recorder is bot A on team 0 (seat 0). Second match of the pair: the
        # seats are swapped, so bot B (the recorder again) holds seat 0.
        Recorder.seen = []
        first = arena.play_match("recorder", "random", Rules(), 3, pair, 0)
        deals_first = {h: c for h, s, c in Recorder.seen if s == 0}
        Recorder.seen = []
        second = arena.play_match("random", "recorder", Rules(), 3, pair, 1)
        deals_second = {h: c for h, s, c in Recorder.seen if s == 0}
        assert first.hands > 0 and second.hands > 0
        for hand in set(deals_first) & set(deals_second):
            assert deals_first[hand] == deals_second[hand]
            compared += 1
    assert compared >= 6


def test_pair_deals_are_identical() -> None:
    from truco.engine import deal
    from truco.state import new_match

    state = new_match(Rules())
    a = deal(state, arena.deal_rng(5, 2, 1)).state.dealt
    b = deal(state, arena.deal_rng(5, 2, 1)).state.dealt
    c = deal(state, arena.deal_rng(5, 3, 1)).state.dealt
    assert a == b and a != c


def test_swapped_seats_and_reproducible() -> None:
    first, second = play_pair(("simple", "random", Rules(target=15), 1, 0))
    again = play_pair(("simple", "random", Rules(target=15), 1, 0))

    def key(m: MatchResult) -> tuple[bool, int, int, int]:
        return (m.winner_is_a, m.hands, m.points_a, m.points_b)

    assert (key(first), key(second)) == (key(again[0]), key(again[1]))
    assert first.points_a + first.points_b > 0
    report = run_arena("simple", "random", matches=6, rules=Rules(target=15), seed=1)
    assert report.matches == 6 and len(report.pair_scores) == 3


def test_cli_arena_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["arena", "random", "simple", "--matches", "4", "--target", "15", "--jobs", "1"]
        + ["--json", "--seed", "2", "--quiet"]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] == 4 and data["flor"] is False
    assert 0 <= data["wins_a"] <= 4
    assert data["win_rate_a"] == data["wins_a"] / 4
    lo, hi = data["ci95_a"]
    assert 0.0 <= lo <= data["win_rate_a"] <= hi <= 1.0
    for key in ("a", "b"):
        assert data[key]["latency_ms_p50"] >= 0 and data[key]["latency_ms_p99"] >= 0


def test_cli_arena_text_and_bad_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "simple", "random", "--matches", "2", "--jobs", "1", "--quiet"]) == 0
    assert "simple won" in capsys.readouterr().out
    assert main(["arena", "nobody", "random", "--matches", "2", "--jobs", "1"]) == 2
    assert "no bot named" in capsys.readouterr().err


def test_arena_in_parallel_matches_serial() -> None:
    serial = run_arena("simple", "random", matches=4, rules=Rules(target=15), seed=9, jobs=1)
    parallel = run_arena("simple", "random", matches=4, rules=Rules(target=15), seed=9, jobs=2)
    assert serial.to_json()["wins_a"] == parallel.to_json()["wins_a"]
    assert serial.pair_scores == parallel.pair_scores

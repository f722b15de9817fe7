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
    play_group,
    play_pair,
    run_arena,
    seat_plans,
    summarize,
    wilson,
)
from truco.bots import BOTS
from truco.bots.base import Situation
from truco.cli import main
from truco.rules import Rules, Variant


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

    def choose(self, told: Situation, rng: Random) -> Action:
        view, legal = told.view, told.legal
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

    def key(m: MatchResult) -> tuple[bool, int, float, float]:
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


def test_seat_plans_rotate_the_seats_fairly() -> None:
    assert seat_plans(Rules()) == [(0,), (1,)]
    assert seat_plans(Rules(players=6)) == [(0, 2, 4), (1, 3, 5)]
    assert seat_plans(Rules(variant="pica_pica")) == [(0, 2, 4), (1, 3, 5)]
    for variant in ("pata_de_gallo", "destantado"):
        plans = seat_plans(Rules(variant=variant))
        assert len(plans) == 6
        # A alone in each seat, then B alone in each seat: every seat is A's as often as B's.
        assert sorted(p for p in plans if len(p) == 1) == [(0,), (1,), (2,)]
        assert sorted(p for p in plans if len(p) == 2) == [(0, 1), (0, 2), (1, 2)]
        for seat in range(3):
            assert sum(seat in p for p in plans) == 3


class SeatRecorder:
    """Records its seat and the cards it was dealt at its first decision of each hand."""

    name = "seat-recorder"
    seen: ClassVar[list[tuple[int, int, tuple[int, ...]]]] = []

    def choose(self, told: Situation, rng: Random) -> Action:
        view, legal = told.view, told.legal
        assert view.seat is not None
        if not any(w == view.seat for w, _ in view.history):
            SeatRecorder.seen.append((view.hand_no, view.seat, tuple(view.hand)))
        return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("variant", ["pata_de_gallo", "destantado"])
def test_three_player_groups_share_deals_and_rotate_seats(
    variant: Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BOTS, "seat-recorder", SeatRecorder)
    rules = Rules(variant=variant, target=10, porotos=3)
    SeatRecorder.seen = []
    group = play_group(("seat-recorder", "random", rules, 4, 0))
    assert len(group) == 6
    # Bot A (the recorder) sat in each seat: alone in the first three matches, with two seats in
    # the last three; the first hand's deal is the same in every match.
    firsts = [(s, c) for h, s, c in SeatRecorder.seen if h == 1]
    assert {s for s, _ in firsts} == {0, 1, 2}
    by_seat: dict[int, set[tuple[int, ...]]] = {}
    for s, cards in firsts:
        by_seat.setdefault(s, set()).add(cards)
    assert all(len(c) == 1 for c in by_seat.values())
    assert len(firsts) <= 9  # 3 matches alone + 3 with two seats (a hand may end first)
    again = play_group(("seat-recorder", "random", rules, 4, 0))
    assert [m.winner_is_a for m in again] == [m.winner_is_a for m in group]


@pytest.mark.parametrize(
    ("args", "variant", "size"),
    [
        (["--variant", "pata_de_gallo", "--target", "10"], "pata_de_gallo", 6),
        (["--variant", "destantado", "--porotos", "3"], "destantado", 6),
        (["--variant", "pica_pica", "--target", "15"], "pica_pica", 2),
    ],
)
def test_cli_arena_variants(
    args: list[str], variant: str, size: int, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["arena", "simple", "random", "--matches", "6", "--jobs", "1", "--json"] + args)
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == variant and data["group_size"] == size
    assert data["players"] == (6 if variant == "pica_pica" else 3)
    assert data["matches"] == 6 and data["pairs"] == 6 // size
    assert 0 <= data["wins_a"] <= 6
    lo, hi = data["ci95_a"]
    assert 0.0 <= lo <= data["win_rate_a"] <= hi <= 1.0
    if size == 6:
        assert data["matches_a_alone"] == 3 and 0 <= data["wins_a_alone"] <= 3
    if variant == "destantado":
        assert data["porotos"] == 3
    assert main(["arena", "simple", "random", "--matches", "6", "--jobs", "1"] + args) == 0
    out = capsys.readouterr().out
    assert variant in out and "simple won" in out


def test_cli_arena_variant_with_wrong_players(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "simple", "random", "--variant", "destantado", "--players", "4"])
    assert code == 2
    assert "3 players" in capsys.readouterr().err


def test_arena_variant_in_parallel_matches_serial() -> None:
    rules = Rules(variant="destantado", porotos=3)
    serial = run_arena("simple", "random", matches=12, rules=rules, seed=5, jobs=1)
    parallel = run_arena("simple", "random", matches=12, rules=rules, seed=5, jobs=2)
    assert serial.matches == 12 and serial.pair_scores == parallel.pair_scores
    assert serial.to_json()["wins_a"] == parallel.to_json()["wins_a"]

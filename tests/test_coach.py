"""The coach's analysis (determinism, seats, the face-up search, plain values for a process
pool, the pista) and ``truco analizar`` (the JSON shape, --seat, match files, bad files)."""

from __future__ import annotations

import ast
import json
import pickle
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from random import Random

import pytest

import truco
from truco import notation
from truco.bots.expert import rollout
from truco.cli import main
from truco.coach import (
    BEST,
    THRESHOLDS,
    analyse_hand,
    analyse_match,
    hint,
    in_card_order,
    label,
)
from truco.coach.faceup import FaceUp
from truco.engine import apply, to_act
from truco.rules import Rules
from truco.state import PLAY, State
from truco.view import observe

WORLDS = 48  # small: these tests are about the plumbing, the positions about the judgement

HAND = """\
players = 2
target = 30
score = [0, 0]
mano = 0
hands = ["1e 4c 5o", "7o 6c 12b"]
actions = ["0 envido", "1 quiero", "0 play 1e", "1 play 7o", "0 truco", "1 no-quiero"]
"""

MATCH = """\
[[hands]]
players = 2
target = 30
score = [0, 0]
mano = 0
hands = ["1e 4c 5o", "7o 6c 12b"]
actions = ["0 play 1e", "1 play 7o", "0 play 5o", "1 play 6c", "1 play 12b", "0 play 4c"]

[[hands]]
players = 2
target = 30
score = [0, 1]
mano = 1
hands = ["3e 2c 11o", "7e 6e 1c"]
actions = ["1 envido", "0 quiero", "1 play 1c", "0 play 3e", "0 truco", "1 no-quiero"]
"""


def test_same_seed_same_analysis_and_another_seed_other_numbers() -> None:
    history = notation.loads(HAND)
    first = analyse_hand(history, worlds=WORLDS, seed=3)
    assert first == analyse_hand(history, worlds=WORLDS, seed=3)
    other = analyse_hand(history, worlds=WORLDS, seed=4)
    assert [d.options for d in first] != [d.options for d in other]


def test_one_seat_gives_the_same_decisions_as_all_seats() -> None:
    history = notation.loads(HAND)
    every = analyse_hand(history, worlds=WORLDS, seed=1)
    assert {d.seat for d in every} == {0, 1}
    for seat in (0, 1):
        assert analyse_hand(history, seat=seat, worlds=WORLDS, seed=1) == tuple(
            d for d in every if d.seat == seat
        )


def test_each_decision_lists_every_legal_action_and_its_label() -> None:
    history = notation.loads(HAND)
    steps = list(notation.states(notation.loads(HAND)))
    for d in analyse_hand(history, worlds=WORLDS, seed=2):
        seat, action = history.actions[d.index]
        assert (d.seat, d.played) == (seat, str(action))
        state = steps[d.index][0]
        assert sorted(o.action for o in d.options) == sorted(str(a) for a in state.legal)
        equities = [o.equity for o in d.options]
        assert equities == sorted(equities, reverse=True) and d.best == d.options[0].action
        played = next(o.equity for o in d.options if o.action == d.played)
        assert d.loss == pytest.approx(equities[0] - played)
        assert d.label == label(d.loss)


def test_labels_follow_the_thresholds() -> None:
    assert label(0.0) == BEST
    for threshold, name in THRESHOLDS:
        assert label(threshold) == name
        assert label(threshold - 1e-6) != name


def test_forced_actions_are_not_decisions() -> None:
    # The last card of the third trick is the only legal action when no truco can be raised.
    text = HAND.replace(
        '"0 truco", "1 no-quiero"',
        '"0 truco", "1 quiero", "0 play 4c", "1 play 6c", "1 play 12b", "0 play 5o"',
    )
    history = notation.loads(text)
    indexes = {d.index for d in analyse_hand(history, worlds=WORLDS, seed=0)}
    steps = list(notation.states(history))
    for i in range(len(history.actions)):
        assert (i in indexes) == (len(steps[i][0].legal) > 1)


def _minimax(state: State, seat: int) -> float:
    """Plain exhaustive minimax, no pruning and no table, on the seat's side's equity."""
    if state.phase != PLAY:
        return rollout(state, seat, Random(0))
    actor = to_act(state)
    assert actor is not None
    values = [_minimax(apply(state, a).state, seat) for a in state.legal]
    same_side = state.teams[actor] == state.teams[seat]
    return max(values) if same_side else min(values)


def test_the_face_up_search_is_exact() -> None:
    # From the second trick on, the whole tree is small enough for plain minimax.
    history = notation.loads(MATCH.split("[[hands]]")[1])
    states = [s for s, _ in notation.states(history)]
    search = FaceUp()
    for state in states[2:5]:
        seat = to_act(state)
        assert seat is not None and seat >= 0
        values = search.values(state)
        assert values is not None
        expected = [_minimax(apply(state, a).state, seat) for a in state.legal]
        assert list(values) == pytest.approx(expected)


def test_the_face_up_search_gives_up_past_its_budget() -> None:
    history = notation.loads(HAND)
    state = next(notation.states(history))[0]
    assert FaceUp(nodes=50).values(state) is None
    decisions = analyse_hand(history, worlds=8, seed=0, face_up_nodes=50)
    assert decisions and decisions[0].face_up is None


def test_the_hand_budget_bounds_every_decision_together() -> None:
    history = notation.loads(HAND)
    states = [s for s, _ in notation.states(history)]
    late = states[4]  # the truco in the second trick: a small tree
    assert FaceUp().values(late) is not None
    search = FaceUp(hand_nodes=60)
    assert search.values(states[0]) is None and search.hand_left == 0
    assert search.values(late) is None


def _analyse_text(text: str) -> tuple[object, ...]:
    return analyse_match(notation.loads_match(text), worlds=WORLDS, seed=5)


def test_plain_values_for_a_process_pool() -> None:
    here = _analyse_text(MATCH)
    assert pickle.loads(pickle.dumps(here)) == here
    history = notation.loads_match(MATCH)
    assert pickle.loads(pickle.dumps(history)) == history
    with ProcessPoolExecutor(max_workers=1) as pool:
        assert pool.submit(_analyse_text, MATCH).result(timeout=120) == here


def test_the_pista_is_the_analysis_best() -> None:
    history = notation.loads(HAND)
    # The views of a real game come from hands the engine dealt, in card order.
    steps = list(notation.states(in_card_order(history)))
    for d in analyse_hand(history, worlds=WORLDS, seed=9):
        view = observe(steps[d.index][0], d.seat)
        action = hint(view, worlds=WORLDS, seed=f"9/1/{d.index}")
        assert action is not None and str(action) == d.best
    # Not the seat to act: no pista.
    state = steps[0][0]
    assert hint(observe(state, 1)) is None


def test_the_analysis_modules_do_no_io() -> None:
    """Pure: the analysis imports the engine's public modules and the expert, nothing that
    reads, writes or waits (the command and the table renderer do the I/O). The blueprint's
    policy is the bots' own: its table is read once from the package's data, on first use."""
    allowed = {
        "__future__",
        "dataclasses",
        "random",
        "typing",
        "truco.actions",
        "truco.bots.base",
        "truco.bots.blueprint.policy",
        "truco.bots.expert",
        "truco.bots.worlds",
        "truco.cards",
        "truco.coach.analysis",
        "truco.coach.evaluate",
        "truco.coach.faceup",
        "truco.engine",
        "truco.notation",
        "truco.state",
        "truco.view",
    }
    package = Path(truco.__file__).parent / "coach"
    for name in ("__init__", "analysis", "evaluate", "faceup"):
        tree = ast.parse((package / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module in allowed, (name, node.module)
            else:
                assert not isinstance(node, ast.Import), (name, ast.dump(node))


# --- truco analizar -----------------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["analizar", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mano.toml"
    path.write_text(HAND, encoding="utf-8")
    code, out, _ = _run(capsys, str(path), "--json", "--worlds", str(WORLDS), "--seed", "1")
    assert code == 0
    report = json.loads(out)
    assert list(report) == ["decisions"]
    decisions = report["decisions"]
    assert [d["index"] for d in decisions] == sorted(d["index"] for d in decisions)
    for d in decisions:
        assert {"index", "seat", "played", "best", "label", "loss", "options", "face_up"} <= set(d)
        assert d["label"] in ("best", "imprecisión", "error", "error grave")
        assert all(set(o) == {"action", "equity"} for o in d["options"])
        assert d["best"] == d["options"][0]["action"]
        assert set(d["face_up"]) == {"best", "equity", "played_equity"}
        assert d["face_up"]["best"] in {o["action"] for o in d["options"]}
    # The same seed prints the same object.
    assert _run(capsys, str(path), "--json", "--worlds", str(WORLDS), "--seed", "1")[1] == out


def test_seat_filter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mano.toml"
    path.write_text(HAND, encoding="utf-8")
    code, out, _ = _run(capsys, str(path), "--json", "--seat", "1", "--worlds", str(WORLDS))
    assert code == 0
    seats = {d["seat"] for d in json.loads(out)["decisions"]}
    assert seats == {1}


def test_match_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "partida.toml"
    path.write_text(MATCH, encoding="utf-8")
    code, out, _ = _run(capsys, str(path), "--json", "--worlds", str(WORLDS))
    assert code == 0
    assert {d["hand"] for d in json.loads(out)["decisions"]} == {1, 2}


def test_readable_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "partida.toml"
    path.write_text(MATCH, encoding="utf-8")
    code, out, _ = _run(capsys, str(path), "--worlds", str(WORLDS), "--seat", "0")
    assert code == 0
    assert "Mano 1" in out and "Mano 2" in out
    assert "a la vista:" in out and "Juicio" in out
    assert "imprecisión (inaccuracy)" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("players = 2\nhands = [", "not valid TOML"),
        (HAND.replace('"0 envido"', '"1 envido"'), "it is seat 0's turn"),
        (HAND.replace('"0 play 1e"', '"0 play 7o"'), "does not hold 7o"),
        (HAND.replace('"7o 6c 12b"', '"?? ?? ??"'), "unseen cards"),
    ],
)
def test_bad_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "mala.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = _run(capsys, str(path))
    assert code == 2 and not out
    assert err.startswith(f"truco analizar: {path}: ") and message in err


def test_missing_file_bad_seat_and_bad_worlds_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, str(tmp_path / "no-existe.toml"))
    assert code == 2 and "cannot read" in err
    path = tmp_path / "mano.toml"
    path.write_text(HAND, encoding="utf-8")
    code, _, err = _run(capsys, str(path), "--seat", "2")
    assert code == 2 and "seats 0 to 1" in err
    code, _, err = _run(capsys, str(path), "--worlds", "0")
    assert code == 2 and "--worlds" in err


def test_the_bench_analyses_whole_expert_hands() -> None:
    from truco.bench import analysis_seconds, expert_hand

    history = expert_hand(Rules(players=2), 3)
    assert notation.replay(history).finished
    mean, worst = analysis_seconds(hands=1, seed=3)
    assert 0.0 < mean <= worst

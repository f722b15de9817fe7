"""The public face: ``import truco`` and its ``__all__``; a State drawn by str() and repr()."""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import re
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import truco
from truco.state import State

README = Path(__file__).resolve().parent.parent / "README.md"

# Seat 0 is mano with 1e 4c 5o (5 of envido); seat 1 holds 7o 6c 12b (7), so the envido goes
# to seat 1; seat 0 wins primera, then calls truco.
TRUCO_WAITING = """\
players = 2
score = [12, 9]
hands = ["1e 4c 5o", "7o 6c 12b"]
actions = ["0 envido", "1 quiero", "0 play 1e", "1 play 7o", "0 truco"]
"""


def test_every_public_name_is_its_home_modules_object() -> None:
    for name in truco.__all__:
        home = importlib.import_module(f"truco.{truco._HOME_OF[name]}")
        assert getattr(truco, name) is getattr(home, name), name


def test_the_public_face_has_what_a_user_needs() -> None:
    needed = {"Rules", "new_match", "deal", "apply", "legal_actions", "to_act", "observe"}
    needed |= {"CHANCE", "loads", "dumps", "parse_action_line", "replay_text", "TrucoError"}
    assert needed <= set(truco.__all__)
    assert sorted(truco.__all__) == truco.__all__ and len(set(truco.__all__)) == len(truco.__all__)


def test_star_import_gives_all_and_a_wrong_name_still_fails() -> None:
    space: dict[str, object] = {}
    exec("from truco import *", space)
    assert set(truco.__all__) <= set(space)
    with pytest.raises(AttributeError, match="no attribute 'aply'"):
        _ = truco.aply  # type: ignore[attr-defined]
    assert set(truco.__all__) <= set(dir(truco))


def test_the_type_checkers_names_are_the_runtime_names() -> None:
    # __init__.py lists the names twice: for the type checker (imports under TYPE_CHECKING)
    # and for loading on first use (_HOMES). They must agree.
    tree = ast.parse(Path(truco.__file__).read_text(encoding="utf-8"))
    checked = {
        (node.module, alias.name)
        for guard in tree.body
        if isinstance(guard, ast.If) and ast.unparse(guard.test) == "TYPE_CHECKING"
        for node in guard.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert checked == {(f"truco.{home}", name) for name, home in truco._HOME_OF.items()}


def test_importing_truco_loads_no_game_code_until_used() -> None:
    # `import truco` runs before every `import truco.x` (the command line imports truco.rules
    # to read its arguments): it loads no engine until a public name is first used.
    code = (
        "import sys, truco\n"
        "print(sorted(m for m in sys.modules if m.startswith('truco.')))\n"
        "truco.apply\n"
        "print('truco.engine' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    loaded, engine_after_use = result.stdout.splitlines()
    assert loaded == "[]"
    assert engine_after_use == "True"


def test_the_readme_example_runs_and_prints_what_it_says() -> None:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert block is not None and "import truco\n" in block.group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.group(1), "README.md", "exec"), {})
    said = re.findall(r"print\(.*\)  # (.*)", block.group(1))
    assert out.getvalue().splitlines() == said


def test_repr_is_one_short_line() -> None:
    state = truco.new_match(truco.Rules(), score=(12, 9))
    assert repr(state) == "<State hand 0, score 12-9, to deal>"
    state = truco.replay_text(TRUCO_WAITING).state
    assert repr(state) == "<State hand 1, score 12-11, seat 1 to act>"


def test_str_draws_the_table_with_every_seats_cards() -> None:
    state = truco.replay_text(TRUCO_WAITING).state
    assert str(state).splitlines() == [
        "Truco standard, 2 players; score 12-11 (per team, to 30)",
        "Hand 1, mano seat 0, seat 1 to act",
        "  seat 0 (team 0): 4c 5o",
        "  seat 1 (team 1): 6c 12b",
        "  primera: 0 1e, 1 7o -> team 0",
        "  envido calls: envido",
        "  waiting: truco by seat 0, seat 1 answers",
    ]


def test_str_of_a_match_to_deal_and_of_one_over() -> None:
    rules = truco.Rules(variant="destantado", players=3)
    assert str(truco.new_match(rules)).splitlines() == [
        "Truco destantado, 3 players; score 10-10-10 (porotos left per player)",
        "Hand 1 to deal",
    ]
    over = truco.new_match(truco.Rules(target=15), score=(15, 3))
    assert repr(over) == "<State hand 0, score 15-3, over, team 0 won>"
    assert str(over).splitlines()[1] == "Match over after hand 0: team 0 won"


def test_drawing_keeps_the_tuples_hash_and_equality() -> None:
    state = truco.replay_text(TRUCO_WAITING).state
    assert hash(state) == hash(tuple(state)) and state == tuple(state)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from((2, 4, 6)), steps=st.integers(0, 60))
def test_drawing_any_reached_state(seed: int, players: int, steps: int) -> None:
    rng = Random(seed)
    state: State = truco.new_match(truco.Rules(players=players, flor=True))
    for _ in range(steps):
        seat = truco.to_act(state)
        if seat is None:
            break
        if seat == truco.CHANCE:
            state = truco.deal(state, rng).state
        else:
            state = truco.apply(state, rng.choice(truco.legal_actions(state))).state
    short, table = repr(state), str(state)
    assert "\n" not in short and len(short) < 80
    if truco.to_act(state) in (None, truco.CHANCE):
        return  # between hands or over: the score and who deals or won, no cards
    held = [str(card) for hand in state.hands for card in hand]
    assert all(card in table for card in held)  # omniscient: hidden cards are drawn too
    if state.truco_call is not None:
        assert "waiting: " in table

"""The compiled hot path (setup.py, mypyc) and the plain Python source behave the same.

``make`` installs the package with the engine compiled; ``TRUCO_PURE_PYTHON=1`` loads the same
modules from source. Both must play the same seeded matches to the same states.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import truco
from truco import state

ROOT = Path(__file__).resolve().parent.parent

PLAY_MATCHES = """
import json, sys
from random import Random
import truco
from truco.engine import apply, deal
from truco.notation import dumps, from_state
from truco.rules import Rules
from truco.state import DEAL, OVER, new_match

out = {"native": truco.NATIVE, "matches": []}
for variant, players in [("standard", 2), ("standard", 4), ("standard", 6),
                         ("pata_de_gallo", 3), ("destantado", 3), ("pica_pica", 6),
                         ("paulista", 2), ("paulista", 4)]:
    if variant == "paulista":  # to 12, no flor
        rules = Rules(variant=variant, players=players, tapada="always")
    else:
        rules = Rules(variant=variant, players=players, flor=variant != "destantado",
                      tapada="always", target=15, pica_from=1)
    rng = Random(11)
    s = new_match(rules)
    hands = []
    while s.phase != OVER:
        if s.phase == DEAL:
            s = deal(s, rng).state
        else:
            s = apply(s, s.legal[int(rng.random() * len(s.legal))]).state
            if s.phase != 1:
                hands.append(dumps(from_state(s)))
    out["matches"].append({"variant": variant, "score": list(s.score), "hands": hands})
print(json.dumps(out))
"""


def _play(pure: bool) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("TRUCO_PURE_PYTHON", None)
    if pure:
        env["TRUCO_PURE_PYTHON"] = "1"
    result = subprocess.run(
        [sys.executable, "-c", PLAY_MATCHES],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        timeout=120,
    )
    played: dict[str, object] = json.loads(result.stdout)
    return played


def test_compiled_and_source_play_the_same_matches() -> None:
    pure = _play(pure=True)
    assert pure["native"] is False
    default = _play(pure=False)
    assert default["native"] is truco.NATIVE
    assert default["matches"] == pure["matches"]


def test_setup_compiles_the_modules_the_package_names() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            assert ast.literal_eval(node.value) == truco.COMPILED
            break
    else:
        raise AssertionError("setup.py has no COMPILED")


def test_field_numbers_match_the_state() -> None:
    # The engine indexes its working list with these literals (constants for the compiler).
    numbers = {name: getattr(state, name) for name in dir(state) if name.startswith("F_")}
    assert len(numbers) == len(state.State._fields)
    for name, index in numbers.items():
        field = "truco_owner" if name == "F_OWNER" else name[2:].lower()
        assert state.State._fields[index] == field, name

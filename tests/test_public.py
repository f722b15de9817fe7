"""The public face: ``import truco`` and its ``__all__``."""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import truco

README = Path(__file__).resolve().parent.parent / "README.md"


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

"""The rules core is pure: it imports only a few standard modules and other core modules.

Every import statement of each core module (at the top or inside a function) is read with
``ast``. The core may use the standard modules in ``ALLOWED_STDLIB`` (from ``random`` only the
``Random`` type, which is injected: no global random state) and other core modules; never I/O,
clocks, threads, the network or an outer layer (server, bots, cli, bench, text game...).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import truco

PACKAGE = Path(truco.__file__).parent

CORE = (
    "cards",
    "rules",
    "actions",
    "events",
    "state",
    "engine",
    "envido",
    "tricks",
    "explain",
    "view",
    "notation",
    "errors",
    "senas",
)
"""The core modules named in DESIGN.md (cards .. notation)."""
ENGINE_PARTS = ("legal", "effects", "destantado", "variants", "paulista", "manilhas")
"""Modules split out of engine.py (legality, what each action does, the betting of the
three-handed destantado, the variants' registry, Truco Paulista's hand and its cards' order):
core as well."""
DRAWING = ("drawing",)
"""The table in text, for ``str(state)`` and ``repr(state)``: core as well."""
CORE_MODULES = frozenset(CORE + ENGINE_PARTS + DRAWING)

ALLOWED_STDLIB = frozenset(
    (
        "__future__",
        "collections",
        "collections.abc",
        "dataclasses",
        "enum",
        "itertools",
        "random",
        "re",
        "tomllib",
        "typing",
    )
)
ALLOWED_FROM_RANDOM = frozenset(("Random",))
FORBIDDEN = (
    "asyncio",
    "socket",
    "os",
    "sys",
    "time",
    "threading",
    "truco.server",
    "truco.bots",
    "truco.cli",
    "truco.bench",
    "truco.tui",
)
IO_BUILTINS = frozenset(("open", "print", "input", "exec", "eval", "__import__", "breakpoint"))


def _present(names: tuple[str, ...]) -> list[str]:
    return [name for name in names if (PACKAGE / f"{name}.py").exists()]


CHECKED = [*CORE, *_present(ENGINE_PARTS), *_present(DRAWING)]


def imported_modules(name: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, module, names) for each import in ``truco/<name>.py``; ``names`` for ``from``
    imports. ``name`` may be a path in the package: ``engine``, ``bots/common``.

    ``from truco import envido`` gives module ``truco.envido`` (a public name of ``truco``, such
    as ``apply``, its home module); relative imports are resolved.
    """
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    package = ["truco", *Path(name).parent.parts]  # what a relative import starts from
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            names = tuple(alias.name for alias in node.names)
            if module == "truco":  # from truco import envido: each name is a module
                found.extend((node.lineno, f"truco.{truco._HOME_OF.get(n, n)}", ()) for n in names)
            else:
                found.append((node.lineno, module, names))
    return found


def problems(name: str) -> list[str]:
    bad = []
    for line, module, names in imported_modules(name):
        where = f"truco/{name}.py:{line}: {module}"
        if module.startswith("truco."):
            inner = module.removeprefix("truco.")
            if inner.split(".")[0] not in CORE_MODULES:
                bad.append(f"{where} is not a core module")
        elif module not in ALLOWED_STDLIB:
            bad.append(f"{where} is not on the allow-list")
        elif module == "random" and (not names or set(names) - ALLOWED_FROM_RANDOM):
            bad.append(f"{where}: only 'from random import Random' (no global random state)")
    return bad


def test_the_core_modules_exist() -> None:
    missing = [name for name in CORE if not (PACKAGE / f"{name}.py").exists()]
    assert not missing


@pytest.mark.parametrize("name", CHECKED)
def test_core_imports_only_the_allow_list_and_the_core(name: str) -> None:
    assert problems(name) == []


@pytest.mark.parametrize("name", CHECKED)
def test_core_imports_no_io_and_no_outer_layer(name: str) -> None:
    imported = {module for _, module, _ in imported_modules(name)}
    for forbidden in FORBIDDEN:
        hits = [m for m in imported if m == forbidden or m.startswith(forbidden + ".")]
        assert not hits, f"truco.{name} imports {hits}"


@pytest.mark.parametrize("name", CHECKED)
def test_core_calls_no_io_builtins(name: str) -> None:
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    calls = [
        f"line {node.lineno}: {node.func.id}()"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in IO_BUILTINS
    ]
    assert not calls, f"truco.{name} calls {calls}"


INIT_LOADER = frozenset(
    ("os", "sys", "types", "importlib", "importlib.abc", "importlib.machinery", "importlib.util")
)
"""What truco/__init__.py may import besides the core's allow-list: only to choose, once at
import, between the compiled engine and its source (setup.py), and to load the public names
from the core on first use; no game code does I/O."""


def test_package_init_is_pure() -> None:
    # Importing any core module runs truco/__init__.py first: it must stay as pure, but for the
    # stat of the compiled modules that picks which implementation of the engine loads.
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    for node in imports:
        module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
        assert (
            module in ALLOWED_STDLIB
            or module in INIT_LOADER
            or (module or "").removeprefix("truco.") in CORE_MODULES
        ), module


def test_the_checker_catches_bad_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        "import os\nimport random\nfrom random import shuffle\nfrom truco import cli\n"
        "from truco.bots import simple\nfrom truco.cards import Card\nfrom . import tricks\n"
        "def f():\n    import time\n"
    )
    (tmp_path / "fake.py").write_text(source, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path)
    found = problems("fake")
    assert [p.split(": ", 1)[1] for p in found] == [
        "os is not on the allow-list",
        "random: only 'from random import Random' (no global random state)",
        "random: only 'from random import Random' (no global random state)",
        "truco.cli is not a core module",
        "truco.bots is not a core module",
        "time is not on the allow-list",
    ]


def test_importing_the_core_loads_no_outer_layer() -> None:
    # At run time too: importing every core module loads no outer truco module, no asyncio,
    # no sockets and no threads.
    modules = ", ".join(f"truco.{name}" for name in CHECKED)
    code = (
        f"import sys\nimport {modules}\n"
        "print('\\n'.join(sorted(m for m in sys.modules "
        "if m.startswith(('truco', 'asyncio', 'socket', 'threading', 'selectors')))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(result.stdout.split())
    assert "truco.engine" in loaded
    # truco._native__mypyc is the compiled engine's shared code (setup.py): the core itself.
    outer = sorted(
        m
        for m in loaded
        if m not in ("truco", "truco._native__mypyc")
        and m.removeprefix("truco.") not in CORE_MODULES
    )
    assert outer == []

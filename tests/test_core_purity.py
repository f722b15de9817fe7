"""The rules core is pure: it imports only a few standard modules and other core modules,
and those only downwards, in one documented order.

Every import statement of each core module (at the top, inside a function or under
``TYPE_CHECKING``) is read with ``ast``. The core may use the standard modules in
``ALLOWED_STDLIB`` (from ``random`` only the ``Random`` type, which is injected: no global random
state) and other core modules; never I/O, clocks, threads, the network or an outer layer
(server, bots, cli, bench, text game...).

The core's own order (``CORE_ORDER``), each module importing only modules before it, so that no
circle can form and no import needs to be late:

    errors < cards < actions < events < senas < manilhas     the vocabulary: cards, actions...
    < variants < rules                                       the variants' facts, the options
    < state                                                  the state, and its drawing
    < tricks < envido                                        who wins a trick; the tantos
    < legal                                                  the rule, and each refusal's code
    < hand                                                   the shared hand mechanics
    < argentino < pata_de_gallo < pica_pica                  the rooms: each game's hand
      < destantado < paulista
    < rooms                                                  the room of each variant
    < explain < engine                                       why not; apply, deal
    < story                                                  why a finished hand ended
    < view < notation                                        what a seat sees; hand histories

The package's ``__init__`` (the loader and the public face) stands above them all. Outside the
core nothing reads the state by its field numbers (``F_*``): those stay the core's own.
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
    "story",
)
"""The core modules named in docs/design.md (cards .. senas)."""
ENGINE_PARTS = ("legal", "variants", "manilhas", "hand", "rooms")
"""Modules split out of engine.py (the Argentine legality predicates, the variants' registry,
Truco Paulista's cards' order, the shared hand mechanics, the room of each variant): core as
well."""
ROOMS = ("argentino", "pata_de_gallo", "pica_pica", "destantado", "paulista")
"""Each game's room (what its hands do differently, on the shared hand): core as well."""
CORE_MODULES = frozenset(CORE + ENGINE_PARTS + ROOMS)
CORE_ORDER = (
    "errors",
    "cards",
    "actions",
    "events",
    "senas",
    "manilhas",
    "variants",
    "rules",
    "state",
    "tricks",
    "envido",
    "legal",
    "hand",
    "argentino",
    "pata_de_gallo",
    "pica_pica",
    "destantado",
    "paulista",
    "rooms",
    "explain",
    "engine",
    "story",
    "view",
    "notation",
)
"""Every core module, each after every core module it imports (the module docstring)."""

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


CHECKED = [*CORE, *_present(ENGINE_PARTS), *_present(ROOMS)]


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


def test_the_core_order_names_every_core_module_once() -> None:
    assert len(CORE_ORDER) == len(set(CORE_ORDER))
    assert set(CORE_ORDER) == CORE_MODULES == set(CHECKED)


def order_problems(name: str) -> list[str]:
    """The imports of core module ``name`` that do not point down ``CORE_ORDER``."""
    rank = CORE_ORDER.index(name)
    bad = []
    for line, module, _ in imported_modules(name):
        if module.startswith("truco."):
            inner = module.removeprefix("truco.").split(".")[0]
            if inner in CORE_ORDER and CORE_ORDER.index(inner) >= rank:
                bad.append(f"truco/{name}.py:{line}: {module} is not below {name}")
    return bad


@pytest.mark.parametrize("name", CORE_ORDER)
def test_core_imports_point_down_the_order(name: str) -> None:
    assert order_problems(name) == []


def test_the_order_checker_catches_an_upward_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "state.py").write_text(
        "from truco.rules import Rules\nfrom truco import engine\n"
        "def draw():\n    from truco.legal import seat_to_act\n"
        "if TYPE_CHECKING:\n    from truco.view import SeatView\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path)
    assert [p.split(": ", 1)[1] for p in order_problems("state")] == [
        "truco.engine is not below state",
        "truco.legal is not below state",
        "truco.view is not below state",
    ]


def field_number_imports(path: Path) -> list[str]:
    """The ``F_*`` names (the state's field numbers) that the file at ``path`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"line {node.lineno}: {alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name.startswith("F_")
    ]


def _outside_the_core(path: Path) -> bool:
    relative = path.relative_to(PACKAGE)
    if len(relative.parts) > 1:  # bots, coach, server, tui...
        return True
    return relative.stem not in CORE_MODULES and relative.stem != "__init__"


def test_no_module_outside_the_core_reads_the_state_by_field_number() -> None:
    found = {
        str(path.relative_to(PACKAGE)): hits
        for path in sorted(PACKAGE.rglob("*.py"))
        if _outside_the_core(path) and (hits := field_number_imports(path))
    }
    assert found == {}

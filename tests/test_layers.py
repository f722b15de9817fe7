"""The layers of the package, and what each may import.

Every module of ``truco`` belongs to one layer of ``LAYERS``; every import statement of every
module (read with ``ast``, as in ``test_core_purity``, which checks the core's own stricter
allow-list of standard modules) must name a module of a layer its own layer may use, and no
outside package its layer keeps out. Bots never import server or UI code, the terminal client
never imports the server, the server never imports a client, and the core imports nothing of
any outer layer. Then, at run time, importing a layer loads nothing it must not.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from test_core_purity import CORE_MODULES, PACKAGE, imported_modules

SERVER_PACKAGES: tuple[str, ...] = ("fastapi", "starlette", "uvicorn", "pydantic", "sqlalchemy")
SERVER_PACKAGES += ("alembic", "asyncpg", "redis")
"""What only the game server uses: the web framework, its database and Redis."""
UI_PACKAGES = ("textual", "rich")
"""What only the terminal client draws with."""
NEITHER = (*SERVER_PACKAGES, *UI_PACKAGES)
NETWORK = ("asyncio", "socket", "websockets", "httpx", "urllib.request")


@dataclass(frozen=True)
class Layer:
    modules: tuple[str, ...]
    """Its modules and packages, as the first name under ``truco``."""
    may_import: tuple[str, ...]
    """The layers (its own included) whose modules it may import."""
    keeps_out: tuple[str, ...] = ()
    """Outside packages it must never import."""


EVERY: tuple[str, ...] = (
    "core",
    "protocol",
    "bots",
    "coach",
    "anotador",
    "terminal",
    "server",
    "tools",
    "command",
)
EVERY += ("research",)
LAYERS = {
    "core": Layer(tuple(CORE_MODULES), ("core",), (*NEITHER, *NETWORK)),
    "protocol": Layer(("protocol",), ("core", "protocol"), NEITHER),
    "bots": Layer(("bots",), ("core", "bots"), (*NEITHER, *NETWORK)),
    # The coach's analysis is pure like the bots' (its own test checks that it does no I/O);
    # its readable table is drawn with rich, for the terminal.
    "coach": Layer(("coach",), ("core", "bots", "coach"), (*SERVER_PACKAGES, *NETWORK)),
    "anotador": Layer(("anotador",), ("core",), NEITHER),
    "terminal": Layer(
        ("tui",), ("core", "bots", "coach", "anotador", "protocol", "terminal"), SERVER_PACKAGES
    ),
    "server": Layer(("server",), ("core", "bots", "coach", "protocol", "server"), UI_PACKAGES),
    # The research environments (OpenSpiel, PettingZoo) are the engine seen by a library, and
    # seat our bots; they know nothing of the server or the clients.
    "research": Layer(("research", "envs"), ("core", "bots", "research"), (*NEITHER, *NETWORK)),
    # protocol_ts writes the anotador's facts for the web's anotador, as well as the wire's.
    "tools": Layer(
        ("arena", "bench", "protocol_ts"),
        ("core", "bots", "coach", "anotador", "protocol", "research", "tools"),
        NEITHER,
    ),
    "command": Layer(("cli", "__main__"), EVERY),
}
"""Each layer: its modules, the layers it may import and the outside packages it keeps out.
``command`` (``truco ...``) is the top: it starts every other layer."""


def every_module() -> list[str]:
    """Each module as a path under the package without ``.py`` (``bots/common``); the server's
    database migrations are the migration tool's scripts, not code the layers import."""
    return sorted(
        str(path.relative_to(PACKAGE).with_suffix(""))
        for path in PACKAGE.rglob("*.py")
        if "migrations" not in path.parts and "node_modules" not in path.parts
    )


def layer_of(name: str) -> str | None:
    """The layer of a module path (``bots/common``) or dotted name (``truco.bots.common``);
    ``__init__`` of the package itself (the loader and the public face) is core."""
    first = name.removeprefix("truco.").replace("/", ".").split(".")[0]
    if first in ("__init__", "truco"):
        return "core"
    return next((layer for layer, spec in LAYERS.items() if first in spec.modules), None)


def problems(name: str) -> list[str]:
    layer = layer_of(name)
    assert layer is not None, f"truco/{name}.py is in no layer"
    spec = LAYERS[layer]
    bad = []
    for line, module, _ in imported_modules(name):
        where = f"truco/{name}.py:{line}: {module}"
        if module == "truco" or module.startswith("truco."):
            theirs = layer_of(module)
            if theirs not in spec.may_import:
                bad.append(f"{where} is in layer {theirs}, which {layer} may not import")
        elif any(module == out or module.startswith(out + ".") for out in spec.keeps_out):
            bad.append(f"{where} is kept out of layer {layer}")
    return bad


def test_every_module_is_in_one_layer() -> None:
    homeless = [name for name in every_module() if layer_of(name) is None]
    assert homeless == []
    owned = [m for spec in LAYERS.values() for m in spec.modules]
    assert len(owned) == len(set(owned))


def test_every_layer_has_modules() -> None:
    # A layer whose modules were renamed away would pass every check below without a module.
    names = {layer_of(name) for name in every_module()}
    assert names == set(LAYERS)


@pytest.mark.parametrize("name", every_module())
def test_each_module_imports_only_what_its_layer_may(name: str) -> None:
    assert problems(name) == []


def test_the_checker_catches_a_bot_that_reaches_outward(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "fake.py").write_text(
        "from truco.server import tables\nfrom truco import protocol, apply\nimport textual\n"
        "from . import common\nfrom ..tui import text\nfrom fastapi import FastAPI\n"
        "def f():\n    import asyncio\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.modules["test_core_purity"], "PACKAGE", tmp_path)
    assert [p.split(": ", 1)[1] for p in problems("bots/fake")] == [
        "truco.server is in layer server, which bots may not import",
        "truco.protocol is in layer protocol, which bots may not import",
        "textual is kept out of layer bots",
        "truco.tui is in layer terminal, which bots may not import",
        "fastapi is kept out of layer bots",
        "asyncio is kept out of layer bots",
    ]


RUN_TIME = {
    "bots": ("truco.bots", ("truco.server", "truco.tui", "truco.protocol", *NEITHER)),
    "terminal": ("truco.tui.main", ("truco.server", *SERVER_PACKAGES)),
    "server": ("truco.server.app", ("truco.tui", *UI_PACKAGES)),
    # The game itself and its tensors need no research library: only their wrappers do.
    "research": ("truco.research.encode", ("truco.server", "truco.tui", "pyspiel", *NEITHER)),
}
"""Import a layer's entry in a fresh interpreter: the modules it must not load."""


@pytest.mark.parametrize("layer", sorted(RUN_TIME))
def test_importing_a_layer_loads_nothing_it_must_not(layer: str) -> None:
    entry, forbidden = RUN_TIME[layer]
    code = f"import sys, {entry}\nprint('\\n'.join(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = result.stdout.split()
    assert entry in loaded
    hits = [m for m in loaded if any(m == f or m.startswith(f + ".") for f in forbidden)]
    assert hits == []


def import_graph() -> dict[str, set[str]]:
    """Each module of the package (``bots.common``) and the modules it imports (a package's
    ``__init__`` is the package's own name: ``bots``), read as the layer check reads them."""
    modules = {name.replace("/", ".").removesuffix(".__init__") for name in every_module()}
    graph: dict[str, set[str]] = {}
    for name in every_module():
        here = name.replace("/", ".").removesuffix(".__init__")
        arrows: set[str] = set()
        for _, module, names in imported_modules(name):
            targets = [f"{module}.{n}" for n in names] or [module]
            for target in (t.removeprefix("truco.") for t in targets if t.startswith("truco.")):
                while target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                # A module importing its own package's face (``from truco.bots import x`` in
                # ``bots.y``) reads a name the package re-exports, not a circle of modules.
                if target in modules and target != here and not here.startswith(target + "."):
                    arrows.add(target)
        graph[here] = arrows
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while (w := stack.pop()) != v:
                part.append(w)
            if part:
                found.append(sorted([v, *part]))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_anywhere_in_the_package() -> None:
    # The core's order (test_core_purity) and the layers above keep most circles out; this holds
    # every module, inside a layer too (bots among themselves, the terminal's text...).
    graph = import_graph()
    assert len(graph) > 100
    assert circles(graph) == []


def test_the_circle_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]

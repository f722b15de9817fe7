"""The server's parts and what each may import (docs/operations.md names them): the network's
edge and the store at the bottom, then the players, the tables, the cluster, the queue and the
tournaments, each above the ones before it; ``app.py`` alone assembles them all."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import truco.server

SERVER = Path(truco.server.__file__).parent

BASE = ("settings", "errors")
MAY_IMPORT: dict[str, tuple[str, ...]] = {
    "settings": (),
    "errors": (),
    "schemas": (),
    "net": (*BASE, "net"),
    "store": ("store",),
    "api": (*BASE, "net", "store", "players", "schemas"),
    "players": (*BASE, "net", "store", "players", "api"),
    "tables": (*BASE, "net", "store", "players", "api", "schemas", "tables"),
    "cluster": (*BASE, "store", "tables", "cluster"),
    "queue": (*BASE, "net", "store", "players", "schemas", "tables", "cluster", "queue"),
    "exercises": (*BASE, "net", "store", "players", "api", "schemas", "tables", "exercises"),
    "tournaments": (
        *BASE,
        "net",
        "store",
        "players",
        "schemas",
        "tables",
        "cluster",
        "tournaments",
    ),
}
"""Each part (a sub-package or a module of the server's top) and the parts it may import;
``app``, ``admin`` and the package's ``__init__`` may import every part."""
TOP = ("app", "admin", "__init__")


def part_of(path: Path) -> str:
    return path.relative_to(SERVER).with_suffix("").parts[0]


def imported_parts(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module == "truco.server":
                found.update(alias.name for alias in node.names)
            elif node.module.startswith("truco.server."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found.update(
                a.name.split(".")[2] for a in node.names if a.name.startswith("truco.server.")
            )
    return found


MODULES = sorted(
    p for p in SERVER.rglob("*.py") if "migrations" not in p.parts and part_of(p) not in TOP
)


def test_every_part_is_listed() -> None:
    assert {part_of(p) for p in MODULES} == set(MAY_IMPORT)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SERVER)))
def test_each_part_imports_only_the_parts_below_it(path: Path) -> None:
    allowed = MAY_IMPORT[part_of(path)]
    assert sorted(imported_parts(path) - set(allowed)) == []

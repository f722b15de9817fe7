"""The blueprint's data file: the average strategy of every information set kept, compact, with
the command, the seed and the iterations that made it (docs/bots.md, "The blueprint").

A gzip'd text file: ``#`` lines of metadata (``# key: value``), then one line per information
set, ``key<TAB>probabilities``, each probability as two hexadecimal digits (0-255, the action's
share of 255). Loaded once, on first use (``load``).
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path

from truco.errors import TrucoError

FORMAT = "truco-blueprint 1"


def quantize(probs: list[float]) -> str:
    """Probabilities as two hex digits each, rounded so that they still sum to 255."""
    raw = [p * 255.0 for p in probs]
    ints = [int(r) for r in raw]
    short = 255 - sum(ints)
    for i in sorted(range(len(raw)), key=lambda i: ints[i] - raw[i])[:short]:
        ints[i] += 1
    return "".join(f"{v:02x}" for v in ints)


def write(path: Path, meta: Mapping[str, str], rows: Iterator[tuple[str, list[float]]]) -> int:
    """Write a blueprint file; the number of information sets written."""
    count = 0
    tmp = path.with_suffix(path.suffix + ".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write(f"# {FORMAT}\n")
        for k, v in meta.items():
            f.write(f"# {k}: {v}\n")
        for key, probs in rows:
            f.write(f"{key}\t{quantize(probs)}\n")
            count += 1
    tmp.replace(path)
    return count


class Blueprint:
    """A trained strategy: information set key -> its abstract actions' probabilities, kept as
    the file's bytes (a share of 255 each): a tuple of floats per key would take three times
    the memory (docs/operations.md, "Limits")."""

    def __init__(self, table: dict[str, bytes], meta: dict[str, str]) -> None:
        self.table = table
        self.meta = meta

    def probs(self, key: str, n: int) -> tuple[float, ...] | None:
        """The probabilities of ``key``'s ``n`` abstract actions; None for a key the training
        never reached (or a file from another abstraction)."""
        row = self.table.get(key)
        if row is None or len(row) != n:
            return None
        total = sum(row) or 1
        return tuple(v / total for v in row)

    def __len__(self) -> int:
        return len(self.table)


def read(path: Path) -> Blueprint:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return _parse(f)
    except (OSError, EOFError, ValueError) as e:
        raise TrucoError(f"{path}: not a blueprint file ({e})") from None


def _parse(lines: Iterator[str]) -> Blueprint:
    meta: dict[str, str] = {}
    table: dict[str, bytes] = {}
    first = True
    for line in lines:
        if first:
            if line.strip() != f"# {FORMAT}":
                raise ValueError(f"the first line must be '# {FORMAT}'")
            first = False
            continue
        if line.startswith("#"):
            k, _, v = line[1:].partition(":")
            meta[k.strip()] = v.strip()
            continue
        key, _, probs = line.rstrip("\n").partition("\t")
        table[key] = bytes.fromhex(probs)
    return Blueprint(table, meta)


DATA = "truco.bots.blueprint"
_LOADED: dict[str, Blueprint | None] = {}


def shipped_path(name: str) -> Path:
    """Where the package's blueprint ``name`` is (``data/<name>.txt.gz``)."""
    return Path(str(resources.files(DATA).joinpath("data", f"{name}.txt.gz")))


def load(name: str) -> Blueprint | None:
    """The package's blueprint ``name``, read once; None when the package has none."""
    if name not in _LOADED:
        path = shipped_path(name)
        _LOADED[name] = read(path) if path.exists() else None
    return _LOADED[name]


__all__ = ["FORMAT", "Blueprint", "load", "quantize", "read", "shipped_path", "write"]

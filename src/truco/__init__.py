"""Argentine truco: an exact rules engine, hand histories, bots and online play.

The rules core (cards, rules, actions, events, state, engine, envido, tricks, view, notation)
is pure: no I/O, no clocks, no global random state.

The engine's hot path (``COMPILED``) is compiled with mypyc when the package is installed
(setup.py). A compiled module older than its source would run stale code, so then, and when
TRUCO_PURE_PYTHON is set, all of them are loaded from their ``.py`` files instead.
"""

import os as _os
import sys as _sys
from collections.abc import Sequence as _Sequence
from importlib.abc import MetaPathFinder as _MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES as _SUFFIXES
from importlib.machinery import ModuleSpec as _ModuleSpec
from importlib.util import spec_from_file_location as _spec_from_file
from types import ModuleType as _ModuleType

__version__ = "0.1.0"

COMPILED = ("legal", "effects", "destantado", "engine", "tricks", "envido")
"""The modules setup.py compiles (they call each other natively, so it is all or none)."""


def _stale_native(folder: str) -> list[str]:
    """The compiled modules whose source changed after they were built."""
    stale = []
    for name in COMPILED:
        source = _os.path.join(folder, name + ".py")
        for suffix in _SUFFIXES:
            native = _os.path.join(folder, name + suffix)
            if _os.path.exists(native) and _os.path.getmtime(native) < _os.path.getmtime(source):
                stale.append(name)
    return stale


class _SourceFinder(_MetaPathFinder):
    """Loads the compiled modules from their Python source."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def find_spec(
        self,
        fullname: str,
        path: _Sequence[str] | None = None,
        target: _ModuleType | None = None,
    ) -> _ModuleSpec | None:
        prefix, _, name = fullname.rpartition(".")
        if prefix != __name__ or name not in COMPILED:
            return None
        return _spec_from_file(fullname, _os.path.join(self.folder, name + ".py"))


def _choose_implementation() -> tuple[bool, tuple[str, ...]]:
    """Install the source finder when needed: whether the compiled modules are used, and which
    were found stale (``truco bench`` says so; everything else just runs the source)."""
    folder = _os.path.dirname(__file__)
    stale = tuple(_stale_native(folder))
    if stale or _os.environ.get("TRUCO_PURE_PYTHON"):
        _sys.meta_path.insert(0, _SourceFinder(folder))
        return False, stale
    native = any(_os.path.exists(_os.path.join(folder, "engine" + s)) for s in _SUFFIXES)
    return native, stale


NATIVE, STALE = _choose_implementation()
"""Whether the engine runs compiled (setup.py); the compiled modules older than their source."""

"""Argentine truco: an exact rules engine, hand histories, bots and online play.

The public face (``__all__``)::

    import truco
    state = truco.new_match(truco.Rules(players=4))
    while (seat := truco.to_act(state)) is not None:
        if seat == truco.CHANCE:
            state, events = truco.deal(state, rng)       # rng: a random.Random
        else:
            state, events = truco.apply(state, truco.legal_actions(state)[0])
    truco.observe(state, 0)                              # what seat 0 may see

The rules core (cards, rules, actions, events, state, engine, envido, tricks, view, notation)
is pure: no I/O, no clocks, no global random state.

The engine's hot path (``COMPILED``) is compiled with mypyc when the package is installed
(setup.py). A compiled module older than its source would run stale code, so then, and when
TRUCO_PURE_PYTHON is set, all of them are loaded from their ``.py`` files instead.
"""

import os as _os
import sys as _sys
from collections.abc import Sequence as _Sequence
from importlib import import_module as _import_module
from importlib.abc import MetaPathFinder as _MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES as _SUFFIXES
from importlib.machinery import ModuleSpec as _ModuleSpec
from importlib.util import spec_from_file_location as _spec_from_file
from types import ModuleType as _ModuleType
from typing import TYPE_CHECKING

__version__ = "0.1.0"

COMPILED = (
    "legal",
    "hand",
    "argentino",
    "pata_de_gallo",
    "pica_pica",
    "destantado",
    "paulista",
    "rooms",
    "engine",
    "tricks",
    "envido",
    "view",
)
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


# The public face. Its names load on first use (PEP 562), not here: every ``import truco.x``
# runs this file first, and the command line imports ``truco.rules`` and ``truco.errors`` to
# parse its arguments without paying for the engine's tables. Loading them only after
# ``_choose_implementation`` is also what makes them the compiled engine or its source.
if TYPE_CHECKING:  # the same names for the type checker (the tests check both lists agree)
    from truco.actions import Action as Action
    from truco.actions import Verb as Verb
    from truco.cards import Card as Card
    from truco.engine import CHANCE as CHANCE
    from truco.engine import Outcome as Outcome
    from truco.engine import Transition as Transition
    from truco.engine import apply as apply
    from truco.engine import check as check
    from truco.engine import deal as deal
    from truco.engine import is_legal as is_legal
    from truco.engine import legal_actions as legal_actions
    from truco.engine import outcome as outcome
    from truco.engine import to_act as to_act
    from truco.errors import IllegalActionError as IllegalActionError
    from truco.errors import NotationError as NotationError
    from truco.errors import RulesError as RulesError
    from truco.errors import TrucoError as TrucoError
    from truco.notation import HandHistory as HandHistory
    from truco.notation import Replay as Replay
    from truco.notation import dumps as dumps
    from truco.notation import format_action as format_action
    from truco.notation import from_state as from_state
    from truco.notation import loads as loads
    from truco.notation import loads_match as loads_match
    from truco.notation import parse_action_line as parse_action_line
    from truco.notation import replay as replay
    from truco.notation import replay_match as replay_match
    from truco.notation import replay_text as replay_text
    from truco.notation import states as states
    from truco.rules import Rules as Rules
    from truco.state import State as State
    from truco.state import new_match as new_match
    from truco.view import SeatView as SeatView
    from truco.view import observe as observe

_HOMES = {
    "actions": ("Action", "Verb"),
    "cards": ("Card",),
    "engine": (
        "CHANCE",
        "Outcome",
        "Transition",
        "apply",
        "check",
        "deal",
        "is_legal",
        "legal_actions",
        "outcome",
        "to_act",
    ),
    "errors": ("IllegalActionError", "NotationError", "RulesError", "TrucoError"),
    "notation": (
        "HandHistory",
        "Replay",
        "dumps",
        "format_action",
        "from_state",
        "loads",
        "loads_match",
        "parse_action_line",
        "replay",
        "replay_match",
        "replay_text",
        "states",
    ),
    "rules": ("Rules",),
    "state": ("State", "new_match"),
    "view": ("SeatView", "observe"),
}
"""The core module each public name lives in."""
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_HOME_OF)


if not TYPE_CHECKING:  # hidden from the type checker, which then flags a misspelt name

    def __getattr__(name: str) -> object:
        module = _HOME_OF.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(_import_module(f"{__name__}.{module}"), name)
        globals()[name] = value  # once loaded, an ordinary attribute
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

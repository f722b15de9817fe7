"""The anotador: the score keeper for games played with real cards.

Pure and independent of any user interface (the terminal's ``truco anotar`` and, later, the web
page use it): two or three named sides, points added or taken away, the usual quick amounts,
the falta envido computed from the score as ``truco.envido.falta_value`` says, malas and buenas,
undo, and a plain JSON form so that the last game survives a restart.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from truco.envido import falta_value
from truco.rules import TARGETS, FaltaMode, Rules
from truco.variants import target_half

QUICK: dict[str, int] = {
    "envido": 2,
    "real envido": 3,
    "truco": 2,
    "retruco": 3,
    "vale cuatro": 4,
}
"""The usual amounts, by the name of what was won."""

TARGET_CHOICES: tuple[int, ...] = (15, 30, *(t for t in TARGETS if t not in (15, 30)))
"""The targets as a table offers them: the usual 15 and 30 first, then the others."""
FALTA_MODES: tuple[str, ...] = get_args(FaltaMode)
FALTA_WORDS: dict[str, str] = {
    "match_if_malas": "el partido si los dos están en malas; si no, lo que le falta al que gana",
    "leader": "lo que le falta al que va ganando",
    "litoral": "lo que le falta al que gana para salir de las malas, o para el partido",
    "doble": "lo que le falta al ganador de la falta para salir de las malas, o para el partido",
    "loser": "lo que le falta al que pierde",
    "diferencia": "la diferencia de puntos entre los dos",
}
"""Each falta envido rule (``Rules.falta``) in the words of the table, as ``truco anotar`` says
it (the web's create form and anotador name them in src/truco/web/src/i18n.ts)."""
DEFAULT_NAMES = ("Nosotros", "Ellos")
SAVE_NAME = "anotador.json"
FORMAT = 1


@dataclass(frozen=True, slots=True)
class Entry:
    """One change of the score: ``points`` (negative to take away) for ``side``, and why."""

    side: int
    points: int
    what: str = ""


@dataclass(slots=True)
class Anotador:
    """A game's score: the sides' names, the target, the falta formula and every change."""

    names: list[str] = field(default_factory=lambda: list(DEFAULT_NAMES))
    target: int = 30
    falta: str = "match_if_malas"
    entries: list[Entry] = field(default_factory=list)
    cleared: list[Entry] = field(default_factory=list)
    """The game a "partido nuevo" cleared, until an undo brings it back (not saved)."""

    def __post_init__(self) -> None:
        if len(self.names) not in (2, 3):
            raise ValueError(f"an anotador keeps two or three sides, not {len(self.names)}")
        if self.target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, not {self.target!r}")
        if self.falta not in FALTA_MODES:
            raise ValueError(f"falta must be one of {FALTA_MODES}, not {self.falta!r}")
        for entry in self.entries:
            self._check_side(entry.side)

    # --- reading ------------------------------------------------------------------------

    @property
    def sides(self) -> int:
        return len(self.names)

    @property
    def rules(self) -> Rules:
        return Rules(target=self.target, falta=self.falta)  # type: ignore[arg-type]

    @property
    def half(self) -> int | None:
        """Where the malas end (half the target), else None."""
        return target_half(self.target)

    @property
    def score(self) -> tuple[int, ...]:
        """Each side's points: never below 0 nor above the target."""
        points = [0] * self.sides
        for entry in self.entries:
            points[entry.side] = min(self.target, max(0, points[entry.side] + entry.points))
        return tuple(points)

    @property
    def winner(self) -> int | None:
        """The first side to reach the target, or None while the game goes on."""
        for side, points in enumerate(self.score):
            if points >= self.target:
                return side
        return None

    def winner_words(self, side: int) -> str:
        """How the table says ``side`` won: "¡Ganamos!", "¡Ganaron ellos!", "¡Ganó Caro!"."""
        name = self.names[side]
        if self.sides == 2 and name == DEFAULT_NAMES[0]:
            return "¡Ganamos!"
        if self.sides == 2 and name == DEFAULT_NAMES[1]:
            return "¡Ganaron ellos!"
        return f"¡Ganó {name}!"

    @property
    def falta_words(self) -> str:
        return FALTA_WORDS.get(self.falta, self.falta)

    def in_malas(self, side: int) -> bool:
        half = self.half
        return half is not None and self.score[side] <= half

    def status(self, side: int) -> str:
        """``"malas"``, ``"3 buenas"``... or ``""`` for targets without halves."""
        half = self.half
        if half is None:
            return ""
        points = self.score[side]
        if points <= half:
            return "malas"
        buenas = points - half
        return f"{buenas} buena{'s' * (buenas > 1)}"

    def falta_points(self, side: int, against: int | None = None, before: int = 0) -> int:
        """What a falta envido won by ``side`` is worth now (``against``: the losing side,
        by default the rival with most points; ``before``: the chain before the falta)."""
        self._check_side(side)
        if against is None:
            rivals = [s for s in range(self.sides) if s != side]
            against = max(rivals, key=lambda s: (self.score[s], -s))
        self._check_side(against)
        if against == side:
            raise ValueError("a side cannot win a falta against itself")
        # falta_value reads the winner's, the loser's and the leader's (the highest) score,
        # so a third side counts when it leads.
        return falta_value(self.rules, self.score, side, against, before)

    # --- changing -------------------------------------------------------------------------

    def add(self, side: int, points: int = 1, what: str = "") -> Entry:
        """Add (or, with a negative number, take away) points; returns the change recorded."""
        self._check_side(side)
        if not isinstance(points, int) or isinstance(points, bool) or points == 0:
            raise ValueError(f"points must be a whole number other than 0, not {points!r}")
        entry = Entry(side, points, what)
        self.entries.append(entry)
        return entry

    def quick(self, side: int, name: str) -> Entry:
        """Add one of the usual amounts (``QUICK``) or ``"falta envido"``."""
        if name == "falta envido":
            return self.add(side, self.falta_points(side), name)
        try:
            return self.add(side, QUICK[name], name)
        except KeyError:
            known = ", ".join([*QUICK, "falta envido"])
            raise ValueError(f"no quick amount named {name!r}; known: {known}") from None

    def undo(self) -> Entry | None:
        """Take back the last change; None when there is nothing to undo. Right after a
        "partido nuevo", brings the cleared game back (and returns its last change)."""
        if not self.entries and self.cleared:
            self.entries, self.cleared = self.cleared, []
            return self.entries[-1]
        self.cleared = []
        return self.entries.pop() if self.entries else None

    def reset(self) -> None:
        """A new game with the same sides and options; ``undo`` brings the old one back."""
        if self.entries:
            self.cleared = self.entries
        self.entries = []

    def _check_side(self, side: int) -> None:
        if not isinstance(side, int) or not 0 <= side < self.sides:
            raise ValueError(f"side must be from 0 to {self.sides - 1}, not {side!r}")

    # --- JSON -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "names": list(self.names),
            "target": self.target,
            "falta": self.falta,
            "entries": [[e.side, e.points, e.what] for e in self.entries],
        }

    @classmethod
    def from_json(cls, data: Any) -> Anotador:
        """Read ``to_json``'s object back; raises ValueError if it is not one."""
        if not isinstance(data, dict):
            raise ValueError("an anotador is a JSON object")
        try:
            names = [str(n) for n in data["names"]]
            entries = [
                Entry(int(side), int(points), str(what)) for side, points, what in data["entries"]
            ]
            return cls(
                names=names,
                target=int(data["target"]),
                falta=str(data.get("falta", "match_if_malas")),
                entries=entries,
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not an anotador: {exc}") from None

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    @classmethod
    def loads(cls, text: str) -> Anotador:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise ValueError(f"not valid JSON: {exc}") from None


# --- fósforos -----------------------------------------------------------------------------

# A square of five matches, drawn stick by stick: left, top, right, bottom, then the diagonal.
_SQUARES: tuple[tuple[str, str, str], ...] = (
    ("   ", "   ", "   "),
    ("╷  ", "│  ", "╵  "),
    ("┌──", "│  ", "╵  "),
    ("┌─┐", "│ │", "╵ ╵"),
    ("┌─┐", "│ │", "└─┘"),
    ("┌─┐", "│╱│", "└─┘"),
)


def fosforos_groups(points: int) -> list[int]:
    """The points as squares of five: ``12`` is ``[5, 5, 2]``."""
    points = max(0, points)
    return [5] * (points // 5) + ([points % 5] if points % 5 else [])


def fosforos(points: int, target: int = 30) -> list[str]:
    """Three lines drawing ``points`` as fósforos, a gap between the malas and the buenas.

    There are as many squares as the target has (``target / 5``, rounded up), the empty ones
    blank, so that two sides drawn one under the other line up.
    """
    slots = -(-target // 5)
    groups = fosforos_groups(min(points, target))
    groups += [0] * (slots - len(groups))
    half = target_half(target)
    rows = ["", "", ""]
    for i, n in enumerate(groups):
        if half is not None and half % 5 == 0 and i * 5 == half:
            for r in range(3):
                rows[r] += "  "
        for r in range(3):
            rows[r] += _SQUARES[n][r] + " "
    return [row.rstrip() for row in rows]


# --- keeping the last game --------------------------------------------------------------------


def data_dir(environ: dict[str, str] | None = None) -> Path:
    """Where truco keeps its files: ``$XDG_DATA_HOME/truco`` or ``~/.local/share/truco``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "truco"


def save(anotador: Anotador, path: Path | None = None) -> Path:
    """Write the game to ``path`` (default: the data dir's ``anotador.json``), atomically."""
    path = path or data_dir() / SAVE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(anotador.dumps() + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def load(path: Path | None = None) -> Anotador | None:
    """The saved game, or None when there is none (or the file is unreadable)."""
    path = path or data_dir() / SAVE_NAME
    try:
        return Anotador.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None

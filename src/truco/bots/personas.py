"""The names bots go by at a table: Argentine personas, one list per level, and the level's label.

People never see a bot's program name (``expert``, ``simple``): a bot seat is called by a
persona of its level ("Don Ramón", "Chiche"...), with the level's label beside it ("Experto").
The name is a pure function of the level, the seat and the table (its id, or a local game's
seed), so the same table always shows the same names, two bot seats of one table never share
one, and different tables get different line-ups. Each persona has a style (``bots/styles.py``:
cauto, agresivo, mentiroso; ``style_label`` gives it to show beside the name), and the bot built
for it (``truco.bots.make_persona_bot``) plays with that style.
"""

from __future__ import annotations

import hashlib

from truco.bots.styles import MANNERS, Manner

PERSONAS: dict[str, tuple[str, ...]] = {
    "facil": ("Tito", "Chiche", "Pocho", "Coca", "Nené", "Cacho"),
    "normal": ("La Negra", "Toto", "Beba", "Pirucho", "Chola", "Lalo"),
    "dificil": ("El Colorado", "Doña Rosa", "Fito", "La Flaca", "Tano", "Pochola"),
    "experto": ("Don Ramón", "Doña Elsa", "Don Atilio", "Tía Chela", "Don Julio", "Doña Porota"),
}
"""Persona names by level: disjoint lists, each as long as the largest table (six seats), so
that every seat of a table can have its own."""

LABELS: dict[str, tuple[str, str]] = {
    "facil": ("Fácil", "Easy"),
    "normal": ("Normal", "Normal"),
    "dificil": ("Difícil", "Hard"),
    "experto": ("Experto", "Expert"),
}
"""Each level's label, in Spanish and in English."""

_LEVEL_OF_BOT: dict[str, str] = {
    "random": "facil",
    "beginner": "facil",
    "simple": "normal",
    "expert-fast": "dificil",
    "expert-tell": "dificil",
    "expert-fast-tell": "dificil",
    "expert": "experto",
    "expert-pimc": "experto",
    "expert-blueprint": "experto",
    "explotador": "experto",
    "blueprint-facil": "facil",
    "blueprint-normal": "normal",
    "blueprint": "dificil",
}
"""Bot programs (accepted by the server for tests and tools) shown as the level they play like;
any other program (the exploiters, the caretaker) as ``normal``."""


def level_of(name: str) -> str:
    """The level (``facil``...) a level or bot name is shown as, compared without case."""
    key = name.strip().lower()
    if key in PERSONAS:
        return key
    return _LEVEL_OF_BOT.get(key, "normal")


def label(name: str, lang: str = "es") -> str:
    """The label of a level (or of the level a bot name is shown as): ``Experto``, ``Expert``."""
    spanish, english = LABELS[level_of(name)]
    return english if lang == "en" else spanish


def persona(name: str, seat: int, table: int | str) -> str:
    """The persona of the bot of level (or bot name) ``name`` in ``seat`` at ``table``.

    The level's names are put in an order drawn from the table (a hash, so it is the same on
    every machine and run) and the seat picks its place in it: seats of one table get distinct
    names (levels have disjoint lists), and tables differ in who sits where.
    """
    names = PERSONAS[level_of(name)]
    order = sorted(names, key=lambda n: hashlib.sha256(f"{table}\x00{n}".encode()).digest())
    return order[seat % len(order)]


STYLE_ORDER: tuple[str, ...] = ("cauto", "agresivo", "mentiroso")
"""The style of each persona of a level by its place in ``PERSONAS`` (two of each per level)."""


def manner_of(name: str, persona_name: str) -> Manner | None:
    """The style of a persona of level (or bot name) ``name``; ``None`` for a name that is not
    one of the level's personas."""
    names = PERSONAS[level_of(name)]
    if persona_name not in names:
        return None
    return MANNERS[STYLE_ORDER[names.index(persona_name) % len(STYLE_ORDER)]]


def style_label(name: str, persona_name: str, lang: str = "es") -> str:
    """The label of a persona's style (``Mentiroso``, ``Bluffer``); empty for an unknown one."""
    manner = manner_of(name, persona_name)
    if manner is None:
        return ""
    return manner.en if lang == "en" else manner.es

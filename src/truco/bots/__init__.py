"""Bots: programs that play a seat using only its view (``truco.view.observe``).

``make_bot(name)`` builds one by name or by the difficulty level players choose.
"""

from __future__ import annotations

from collections.abc import Callable

from truco.bots.base import Bot
from truco.bots.caretaker import CaretakerBot
from truco.bots.expert import ExpertBot
from truco.bots.random_bot import RandomBot
from truco.bots.simple import AlwaysQuieroBot, AlwaysRaiseBot, NeverBluffBot, SimpleBot
from truco.errors import TrucoError

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "simple": SimpleBot,
    "always-quiero": AlwaysQuieroBot,
    "always-raise": AlwaysRaiseBot,
    "never-bluff": NeverBluffBot,
    "expert": ExpertBot,
    "expert-fast": lambda: ExpertBot(worlds=8, name="expert-fast"),
    "caretaker": CaretakerBot,
}
LEVELS: dict[str, str] = {
    "facil": "simple",  # until a real beginner exists; ``random`` is a fuzzer, never offered
    "normal": "simple",
    "dificil": "expert-fast",
    "experto": "expert",
}
"""Difficulty levels offered to players, mapped to bot names."""


def make_bot(name: str) -> Bot:
    """A new bot by name (``random``...) or level (``facil``...), compared without case."""
    key = name.strip().lower()
    key = LEVELS.get(key, key)
    try:
        return BOTS[key]()
    except KeyError:
        known = ", ".join(sorted({*BOTS, *LEVELS}))
        raise TrucoError(f"no bot named {name!r}; bots: {known}") from None


__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "CaretakerBot",
    "ExpertBot",
    "RandomBot",
    "SimpleBot",
    "make_bot",
]

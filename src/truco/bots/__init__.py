"""Bots: programs that play a seat using only its view (``truco.view.observe``).

``make_bot(name)`` builds one by name or by the difficulty level players choose.
"""

from __future__ import annotations

from collections.abc import Callable

from truco.bots.base import Bot
from truco.bots.random_bot import RandomBot
from truco.errors import TrucoError

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
}
LEVELS: dict[str, str] = {}
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


__all__ = ["BOTS", "LEVELS", "Bot", "RandomBot", "make_bot"]

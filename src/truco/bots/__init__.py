"""Bots: programs that play a seat using only its view (``truco.view.observe``).

``make_bot(name)`` builds one by name or by the difficulty level players choose.
"""

from __future__ import annotations

from collections.abc import Callable

from truco.bots.base import Bot
from truco.bots.beginner import BEGINNER, BeginnerBot
from truco.bots.caretaker import CaretakerBot
from truco.bots.expert import ExpertBot
from truco.bots.personas import manner_of, persona
from truco.bots.random_bot import RandomBot
from truco.bots.simple import (
    AlwaysQuieroBot,
    AlwaysRaiseBot,
    MuteSimpleBot,
    NeverBluffBot,
    SimpleBot,
)
from truco.bots.styles import shifted
from truco.bots.ventajero import VentajeroBot
from truco.errors import TrucoError

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "simple": SimpleBot,
    "simple-sin-senas": MuteSimpleBot,
    "always-quiero": AlwaysQuieroBot,
    "always-raise": AlwaysRaiseBot,
    "never-bluff": NeverBluffBot,
    "ventajero": VentajeroBot,  # the exploiter that adapts to its rivals (docs/bots.md)
    "expert": ExpertBot,
    "expert-fast": lambda: ExpertBot(worlds=8, name="expert-fast"),
    "expert-blind": lambda: ExpertBot(name="expert-blind", reads=False),  # reads no rival
    "expert-sin-senas": lambda: ExpertBot(name="expert-sin-senas", signals=False),
    "expert-plain-rollouts": lambda: ExpertBot(name="expert-plain-rollouts", signed_rollouts=False),
    "caretaker": CaretakerBot,
}
LEVELS: dict[str, str] = {
    "facil": "beginner",  # ``random`` is a fuzzer, never offered
    "normal": "simple",
    "dificil": "expert-fast",
    "experto": "expert",
}
"""Difficulty levels offered to players, mapped to bot names."""


def make_bot(name: str) -> Bot:
    """A new bot by name (``random``...) or level (``facil``...), compared without case, or a
    level's persona as ``level:Persona`` (``facil:Tito``, for the arena)."""
    if ":" in name:
        level, _, who = name.partition(":")
        level = level.strip().lower()
        if level in LEVELS and manner_of(level, who.strip()) is not None:
            return make_persona_bot(level, who.strip())
    key = name.strip().lower()
    key = LEVELS.get(key, key)
    try:
        return BOTS[key]()
    except KeyError:
        known = ", ".join(sorted({*BOTS, *LEVELS}))
        raise TrucoError(f"no bot named {name!r}; bots: {known}") from None


def make_persona_bot(level: str, persona_name: str) -> Bot:
    """The bot of a level's persona, playing with the persona's style (docs/bots.md). A program
    name (``expert``...) or a name that is not one of the level's personas gets the plain bot."""
    key = level.strip().lower()
    manner = manner_of(key, persona_name) if key in LEVELS else None
    if manner is None:
        return make_bot(level)
    program = LEVELS[key]
    if program == "beginner":
        return BeginnerBot(shifted(manner, BEGINNER, down=0.5), name=f"beginner-{manner.key}")
    if program == "simple":
        bot = SimpleBot()
        bot.style = manner.style
        bot.name = f"simple-{manner.key}"
        return bot
    plain = make_bot(program)
    assert isinstance(plain, ExpertBot)
    return ExpertBot(
        worlds=plain.worlds,
        tries=plain.tries,
        margin=manner.margin,
        name=f"{program}-{manner.key}",
        bet_share=manner.bet_share,
        sane=True,
    )


def seat_bot(level: str, seat: int, table: int | str) -> tuple[str, Bot]:
    """A bot seat's persona name and its bot: what a table builds from the seat's level."""
    name = persona(level, seat, table)
    return name, make_persona_bot(level, name)


__all__ = [
    "BOTS",
    "LEVELS",
    "BeginnerBot",
    "Bot",
    "CaretakerBot",
    "ExpertBot",
    "RandomBot",
    "SimpleBot",
    "make_bot",
    "make_persona_bot",
    "seat_bot",
]

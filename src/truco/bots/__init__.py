"""Bots: programs that play a seat using only what the seat knows (``Situation``: its view, the
señas it received, its reading of the rivals); ``driver`` seats them at a match.

``make_bot(name)`` builds one by name or by the difficulty level players choose.
"""

from __future__ import annotations

from collections.abc import Callable

from truco.bots.base import Bot, Situation
from truco.bots.beginner import BEGINNER, BeginnerBot
from truco.bots.blueprint_bot import (
    CARELESS,
    NOISE,
    PERSONA_LEAN,
    PLAIN_BET_SHARE,
    BlueprintBot,
)
from truco.bots.caretaker import CaretakerBot
from truco.bots.expert import EXPERTO_WORLDS, FLOOR, ROLLOUTS, TRIES, WORLDS, ExpertBot
from truco.bots.knobs import DEFAULT
from truco.bots.personas import manner_of, persona
from truco.bots.random_bot import RandomBot
from truco.bots.simple import (
    AlwaysQuieroBot,
    AlwaysRaiseBot,
    MuteSimpleBot,
    NeverBluffBot,
    SimpleBot,
)
from truco.bots.styles import MENTIROSO, Manner, shifted
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
    # Experto: the search with each rival modelled half by the blueprint and half by the rules
    # of thumb, moved toward what each has shown (docs/bots.md, "expert"); ``expert-blueprint``
    # models an unread rival by the blueprint alone (the experto of issue 24's first steps).
    "expert": lambda: ExpertBot(by_mode=EXPERTO_WORLDS, blueprint=True, floor=FLOOR),
    "expert-blueprint": lambda: ExpertBot(
        name="expert-blueprint", blueprint=True, by_mode=EXPERTO_WORLDS
    ),
    "expert-fast": lambda: ExpertBot(worlds=8, name="expert-fast"),
    # The search that best-responds to the blueprint: the blueprint as the rivals' model, and
    # no reading to move it (docs/bots.md, "Exploitability").
    "explotador": lambda: ExpertBot(
        name="explotador", reads=False, blueprint=True, by_mode=EXPERTO_WORLDS
    ),
    # The blueprint with no search, and with noise: the ladder's lower levels (docs/bots.md).
    "blueprint": lambda: blueprint_level("blueprint"),
    "blueprint-normal": lambda: blueprint_level("blueprint-normal"),
    "blueprint-facil": lambda: blueprint_level("blueprint-facil"),
    # The expert as it was: every other seat modelled by the rules of thumb, and its ablations.
    "expert-pimc": lambda: ExpertBot(name="expert-pimc", blueprint=False, by_mode=EXPERTO_WORLDS),
    # The old difícil: the search with a tell, it bets and accepts only where ``simple`` would.
    "expert-tell": lambda: ExpertBot(name="expert-tell", tell=DEFAULT, blueprint=False),
    "expert-fast-tell": lambda: ExpertBot(
        worlds=8, name="expert-fast-tell", tell=DEFAULT, blueprint=False
    ),
    "expert-blind": lambda: ExpertBot(
        name="expert-blind", reads=False, by_mode=EXPERTO_WORLDS, blueprint=False
    ),  # reads no rival
    "expert-sin-senas": lambda: ExpertBot(
        name="expert-sin-senas", signals=False, by_mode=EXPERTO_WORLDS, blueprint=False
    ),
    "expert-plain-rollouts": lambda: ExpertBot(
        name="expert-plain-rollouts",
        signed_rollouts=False,
        by_mode=EXPERTO_WORLDS,
        blueprint=False,
    ),
    "caretaker": CaretakerBot,
}
LEVELS: dict[str, str] = {
    "facil": "blueprint-facil",  # ``random`` is a fuzzer, never offered
    "normal": "blueprint-normal",
    "dificil": "blueprint",
    "experto": "expert",
}
"""Difficulty levels offered to players, mapped to bot names: each a weaker use of the same
core, the blueprint (docs/bots.md, "The ladder")."""
BEFORE_BLUEPRINT: dict[str, str] = {
    "blueprint-facil": "beginner",
    "blueprint-normal": "simple",
    "blueprint": "expert-tell",
}
"""Where no blueprint covers the table (the three-player variants), each blueprint level plays
as its level's program did before the blueprint."""


def scaled_expert(name: str) -> ExpertBot | None:
    """``expert*K`` (``K`` a whole number or a decimal) is the search with ``K`` times
    ``expert.WORLDS`` worlds in every mode (and as many times the tries); ``expert*1`` is the
    expert as it was before its worlds were set by mode. ``expert*K/ROLLOUT`` also plays its
    worlds out with another rollout policy (``expert.ROLLOUTS``). For the arena's curve of
    strength against search (docs/bots.md). None when ``name`` is not of that form."""
    base, star, rest = name.strip().lower().partition("*")
    if not star or base not in ("expert", "experto"):
        return None
    factor_text, _, style_name = rest.partition("/")
    try:
        factor = float(factor_text)
    except ValueError:
        raise TrucoError(f"{name!r}: the worlds' factor must be a number") from None
    if not 0 < factor <= 64:
        raise TrucoError(f"{name!r}: the worlds' factor must be over 0 and at most 64")
    style = ROLLOUTS.get(style_name or "rules")
    if style is None:
        raise TrucoError(f"{name!r}: rollouts are {', '.join(ROLLOUTS)}")
    return ExpertBot(
        worlds=max(1, round(WORLDS * factor)),
        tries=max(1, round(TRIES * factor)),
        name=name.strip().lower(),
        rollout=style,
    )


def make_bot(name: str) -> Bot:
    """A new bot by name (``random``...) or level (``facil``...), compared without case, or a
    level's persona as ``level:Persona`` (``facil:Tito``, for the arena). ``expert*K`` is the
    arena's alone (``arena_bot``): a server or a terminal never builds a search that size."""
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


def arena_bot(name: str) -> Bot:
    """A bot for the arena: ``make_bot``'s names and ``expert*K[/ROLLOUT]`` (``scaled_expert``)."""
    scaled = scaled_expert(name)
    return make_bot(name) if scaled is None else scaled


def make_persona_bot(level: str, persona_name: str) -> Bot:
    """The bot of a level's persona, playing with the persona's style (docs/bots.md). A program
    name (``expert``...) or a name that is not one of the level's personas gets the plain bot."""
    key = level.strip().lower()
    manner = manner_of(key, persona_name) if key in LEVELS else None
    if manner is None:
        return make_bot(level)
    program = LEVELS[key]
    if program in NOISE:
        return blueprint_level(program, manner)
    return program_persona(program, manner)


def blueprint_level(program: str, manner: Manner | None = None) -> BlueprintBot:
    """A blueprint level's bot (``NOISE``), plain or with a persona's style; where no blueprint
    covers the table it plays as ``BEFORE_BLUEPRINT`` says, with the same style."""
    before = BEFORE_BLUEPRINT[program]
    if manner is None:
        fallback = make_bot(before)
        # No level makes an absurd move, where no blueprint covers the table either.
        if isinstance(fallback, SimpleBot):
            fallback.style = fallback.style._replace(sane=True)
        if isinstance(fallback, ExpertBot):
            fallback.sane = True
            fallback.style = fallback.style._replace(sane=True)
        return BlueprintBot(
            NOISE[program], program, careless=CARELESS.get(program, 0.0), fallback=fallback
        )
    return BlueprintBot(
        NOISE[program],
        name=f"{program}-{manner.key}",
        style=manner.style,
        careless=CARELESS.get(program, 0.0),
        lean=PERSONA_LEAN,
        fallback=program_persona(before, manner),
        bet_weight=manner.bet_share / PLAIN_BET_SHARE,
    )


def program_persona(program: str, manner: Manner) -> Bot:
    """A persona's bot on a rules-of-thumb program or on the search."""
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
        by_mode=plain.by_mode,
        margin=manner.margin,
        name=f"{program}-{manner.key}",
        bet_share=manner.bet_share,
        sane=True,
        tell=plain.tell,
        honest=manner is not MENTIROSO,  # a mentiroso still bluffs
        blueprint=plain.blueprint,
        floor=plain.floor,
    )


def seat_bot(level: str, seat: int, table: int | str) -> tuple[str, Bot]:
    """A bot seat's persona name and its bot: what a table builds from the seat's level."""
    name = persona(level, seat, table)
    return name, make_persona_bot(level, name)


__all__ = [
    "BEFORE_BLUEPRINT",
    "BOTS",
    "LEVELS",
    "BeginnerBot",
    "BlueprintBot",
    "Bot",
    "CaretakerBot",
    "ExpertBot",
    "RandomBot",
    "SimpleBot",
    "Situation",
    "arena_bot",
    "make_bot",
    "make_persona_bot",
    "scaled_expert",
    "seat_bot",
]

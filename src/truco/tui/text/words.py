"""The terminal clients' words: cards, suits, calls, the reasons points are scored.

Spanish table words (``¡Quiero retruco!``, ``envido no querido``) as Rich markup; ``plain``
strips the styles for the line-based game.
"""

from __future__ import annotations

from rich.text import Text

from truco.actions import Verb
from truco.cards import Card, Suit

SUIT_NAME = {Suit.ESPADA: "espada", Suit.BASTO: "basto", Suit.ORO: "oro", Suit.COPA: "copa"}
SUIT_STYLE = {
    Suit.ESPADA: "bold #ffffff on #1f4e9c",
    Suit.BASTO: "bold #ffffff on #2e7d32",
    Suit.ORO: "bold #000000 on #f2b705",
    Suit.COPA: "bold #ffffff on #c62828",
}
SAY = {
    Verb.TRUCO: "¡Truco!",
    Verb.RETRUCO: "¡Quiero retruco!",
    Verb.VALE_CUATRO: "¡Quiero vale cuatro!",
    Verb.ENVIDO: "Envido",
    Verb.REAL_ENVIDO: "Real envido",
    Verb.FALTA_ENVIDO: "Falta envido",
    Verb.QUIERO: "Quiero",
    Verb.NO_QUIERO: "No quiero",
    Verb.MAZO: "Me voy al mazo",
    Verb.FLOR: "¡Flor!",
    Verb.CONTRAFLOR: "Contraflor",
    Verb.CONTRAFLOR_AL_RESTO: "Contraflor al resto",
    Verb.CON_FLOR_QUIERO: "Con flor quiero",
    Verb.CON_FLOR_ME_ACHICO: "Con flor me achico",
}
REASONS = {
    "envido": "envido",
    "envido-no-quiero": "envido no querido",
    "truco": "la mano",
    "truco-no-quiero": "truco no querido",
    "mazo": "mazo",
    "flor": "flor",
    "flor-no-quiero": "flor no querida",
}
TRUCO_NAMES = {2: "truco", 3: "retruco", 4: "vale cuatro"}
LABELS = {
    Verb.TRUCO: "truco",
    Verb.RETRUCO: "retruco",
    Verb.VALE_CUATRO: "vale cuatro",
    Verb.ENVIDO: "envido",
    Verb.REAL_ENVIDO: "real envido",
    Verb.FALTA_ENVIDO: "falta envido",
    Verb.QUIERO: "quiero",
    Verb.NO_QUIERO: "no quiero",
    Verb.MAZO: "mazo",
    Verb.FLOR: "flor",
    Verb.CONTRAFLOR: "contraflor",
    Verb.CONTRAFLOR_AL_RESTO: "contraflor al resto",
    Verb.CON_FLOR_QUIERO: "con flor quiero",
    Verb.CON_FLOR_ME_ACHICO: "con flor me achico",
}


def plain(markup: str) -> str:
    """The text of a line of markup, without its styles (for the line-based game)."""
    return Text.from_markup(markup).plain


def card(c: Card | None, *, long: bool = False) -> str:
    """A card as coloured markup: `` 7 oro `` (``long``) or `` 7o ``; None is a face-down card."""
    if c is None:
        return "[reverse] ?? [/]"
    name = f"{c.rank} {SUIT_NAME[c.suit]}" if long else str(c)
    return f"[{SUIT_STYLE[c.suit]}] {name} [/]"

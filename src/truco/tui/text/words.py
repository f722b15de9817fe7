"""The terminal clients' words: cards, suits, calls, the reasons points are scored.

Spanish table words (``¡Quiero retruco!``, ``envido no querido``) as Rich markup; ``plain``
strips the styles for the line-based game.
"""

from __future__ import annotations

from rich.text import Text

import truco.tui.text.paulista as paulista
from truco.actions import Action, Verb
from truco.cards import Card, Suit
from truco.state import TRICK_NAMES

SUIT_NAME = {Suit.ESPADA: "espada", Suit.BASTO: "basto", Suit.ORO: "oro", Suit.COPA: "copa"}
SUIT_STYLE = {
    Suit.ESPADA: "bold #ffffff on #1f4e9c",
    Suit.BASTO: "bold #ffffff on #2e7d32",
    Suit.ORO: "bold #000000 on #f2b705",
    Suit.COPA: "bold #ffffff on #c62828",
}
SAY: dict[Verb, str] = {
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
    **{v: w for v, w in paulista.SAY.items() if v is not Verb.TRUCO},
}
REASONS = {
    "envido": "envido",
    "envido-no-quiero": "envido no querido",
    "truco": "la mano",
    "truco-no-quiero": "truco no querido",
    "mazo": "mazo",
    "flor": "flor",
    "flor-no-quiero": "flor no querida",
    "mao-de-onze": "mão de onze corrida",
}
LABELS: dict[Verb, str] = {
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
    **{v: w for v, w in paulista.LABELS.items() if v is not Verb.TRUCO},
}


def call_label(verb: Verb, *, french: bool = False) -> str:
    """A call by its name, as a score's reason or a hand's story says it: ``retruco``, ``real
    envido``; ``french``, at a Paulista table: ``seis``."""
    return (paulista.LABELS if french else LABELS).get(verb, verb.value)


TRUCO_NAMES: dict[int, str] = {
    level: LABELS[v] for v in Verb if (level := v.truco_level) is not None
}
"""An Argentine truco by the level it is accepted at (``Verb.truco_level``)."""


NICKNAMES = {
    Card.of(1, Suit.ESPADA): "ancho de espada",
    Card.of(1, Suit.BASTO): "ancho de basto",
    Card.of(1, Suit.ORO): "ancho falso",
    Card.of(1, Suit.COPA): "ancho falso",
}
"""The cards a table calls by name; the 1 of oro and of copa are the anchos falsos."""
SENA_WORDS = {
    "ancho-espada": "ancho de espada",
    "ancho-basto": "ancho de basto",
    "siete-espada": "siete de espada",
    "siete-oro": "siete de oro",
    "tres": "un tres",
    "dos": "un dos",
    "ancho-falso": "ancho falso",
    "nada": "nada",
    "envido-alto": "envido alto",
    "flor": "flor",
}
"""What each seña says, as the log writes it."""


def sena_line(name: str, sena: str) -> str:
    """A partner's seña, for the log (plain text: the name is what a person typed)."""
    return f"{name} te hace una seña: {SENA_WORDS.get(sena, sena)}"


CARD_VERBS = {Verb.PLAY: "jugar", Verb.TAPADA: "tapar", Verb.DISCARD: "descartar"}
"""What doing something with a card is called, in the line-based game's menu."""


def card_words(c: Card | None) -> str:
    """A card in words: ``el 7 de oro``, ``el 1 de espada (ancho de espada)``."""
    if c is None:
        return "una carta tapada"
    name = f"el {c.rank} de {SUIT_NAME[c.suit]}"
    nickname = NICKNAMES.get(c)
    return f"{name} ({nickname})" if nickname else name


def cards_words(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards in words, as a list is said: ``el 4 de copa, el 7 de oro y el 12 de basto``."""
    said = [card_words(c) for c in cards]
    return " y ".join([", ".join(said[:-1]), said[-1]]) if len(said) > 1 else "".join(said)


def trick_name(trick: int) -> str:
    """A trick by its table name, from 0: ``primera``, ``segunda``, ``tercera``."""
    return TRICK_NAMES[trick] if trick < len(TRICK_NAMES) else f"baza {trick + 1}"


def action_words(action: Action, *, french: bool = False) -> str:
    """An action as the player says it: ``jugar el 12 de espada``, ``tapar el 4 de copa``,
    ``truco``, ``me voy al mazo``; ``french``, at a Paulista table: ``jogar 7 de copas``."""
    if french and action.verb in paulista.CARD_VERBS and action.card is not None:
        return f"{paulista.CARD_VERBS[action.verb]} {paulista.card_words(action.card)}"
    if action.verb in CARD_VERBS:
        return f"{CARD_VERBS[action.verb]} {card_words(action.card)}"
    if action.verb is Verb.MAZO:
        return SAY[Verb.MAZO].lower()
    return LABELS[action.verb]


def plain(markup: str) -> str:
    """The text of a line of markup, without its styles (for the line-based game)."""
    return Text.from_markup(markup).plain


def card(c: Card | None, *, long: bool = False) -> str:
    """A card as coloured markup: `` 7 oro `` (``long``) or `` 7o ``; None is a face-down card."""
    if c is None:
        return "[reverse] ?? [/]"
    name = f"{c.rank} {SUIT_NAME[c.suit]}" if long else str(c)
    return f"[{SUIT_STYLE[c.suit]}] {name} [/]"

"""Actions: what a seat can do. ``str(action)`` is its notation (``play 1e``, ``truco``...).

An action does not name its seat: it is applied for the seat that is to act. Every distinct
action is one shared value (``PLAY[card]``, ``TRUCO``...), so comparing and hashing are cheap.
"""

from __future__ import annotations

from enum import Enum
from typing import Final, NamedTuple

from truco.cards import DECK, Card
from truco.errors import NotationError


class Verb(str, Enum):
    """The verbs of the notation."""

    PLAY = "play"
    TAPADA = "tapada"
    TRUCO = "truco"
    RETRUCO = "retruco"
    VALE_CUATRO = "vale-cuatro"
    ENVIDO = "envido"
    REAL_ENVIDO = "real-envido"
    FALTA_ENVIDO = "falta-envido"
    QUIERO = "quiero"
    NO_QUIERO = "no-quiero"
    MAZO = "mazo"
    FLOR = "flor"
    CONTRAFLOR = "contraflor"
    CONTRAFLOR_AL_RESTO = "contraflor-al-resto"
    CON_FLOR_QUIERO = "con-flor-quiero"
    CON_FLOR_ME_ACHICO = "con-flor-me-achico"
    DISCARD = "discard"
    # Truco Paulista (truco.paulista): the raises after truco, the answers to a call (desce:
    # accepted; corre: run, the callers score the value before it), and the side at 11's
    # decision on the mão de onze (joga: play it for 3; corre: run, the rivals score 1).
    SEIS = "seis"
    NOVE = "nove"
    DOZE = "doze"
    DESCE = "desce"
    CORRE = "corre"
    JOGA = "joga"
    # A blind mão de ferro (mao_de_ferro="cega"): play one's next card in the order dealt,
    # unseen. It names no card, so the card never reaches the player before it is on the table.
    CEGA = "cega"

    def __str__(self) -> str:
        return self.value

    @property
    def truco_level(self) -> int | None:
        """What an Argentine hand is worth once this truco call is accepted (truco 2, retruco 3,
        vale cuatro 4); None for every other verb."""
        return _TRUCO_LEVEL.get(self)

    @property
    def paulista_value(self) -> int | None:
        """What a hand of Truco Paulista is worth once this call is accepted (truco 3, seis 6,
        nove 9, doze 12); None for every other verb."""
        return _PAULISTA_VALUE.get(self)


# The one statement of each chain's values: everything else (the engine, the words, the wire's
# generated constants) derives from these through ``Verb.truco_level`` and
# ``Verb.paulista_value``.
_TRUCO_LEVEL: Final[dict[Verb, int]] = {Verb.TRUCO: 2, Verb.RETRUCO: 3, Verb.VALE_CUATRO: 4}
_PAULISTA_VALUE: Final[dict[Verb, int]] = {Verb.TRUCO: 3, Verb.SEIS: 6, Verb.NOVE: 9, Verb.DOZE: 12}
PAULISTA_HAND_VALUE: Final = 1
"""What a hand of Truco Paulista is worth when no truco is accepted."""


class Action:
    """A verb, and the card for ``play``, ``tapada`` and ``discard`` (None there: a card not
    seen).

    Actions are interned: ``Action(verb, card)`` always returns the one shared value for that
    pair, so they compare and hash by identity, which keeps the engine's legality check cheap.
    """

    __slots__ = ("card", "text", "verb")
    verb: Verb
    card: Card | None
    text: str
    """The notation, made once (``str(action)``)."""

    def __new__(cls, verb: Verb | str, card: Card | int | str | None = None) -> Action:
        found = _INTERNED.get((verb, card))  # type: ignore[arg-type]
        if found is not None:
            return found
        verb = Verb(verb)
        takes_card = verb in _CARD_VERBS
        if card is not None and not takes_card:
            raise NotationError(f"{verb.value} takes no card")
        the_card = (
            None if card is None else (Card.parse(card) if isinstance(card, str) else DECK[card])
        )
        key = (verb, the_card)
        if key not in _INTERNED:
            action = object.__new__(cls)
            object.__setattr__(action, "verb", verb)
            object.__setattr__(action, "card", the_card)
            text = verb.value
            if takes_card:
                text = f"{text} {'??' if the_card is None else the_card}"
            object.__setattr__(action, "text", text)
            _INTERNED[key] = action
        return _INTERNED[key]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(self) -> tuple[type[Action], tuple[Verb, Card | None]]:
        return (Action, (self.verb, self.card))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action such as ``"play 7o"`` or ``"real-envido"``."""
        words = text.split()
        if not words:
            raise NotationError("empty action")
        verb = _VERBS.get(words[0].lower())
        if verb is None:
            raise NotationError(f"unknown verb {words[0]!r} in {text!r}")
        if verb in _CARD_VERBS:
            if len(words) != 2:
                raise NotationError(
                    f"{verb.value} takes one card, as in '{verb.value} 1e': {text!r}"
                )
            card = Card.parse(words[1])
            return _BY_CARD[verb][card]
        if len(words) != 1:
            raise NotationError(f"{verb.value} takes no argument: {text!r}")
        return SIMPLE[verb]


_INTERNED: dict[tuple[Verb, Card | None], Action] = {}
_VERBS = {v.value: v for v in Verb}
_CARD_VERBS = frozenset((Verb.PLAY, Verb.TAPADA, Verb.DISCARD))

PLAY: tuple[Action, ...] = tuple(Action(Verb.PLAY, c) for c in DECK)
TAPADA: tuple[Action, ...] = tuple(Action(Verb.TAPADA, c) for c in DECK)
DISCARD: tuple[Action, ...] = tuple(Action(Verb.DISCARD, c) for c in DECK)
"""Pata de gallo: the pie puts one of his four cards away."""
_BY_CARD = {Verb.PLAY: PLAY, Verb.TAPADA: TAPADA, Verb.DISCARD: DISCARD}
SIMPLE: dict[Verb, Action] = {v: Action(v) for v in Verb if v not in _CARD_VERBS}

TRUCO = SIMPLE[Verb.TRUCO]
RETRUCO = SIMPLE[Verb.RETRUCO]
VALE_CUATRO = SIMPLE[Verb.VALE_CUATRO]
ENVIDO = SIMPLE[Verb.ENVIDO]
REAL_ENVIDO = SIMPLE[Verb.REAL_ENVIDO]
FALTA_ENVIDO = SIMPLE[Verb.FALTA_ENVIDO]
QUIERO = SIMPLE[Verb.QUIERO]
NO_QUIERO = SIMPLE[Verb.NO_QUIERO]
MAZO = SIMPLE[Verb.MAZO]
FLOR = SIMPLE[Verb.FLOR]
CONTRAFLOR = SIMPLE[Verb.CONTRAFLOR]
CONTRAFLOR_AL_RESTO = SIMPLE[Verb.CONTRAFLOR_AL_RESTO]
CON_FLOR_QUIERO = SIMPLE[Verb.CON_FLOR_QUIERO]
CON_FLOR_ME_ACHICO = SIMPLE[Verb.CON_FLOR_ME_ACHICO]
SEIS = SIMPLE[Verb.SEIS]
NOVE = SIMPLE[Verb.NOVE]
DOZE = SIMPLE[Verb.DOZE]
DESCE = SIMPLE[Verb.DESCE]
CORRE = SIMPLE[Verb.CORRE]
JOGA = SIMPLE[Verb.JOGA]
CEGA = SIMPLE[Verb.CEGA]

TRUCO_LEVEL: dict[Action, int] = {
    a: level for a in (TRUCO, RETRUCO, VALE_CUATRO) if (level := a.verb.truco_level)
}
# The truco call that raises the bet from each accepted level (1 = no truco yet): each call is
# one level above the one it raises.
TRUCO_RAISE: dict[int, Action] = {level - 1: a for a, level in TRUCO_LEVEL.items()}
TRUCO_TOP: Final = max(_TRUCO_LEVEL.values())
"""The highest truco level (vale cuatro's): nothing raises it."""
ENVIDO_CALLS = (ENVIDO, REAL_ENVIDO, FALTA_ENVIDO)


def play(card: Card | str, *, face_down: bool = False) -> Action:
    """The action of playing ``card`` (face down when ``face_down``)."""
    c = Card.parse(card) if isinstance(card, str) else card
    return TAPADA[c] if face_down else PLAY[c]


class Deal(NamedTuple):
    """The chance step: the cards each seat receives, seat by seat, and in Truco Paulista (with
    the manilhas of the vira) the card turned up, the vira."""

    hands: tuple[tuple[Card, ...], ...]
    vira: Card | None = None

    def __str__(self) -> str:
        text = "deal " + " | ".join(" ".join(str(c) for c in h) for h in self.hands)
        return text if self.vira is None else f"{text} vira {self.vira}"

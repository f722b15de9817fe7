"""Legality, and the reason for each refusal: the one statement of the game's conditions.

``refusal(s, action)`` is the rule: ``None`` when the Argentine game (its rooms ``argentino``,
``pata_de_gallo``, ``pica_pica``, ``destantado``) allows ``action`` now, else the ``Refusal``
that forbids it, the first in the order a player would be told. Truco Paulista's rule is
``paulista.refusal``, on the same codes. ``explain`` only puts a code into words.

Each room's ``legal_of`` is the fast form of its rule, for the hot path: memo tables built once,
read with these predicates; the engine stores its result in each state it makes, so
``engine.legal_actions`` is a field read, and the UI's buttons, the server's validation and the
bots all read it. A test holds the two forms to the same actions in every state it reaches
(``tests/test_legal.py``).

Every function takes a state during a hand, or the engine's list copy of one (both index the
same fields).
"""

from __future__ import annotations

from enum import Enum, auto
from typing import Final

from truco import envido as tantos
from truco.actions import TRUCO_LEVEL, TRUCO_TOP, Action, Verb
from truco.state import (
    DISCARD_KIND,
    ENVIDO_KIND,
    F_BETTORS,
    F_CHAIN,
    F_ENVIDO_OPEN,
    F_FLOR_CHAIN,
    F_FLOR_DONE,
    F_FLORES,
    F_HANDS,
    F_OWNER,
    F_PLAYS,
    F_RULES,
    F_SCORE,
    F_TANTO_CALL,
    F_TEAMS,
    F_TRICK,
    F_TRUCO,
    F_TRUCO_CALL,
    F_TURN,
    FLOR_KIND,
    StateLike,
    seat_to_act,
)
from truco.variants import start_score

__all__ = [
    "Refusal",
    "can_raise_truco",
    "envido_allowed",
    "envido_primero_allowed",
    "falta_counts",
    "has_played",
    "must_sing_flor",
    "refusal",
    "seat_to_act",
    "tapada_allowed",
    "within_window",
]

_FIRST_TRUCO: Final = Verb.TRUCO.truco_level or 0
"""The level of the first truco call, the one el envido está primero answers."""
_FALTA_ENVIDO_V: Final = Verb.FALTA_ENVIDO
"""Final: kept in a C variable by the compiled code, where ``Verb.FALTA_ENVIDO`` is an attribute
lookup on an interpreted class."""


def within_window(until: str, played: int) -> bool:
    """``envido_until`` other than own_card: before the trick's first card, or its second."""
    return played == 0 or (until == "second_card" and played == 1)


def falta_counts(s: StateLike) -> bool:
    """Whether a falta envido may be called at all: not in the match's first hand (while every
    score is still at its start) when the table plays ``no_falta_first_hand``."""
    rules = s[F_RULES]
    if not rules.no_falta_first_hand:
        return True
    start = start_score(rules)
    for points in s[F_SCORE]:
        if points != start:
            return True
    return False


def must_sing_flor(s: StateLike, seat: int) -> bool:
    """A seat holding flor must sing it before anything else, unless the flor is settled."""
    if s[F_FLORES][seat] < 0 or s[F_FLOR_DONE] or s[F_TRICK]:
        return False
    call = s[F_TANTO_CALL]
    return call is None or bool(call[0] == ENVIDO_KIND)


def tapada_allowed(s: StateLike) -> bool:
    mode: str = s[F_RULES].tapada
    return mode == "always" or (mode == "from_second" and bool(s[F_TRICK]))


def can_raise_truco(s: StateLike, seat: int) -> bool:
    """Before any truco either side may call; later only the side that accepted the last bet."""
    owner = s[F_OWNER]
    return bool(s[F_TRUCO] < TRUCO_TOP and (owner < 0 or owner == s[F_TEAMS][seat]))


def has_played(s: StateLike, seat: int) -> bool:
    """Whether ``seat`` already played a card in the current trick."""
    for play in s[F_PLAYS]:
        if play[0] == seat:
            return True
    return False


def envido_allowed(s: StateLike, seat: int, verb: Verb = Verb.ENVIDO) -> bool:
    """An envido call (``verb``) on one's turn: first trick, before one's own card (or the
    window of ``envido_until``; a falta, that of ``falta_until``), never after a truco
    accepted, and a falta only where it counts."""
    if not s[F_ENVIDO_OPEN] or s[F_TRICK] or s[F_TRUCO] > 1 or seat != s[F_TURN]:
        return False
    rules = s[F_RULES]
    if verb is _FALTA_ENVIDO_V:
        if not falta_counts(s):
            return False
        if rules.falta_until == "first_trick":
            return True
    until = rules.envido_until
    return until == "own_card" or within_window(until, len(s[F_PLAYS]))


def envido_primero_allowed(s: StateLike, seat: int) -> bool:
    """'El envido está primero': an envido as the answer to the first truco of the first trick
    (destantado adds its own condition: ``Destantado.primero_allowed``)."""
    mode = s[F_RULES].envido_primero
    call = s[F_TRUCO_CALL]
    if mode == "off" or call is None or call[0] != _FIRST_TRUCO:
        return False
    if not s[F_ENVIDO_OPEN] or s[F_TRICK] or s[F_TRUCO] > 1:
        return False
    return mode == "first_trick" or not has_played(s, seat)


class Refusal(Enum):
    """Why an action is not legal now: one code per rule (``explain`` has their words)."""

    MATCH_OVER = auto()
    NOT_DEALT = auto()
    PAULISTA_VERB = auto()
    NOT_HELD = auto()
    PIE_MUST_DISCARD = auto()
    ONLY_PIE_DISCARDS = auto()
    NO_FALTA_FIRST_HAND = auto()
    FLOR_WAITS = auto()
    ENVIDO_WAITS = auto()
    ENVIDO_WAITS_EACH = auto()
    MUST_SING_FLOR = auto()
    TRUCO_WAITS = auto()
    TAPADA_OFF = auto()
    TAPADA_FROM_SECOND = auto()
    RAISE_ONE_LEVEL = auto()
    AT_VALE_CUATRO = auto()
    NOT_TRUCO_OWNER = auto()
    NEXT_LEVEL = auto()
    PRIMERO_ACCEPTED = auto()
    FLOR_SUNG = auto()
    ENVIDO_PLAYED = auto()
    ENVIDO_FIRST_TRICK = auto()
    ENVIDO_AFTER_TRUCO = auto()
    PRIMERO_OFF = auto()
    PRIMERO_RAISE = auto()
    PRIMERO_OWN_CARD = auto()
    ENVIDO_FIRST_CARD = auto()
    ENVIDO_SECOND_CARD = auto()
    ENVIDO_OWN_CARD = auto()
    NOTHING_TO_ANSWER = auto()
    NO_MAZO_ANSWER = auto()
    NO_FLOR_TABLE = auto()
    NO_FLOR_HELD = auto()
    FLOR_PASSED = auto()
    NO_FLOR_TO_ANSWER = auto()
    NOT_NOW = auto()
    # Truco Paulista's (``paulista.refusal``).
    ONZE_DECIDE = auto()
    NO_ONZE = auto()
    CALL_WAITS = auto()
    NOT_BLIND = auto()
    BLIND = auto()
    FACE_DOWN_OFF = auto()
    NO_TRUCO_AT_ELEVEN = auto()
    AT_DOZE = auto()
    NOT_CALL_OWNER = auto()
    NO_RAISE_TO_WIN = auto()
    NEXT_CALL = auto()
    NOT_IN_PAULISTA = auto()


PAULISTA_VERBS: Final = frozenset(
    [v for v in Verb if v.paulista_value is not None and v.truco_level is None]
    + [Verb.DESCE, Verb.CORRE, Verb.JOGA, Verb.CEGA]
)
"""The verbs said only in Truco Paulista: its raises, its answers, joga and cega."""
_TRUCO_LEVEL_OF: Final = {action.verb: level for action, level in TRUCO_LEVEL.items()}
_ENVIDO_VERBS: Final = frozenset((Verb.ENVIDO, Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO))
_FLOR_ANSWERS: Final = {
    Verb.FLOR: frozenset(
        (Verb.CON_FLOR_QUIERO, Verb.CON_FLOR_ME_ACHICO, Verb.CONTRAFLOR, Verb.CONTRAFLOR_AL_RESTO)
    ),
    Verb.CONTRAFLOR: frozenset((Verb.QUIERO, Verb.NO_QUIERO, Verb.CONTRAFLOR_AL_RESTO)),
    Verb.CONTRAFLOR_AL_RESTO: frozenset((Verb.QUIERO, Verb.NO_QUIERO)),
}
"""The answers to a flor, by the last flor call."""
_FLOR_ANSWER_VERBS: Final = frozenset(
    (Verb.CONTRAFLOR, Verb.CONTRAFLOR_AL_RESTO, Verb.CON_FLOR_QUIERO, Verb.CON_FLOR_ME_ACHICO)
)


def refusal(s: StateLike, action: Action, *, own_side: bool = False) -> Refusal | None:
    """None when the Argentine game allows ``action`` for the seat to act now, else why not.
    ``own_side``: each player answers for himself (destantado)."""
    seat = seat_to_act(s)
    verb = action.verb
    if verb in PAULISTA_VERBS:
        return Refusal.PAULISTA_VERB
    call = s[F_TANTO_CALL]
    if call is not None and call[0] == DISCARD_KIND:
        if verb is Verb.DISCARD:
            return None if action.card in s[F_HANDS][seat] else Refusal.NOT_HELD
        return Refusal.PIE_MUST_DISCARD
    if verb is Verb.DISCARD:
        return Refusal.ONLY_PIE_DISCARDS
    if verb is Verb.FALTA_ENVIDO and not falta_counts(s):
        return Refusal.NO_FALTA_FIRST_HAND
    if call is not None and verb is not Verb.FLOR:
        if call[0] == FLOR_KIND:
            return None if verb in _FLOR_ANSWERS[s[F_FLOR_CHAIN][-1]] else Refusal.FLOR_WAITS
        answers = tantos.chain_calls_allowed(s[F_CHAIN])
        if not must_sing_flor(s, seat) and (
            verb is Verb.QUIERO or verb is Verb.NO_QUIERO or verb in answers
        ):
            return None
        return Refusal.ENVIDO_WAITS_EACH if own_side else Refusal.ENVIDO_WAITS
    if must_sing_flor(s, seat):
        return None if verb is Verb.FLOR else Refusal.MUST_SING_FLOR
    rules = s[F_RULES]
    if verb is Verb.FLOR:
        if not rules.flor:
            return Refusal.NO_FLOR_TABLE
        return Refusal.NO_FLOR_HELD if s[F_FLORES][seat] < 0 else Refusal.FLOR_PASSED
    pending = s[F_TRUCO_CALL]
    if verb is Verb.PLAY or verb is Verb.TAPADA:
        if pending is not None:
            return Refusal.TRUCO_WAITS
        if action.card not in s[F_HANDS][seat]:
            return Refusal.NOT_HELD
        if verb is Verb.TAPADA and not tapada_allowed(s):
            return Refusal.TAPADA_OFF if rules.tapada == "off" else Refusal.TAPADA_FROM_SECOND
        return None
    level = _TRUCO_LEVEL_OF.get(verb)
    if level is not None:
        if pending is not None:
            return None if level == pending[0] + 1 else Refusal.RAISE_ONE_LEVEL
        if s[F_TRUCO] == TRUCO_TOP:
            return Refusal.AT_VALE_CUATRO
        if not can_raise_truco(s, seat):
            return Refusal.NOT_TRUCO_OWNER
        return None if level == s[F_TRUCO] + 1 else Refusal.NEXT_LEVEL
    if verb in _ENVIDO_VERBS:
        return _envido_refusal(s, seat, verb, own_side)
    if verb is Verb.QUIERO or verb is Verb.NO_QUIERO:
        return None if pending is not None else Refusal.NOTHING_TO_ANSWER
    if verb is Verb.MAZO:
        return Refusal.NO_MAZO_ANSWER if pending is not None and own_side else None
    if verb in _FLOR_ANSWER_VERBS:
        return Refusal.NO_FLOR_TO_ANSWER
    return Refusal.NOT_NOW


def _envido_refusal(s: StateLike, seat: int, verb: Verb, own_side: bool) -> Refusal | None:
    """An envido call when no envido or flor waits: on one's turn, or el envido está primero."""
    pending = s[F_TRUCO_CALL]
    if own_side and pending is not None and s[F_BETTORS] != 1 << pending[1]:
        return Refusal.PRIMERO_ACCEPTED
    if s[F_FLOR_CHAIN]:
        return Refusal.FLOR_SUNG
    if not s[F_ENVIDO_OPEN]:
        return Refusal.ENVIDO_PLAYED
    if s[F_TRICK]:
        return Refusal.ENVIDO_FIRST_TRICK
    if s[F_TRUCO] > 1:
        return Refusal.ENVIDO_AFTER_TRUCO
    rules = s[F_RULES]
    if pending is not None:
        if envido_primero_allowed(s, seat):
            return None
        if rules.envido_primero == "off":
            return Refusal.PRIMERO_OFF
        if pending[0] != _FIRST_TRUCO:
            return Refusal.PRIMERO_RAISE
        return Refusal.PRIMERO_OWN_CARD
    if envido_allowed(s, seat, verb):
        return None
    if rules.envido_until == "first_card":
        return Refusal.ENVIDO_FIRST_CARD
    if rules.envido_until == "second_card":
        return Refusal.ENVIDO_SECOND_CARD
    return Refusal.ENVIDO_OWN_CARD

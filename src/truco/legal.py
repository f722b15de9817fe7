"""The Argentine game's legality predicates: the conditions its calls are allowed under.

Each room's ``legal_of`` (``argentino``, ``pata_de_gallo``, ``destantado``, ``paulista``) builds
the seat to act's actions from these and its memo tables; the engine stores the result in each
state it makes, so ``engine.legal_actions`` is a field read, and the UI's buttons, the server's
validation and the bots all read it. ``explain`` uses these same predicates to say why not.

Every predicate takes a state during a hand, or the engine's list copy of one (both index the
same fields), and knows no variant.
"""

from __future__ import annotations

from truco.actions import TRUCO_TOP, Verb
from truco.state import (
    ENVIDO_KIND,
    F_ENVIDO_OPEN,
    F_FLOR_DONE,
    F_FLORES,
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
    StateLike,
    seat_to_act,
)
from truco.variants import start_score

__all__ = [
    "can_raise_truco",
    "envido_allowed",
    "envido_primero_allowed",
    "falta_counts",
    "has_played",
    "must_sing_flor",
    "seat_to_act",
    "tapada_allowed",
    "within_window",
]

_FIRST_TRUCO: int = Verb.TRUCO.truco_level or 0
"""The level of the first truco call, the one el envido está primero answers."""


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
    if verb is Verb.FALTA_ENVIDO:
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

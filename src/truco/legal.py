"""Legality: what the seat to act may do. The one source of it for the whole program.

``legal_of`` takes a state during a hand, or the engine's list copy of one (both index the same
fields), and returns the actions in a fixed order. The engine stores the result in each state it
makes, so ``engine.legal_actions`` is a field read; the UI's buttons, the server's validation and
the bots all read it. The predicates below are also what ``explain`` uses to say why not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from truco import envido as tantos
from truco import paulista
from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CON_FLOR_QUIERO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    DISCARD,
    ENVIDO,
    ENVIDO_CALLS,
    FALTA_ENVIDO,
    FLOR,
    MAZO,
    NO_QUIERO,
    PLAY,
    QUIERO,
    REAL_ENVIDO,
    SIMPLE,
    TAPADA,
    TRUCO_RAISE,
    Action,
    Verb,
)
from truco.cards import Card
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
)
from truco.variants import OWN_SIDE, PAULISTA, start_score

StateLike = Sequence[Any]
"""A State, or the engine's list copy of one."""


def seat_to_act(s: StateLike) -> int:
    """During a hand: the responder of a pending envido/flor, else of a truco, else the turn."""
    call = s[F_TANTO_CALL]
    if call is not None:
        return int(call[2])
    call = s[F_TRUCO_CALL]
    return int(call[2]) if call is not None else int(s[F_TURN])


def legal_of(s: StateLike) -> tuple[Action, ...]:
    """The legal actions of the seat to act, during a hand."""
    if s[F_RULES].variant in PAULISTA:
        return paulista.legal_of(s)
    call = s[F_TANTO_CALL]
    truco_call = s[F_TRUCO_CALL]
    seat = call[2] if call is not None else (truco_call[2] if truco_call else s[F_TURN])
    if call is not None:
        kind = call[0]
        if kind == FLOR_KIND:
            return _FLOR_ANSWERS[s[F_FLOR_CHAIN][-1]]
        if kind == DISCARD_KIND:
            return tuple([DISCARD[c] for c in s[F_HANDS][seat]])
        if s[F_FLORES][seat] >= 0 and must_sing_flor(s, seat):
            return (FLOR,)
        answers = _ENVIDO_ANSWERS[s[F_CHAIN]]
        return answers if falta_counts(s) else _without_falta(answers)
    if s[F_FLORES][seat] >= 0 and must_sing_flor(s, seat):
        return (FLOR,)
    if truco_call is not None:
        primero = envido_primero_allowed(s, seat)
        if s[F_RULES].variant in OWN_SIDE:
            answers = _DESTANTADO_TRUCO_ANSWERS[truco_call[0], primero]
        else:
            answers = _TRUCO_ANSWERS[truco_call[0], primero]
        return answers if not primero or falta_counts(s) else _without_falta(answers)
    hand = s[F_HANDS][seat]
    trick = s[F_TRICK]
    rules = s[F_RULES]
    tapada = rules.tapada
    if (trick and tapada != "off") or tapada == "always":
        cards = _PLAYS_AND_TAPADAS.get(hand) or _cards_actions(hand, True)
    else:
        cards = _PLAYS_OF.get(hand) or _cards_actions(hand, False)
    truco = s[F_TRUCO]
    owner = s[F_OWNER]
    can_raise = truco < 4 and (owner < 0 or owner == s[F_TEAMS][seat])
    # The seat whose turn it is to play has not played in this trick yet.
    envido = _NO_ENVIDO
    if s[F_ENVIDO_OPEN] and not trick and truco == 1:
        until = rules.envido_until
        if until == "own_card" or _within_window(until, len(s[F_PLAYS])):
            envido = _ALL_ENVIDO
        elif rules.falta_until == "first_trick":
            envido = _FALTA_ONLY
        if rules.no_falta_first_hand and envido != _NO_ENVIDO and not falta_counts(s):
            envido = _NO_FALTA if envido == _ALL_ENVIDO else _NO_ENVIDO
    return cards + _CALLS[truco if can_raise else 0][envido]


def _within_window(until: str, played: int) -> bool:
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


def _without_falta(actions: tuple[Action, ...]) -> tuple[Action, ...]:
    return tuple([a for a in actions if a is not FALTA_ENVIDO])


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
    return bool(s[F_TRUCO] < 4 and (owner < 0 or owner == s[F_TEAMS][seat]))


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
    return until == "own_card" or _within_window(until, len(s[F_PLAYS]))


def envido_primero_allowed(s: StateLike, seat: int) -> bool:
    """'El envido está primero': an envido as the answer to the first truco of the first trick."""
    mode = s[F_RULES].envido_primero
    call = s[F_TRUCO_CALL]
    if mode == "off" or call is None or call[0] != 2:
        return False
    if not s[F_ENVIDO_OPEN] or s[F_TRICK] or s[F_TRUCO] > 1:
        return False
    if s[F_RULES].variant in OWN_SIDE and s[F_BETTORS] != 1 << call[1]:
        return False  # a player already accepted the truco: the envido is no longer first
    return mode == "first_trick" or not has_played(s, seat)


# Memo tables for legal_of: the answers to each call, and the card actions of each held hand.
_FLOR_ANSWERS = {
    Verb.FLOR: (CON_FLOR_QUIERO, CON_FLOR_ME_ACHICO, CONTRAFLOR, CONTRAFLOR_AL_RESTO),
    Verb.CONTRAFLOR: (QUIERO, NO_QUIERO, CONTRAFLOR_AL_RESTO),
    Verb.CONTRAFLOR_AL_RESTO: (QUIERO, NO_QUIERO),
}
_ENVIDO_ANSWERS: dict[tuple[Verb, ...], tuple[Action, ...]] = {}
_TRUCO_ANSWERS: dict[tuple[int, bool], tuple[Action, ...]] = {}
_DESTANTADO_TRUCO_ANSWERS: dict[tuple[int, bool], tuple[Action, ...]] = {}
"""Destantado answers a truco as team play does, but without the mazo: no quiero already leaves
the hand for nothing, where the mazo would lose what one was in for."""
# Which envido calls a seat may make on his turn (the second index of ``_CALLS``).
_NO_ENVIDO: Final = 0
_ALL_ENVIDO: Final = 1
_NO_FALTA: Final = 2
_FALTA_ONLY: Final = 3
_ENVIDO_SETS: tuple[tuple[Action, ...], ...] = (
    (),
    ENVIDO_CALLS,
    (ENVIDO, REAL_ENVIDO),
    (FALTA_ENVIDO,),
)
_CALLS: list[list[tuple[Action, ...]]] = [[(), (), (), ()] for _ in range(4)]
_PLAYS_OF: dict[tuple[Card, ...], tuple[Action, ...]] = {}
_PLAYS_AND_TAPADAS: dict[tuple[Card, ...], tuple[Action, ...]] = {}


def _fill_tables() -> None:
    chains: list[tuple[Verb, ...]] = [()]
    for chain in chains:
        for verb in tantos.chain_calls_allowed(chain):
            chains.append((*chain, verb))
    for chain in chains[1:]:
        raises = tuple(SIMPLE[v] for v in tantos.chain_calls_allowed(chain))
        _ENVIDO_ANSWERS[chain] = (QUIERO, NO_QUIERO, *raises)
    for level in (2, 3, 4):
        for primero in (False, True):
            answers = [QUIERO, NO_QUIERO]
            if level < 4:
                answers.append(TRUCO_RAISE[level])
            if primero:
                answers.extend(ENVIDO_CALLS)
            _TRUCO_ANSWERS[level, primero] = (*answers, MAZO)
            _DESTANTADO_TRUCO_ANSWERS[level, primero] = tuple(answers)
    for raise_from in (0, 1, 2, 3):
        for envido, envido_calls in enumerate(_ENVIDO_SETS):
            calls = [TRUCO_RAISE[raise_from]] if raise_from else []
            calls.extend(envido_calls)
            _CALLS[raise_from][envido] = (*calls, MAZO)


def _cards_actions(hand: tuple[Card, ...], tapadas: bool) -> tuple[Action, ...]:
    plays = tuple(PLAY[c] for c in hand)
    if tapadas:
        plays += tuple(TAPADA[c] for c in hand)
        if hand:
            _PLAYS_AND_TAPADAS[hand] = plays
    elif hand:
        _PLAYS_OF[hand] = plays
    return plays


_fill_tables()

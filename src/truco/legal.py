"""Legality: what the seat to act may do. The one source of it for the whole program.

``legal_of`` takes a state during a hand, or the engine's list copy of one (both index the same
fields), and returns the actions in a fixed order. The engine stores the result in each state it
makes, so ``engine.legal_actions`` is a field read; the UI's buttons, the server's validation and
the bots all read it. The predicates below are also what ``explain`` uses to say why not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from truco import envido as tantos
from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CON_FLOR_QUIERO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    DISCARD,
    ENVIDO_CALLS,
    FLOR,
    MAZO,
    NO_QUIERO,
    PLAY,
    QUIERO,
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
    F_CHAIN,
    F_ENVIDO_OPEN,
    F_FLOR_CHAIN,
    F_FLOR_DONE,
    F_FLORES,
    F_HANDS,
    F_OWNER,
    F_PLAYS,
    F_RULES,
    F_TANTO_CALL,
    F_TEAMS,
    F_TRICK,
    F_TRUCO,
    F_TRUCO_CALL,
    F_TURN,
    FLOR_KIND,
)
from truco.variants import OWN_SIDE

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
        if s[F_RULES].variant in OWN_SIDE:
            return _YES_NO
        return _ENVIDO_ANSWERS[s[F_CHAIN]]
    if s[F_FLORES][seat] >= 0 and must_sing_flor(s, seat):
        return (FLOR,)
    if truco_call is not None:
        if s[F_RULES].variant in OWN_SIDE:
            return _YES_NO
        return _TRUCO_ANSWERS[truco_call[0], envido_primero_allowed(s, seat)]
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
    can_envido = (
        s[F_ENVIDO_OPEN]
        and not trick
        and truco == 1
        and (rules.envido_until == "own_card" or not s[F_PLAYS])
    )
    return cards + _CALLS[truco if can_raise else 0][1 if can_envido else 0]


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


def envido_allowed(s: StateLike, seat: int) -> bool:
    """Envido on one's turn: first trick, before one's own card, never after a truco accepted."""
    if not s[F_ENVIDO_OPEN] or s[F_TRICK] or s[F_TRUCO] > 1 or seat != s[F_TURN]:
        return False
    return s[F_RULES].envido_until == "own_card" or not s[F_PLAYS]


def envido_primero_allowed(s: StateLike, seat: int) -> bool:
    """'El envido está primero': an envido as the answer to the first truco of the first trick."""
    mode = s[F_RULES].envido_primero
    call = s[F_TRUCO_CALL]
    if mode == "off" or call is None or call[0] != 2:
        return False
    if not s[F_ENVIDO_OPEN] or s[F_TRICK] or s[F_TRUCO] > 1:
        return False
    return mode == "first_trick" or not has_played(s, seat)


# Memo tables for legal_of: the answers to each call, and the card actions of each held hand.
_YES_NO = (QUIERO, NO_QUIERO)
"""Destantado: each player answers a call for himself, without raising."""
_FLOR_ANSWERS = {
    Verb.FLOR: (CON_FLOR_QUIERO, CON_FLOR_ME_ACHICO, CONTRAFLOR, CONTRAFLOR_AL_RESTO),
    Verb.CONTRAFLOR: (QUIERO, NO_QUIERO, CONTRAFLOR_AL_RESTO),
    Verb.CONTRAFLOR_AL_RESTO: (QUIERO, NO_QUIERO),
}
_ENVIDO_ANSWERS: dict[tuple[Verb, ...], tuple[Action, ...]] = {}
_TRUCO_ANSWERS: dict[tuple[int, bool], tuple[Action, ...]] = {}
_CALLS: list[list[tuple[Action, ...]]] = [[(), ()] for _ in range(4)]
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
    for raise_from in (0, 1, 2, 3):
        for envido in (False, True):
            calls = [TRUCO_RAISE[raise_from]] if raise_from else []
            if envido:
                calls.extend(ENVIDO_CALLS)
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

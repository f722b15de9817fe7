"""The rules engine: who acts, what is legal, and applying an action.

``apply`` validates every action against ``legal_actions`` (one source of legality, computed in
``legal.py``) and returns a new state with the events it caused; it never changes its input.
Chance is explicit: ``deal`` draws a hand with an injected ``random.Random``.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import NamedTuple

from truco import destantado, effects, paulista
from truco.actions import Action, Deal, Verb
from truco.cards import (
    ALL_HANDS,
    DECK,
    HAND_ENVIDO,
    HAND_FLOR,
    HAND_MASK,
    Card,
    envido_points,
    flor_points,
)
from truco.errors import IllegalActionError
from truco.events import CardPlayed, CardsDealt, Event, HandStarted, ViraTurned
from truco.explain import why_not
from truco.legal import (
    can_raise_truco,
    envido_allowed,
    envido_primero_allowed,
    legal_of,
    must_sing_flor,
    seat_to_act,
    tapada_allowed,
)
from truco.manilhas import LIMPO_DECK
from truco.rules import Rules
from truco.state import (
    DEAL,
    DISCARD_KIND,
    F_HANDS,
    F_LEGAL,
    F_LOG,
    F_PHASE,
    F_PLAYS,
    F_RETIRED,
    F_RULES,
    F_TANTO_CALL,
    F_TEAMS,
    F_TRUCO_CALL,
    F_TURN,
    FLOR_KIND,
    OVER,
    State,
    Work,
    hand_teams,
)
from truco.state import (
    PLAY as PLAYING,
)
from truco.variants import OWN_SIDE, PAULISTA, PIE_ALONE, SIZED_DEAL, facing, pie_of

__all__ = [
    "CHANCE",
    "HAND_SIZE",
    "Outcome",
    "Transition",
    "apply",
    "can_raise_truco",
    "check",
    "deal",
    "envido_allowed",
    "envido_primero_allowed",
    "hand_sizes",
    "is_legal",
    "legal_actions",
    "must_sing_flor",
    "outcome",
    "tapada_allowed",
    "to_act",
]

CHANCE = -1
"""``to_act`` while a hand waits to be dealt."""

HAND_SIZE = 3

_new = tuple.__new__  # builds NamedTuples without their slower keyword constructor
_PLAY, _TAPADA, _MAZO, _FLOR = Verb.PLAY, Verb.TAPADA, Verb.MAZO, Verb.FLOR
_CEGA = Verb.CEGA
_N_HANDS = len(ALL_HANDS)


class Transition(NamedTuple):
    """The result of ``apply``: the new state and what happened, in order."""

    state: State
    events: tuple[Event, ...]


class Outcome(NamedTuple):
    """A finished match: the winning team and the final score."""

    winner: int
    score: tuple[int, ...]


def to_act(state: State) -> int | None:
    """The seat that must act now, ``CHANCE`` while a hand waits to be dealt, None when over."""
    phase = state.phase
    if phase != PLAYING:
        return None if phase == OVER else CHANCE
    return seat_to_act(state)


def outcome(state: State) -> Outcome | None:
    """The match result, or None while it is being played."""
    if state.phase != OVER:
        return None
    return Outcome(state.winner, state.score)


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action the seat to act may take, in a fixed order; empty unless a seat acts."""
    return state.legal


def check(state: State, action: Action | Deal, seat: int | None = None) -> None:
    """Raise IllegalActionError, naming the action and the rule, unless ``action`` is legal now.

    With ``seat``, also refuse it when that seat is not the one to act.
    """
    if type(action) is Deal:
        _check_deal(state, action)
        return
    actor = to_act(state)
    if seat is not None and seat != actor:
        who = "nobody" if actor is None else ("the dealer" if actor == CHANCE else f"seat {actor}")
        raise IllegalActionError(f"seat {seat} cannot '{action}': it is {who}'s turn to act")
    if action in state.legal:
        return
    if not isinstance(action, Action):
        raise IllegalActionError(f"{action!r} is not an action")
    name = "nobody" if actor is None else ("chance" if actor == CHANCE else f"seat {actor}")
    raise IllegalActionError(f"{name} cannot '{action}': {why_not(state, action)}")


def is_legal(state: State, action: Action | Deal, seat: int | None = None) -> bool:
    try:
        check(state, action, seat)
    except IllegalActionError:
        return False
    return True


def hand_sizes(state: State) -> tuple[int, ...]:
    """How many cards each seat gets in the next deal: three; four for the pie in pata de gallo
    (he puts one away); none for the seats that sit out a 1v1 hand of pica-pica."""
    rules = state.rules
    players = rules.players
    variant = rules.variant
    if variant not in SIZED_DEAL:
        return (HAND_SIZE,) * players
    mano, pie, opposite = _next_hand_seats(state)
    if variant in PIE_ALONE:
        return tuple([HAND_SIZE + 1 if s == pie else HAND_SIZE for s in range(players)])
    if opposite < 0:
        return (HAND_SIZE,) * players
    return tuple([HAND_SIZE if s in (mano, opposite) else 0 for s in range(players)])


def _next_hand_seats(state: State) -> tuple[int, int, int]:
    """The next hand's mano, the seat that plays last, and in a 1v1 hand of pica-pica the
    mano's rival sitting opposite him (else -1)."""
    players = state.rules.players
    pica = state.next_pica
    mano = (state.next_mano + pica) % players if pica > 0 else state.next_mano
    return mano, pie_of(players, mano), facing(players, mano) if pica >= 0 else -1


def _check_deal(state: State, deal: Deal) -> None:
    if state.phase != DEAL:
        where = "the match is over" if state.phase == OVER else "a hand is being played"
        raise IllegalActionError(f"cannot deal: {where}")
    players = state.rules.players
    if len(deal.hands) != players:
        raise IllegalActionError(f"cannot deal {len(deal.hands)} hands to {players} seats")
    seen: set[int] = set()
    sizes = hand_sizes(state)
    for seat, hand in enumerate(deal.hands):
        if len(hand) != sizes[seat]:
            raise IllegalActionError(f"seat {seat} must get {sizes[seat]} cards, not {len(hand)}")
        for card in hand:
            if not isinstance(card, int) or not 0 <= card < 40:
                raise IllegalActionError(f"seat {seat} was dealt {card!r}, which is not a card")
            if card in seen:
                raise IllegalActionError(f"{DECK[card]} is dealt twice")
            if (_LIMPO_OUT >> card) & 1 and state.rules.baralho == "limpo":
                raise IllegalActionError(f"{DECK[card]} is not in the baralho limpo (no 4-7)")
            seen.add(card)
    vira = deal.vira
    if not _turns_vira(state.rules):
        if vira is not None:
            raise IllegalActionError("no vira is turned up in this game")
    elif vira is None:
        raise IllegalActionError("Truco Paulista turns up a vira after the deal: give one")
    elif not isinstance(vira, int) or not 0 <= vira < 40:
        raise IllegalActionError(f"the vira {vira!r} is not a card")
    elif vira in seen:
        raise IllegalActionError(f"the vira {DECK[vira]} is also dealt to a seat")
    elif (_LIMPO_OUT >> vira) & 1 and state.rules.baralho == "limpo":
        raise IllegalActionError(f"the vira {DECK[vira]} is not in the baralho limpo (no 4-7)")


_LIMPO_OUT: int = sum(1 << int(c) for c in DECK if c not in LIMPO_DECK)
"""The cards the baralho limpo leaves out (its 4s to 7s), as a bit set."""


def _turns_vira(rules: Rules) -> bool:
    """Whether a card is turned up after the deal: Truco Paulista with the vira's manilhas."""
    return rules.variant in PAULISTA and rules.manilhas == "vira"


def deal(state: State, rng: Random) -> Transition:
    """Deal the next hand with ``rng`` (the only source of chance).

    Each seat in turn gets a uniformly drawn 3-card hand, drawn again while it shares a card
    with the hands already dealt: exactly a uniform deal, and several times cheaper than
    shuffling. (``random()`` picks among 9,880 hands with a bias below one in 10**11.)
    """
    if state.phase != DEAL:
        _check_deal(state, Deal(()))
    random = rng.random
    if state.rules.variant in SIZED_DEAL:
        return _deal_sized(state, rng)
    # The baralho limpo's missing cards count as used: no hand or vira draws them.
    used = _LIMPO_OUT if state.rules.baralho == "limpo" else 0
    picks = []
    for _ in range(state.rules.players):
        i = _draw_hand(random, used)
        used |= HAND_MASK[i]
        picks.append(i)
    vira = -1
    if _turns_vira(state.rules):  # the next card of the deck
        while True:
            vira = int(random() * 40)
            if not (used >> vira) & 1:
                break
    return _deal(
        state,
        tuple(map(ALL_HANDS.__getitem__, picks)),
        tuple(map(HAND_ENVIDO.__getitem__, picks)),
        tuple(map(HAND_FLOR.__getitem__, picks)) if state.rules.flor else (-1,) * len(picks),
        vira,
    )


def _draw_hand(random: Callable[[], float], used: int) -> int:
    """A 3-card hand (its index in ALL_HANDS) that shares no card with the bit set ``used``."""
    while True:
        i = int(random() * _N_HANDS)
        if not HAND_MASK[i] & used:
            return i


def _deal_sized(state: State, rng: Random) -> Transition:
    """``deal`` for the variants whose seats may get four cards or none."""
    random = rng.random
    used = 0
    hands: list[tuple[Card, ...]] = []
    for size in hand_sizes(state):
        if not size:
            hands.append(())
            continue
        i = _draw_hand(random, used)
        used |= HAND_MASK[i]
        hand = ALL_HANDS[i]
        for _ in range(size - HAND_SIZE):
            while True:
                c = int(random() * 40)
                if not (used >> c) & 1:
                    break
            used |= 1 << c
            hand = tuple(sorted((*hand, DECK[c])))
        hands.append(hand)
    return _apply_deal(state, tuple(hands))


def _apply_deal(state: State, hands: tuple[tuple[Card, ...], ...], vira: int = -1) -> Transition:
    flor = state.rules.flor
    return _deal(
        state,
        hands,
        tuple(envido_points(h) if len(h) == HAND_SIZE else 0 for h in hands),
        tuple((flor_points(h) or -1) if flor and len(h) == HAND_SIZE else -1 for h in hands),
        vira,
    )


def apply(state: State, action: Action | Deal) -> Transition:
    """Validate ``action`` for the seat to act and return the new state with its events."""
    if type(action) is Deal:
        _check_deal(state, action)
        vira = -1 if action.vira is None else int(action.vira)
        hands = tuple(tuple(DECK[c] for c in hand) for hand in action.hands)
        return _apply_deal(state, hands, vira)
    legal: tuple[Action, ...] = state[F_LEGAL]
    if action not in legal:
        check(state, action)
    assert type(action) is Action
    s: Work = list(state)
    tanto_call = s[F_TANTO_CALL]
    truco_call = s[F_TRUCO_CALL]
    seat = (
        tanto_call[2]
        if tanto_call is not None
        else (truco_call[2] if truco_call is not None else s[F_TURN])
    )
    s[F_LOG] = s[F_LOG] + ((seat, action),)
    verb = action.verb
    if verb is _PLAY or verb is _TAPADA or verb is _CEGA:
        # The most frequent action, written out here: it is most of a playout's time.
        face_down = verb is _TAPADA
        hands = s[F_HANDS]
        held = hands[seat]
        # cega (a blind mão de ferro) names no card: it plays the next one in the order dealt.
        card = held[0] if verb is _CEGA else action.card
        i = held.index(card)
        s[F_HANDS] = (*hands[:seat], held[:i] + held[i + 1 :], *hands[seat + 1 :])
        plays = s[F_PLAYS] + ((seat, card, face_down),)
        s[F_PLAYS] = plays
        played = _new(CardPlayed, (seat, None if face_down else card, face_down))
        done = s[F_RETIRED]
        for p in plays:
            done |= 1 << p[0]
        n = len(s[F_TEAMS])
        if done != (1 << n) - 1:
            nxt = (seat + 1) % n
            while (done >> nxt) & 1:
                nxt = (nxt + 1) % n
            s[F_TURN] = nxt
            s[F_LEGAL] = legal_of(s)
            return _new(Transition, (_new(State, s), (played,)))
        ev: list[Event] = [played]
        effects.end_trick(s, ev)
    else:
        ev = []
        variant = s[F_RULES].variant
        if variant in OWN_SIDE:
            destantado.act(s, seat, verb, ev)
        elif variant in PAULISTA:
            paulista.act(s, seat, verb, ev)
        elif verb is _MAZO:
            effects.mazo(s, seat, ev)
        elif tanto_call is not None:
            if tanto_call[0] == DISCARD_KIND:
                effects.discard(s, seat, action.card, ev)  # type: ignore[arg-type]
            elif tanto_call[0] == FLOR_KIND:
                effects.answer_flor(s, seat, verb, ev)
            elif verb is _FLOR:
                effects.sing_flor(s, seat, ev)
            else:
                effects.answer_envido(s, seat, verb, ev)
        elif verb is _FLOR:
            effects.sing_flor(s, seat, ev)
        elif verb in effects.TRUCO_LEVEL_OF:
            effects.call_truco(s, seat, verb, ev)
        elif verb in effects.ENVIDO_VERBS:
            effects.call_envido(s, seat, verb, ev)
        else:  # quiero / no-quiero to a truco
            effects.answer_truco(s, seat, verb, ev)
    s[F_LEGAL] = legal_of(s) if s[F_PHASE] == PLAYING else ()
    return _new(Transition, (_new(State, s), tuple(ev)))


def _deal(
    state: State,
    hands: tuple[tuple[Card, ...], ...],
    tantos: tuple[int, ...],
    flores: tuple[int, ...],
    vira: int,
) -> Transition:
    rules = state.rules
    players = rules.players
    hand_no = state.hand_no + 1
    pica = state.next_pica
    teams = state.teams
    retired = 0
    tanto_call = None
    if rules.variant not in SIZED_DEAL:
        mano = state.next_mano
        next_mano = (mano + 1) % players
    else:
        mano, pie, opposite = _next_hand_seats(state)
        # A round of pica-pica keeps its place in the turn of the mano until its last hand.
        next_mano = state.next_mano if 0 <= pica < 2 else (state.next_mano + 1) % players
        if opposite >= 0:  # the others sit this 1v1 hand out
            retired = ((1 << players) - 1) & ~(1 << mano | 1 << opposite)
        if rules.variant in PIE_ALONE:
            teams = hand_teams(rules, mano)
            tanto_call = (DISCARD_KIND, pie, pie)
    # Positional, in State's field order: the keyword constructor costs more than the deal.
    s: Work = [
        rules,  # rules
        state.score,  # score
        PLAYING,  # phase
        state.winner,  # winner
        hand_no,  # hand_no
        mano,  # mano
        next_mano,  # next_mano
        teams,  # teams
        hands,  # dealt
        hands,  # hands
        tantos,  # tantos
        flores,  # flores
        0,  # trick
        (),  # plays
        (),  # tricks
        (),  # results
        mano,  # turn
        retired,  # retired
        1,  # truco
        -1,  # truco_owner
        None,  # truco_call
        tanto_call,  # tanto_call
        True,  # envido_open
        (),  # chain
        (),  # flor_chain
        False,  # flor_done
        (0,) * len(state.score),  # hand_points
        (),  # shown
        (),  # declared
        (),  # log
        state.reached,  # reached
        pica,  # pica
        pica,  # next_pica (settled when the hand ends)
        state.stakes if rules.variant not in OWN_SIDE else (1,) * players,  # stakes
        0,  # bettors
        vira,  # vira
        (),  # legal
    ]
    if rules.variant in PAULISTA:
        paulista.start_hand(s)
    s[F_LEGAL] = legal_of(s)
    ev: list[Event] = [_new(HandStarted, (hand_no, mano))]
    for seat in range(players):
        if hands[seat]:
            ev.append(_new(CardsDealt, (seat, hands[seat])))
    if vira >= 0:
        ev.append(_new(ViraTurned, (DECK[vira],)))
    return _new(Transition, (_new(State, s), tuple(ev)))

"""The rules engine: who acts, what is legal, and applying an action.

``apply`` validates every action against ``legal_actions`` (computed by the state's room with
each state it makes) and returns a new state with the events it caused; it never changes its
input. Chance is explicit: ``deal`` draws a hand with an injected ``random.Random``.

The engine knows no variant: it looks the state's room up (``rooms.ROOMS``, one dict read per
action or deal) and calls its hooks (``legal_of``, ``act``, ``end_trick``, ``hand_sizes``,
``start_hand``, ``turns_vira``). Only the card played, most of a playout's time, is written out
here, the same for every game.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Final, NamedTuple

from truco.actions import Action, Deal, Verb
from truco.cards import (
    ALL_HANDS,
    DECK,
    HAND_ENVIDO,
    HAND_FLOR,
    Card,
    envido_points,
    flor_points,
)
from truco.errors import IllegalActionError
from truco.events import CardPlayed, CardsDealt, Event, HandStarted, ViraTurned
from truco.explain import why_not
from truco.hand import HAND_SIZE
from truco.legal import (
    can_raise_truco,
    envido_allowed,
    envido_primero_allowed,
    must_sing_flor,
    tapada_allowed,
)
from truco.manilhas import LIMPO_DECK
from truco.paulista import blind
from truco.rooms import ROOMS
from truco.rules import Rules
from truco.state import (
    DEAL,
    F_HANDS,
    F_LEGAL,
    F_LOG,
    F_MANO,
    F_PHASE,
    F_PLAYS,
    F_RETIRED,
    F_RULES,
    F_TANTO_CALL,
    F_TEAMS,
    F_TRUCO_CALL,
    F_TURN,
    OVER,
    Play,
    State,
    Work,
)
from truco.state import (
    PLAY as PLAYING,
)
from truco.variants import VARIANTS

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

# Final, so that the compiled code keeps them in C variables: any other module-level name,
# imported ones included, is a dict read of the module's globals at every use.
_new: Final = tuple.__new__  # builds NamedTuples without their slower keyword constructor
_PLAY: Final = Verb.PLAY
_TAPADA: Final = Verb.TAPADA
_CEGA: Final = Verb.CEGA
_N_HANDS: Final = len(ALL_HANDS)
_STATE: Final = State
_DEAL: Final = Deal
_ACTION: Final = Action
_DECK: Final = DECK
_ALL_HANDS: Final = ALL_HANDS
_HAND_CARDS: Final = bytes([c for hand in ALL_HANDS for c in hand])
"""The three cards of each hand of ``ALL_HANDS``, in order, one byte each."""
_HAND_ENVIDO: Final = HAND_ENVIDO
_HAND_FLOR: Final = HAND_FLOR
_HAND_STARTED: Final = HandStarted
_CARDS_DEALT: Final = CardsDealt
_VIRA_TURNED: Final = ViraTurned
_MAX_SEATS: Final = max(n for info in VARIANTS for n in info.players)

_CARD_PLAYED: Final[tuple[tuple[CardPlayed, ...], ...]] = tuple(
    tuple(CardPlayed(seat, card, False) for card in DECK) for seat in range(_MAX_SEATS)
)
"""Every card played face up, by seat and card: one shared event each (events are immutable
values), instead of one built for every card played."""
_FACE_DOWN: Final[tuple[CardPlayed, ...]] = tuple(
    CardPlayed(seat, None, True) for seat in range(_MAX_SEATS)
)
"""A card played face down, by seat."""
_SHARED_HANDS: Final = 128
_HAND_STARTED_OF: Final[tuple[tuple[HandStarted, ...], ...]] = tuple(
    tuple(HandStarted(hand, mano) for hand in range(_SHARED_HANDS)) for mano in range(_MAX_SEATS)
)
"""The start of each of a match's first hands, by mano and hand number."""


class Transition(NamedTuple):
    """The result of ``apply``: the new state and what happened, in order."""

    state: State
    events: tuple[Event, ...]


_TRANSITION: Final = Transition


class Outcome(NamedTuple):
    """A finished match: the winning team and the final score."""

    winner: int
    score: tuple[int, ...]


def to_act(state: State) -> int | None:
    """The seat that must act now, ``CHANCE`` while a hand waits to be dealt, None when over."""
    phase = state.phase
    if phase != PLAYING:
        return None if phase == OVER else CHANCE
    # state.seat_to_act, written out (and by field number): it is called for every step of a
    # playout.
    call: tuple[int, int, int] | None = state[F_TANTO_CALL]
    if call is not None:
        return call[2]
    call = state[F_TRUCO_CALL]
    return call[2] if call is not None else int(state[F_TURN])


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
    return ROOMS[state.rules.variant].hand_sizes(state)


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
    if not ROOMS[state.rules.variant].turns_vira(state.rules):
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


_LIMPO_OUT: Final = sum(1 << int(c) for c in DECK if c not in LIMPO_DECK)
"""The cards the baralho limpo leaves out (its 4s to 7s), as a bit set."""


def deal(state: State, rng: Random) -> Transition:
    """Deal the next hand with ``rng`` (the only source of chance).

    Each seat in turn gets a uniformly drawn 3-card hand, drawn again while it shares a card
    with the hands already dealt: exactly a uniform deal, and several times cheaper than
    shuffling. (``random()`` picks among 9,880 hands with a bias below one in 10**11.)
    """
    if state[F_PHASE] != DEAL:
        _check_deal(state, _DEAL(()))
    random = rng.random
    rules: Rules = state[F_RULES]
    room = ROOMS[rules.variant]
    if room.sized_deal:
        return _deal_sized(state, room.hand_sizes(state), rng)
    # The baralho limpo's missing cards count as used: no hand or vira draws them.
    used = _LIMPO_OUT if rules.baralho == "limpo" else 0
    players: int = rules.players
    flor: bool = rules.flor
    # Each seat's hand, envido and flor straight into lists (no list of picks mapped three
    # times): a deal is a few percent of a playout.
    hands: list[tuple[Card, ...]] = []
    envidos: list[int] = []
    flores: list[int] = []
    for _ in range(players):
        i = _draw_hand(random, used)
        used |= _mask_of(i)
        hands.append(_ALL_HANDS[i])
        envidos.append(_HAND_ENVIDO[i])
        flores.append(_HAND_FLOR[i] if flor else -1)
    vira = -1
    if room.turns_vira(rules):  # the next card of the deck
        while True:
            vira = int(random() * 40)
            if not (used >> vira) & 1:
                break
    return _deal(state, tuple(hands), tuple(envidos), tuple(flores), vira)


def _draw_hand(random: Callable[[], float], used: int) -> int:
    """A 3-card hand (its index in ALL_HANDS) that shares no card with the bit set ``used``."""
    while True:
        i = int(random() * _N_HANDS)
        if not _mask_of(i) & used:
            return i


def _mask_of(i: int) -> int:
    """The cards of ``ALL_HANDS[i]`` as a bit set, from the compact ``_HAND_CARDS``: a tuple of
    masks would hold an int object per hand, and reading a random one was a cache miss at every
    draw."""
    cards = _HAND_CARDS
    k = 3 * i
    return (1 << cards[k]) | (1 << cards[k + 1]) | (1 << cards[k + 2])


def _deal_sized(state: State, sizes: tuple[int, ...], rng: Random) -> Transition:
    """``deal`` for the rooms whose seats may get four cards or none."""
    random = rng.random
    used = 0
    hands: list[tuple[Card, ...]] = []
    for size in sizes:
        if not size:
            hands.append(())
            continue
        i = _draw_hand(random, used)
        used |= _mask_of(i)
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
    if type(action) is _DEAL:
        _check_deal(state, action)
        vira = -1 if action.vira is None else int(action.vira)
        dealt = tuple(tuple(_DECK[c] for c in hand) for hand in action.hands)
        return _apply_deal(state, dealt, vira)
    legal: tuple[Action, ...] = state[F_LEGAL]
    if action not in legal:
        check(state, action)
    assert type(action) is _ACTION
    s: Work = list(state)
    tanto_call = s[F_TANTO_CALL]
    truco_call = s[F_TRUCO_CALL]
    seat: int = (
        tanto_call[2]
        if tanto_call is not None
        else (truco_call[2] if truco_call is not None else s[F_TURN])
    )
    s[F_LOG] = s[F_LOG] + ((seat, action),)
    room = ROOMS[s[F_RULES].variant]
    verb = action.verb
    if verb is _PLAY or verb is _TAPADA or verb is _CEGA:
        # The most frequent action, written out here: it is most of a playout's time.
        face_down = verb is _TAPADA
        hands: tuple[tuple[Card, ...], ...] = s[F_HANDS]
        held = hands[seat]
        # cega (a blind mão de ferro) names no card: it plays the next one in the order dealt.
        card = held[0] if verb is _CEGA else action.card
        assert card is not None
        i = held.index(card)
        # The fewest new tuples: a slice for the first or last card, a list to swap one hand.
        if i == 0:
            rest = held[1:]
        elif i == len(held) - 1:
            rest = held[:i]
        else:
            rest = held[:i] + held[i + 1 :]
        after = list(hands)
        after[seat] = rest
        s[F_HANDS] = tuple(after)
        plays: tuple[Play, ...] = s[F_PLAYS] + ((seat, card, face_down),)
        s[F_PLAYS] = plays
        played = _FACE_DOWN[seat] if face_down else _CARD_PLAYED[seat][card]
        done: int = s[F_RETIRED]
        for p in plays:
            done |= 1 << p[0]
        n = len(s[F_TEAMS])
        if done != (1 << n) - 1:
            nxt = (seat + 1) % n
            while (done >> nxt) & 1:
                nxt = (nxt + 1) % n
            s[F_TURN] = nxt
            s[F_LEGAL] = room.legal_of(s)
            return _new(_TRANSITION, (_new(_STATE, s), (played,)))
        ev: list[Event] = [played]
        room.end_trick(s, ev)
    else:
        ev = []
        room.act(s, seat, action, ev)
    s[F_LEGAL] = room.legal_of(s) if s[F_PHASE] == PLAYING else ()
    return _new(_TRANSITION, (_new(_STATE, s), tuple(ev)))


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
    mano = state.next_mano
    # Positional, in State's field order: the keyword constructor costs more than the deal.
    s: Work = [
        rules,  # rules
        state.score,  # score
        PLAYING,  # phase
        state.winner,  # winner
        hand_no,  # hand_no
        mano,  # mano
        (mano + 1) % players,  # next_mano (the room's start_hand may change it)
        state.teams,  # teams
        hands,  # dealt
        hands,  # hands
        tantos,  # tantos
        flores,  # flores
        0,  # trick
        (),  # plays
        (),  # tricks
        (),  # results
        mano,  # turn
        0,  # retired
        1,  # truco
        -1,  # truco_owner
        None,  # truco_call
        None,  # tanto_call
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
        state.stakes,  # stakes
        0,  # bettors
        vira,  # vira
        (),  # legal
    ]
    room = ROOMS[rules.variant]
    # The room sets what its game changes: the 1v1 hand's seats, the pie's side and discard,
    # destantado's stakes, a mão de onze's decision.
    room.start_hand(s)
    mano = s[F_MANO]
    s[F_LEGAL] = room.legal_of(s)
    ev: list[Event] = [
        _HAND_STARTED_OF[mano][hand_no]
        if hand_no < _SHARED_HANDS
        else _new(_HAND_STARTED, (hand_no, mano))
    ]
    # The same rule as the view's: a blind mão de ferro's cards are seen by nobody.
    unseen = rules.game == "paulista" and blind(s)
    for seat in range(players):
        if hands[seat]:
            ev.append(_new(_CARDS_DEALT, (seat, hands[seat], unseen)))
    if vira >= 0:
        ev.append(_new(_VIRA_TURNED, (_DECK[vira],)))
    return _new(_TRANSITION, (_new(_STATE, s), tuple(ev)))

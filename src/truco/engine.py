"""The rules engine: who acts, what is legal, and what an action does.

``legal_actions`` is the one source of legality: ``check``/``is_legal`` test membership in it and
``apply`` validates with ``check`` before it builds the next state. The engine copies the state
tuple into a list, edits it through the field indexes below, and freezes it again: this keeps
``apply`` at a few microseconds, which bounds how deep the bots can search.
"""

from __future__ import annotations

from random import Random
from typing import Any, NamedTuple

from truco import envido as tantos
from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CON_FLOR_QUIERO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
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
    Deal,
    Verb,
)
from truco.cards import (
    ALL_HANDS,
    DECK,
    HAND_ENVIDO,
    HAND_FLOR,
    HAND_MASK,
    Card,
    envido_cards,
    envido_points,
    flor_points,
)
from truco.errors import IllegalActionError
from truco.events import (
    Answered,
    Called,
    CardPlayed,
    CardsDealt,
    CardsShown,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    PointsDeclared,
    Scored,
    TrickEnded,
    WentToMazo,
)
from truco.explain import why_not
from truco.state import DEAL, ENVIDO_KIND, FLOR_KIND, OVER, Play, State
from truco.state import PLAY as PLAYING
from truco.tricks import PARDA, hand_winner, trick_result

CHANCE = -1
"""``to_act`` while a hand waits to be dealt."""

HAND_SIZE = 3

_new = tuple.__new__
_I = {name: i for i, name in enumerate(State._fields)}
_RULES = _I["rules"]
_SCORE = _I["score"]
_PHASE = _I["phase"]
_WINNER = _I["winner"]
_HAND_NO = _I["hand_no"]
_MANO = _I["mano"]
_NEXT_MANO = _I["next_mano"]
_TEAMS = _I["teams"]
_DEALT = _I["dealt"]
_HANDS = _I["hands"]
_TANTOS = _I["tantos"]
_FLORES = _I["flores"]
_TRICK = _I["trick"]
_PLAYS = _I["plays"]
_TRICKS = _I["tricks"]
_RESULTS = _I["results"]
_TURN = _I["turn"]
_RETIRED = _I["retired"]
_TRUCO = _I["truco"]
_OWNER = _I["truco_owner"]
_TRUCO_CALL = _I["truco_call"]
_TANTO_CALL = _I["tanto_call"]
_ENVIDO_OPEN = _I["envido_open"]
_CHAIN = _I["chain"]
_FLOR_CHAIN = _I["flor_chain"]
_FLOR_DONE = _I["flor_done"]
_HAND_POINTS = _I["hand_points"]
_SHOWN = _I["shown"]
_LOG = _I["log"]
_DECLARED = _I["declared"]
_REACHED = _I["reached"]

_PLAY, _TAPADA, _MAZO = Verb.PLAY, Verb.TAPADA, Verb.MAZO
_ALL_HANDS, _HAND_MASK, _HAND_ENVIDO, _HAND_FLOR = ALL_HANDS, HAND_MASK, HAND_ENVIDO, HAND_FLOR
_N_HANDS = len(ALL_HANDS)

Work = list[Any]
"""A state being edited: ``list(state)``, indexed by the field numbers above."""
_FALTA = Verb.FALTA_ENVIDO


class Transition(NamedTuple):
    """The result of ``apply``: the new state and what happened, in order."""

    state: State
    events: tuple[Event, ...]


class Outcome(NamedTuple):
    """A finished match: the winning team and the final score."""

    winner: int
    score: tuple[int, ...]


# --- who acts and what is legal -------------------------------------------------------------


def to_act(state: State) -> int | None:
    """The seat that must act now, ``CHANCE`` while a hand waits to be dealt, None when over."""
    phase = state.phase
    if phase != PLAYING:
        return None if phase == OVER else CHANCE
    call = state.tanto_call
    if call is not None:
        return call[2]
    call = state.truco_call
    if call is not None:
        return call[2]
    return state.turn


def outcome(state: State) -> Outcome | None:
    """The match result, or None while it is being played."""
    if state.phase != OVER:
        return None
    return Outcome(state.winner, state.score)


_last: tuple[State | None, tuple[Action, ...]] = (None, ())


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action the seat to act may take, in a fixed order; empty unless a seat acts."""
    global _last
    last = _last
    if last[0] is state:
        return last[1]
    result = _legal(state) if state.phase == PLAYING else ()
    _last = (state, result)
    return result


def _legal(state: State) -> tuple[Action, ...]:
    call = state.tanto_call
    truco_call = state.truco_call
    seat = call[2] if call is not None else (truco_call[2] if truco_call else state.turn)
    if call is not None:
        if call[0] == FLOR_KIND:
            return _FLOR_ANSWERS[state.flor_chain[-1]]
        if state.flores[seat] >= 0 and must_sing_flor(state, seat):
            return (FLOR,)
        return _ENVIDO_ANSWERS[state.chain]
    if state.flores[seat] >= 0 and must_sing_flor(state, seat):
        return (FLOR,)
    if truco_call is not None:
        return _TRUCO_ANSWERS[truco_call[0], envido_primero_allowed(state, seat)]
    hand = state.hands[seat]
    trick = state.trick
    tapada = state.rules.tapada
    if (trick and tapada != "off") or tapada == "always":
        cards = _PLAYS_AND_TAPADAS.get(hand) or _cards_actions(hand, True)
    else:
        cards = _PLAYS_OF.get(hand) or _cards_actions(hand, False)
    truco = state.truco
    owner = state.truco_owner
    can_raise = truco < 4 and (owner < 0 or owner == state.teams[seat])
    can_envido = (
        state.envido_open
        and not trick
        and truco == 1
        and (state.rules.envido_until == "own_card" or not state.plays)
    )
    return cards + _CALLS[truco if can_raise else 0, can_envido]


# Memo tables for _legal: the answers to each call and the actions of each held hand.
_FLOR_ANSWERS = {
    Verb.FLOR: (CON_FLOR_QUIERO, CON_FLOR_ME_ACHICO, CONTRAFLOR, CONTRAFLOR_AL_RESTO),
    Verb.CONTRAFLOR: (QUIERO, NO_QUIERO, CONTRAFLOR_AL_RESTO),
    Verb.CONTRAFLOR_AL_RESTO: (QUIERO, NO_QUIERO),
}
_ENVIDO_ANSWERS: dict[tuple[Verb, ...], tuple[Action, ...]] = {}
_TRUCO_ANSWERS: dict[tuple[int, bool], tuple[Action, ...]] = {}
_CALLS: dict[tuple[int, bool], tuple[Action, ...]] = {}
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
            _CALLS[raise_from, envido] = (*calls, MAZO)


def _cards_actions(hand: tuple[Card, ...], tapadas: bool) -> tuple[Action, ...]:
    plays = tuple(PLAY[c] for c in hand)
    if not hand:
        return plays
    if tapadas:
        plays += tuple(TAPADA[c] for c in hand)
        _PLAYS_AND_TAPADAS[hand] = plays
    else:
        _PLAYS_OF[hand] = plays
    return plays


_fill_tables()


def must_sing_flor(state: State, seat: int) -> bool:
    """A seat holding flor must sing it before anything else, unless the flor is settled."""
    if state.flores[seat] < 0 or state.flor_done or state.trick:
        return False
    call = state.tanto_call
    return call is None or call[0] == ENVIDO_KIND


def tapada_allowed(state: State) -> bool:
    mode = state.rules.tapada
    return mode == "always" or (mode == "from_second" and state.trick > 0)


def can_raise_truco(state: State, seat: int) -> bool:
    """Before any truco either side may call; later only the side that accepted the last bet."""
    owner = state.truco_owner
    return state.truco < 4 and (owner < 0 or owner == state.teams[seat])


def _has_played(state: State, seat: int) -> bool:
    for p in state.plays:
        if p[0] == seat:
            return True
    return False


def envido_allowed(state: State, seat: int) -> bool:
    """Envido on one's turn: first trick, before one's own card, never after a truco accepted.

    (The seat whose turn it is to play has not played in this trick yet.)
    """
    if not state.envido_open or state.trick or state.truco > 1 or seat != state.turn:
        return False
    return state.rules.envido_until == "own_card" or not state.plays


def envido_primero_allowed(state: State, seat: int) -> bool:
    """ "El envido está primero": an envido as the answer to the first truco of the first trick."""
    mode = state.rules.envido_primero
    call = state.truco_call
    if mode == "off" or call is None or call[0] != 2:
        return False
    if not state.envido_open or state.trick or state.truco > 1:
        return False
    return mode == "first_trick" or not _has_played(state, seat)


# --- checking ---------------------------------------------------------------------------------


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
    if action in legal_actions(state):
        return
    assert isinstance(action, Action)
    name = "nobody" if actor is None else ("chance" if actor == CHANCE else f"seat {actor}")
    raise IllegalActionError(f"{name} cannot '{action}': {why_not(state, action)}")


def is_legal(state: State, action: Action | Deal, seat: int | None = None) -> bool:
    try:
        check(state, action, seat)
    except IllegalActionError:
        return False
    return True


def _check_deal(state: State, deal: Deal) -> None:
    if state.phase != DEAL:
        raise IllegalActionError(
            "cannot deal: "
            + ("the match is over" if state.phase == OVER else "a hand is being played")
        )
    players = state.rules.players
    if len(deal.hands) != players:
        raise IllegalActionError(f"cannot deal {len(deal.hands)} hands to {players} seats")
    seen: set[int] = set()
    for seat, hand in enumerate(deal.hands):
        if len(hand) != HAND_SIZE:
            raise IllegalActionError(f"seat {seat} must get {HAND_SIZE} cards, not {len(hand)}")
        for card in hand:
            if not isinstance(card, int) or not 0 <= card < 40:
                raise IllegalActionError(f"seat {seat} was dealt {card!r}, which is not a card")
            if card in seen:
                raise IllegalActionError(f"{DECK[card]} is dealt twice")
            seen.add(card)


# --- applying -------------------------------------------------------------------------------


def deal(state: State, rng: Random) -> Transition:
    """Deal the next hand with ``rng`` (the only source of chance).

    Each seat in turn gets a uniformly drawn 3-card hand, drawn again while it shares a card
    with the hands already dealt: exactly a uniform deal, and several times cheaper than
    shuffling. (``random()`` picks among 9,880 hands with a bias below one in 10**11.)
    """
    if state.phase != DEAL:
        _check_deal(state, Deal(()))
    random = rng.random
    used = 0
    picks = []
    for _ in range(state.rules.players):
        while True:
            i = int(random() * _N_HANDS)
            mask = _HAND_MASK[i]
            if not mask & used:
                break
        used |= mask
        picks.append(i)
    flor = state.rules.flor
    return _deal(
        state,
        tuple([_ALL_HANDS[i] for i in picks]),
        tuple([_HAND_ENVIDO[i] for i in picks]),
        tuple([_HAND_FLOR[i] for i in picks]) if flor else (-1,) * len(picks),
    )


def apply(state: State, action: Action | Deal) -> Transition:
    """Validate ``action`` for the seat to act and return the new state with its events."""
    if type(action) is Deal:
        _check_deal(state, action)
        hands = tuple(tuple(DECK[c] for c in hand) for hand in action.hands)
        flor = state.rules.flor
        return _deal(
            state,
            hands,
            tuple(envido_points(h) for h in hands),
            tuple((flor_points(h) or -1) if flor else -1 for h in hands),
        )
    last = _last
    if (last[0] is not state or action not in last[1]) and action not in legal_actions(state):
        check(state, action)
    tanto_call = state.tanto_call
    if tanto_call is not None:
        seat = tanto_call[2]
    elif state.truco_call is not None:
        seat = state.truco_call[2]
    else:
        seat = state.turn
    assert type(action) is Action
    s = list(state)
    s[_LOG] = state.log + ((seat, action),)
    verb = action.verb
    if verb is _PLAY or verb is _TAPADA:
        # The most frequent action, written out here: it is most of a playout's time.
        card = action.card
        face_down = verb is _TAPADA
        hands = state.hands
        held = hands[seat]
        i = held.index(card)
        s[_HANDS] = (*hands[:seat], held[:i] + held[i + 1 :], *hands[seat + 1 :])
        plays = state.plays + ((seat, card, face_down),)
        s[_PLAYS] = plays
        ev: list[Event] = [_new(CardPlayed, (seat, None if face_down else card, face_down))]
        done = state.retired
        for p in plays:
            done |= 1 << p[0]
        n = len(state.teams)
        if done != (1 << n) - 1:
            nxt = (seat + 1) % n
            while (done >> nxt) & 1:
                nxt = (nxt + 1) % n
            s[_TURN] = nxt
        else:
            _end_trick(s, ev)
        return _new(Transition, (_new(State, s), tuple(ev)))
    ev = []
    if verb is _MAZO:
        _mazo(s, seat, ev)
    elif tanto_call is not None:
        if tanto_call[0] == FLOR_KIND:
            _answer_flor(s, seat, verb, ev)
        elif verb is Verb.FLOR:
            _sing_flor(s, seat, ev)
        else:
            _answer_envido(s, seat, verb, ev)
    elif verb is Verb.FLOR:
        _sing_flor(s, seat, ev)
    elif verb in _TRUCO_LEVEL:
        _call_truco(s, seat, verb, ev)
    elif verb in _ENVIDO_VERBS:
        _call_envido(s, seat, verb, ev)
    else:  # quiero / no-quiero to a truco
        _answer_truco(s, seat, verb, ev)
    return _new(Transition, (_new(State, s), tuple(ev)))


_TRUCO_LEVEL = {Verb.TRUCO: 2, Verb.RETRUCO: 3, Verb.VALE_CUATRO: 4}
_ENVIDO_VERBS = frozenset((Verb.ENVIDO, Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO))


def _deal(
    state: State,
    hands: tuple[tuple[Card, ...], ...],
    tantos: tuple[int, ...],
    flores: tuple[int, ...],
) -> Transition:
    rules = state.rules
    players = rules.players
    mano = state.next_mano
    hand_no = state.hand_no + 1
    # Positional, in State's field order: the keyword constructor costs more than the deal.
    new = _new(
        State,
        (
            rules,  # rules
            state.score,  # score
            PLAYING,  # phase
            state.winner,  # winner
            hand_no,  # hand_no
            mano,  # mano
            (mano + 1) % players,  # next_mano
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
        ),
    )
    ev: list[Event] = [_new(HandStarted, (hand_no, mano))]
    for seat in range(players):
        ev.append(_new(CardsDealt, (seat, hands[seat])))
    return _new(
        Transition,
        (
            new,
            tuple(ev),
        ),
    )


def _responder(s: Work, caller: int) -> int:
    """The next seat after ``caller``, in playing order, of another team and still in the hand."""
    teams = s[_TEAMS]
    retired = s[_RETIRED]
    n = len(teams)
    team = teams[caller]
    seat = caller
    for _ in range(n):
        seat = (seat + 1) % n
        if teams[seat] != team and not (retired >> seat) & 1:
            return seat
    raise AssertionError("no rival left in the hand")  # the hand ends before this


def _active_from(s: Work, start: int) -> list[int]:
    """The seats still in the hand, in playing order from ``start``."""
    n = len(s[_TEAMS])
    retired = s[_RETIRED]
    return [seat for i in range(n) if not (retired >> (seat := (start + i) % n)) & 1]


def _advance(s: Work, seat: int, plays: tuple[Play, ...], ev: list[Event]) -> None:
    """Give the turn to the next seat that still has to play this trick, or end the trick."""
    done = s[_RETIRED]
    for p in plays:
        done |= 1 << p[0]
    n = len(s[_TEAMS])
    if done != (1 << n) - 1:
        nxt = (seat + 1) % n
        while (done >> nxt) & 1:
            nxt = (nxt + 1) % n
        s[_TURN] = nxt
    else:
        _end_trick(s, ev)


def _end_trick(s: Work, ev: list[Event]) -> None:
    plays = s[_PLAYS]
    teams = s[_TEAMS]
    team, seat = trick_result(plays, teams)
    ev.append(_new(TrickEnded, (s[_TRICK], team, seat)))
    results = s[_RESULTS] + (team,)
    s[_RESULTS] = results
    s[_TRICKS] = s[_TRICKS] + (plays,)
    s[_PLAYS] = ()
    winner = hand_winner(results, teams[s[_MANO]])
    if winner is not None:
        _end_hand(s, winner, s[_TRUCO], "truco", ev)
        return
    s[_TRICK] += 1
    if team == PARDA:
        s[_TURN] = _active_from(s, s[_MANO])[0]
    else:
        # The trick's winner leads; if he has left the hand, his next partner still in it.
        order = _active_from(s, seat)
        s[_TURN] = next((x for x in order if teams[x] == team), order[0])


def _score(s: Work, team: int, points: int, reason: str, ev: list[Event]) -> None:
    """Add points to a team; the match may end here, in the middle of a hand."""
    score = s[_SCORE]
    score = (*score[:team], score[team] + points, *score[team + 1 :])
    s[_SCORE] = score
    hand_points = s[_HAND_POINTS]
    s[_HAND_POINTS] = (*hand_points[:team], hand_points[team] + points, *hand_points[team + 1 :])
    ev.append(_new(Scored, (team, points, reason)))
    if s[_REACHED] < 0 and score[team] >= s[_RULES].target:
        s[_REACHED] = team
        if s[_RULES].match_end == "at_reach":
            _finish_hand(s, -1, ev)


def _end_hand(s: Work, team: int, points: int, reason: str, ev: list[Event]) -> None:
    """The hand's truco part went to ``team`` for ``points``."""
    s[_TRUCO_CALL] = s[_TANTO_CALL] = None
    _score(s, team, points, reason, ev)
    if s[_PHASE] == PLAYING:
        _finish_hand(s, team, ev)


def _finish_hand(s: Work, truco_winner: int, ev: list[Event]) -> None:
    s[_TRUCO_CALL] = s[_TANTO_CALL] = None
    for shown in s[_SHOWN]:
        ev.append(_new(CardsShown, shown))
    ev.append(_new(HandEnded, (s[_HAND_POINTS], truco_winner)))
    if s[_REACHED] >= 0:
        s[_PHASE] = OVER
        s[_WINNER] = s[_REACHED]
        ev.append(_new(MatchEnded, (s[_REACHED], s[_SCORE])))
    else:
        s[_PHASE] = DEAL


# --- truco ------------------------------------------------------------------------------------


def _call_truco(s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
    pending = s[_TRUCO_CALL]
    if pending is not None:  # a raise given as an answer accepts the pending bet first
        s[_TRUCO] = pending[0]
        s[_OWNER] = s[_TEAMS][seat]
    ev.append(_new(Called, (seat, verb)))
    s[_TRUCO_CALL] = (_TRUCO_LEVEL[verb], seat, _responder(s, seat))


def _answer_truco(s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
    level, caller, _ = s[_TRUCO_CALL]
    ev.append(_new(Answered, (seat, verb)))
    s[_TRUCO_CALL] = None
    if verb is Verb.QUIERO:
        s[_TRUCO] = level
        s[_OWNER] = s[_TEAMS][seat]
    else:
        _end_hand(s, s[_TEAMS][caller], s[_TRUCO], "truco-no-quiero", ev)


def _mazo(s: Work, seat: int, ev: list[Event]) -> None:
    ev.append(_new(WentToMazo, (seat,)))
    retired = s[_RETIRED] | 1 << seat
    s[_RETIRED] = retired
    teams = s[_TEAMS]
    team = teams[seat]
    for x, t in enumerate(teams):
        if t == team and not (retired >> x) & 1:
            break
    else:  # the whole team has retired: the hand goes to the rivals
        points = s[_TRUCO]
        # The optional extra point stands for the envido that could still have been played.
        if (
            s[_RULES].mazo_envido_penalty
            and s[_TRICK] == 0
            and s[_TRUCO] == 1
            and s[_ENVIDO_OPEN]
            and not s[_CHAIN]
            and not s[_FLOR_CHAIN]
        ):
            points += 1
        _end_hand(s, _rival_team(s, team), points, "mazo", ev)
        return
    call = s[_TRUCO_CALL]
    if call is not None and call[2] == seat:
        # The answer passes to his next partner still in the hand.
        s[_TRUCO_CALL] = (call[0], call[1], _responder(s, call[1]))
    if s[_TURN] == seat:
        _advance(s, seat, s[_PLAYS], ev)


# --- envido -----------------------------------------------------------------------------------


def _call_envido(s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
    ev.append(_new(Called, (seat, verb)))
    s[_CHAIN] = s[_CHAIN] + (verb,)
    # A flor still to be sung goes before any envido: its holder (of either side) answers
    # first, and his only answer is to sing it, which cancels the envido.
    holder = -1 if s[_FLOR_DONE] else _next_flor_holder(s, seat, any_team=True)
    s[_TANTO_CALL] = (ENVIDO_KIND, seat, holder if holder >= 0 else _responder(s, seat))


def _next_flor_holder(s: Work, seat: int, *, any_team: bool) -> int:
    """The first seat after ``seat`` still in the hand that holds a flor (of the other team
    unless ``any_team``), or -1."""
    teams, flores, retired = s[_TEAMS], s[_FLORES], s[_RETIRED]
    n = len(teams)
    for i in range(1, n):
        x = (seat + i) % n
        if flores[x] >= 0 and not (retired >> x) & 1 and (any_team or teams[x] != teams[seat]):
            return x
    return -1


def _answer_envido(s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
    if verb in _ENVIDO_VERBS:  # a raise accepts and raises
        _call_envido(s, seat, verb, ev)
        return
    caller = s[_TANTO_CALL][1]
    chain = s[_CHAIN]
    ev.append(_new(Answered, (seat, verb)))
    s[_TANTO_CALL] = None
    s[_ENVIDO_OPEN] = False
    teams = s[_TEAMS]
    if verb is Verb.NO_QUIERO:
        _score(s, teams[caller], tantos.declined_value(chain), "envido-no-quiero", ev)
        return
    winner = _declare(s, s[_TANTOS], ev, flor=False)
    team = teams[winner]
    if chain[-1] is _FALTA:
        before = tantos.chain_value(chain[:-1])
        points = tantos.falta_value(s[_RULES], s[_SCORE], team, _rival_team(s, team), before)
    else:
        points = tantos.chain_value(chain)
    s[_SHOWN] = s[_SHOWN] + ((winner, envido_cards(s[_DEALT][winner])),)
    _score(s, team, points, "envido", ev)


def _rival_team(s: Work, team: int) -> int:
    teams: tuple[int, ...] = s[_TEAMS]
    return next(t for t in teams if t != team)


def _declare(s: Work, points: tuple[int, ...], ev: list[Event], *, flor: bool) -> int:
    """Declarations in order from the mano among the seats still in (with flor, its holders)."""
    order = [x for x in _active_from(s, s[_MANO]) if not flor or points[x] >= 0]
    winner, said = tantos.declare(order, points, s[_TEAMS])
    declared = tuple([(seat, value, flor) for seat, value in said])
    s[_DECLARED] = s[_DECLARED] + declared
    ev.extend(_new(PointsDeclared, d) for d in declared)
    return winner


# --- flor -------------------------------------------------------------------------------------


def _sing_flor(s: Work, seat: int, ev: list[Event]) -> None:
    ev.append(_new(Called, (seat, Verb.FLOR)))
    # A flor cancels any envido, called or still to be called.
    s[_TANTO_CALL] = None
    s[_ENVIDO_OPEN] = False
    s[_FLOR_CHAIN] = (Verb.FLOR,)
    teams = s[_TEAMS]
    rival = _next_flor_holder(s, seat, any_team=False)
    if rival < 0:
        s[_FLOR_DONE] = True
        s[_SHOWN] = s[_SHOWN] + ((seat, s[_DEALT][seat]),)
        _score(s, teams[seat], s[_RULES].flor_value, "flor", ev)
    else:
        s[_TANTO_CALL] = (FLOR_KIND, seat, rival)


def _answer_flor(s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
    rules = s[_RULES]
    caller = s[_TANTO_CALL][1]
    teams = s[_TEAMS]
    chain = s[_FLOR_CHAIN]
    if verb is Verb.CONTRAFLOR or verb is Verb.CONTRAFLOR_AL_RESTO:
        ev.append(_new(Called, (seat, verb)))
        s[_FLOR_CHAIN] = chain + (verb,)
        s[_TANTO_CALL] = (FLOR_KIND, seat, _responder(s, seat))
        return
    ev.append(_new(Answered, (seat, verb)))
    s[_TANTO_CALL] = None
    s[_FLOR_DONE] = True
    if verb is Verb.CON_FLOR_ME_ACHICO:
        s[_SHOWN] = s[_SHOWN] + ((caller, s[_DEALT][caller]),)
        _score(s, teams[caller], rules.flor_achico_value, "flor", ev)
        return
    if verb is Verb.NO_QUIERO:
        if chain[-1] is Verb.CONTRAFLOR:
            points = rules.contraflor_decline_value
        elif Verb.CONTRAFLOR in chain:
            points = rules.contraflor_resto_decline_after_contraflor
        else:
            points = rules.contraflor_resto_decline_value
        _score(s, teams[caller], points, "flor-no-quiero", ev)
        return
    winner = _declare(s, s[_FLORES], ev, flor=True)
    team = teams[winner]
    if verb is Verb.CON_FLOR_QUIERO:
        points = rules.flor_quiero_value
    elif chain[-1] is Verb.CONTRAFLOR:
        points = rules.contraflor_value
    else:
        before = rules.contraflor_value if Verb.CONTRAFLOR in chain else rules.flor_quiero_value
        points = tantos.falta_value(rules, s[_SCORE], team, _rival_team(s, team), before)
    s[_SHOWN] = s[_SHOWN] + ((winner, s[_DEALT][winner]),)
    _score(s, team, points, "flor", ev)

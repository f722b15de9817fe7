"""The worlds the expert searches: deals of the cards a seat has not seen that agree with
everything it observed, each weighted by how likely the other seats' actions were with them.

A world is checked by replaying this hand's public history from its start on the real engine
(``new_match`` + ``Deal`` + the logged actions), so it must reproduce every envido/flor
declaration and "son buenas", every forced flor, and every action must be legal in it. Its
weight is a soft model of the other seats' calls and answers (``action_likelihood``: envido
calls and answers by points, passing on envido, truco calls and answers by hand strength),
scaled by what the seat has read of each rival (``rivals.Tendency``); the partners' hidden cards
are drawn to agree with their señas (``senas.draw_hand``). The coach samples its worlds here
too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from random import Random

from truco.actions import DISCARD, ENVIDO, ENVIDO_CALLS, TAPADA, Action, Deal, Verb
from truco.bots.context import ctx_of_state
from truco.bots.policy import TRUCO_BETS
from truco.bots.rivals import Tendency
from truco.bots.senas import Heard, Told, draw_hand, quiet_weight, told
from truco.bots.strength import win_prob
from truco.cards import DECK, Card, envido_points, flor_points
from truco.engine import apply, to_act
from truco.errors import TrucoError
from truco.manilhas import LIMPO_DECK
from truco.state import State, new_match
from truco.view import SeatView

_ACCEPT = frozenset((Verb.QUIERO, Verb.DESCE, Verb.JOGA))
_DECLINE = frozenset((Verb.NO_QUIERO, Verb.CORRE))
Likelihood = Callable[[State, int, Action, Tendency | None], float]
"""A model of the other seats: how likely a seat (its cards those of the state) was to take an
action, given what the seat has read of it (``action_likelihood``; the blueprint's,
``blueprint.policy``)."""
_TAPADA_TEXT = "tapada ??"
_DISCARD_TEXT = "discard ??"


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def action_likelihood(
    state: State, seat: int, action: Action, tendency: Tendency | None = None
) -> float:
    """How likely ``seat`` (holding its cards in ``state``) was to take ``action``: a soft model
    used to weight sampled worlds, never below a floor (anybody may bluff). A ``tendency``
    (``rivals``) scales how much the seat's calls and acceptances say about its cards."""
    base = _likelihood(state, seat, action)
    if tendency is None or base == 1.0:
        return base
    verb = action.verb
    if action in ENVIDO_CALLS or verb in TRUCO_BETS:
        trust = tendency.calls
    elif verb in _ACCEPT or verb in _DECLINE:
        trust = tendency.answers
    else:
        return base
    if trust == 1.0:
        return base  # exactly today's weight (1 - (1 - base) may differ in the last bit)
    return max(0.02, 1.0 - trust * (1.0 - base))


def _likelihood(state: State, seat: int, action: Action) -> float:
    verb = action.verb
    tanto = state.tanto_call
    t = state.tantos[seat]
    if action in ENVIDO_CALLS:
        if tanto is None and state.truco_call is None:
            return 0.15 + 0.85 * _sig((t - 25.5) / 2.0)
        return 0.1 + 0.9 * _sig((t - 27.0) / 2.0)  # a raise, or el envido está primero
    if tanto is not None and tanto[0] == 0:
        if verb is Verb.QUIERO:
            return 0.15 + 0.85 * _sig((t - 24.5) / 2.0)
        if verb is Verb.NO_QUIERO:
            return 1.0 - 0.85 * _sig((t - 26.0) / 2.0)
        return 1.0
    if verb in TRUCO_BETS or verb in _ACCEPT or verb in _DECLINE:
        p = win_prob(ctx_of_state(state, seat))
        if verb in TRUCO_BETS:
            return (0.2 + 0.8 * p * p) if state.truco_call is not None else (0.25 + 0.75 * p)
        if state.truco_call is None:
            # Truco Paulista's mão de onze: played with a good hand, run with a bad one.
            if verb is Verb.JOGA:
                return 0.2 + 0.8 * p
            return 1.0 - 0.8 * p if verb is Verb.CORRE else 1.0
        if verb in _ACCEPT:
            return 0.3 + 0.7 * p
        return 1.0 - 0.7 * p
    if verb is Verb.PLAY and ENVIDO in state.legal and tanto is None and state.truco_call is None:
        return 1.0 - 0.6 * _sig((t - 27.5) / 1.5)  # passed on the envido
    return 1.0


def start_state(view: SeatView) -> State:
    """The match as it stood before this hand's deal: the score less what the hand gave (in
    destantado, the porotos passed), the same mano, and in pica-pica the same 1v1 hand."""
    score = tuple(s - p for s, p in zip(view.score, view.hand_points, strict=True))
    return new_match(view.rules, mano=view.mano, score=score, pica=view.pica)


def sample_worlds(
    view: SeatView,
    rng: Random,
    count: int,
    tries: int,
    heard: Heard = (),
    tendencies: tuple[Tendency, ...] | None = None,
    likelihood: Likelihood = action_likelihood,
    narrowed: bool = False,
) -> list[tuple[State, float]]:
    """Up to ``count`` worlds consistent with the view and with the señas ``heard`` from
    partners (``bots/senas.py``), each with its likelihood weight (the other seats' actions
    weighed by their ``tendencies``, when the seat has read them). Señas no world can agree
    with (a person may sign what he does not hold) are dropped rather than leave no world.
    ``narrowed``: the view's legal actions may be fewer than the seat's (``guard`` took a
    falta away), so a world need only allow them all."""
    me = view.seat
    assert me is not None
    players = view.rules.players
    known_played: list[list[Card]] = [[] for _ in range(players)]
    tapadas = [0] * players
    mine: set[int] = set(view.hand)
    for trick in (*view.tricks, view.plays):
        for who, card, _face_down in trick:
            if who == me:
                if card is not None:
                    mine.add(card)
            elif card is None:
                tapadas[who] += 1
            else:
                known_played[who].append(card)
    # Pata de gallo: the pie's discard. Mine is in my history; another seat's is an unseen card.
    discarded = [False] * players
    for who, text in view.history:
        if text.startswith("discard"):
            discarded[who] = True
            if who == me:
                mine.add(Action.parse(text).card)  # type: ignore[arg-type]
    seen = set(mine)
    for cards in known_played:
        seen.update(cards)
    # Truco Paulista: the vira is seen by all; in a mão de onze, the partners' cards too.
    if view.vira is not None:
        seen.add(view.vira)
    known_held: dict[int, list[Card]] = {s: list(cards) for s, cards in view.partners}
    for cards in known_held.values():
        seen.update(cards)
    deck = LIMPO_DECK if view.rules.baralho == "limpo" else DECK  # Paulista's 24 cards
    unseen = [c for c in deck if c not in seen]
    need = [
        0
        if s == me
        else view.hand_sizes[s] - len(known_held.get(s, ())) + tapadas[s] + discarded[s]
        for s in range(players)
    ]
    my_dealt = tuple(sorted(DECK[c] for c in mine))
    exact: dict[int, int] = {}
    flor_seats: dict[int, int] = {}
    for who, points, flor in view.declared:
        if who != me and points is not None:
            (flor_seats if flor else exact)[who] = points
    said = {who: t for who, t in told(heard).items() if who != me and need[who] > 0}
    start = start_state(view)
    history = view.history
    legal = view.legal
    worlds: list[tuple[State, float]] = []
    attempts = 0
    while len(worlds) < count and attempts < tries:
        attempts += 1
        fixed: dict[int, list[Card]] = {}
        extra = 1.0
        rest = unseen
        if said:
            drawn_partners = _draw_partners(said, known_played, need, unseen, rng)
            if drawn_partners is None:
                continue
            fixed, extra, rest = drawn_partners
        rng.shuffle(rest)
        pos = 0
        hands: list[tuple[Card, ...]] = []
        hidden_tapadas: list[list[Card]] = [[] for _ in range(players)]
        hidden_discards: list[Card | None] = [None] * players
        ok = True
        for s in range(players):
            if s == me:
                hands.append(my_dealt)
                continue
            if s in fixed:
                drawn = fixed[s]
            else:
                drawn = rest[pos : pos + need[s]]
                pos += need[s]
            if discarded[s]:
                hidden_discards[s] = drawn.pop()
            hidden_tapadas[s] = drawn[: tapadas[s]]
            kept = tuple(sorted(known_played[s] + known_held.get(s, []) + drawn))
            if s in exact and envido_points(kept) != exact[s]:
                ok = False
                break
            if s in flor_seats and flor_points(kept) != flor_seats[s]:
                ok = False
                break
            if s in said:
                extra *= quiet_weight(said[s], kept)
            discard = hidden_discards[s]
            hands.append(kept if discard is None else tuple(sorted((*kept, discard))))
        if not ok:
            continue
        world = _replay(
            start,
            hands,
            history,
            hidden_tapadas,
            hidden_discards,
            me,
            view.vira,
            tendencies,
            likelihood,
        )
        if world is None:
            continue
        state = world[0]
        if state.declared != view.declared or to_act(state) != me:
            continue
        # The same actions, in whatever order: a hand written by a person (a hand history) need
        # not list its cards in the order the engine deals them.
        same = state.legal == legal or set(state.legal) == set(legal)
        if not same and not (narrowed and set(legal) <= set(state.legal)):
            continue
        worlds.append((state, world[1] * extra))
    if said and not worlds:
        return sample_worlds(view, rng, count, tries, (), tendencies, likelihood, narrowed)
    return worlds


def _draw_partners(
    said: dict[int, Told],
    known_played: list[list[Card]],
    need: list[int],
    unseen: list[Card],
    rng: Random,
) -> tuple[dict[int, list[Card]], float, list[Card]] | None:
    """The unseen cards of each partner who made señas, drawn to agree with them, the weight
    that keeps the draw uniform, and the cards left for the other seats."""
    fixed: dict[int, list[Card]] = {}
    weight = 1.0
    rest = list(unseen)
    for who, t in said.items():
        got = draw_hand(t, known_played[who], rest, need[who], rng)
        if got is None:
            return None
        fixed[who], w = got
        weight *= w
        taken = set(fixed[who])
        rest = [c for c in rest if c not in taken]
    return fixed, weight, rest


def _replay(
    start: State,
    hands: list[tuple[Card, ...]],
    history: tuple[tuple[int, str], ...],
    hidden_tapadas: list[list[Card]],
    hidden_discards: list[Card | None],
    me: int,
    vira: Card | None = None,
    tendencies: tuple[Tendency, ...] | None = None,
    likelihood: Likelihood = action_likelihood,
) -> tuple[State, float] | None:
    try:
        state = apply(start, Deal(tuple(hands), vira)).state
    except TrucoError:
        return None
    weight = 1.0
    used = [0] * len(hands)
    for who, text in history:
        if text == _TAPADA_TEXT:
            action = TAPADA[hidden_tapadas[who][used[who]]]
            used[who] += 1
        elif text == _DISCARD_TEXT:
            card = hidden_discards[who]
            if card is None:
                return None
            action = DISCARD[card]
        else:
            action = Action.parse(text)
        if action not in state.legal or to_act(state) != who:
            return None
        if who != me:
            tendency = None if tendencies is None else tendencies[who]
            weight *= likelihood(state, who, action, tendency)
        state = apply(state, action).state
    return state, weight


__all__ = ["Likelihood", "action_likelihood", "sample_worlds", "start_state"]

"""The expert: determinized search (PIMC) over the cards the seat has not seen.

For each decision it samples *worlds*: deals of the unseen cards to the other seats that agree
with everything the seat observed. A world is checked by replaying this hand's public history
from its start on the real engine (``new_match`` + ``Deal`` + the logged actions), so it must
reproduce every envido/flor declaration and "son buenas", every forced flor, and every action
must be legal in it. Each world is weighted by how likely the other seats' calls and answers
were with those cards (a soft model: envido calls and answers by points, passing on envido,
truco calls and answers by hand strength). Every candidate action is then applied in every
world and the hand is played out with the rule-of-thumb policy (each seat using only its own
cards of that world); the result is scored as the probability of winning the match from the
score after the hand (a match-equity table), not as raw points.

Budgets are iteration counts (worlds), never wall-clock, so a seeded game is reproducible.
States are immutable tuples: ``apply`` returns new ones, so nothing is ever deep-copied.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from random import Random

from truco.actions import (
    DISCARD,
    ENVIDO,
    ENVIDO_CALLS,
    MAZO,
    TAPADA,
    Action,
    Deal,
    Verb,
)
from truco.bots.context import card_ranks, ctx_of_state, ctx_of_view
from truco.bots.equity import match_equity
from truco.bots.policy import DEFAULT, Style, decide, ranked_discards, senseless
from truco.bots.strength import win_prob
from truco.cards import DECK, Card, envido_points, flor_points
from truco.engine import apply, to_act
from truco.errors import TrucoError
from truco.rules import Rules
from truco.state import DEAL, OVER, State, new_match
from truco.view import SeatView

ROLLOUT_STYLE = Style(bluff=0.06, caution=0.4)
WORLDS = 24
"""Worlds per decision of the plain search (the 1x of the arena's ``expert*K``)."""
TRIES = 400
"""Deals drawn at most to find them (the rest are rejected as inconsistent with the view)."""
EXPERTO_WORLDS: dict[tuple[str, int], int] = {
    ("standard", 2): 8 * WORLDS,
    ("standard", 4): 4 * WORLDS,
    ("standard", 6): 3 * WORLDS,
    ("pata_de_gallo", 3): 4 * WORLDS,
    ("destantado", 3): 4 * WORLDS,
    ("pica_pica", 6): 3 * WORLDS,
    ("paulista", 2): 8 * WORLDS,
    ("paulista", 4): 4 * WORLDS,
    ("paulista", 6): 3 * WORLDS,
}
"""Worlds per decision of ``experto`` by (variant, players): as many as keep its decisions within
the time budget on one core (docs/bots.md, "Time per decision"); a mode not listed gets
``WORLDS``."""
ROLLOUTS: dict[str, Style] = {
    "rules": ROLLOUT_STYLE,
    "honest": ROLLOUT_STYLE._replace(bluff=0.0),
    "simple": DEFAULT,
}
"""Rollout policies the search may play its worlds out with, by name (the arena's
``expert*K/NAME``): the default, the same without bluffs, and ``simple``'s own knobs."""
_BETS = frozenset((Verb.TRUCO, Verb.RETRUCO, Verb.VALE_CUATRO, Verb.SEIS, Verb.NOVE, Verb.DOZE))
"""The truco calls of both games (Truco Paulista's seis, nove, doze)."""
_ACCEPT = frozenset((Verb.QUIERO, Verb.DESCE, Verb.JOGA))
_DECLINE = frozenset((Verb.NO_QUIERO, Verb.CORRE))
_TAPADA_TEXT = "tapada ??"
_DISCARD_TEXT = "discard ??"


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def action_likelihood(state: State, seat: int, action: Action) -> float:
    """How likely ``seat`` (holding its cards in ``state``) was to take ``action``: a soft model
    used to weight sampled worlds, never below a floor (anybody may bluff)."""
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
    if verb in _BETS or verb in _ACCEPT or verb in _DECLINE:
        p = win_prob(ctx_of_state(state, seat))
        if verb in _BETS:
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


def _start_state(view: SeatView) -> State:
    """The match as it stood before this hand's deal: the score less what the hand gave (in
    destantado, the porotos passed), the same mano, and in pica-pica the same 1v1 hand."""
    score = tuple(s - p for s, p in zip(view.score, view.hand_points, strict=True))
    return new_match(view.rules, mano=view.mano, score=score, pica=view.pica)


def sample_worlds(view: SeatView, rng: Random, count: int, tries: int) -> list[tuple[State, float]]:
    """Up to ``count`` worlds consistent with the view, each with its likelihood weight."""
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
    unseen = [c for c in DECK if c not in seen]
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
    start = _start_state(view)
    history = view.history
    legal = view.legal
    worlds: list[tuple[State, float]] = []
    attempts = 0
    while len(worlds) < count and attempts < tries:
        attempts += 1
        rng.shuffle(unseen)
        pos = 0
        hands: list[tuple[Card, ...]] = []
        hidden_tapadas: list[list[Card]] = [[] for _ in range(players)]
        hidden_discards: list[Card | None] = [None] * players
        ok = True
        for s in range(players):
            if s == me:
                hands.append(my_dealt)
                continue
            drawn = unseen[pos : pos + need[s]]
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
            discard = hidden_discards[s]
            hands.append(kept if discard is None else tuple(sorted((*kept, discard))))
        if not ok:
            continue
        world = _replay(start, hands, history, hidden_tapadas, hidden_discards, me, view.vira)
        if world is None:
            continue
        state = world[0]
        if state.declared != view.declared or to_act(state) != me:
            continue
        # The same actions, in whatever order: a hand written by a person (a hand history) need
        # not list its cards in the order the engine deals them.
        if state.legal != legal and set(state.legal) != set(legal):
            continue
        worlds.append(world)
    return worlds


def _replay(
    start: State,
    hands: list[tuple[Card, ...]],
    history: tuple[tuple[int, str], ...],
    hidden_tapadas: list[list[Card]],
    hidden_discards: list[Card | None],
    me: int,
    vira: Card | None = None,
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
            weight *= action_likelihood(state, who, action)
        state = apply(state, action).state
    return state, weight


def rollout(state: State, seat: int, rng: Random, style: Style = ROLLOUT_STYLE) -> float:
    """Play the hand out with the rule-of-thumb policy; the match equity of ``seat`` after it
    (his team's, in team play)."""
    random = rng.random
    while state.phase == 1:
        legal = state.legal
        if len(legal) == 1:
            action = legal[0]
        else:
            call = state.tanto_call or state.truco_call
            actor = call[2] if call is not None else state.turn
            action = decide(ctx_of_state(state, actor), legal, random(), style)
        state = apply(state, action).state
    if state.phase == OVER:
        mine = seat if state.rules.individual else state.teams[seat]
        return 1.0 if state.winner == mine else 0.0
    assert state.phase == DEAL
    return match_equity(state.rules, state.score, seat, state.teams)


def candidates(view: SeatView, legal: tuple[Action, ...]) -> list[Action]:
    """The actions worth searching: no face-down card but the lowest, no needless mazo."""
    if legal[0].verb is Verb.DISCARD:
        # Pata de gallo: search only the two discards that leave the best three by rule.
        return ranked_discards(ctx_of_view(view), legal)[:2]
    out: list[Action] = []
    ranks = card_ranks(view.rules, -1 if view.vira is None else view.vira)
    lowest = min(view.hand, key=ranks.__getitem__) if view.hand else None
    for a in legal:
        if a.verb is Verb.TAPADA and a.card != lowest:
            continue
        if a is MAZO and (view.truco_call is not None or view.truco == 1):
            continue  # no-quiero does the same, and with no truco playing on costs nothing more
        out.append(a)
    return out or list(legal)


class ExpertBot:
    """PIMC over sampled worlds, scored by match equity."""

    name = "expert"

    def __init__(
        self,
        worlds: int = WORLDS,
        tries: int = TRIES,
        margin: float = 0.01,
        name: str = "expert",
        bet_share: float = 0.25,
        sane: bool = False,
        rollout: Style = ROLLOUT_STYLE,
        by_mode: Mapping[tuple[str, int], int] | None = None,
    ) -> None:
        self.name = name
        self.bet_share = bet_share
        """How often it bets when betting is about as good as not (a persona's style)."""
        self.sane = sane
        """Never search an absurd action (``policy.senseless``): the personas are sane; the
        plain expert keeps playing as it always has."""
        self.style = DEFAULT._replace(sane=sane)
        self.worlds = worlds
        self.tries = tries
        self.margin = margin
        self.rollout = rollout
        """The style every seat plays the sampled worlds out with."""
        self.by_mode = by_mode
        """Worlds by (variant, players), overriding ``worlds`` (``EXPERTO_WORLDS``); the tries
        scale with them."""

    def budget(self, rules: Rules) -> tuple[int, int]:
        """The worlds and the tries of a decision at a table with these rules."""
        if not self.by_mode:
            return self.worlds, self.tries
        worlds = self.by_mode.get((rules.variant, rules.players), self.worlds)
        return worlds, max(1, round(self.tries * worlds / self.worlds))

    def choose(self, view: SeatView, legal: tuple[Action, ...], rng: Random) -> Action:
        seed = rng.getrandbits(64)
        if len(legal) == 1:
            return legal[0]
        cands = candidates(view, legal)
        if self.sane:
            ctx = ctx_of_view(view)
            cands = [a for a in cands if not senseless(ctx, legal, a)] or cands
        if len(cands) == 1:
            return cands[0]
        sampler = Random(seed)
        worlds = sample_worlds(view, sampler, *self.budget(view.rules))
        if not worlds:
            return decide(ctx_of_view(view), legal, sampler.random(), self.style)
        seat = view.seat
        assert seat is not None
        totals = [0.0] * len(cands)
        weight_sum = 0.0
        for state, weight in worlds:
            if weight <= 0.0:
                continue
            weight_sum += weight
            world_seed = sampler.getrandbits(32)
            for i, action in enumerate(cands):
                # Common random numbers: every candidate sees the same rollout draws.
                value = rollout(apply(state, action).state, seat, Random(world_seed), self.rollout)
                totals[i] += weight * value
        if weight_sum <= 0.0:
            return decide(ctx_of_view(view), legal, sampler.random(), self.style)
        values = [t / weight_sum for t in totals]
        best = max(values)
        # Mix among near-equal actions so that the choice cannot be read from the cards.
        close = [a for a, v in zip(cands, values, strict=True) if v >= best - self.margin]
        if len(close) > 1:
            calls = [a for a in close if a.verb in _BETS or a in ENVIDO_CALLS]
            quiet = [a for a in close if a not in calls]
            if calls and quiet:
                # Bet about a quarter of the time when betting is as good as not (research 3.3).
                pool = calls if sampler.random() < self.bet_share else quiet
            else:
                pool = close
            top = max(values[cands.index(a)] for a in pool)
            pool = [a for a in pool if values[cands.index(a)] >= top - self.margin / 2]
            return pool[sampler.randrange(len(pool))]
        return cands[values.index(best)]


__all__ = ["ROLLOUTS", "ExpertBot", "action_likelihood", "candidates", "rollout", "sample_worlds"]

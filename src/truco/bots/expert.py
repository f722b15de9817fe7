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
from truco.bots.policy import (
    DEFAULT,
    TRUCO_BETS,
    Style,
    accepts_beyond,
    bluffs,
    decide,
    ranked_discards,
    senseless,
)
from truco.bots.rivals import ROLLOUT_STYLE, Reading, Tendency
from truco.bots.senas import (
    ENVIDO_ALTO,
    PROMISED_ENVIDO,
    SHOWN,
    Heard,
    Told,
    card_kind,
    draw_hand,
    kinds,
    quiet_weight,
    told,
)
from truco.bots.strength import win_prob
from truco.cards import DECK, Card, envido_points, flor_points
from truco.engine import apply, to_act
from truco.errors import TrucoError
from truco.manilhas import LIMPO_DECK
from truco.rules import Rules
from truco.state import DEAL, OVER, State, new_match
from truco.view import SeatView

WORLDS = 24
"""Worlds per decision of the plain search (the 1x of the arena's ``expert*K``)."""
TRIES = 400
"""Deals drawn at most to find them (the rest are rejected as inconsistent with the view)."""
EXPERTO_WORLDS: dict[tuple[str, int], int] = {
    ("standard", 2): 8 * WORLDS,
    ("standard", 4): 3 * WORLDS,
    ("standard", 6): 2 * WORLDS,
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
_ACCEPT = frozenset((Verb.QUIERO, Verb.DESCE, Verb.JOGA))
_DECLINE = frozenset((Verb.NO_QUIERO, Verb.CORRE))
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


def _start_state(view: SeatView) -> State:
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
) -> list[tuple[State, float]]:
    """Up to ``count`` worlds consistent with the view and with the señas ``heard`` from
    partners (``bots/senas.py``), each with its likelihood weight (the other seats' actions
    weighed by their ``tendencies``, when the seat has read them). Señas no world can agree
    with (a person may sign what he does not hold) are dropped rather than leave no world."""
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
    start = _start_state(view)
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
            start, hands, history, hidden_tapadas, hidden_discards, me, view.vira, tendencies
        )
        if world is None:
            continue
        state = world[0]
        if state.declared != view.declared or to_act(state) != me:
            continue
        # The same actions, in whatever order: a hand written by a person (a hand history) need
        # not list its cards in the order the engine deals them.
        if state.legal != legal and set(state.legal) != set(legal):
            continue
        worlds.append((state, world[1] * extra))
    if said and not worlds:
        return sample_worlds(view, rng, count, tries, (), tendencies)
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
            weight *= action_likelihood(state, who, action, tendency)
        state = apply(state, action).state
    return state, weight


Signs = tuple[tuple[tuple[tuple[Card, int], ...], int], ...]
"""Per seat, what its partners' señas told it in a world: (card shown, its holder) pairs and the
envido promised (0: none)."""


def world_signs(state: State) -> Signs | None:
    """What each seat of a sampled world would know from its partners' señas, made as a bot
    makes them (``senas.due``) from the world's dealt hands; None where nobody signs (1 vs 1,
    each on his own)."""
    teams = state.teams
    if state.rules.players < 4 or len(set(teams)) != 2 or state.rules.game == "paulista":
        return None
    shown: list[tuple[tuple[Card, int], ...]] = []
    out: list[tuple[tuple[tuple[Card, int], ...], int]] = []
    for p in range(len(teams)):
        dealt = state.dealt[p]
        best = kinds(dealt)[:SHOWN]
        shown.append(tuple((c, p) for k in best for c in dealt if card_kind(c) == k))
    for s in range(len(teams)):
        mates = [p for p in range(len(teams)) if p != s and teams[p] == teams[s]]
        cards = tuple(pair for p in mates for pair in shown[p])
        tantos = max((envido_points(state.dealt[p]) for p in mates), default=0)
        out.append((cards, PROMISED_ENVIDO if tantos >= ENVIDO_ALTO else 0))
    return tuple(out)


def rollout(
    state: State,
    seat: int,
    rng: Random,
    style: Style = ROLLOUT_STYLE,
    styles: tuple[Style, ...] | None = None,
    signs: Signs | None = None,
) -> float:
    """Play the hand out with the rule-of-thumb policy; the match equity of ``seat`` after it
    (his team's, in team play). ``styles``: each seat's knobs (a rival as the seat reads it),
    else ``style`` for every seat. ``signs``: each seat also knows what its partners signed
    (``world_signs``), the cards while its holder still has them."""
    random = rng.random
    while state.phase == 1:
        legal = state.legal
        if len(legal) == 1:
            action = legal[0]
        else:
            call = state.tanto_call or state.truco_call
            actor = call[2] if call is not None else state.turn
            knobs = style if styles is None else styles[actor]
            ctx = ctx_of_state(state, actor)
            if signs is not None:
                told_cards, promised = signs[actor]
                held = tuple(c for c, p in told_cards if c in state.hands[p])
                ctx = ctx._replace(partner_cards=held, partner_tantos=promised)
            action = decide(ctx, legal, random(), knobs)
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
        reads: bool = True,
        signals: bool = True,
        signed_rollouts: bool = True,
        rollout: Style = ROLLOUT_STYLE,
        by_mode: Mapping[tuple[str, int], int] | None = None,
        tell: Style | None = None,
        honest: bool = True,
    ) -> None:
        self.name = name
        self.tell = tell
        """Bets and accepts only where a player of this style would (``policy.bluffs``,
        ``policy.accepts_beyond``): never bluffs, never holds a call with less than the style
        accepts with, however the search values it. Difícil's tell (docs/bots.md, "The
        ladder"): a rival who reads it plays against it. None: the search alone decides. Not
        in Truco Paulista, whose rules of thumb are others."""
        self.honest = honest
        """With a tell, it never bluffs either; a bluffer (difícil's mentiroso) bluffs as the
        search likes, and its tell is in its answers alone."""
        self.signals = signals
        """Makes señas to its partners and reads theirs (``bots/senas.py``); without, it
        neither makes nor reads any (the arena's ``expert-sin-senas``)."""
        self.signed_rollouts = signed_rollouts
        """The rollouts' seats know their partners' señas (as the tables now sign)."""
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
        self.reads = reads
        self.reading = Reading()
        """What it has seen of its rivals this match (``rivals``): fed by ``watch``."""

    def watch(self, view: SeatView) -> None:
        """See the end of a hand (the seat's view between hands) and learn the rivals from it
        (unless it does not read them: ``expert-blind``, the expert as it was, for the arena)."""
        if self.reads:
            self.reading.watch(view)

    def budget(self, rules: Rules) -> tuple[int, int]:
        """The worlds and the tries of a decision at a table with these rules."""
        if not self.by_mode:
            return self.worlds, self.tries
        worlds = self.by_mode.get((rules.variant, rules.players), self.worlds)
        return worlds, max(1, round(self.tries * worlds / self.worlds))

    def choose(self, view: SeatView, legal: tuple[Action, ...], rng: Random) -> Action:
        return self.hear(view, legal, rng, ())

    def hear(self, view: SeatView, legal: tuple[Action, ...], rng: Random, heard: Heard) -> Action:
        """``choose`` with the señas the seat received in this hand: its partners' hidden cards
        are sampled to agree with them."""
        if not self.signals:
            heard = ()
        seed = rng.getrandbits(64)
        if len(legal) == 1:
            return legal[0]
        cands = candidates(view, legal)
        # The tell's thresholds are the Argentine policy's: in Truco Paulista the search decides.
        tell = self.tell if view.rules.game != "paulista" else None
        if self.sane or tell is not None:
            ctx = ctx_of_view(view)
        if self.sane:
            cands = [a for a in cands if not senseless(ctx, legal, a)] or cands
        if tell is not None:
            honest = self.honest
            cands = [
                a
                for a in cands
                if not (honest and bluffs(ctx, a, tell)) and not accepts_beyond(ctx, a, tell)
            ] or cands
        if len(cands) == 1:
            return cands[0]
        sampler = Random(seed)
        seat = view.seat
        assert seat is not None
        tendencies: tuple[Tendency, ...] | None = None
        styles: tuple[Style, ...] | None = None
        if self.reading.types:
            tendencies = self.reading.tendencies(view.rules.players)
            styles = tuple(self.rollout if s == seat else t.style for s, t in enumerate(tendencies))
        worlds = sample_worlds(view, sampler, *self.budget(view.rules), heard, tendencies)
        if not worlds:
            return decide(ctx_of_view(view), legal, sampler.random(), self.style)
        totals = [0.0] * len(cands)
        weight_sum = 0.0
        for state, weight in worlds:
            if weight <= 0.0:
                continue
            weight_sum += weight
            world_seed = sampler.getrandbits(32)
            # Where people sign, the rollouts' seats know their partners' señas too.
            signs = world_signs(state) if self.signals and self.signed_rollouts else None
            for i, action in enumerate(cands):
                # Common random numbers: every candidate sees the same rollout draws.
                after = apply(state, action).state
                value = rollout(
                    after, seat, Random(world_seed), self.rollout, styles=styles, signs=signs
                )
                totals[i] += weight * value
        if weight_sum <= 0.0:
            return decide(ctx_of_view(view), legal, sampler.random(), self.style)
        values = [t / weight_sum for t in totals]
        best = max(values)
        # Mix among near-equal actions so that the choice cannot be read from the cards.
        close = [a for a, v in zip(cands, values, strict=True) if v >= best - self.margin]
        if len(close) > 1:
            calls = [a for a in close if a.verb in TRUCO_BETS or a in ENVIDO_CALLS]
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

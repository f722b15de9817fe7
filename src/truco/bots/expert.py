"""The expert: determinized search (PIMC) over the cards the seat has not seen.

For each decision it samples *worlds* (``worlds.sample_worlds``): deals of the unseen cards to
the other seats that agree with everything the seat observed, each weighted by how likely the
other seats' calls and answers were with those cards. Every candidate action is then applied in
every world and the hand is played out (each seat using only its own cards of that world); the
result is scored as the probability of winning the match from the score after the hand (a
match-equity table), not as raw points.

Where a blueprint covers the table (``blueprint``: 1v1, and team play carried over), the other
seats are modelled by it: the worlds are weighed by the blueprint's probabilities of their calls
and answers, and every seat plays the rollouts by the blueprint. The reading (``rivals``) weighs
the blueprint against the rules of thumb's types as models of each rival: a rival is modelled by
its read type as far as what it showed makes that likelier than the blueprint (``Reading.lean``,
0 for a rival never seen), and at least by ``FLOOR`` in the experto (``expert``): a rival it has
not read yet is taken as half the blueprint, half the rules of thumb most players follow, and
one that has shown what he plays is punished for it (``expert-blueprint``, the blueprint alone
until a rival shows otherwise; ``explotador`` reads nobody). Elsewhere (the three-player
variants; ``expert-pimc``, the experto before the blueprint) both come from the rules of thumb
(``policy``).

Budgets are iteration counts (worlds), never wall-clock, so a seeded game is reproducible.
States are immutable tuples: ``apply`` returns new ones, so nothing is ever deep-copied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random

from truco.actions import ENVIDO_CALLS, MAZO, Action, Verb
from truco.bots.base import Situation
from truco.bots.blueprint.policy import blueprint_for, likelihood, play_out
from truco.bots.blueprint.store import Blueprint
from truco.bots.context import card_ranks, ctx_of_state, ctx_of_view
from truco.bots.equity import equity_after
from truco.bots.knobs import DEFAULT, Style
from truco.bots.policy import (
    TRUCO_BETS,
    accepts_beyond,
    bluffs,
    decide,
    ranked_discards,
    senseless,
)
from truco.bots.rivals import ROLLOUT_STYLE, Reading, Tendency
from truco.bots.senas import ENVIDO_ALTO, PROMISED_ENVIDO, SHOWN, card_kind, kinds
from truco.bots.worlds import Likelihood, action_likelihood, sample_worlds
from truco.cards import Card, envido_points
from truco.engine import apply
from truco.rules import Rules
from truco.state import State
from truco.view import SeatView

WORLDS = 24
"""Worlds per decision of the plain search (the 1x of the arena's ``expert*K``)."""
FLOOR = 0.5
"""The experto's least share of a rival's decisions modelled by the rules of thumb (its read
type, or ``simple``'s knobs before it has shown one), one-on-one: against ``simple`` 81.3% of
1,000 (the blueprint alone: 69.0% of their first 200), against ``expert-pimc`` 55.9% of 800
instead of 49.6% (docs/bots-measured.md, "The floor")."""
TRIES = 400
"""Deals drawn at most to find them (the rest are rejected as inconsistent with the view)."""
EXPERTO_WORLDS: dict[tuple[str, int], int] = {
    ("standard", 2): 6 * WORLDS,  # the blueprint's rollouts cost about 30% more than the rules'
    ("standard", 4): 3 * WORLDS,
    ("standard", 6): 2 * WORLDS,
    ("pata_de_gallo", 3): 4 * WORLDS,
    ("destantado", 3): 4 * WORLDS,
    ("pica_pica", 6): 2 * WORLDS,
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


def blueprint_likelihood(bp: Blueprint, leans: Sequence[float] | None = None) -> Likelihood:
    """The worlds' weights by the blueprint: a rival's action as likely as the blueprint makes it
    with the world's cards, moved toward the rules-of-thumb model of the rival's read type by
    its lean (``rivals.Reading.lean``: how surely it has shown that it plays otherwise); where
    the blueprint has no entry, the rules-of-thumb model alone."""

    def weigh(state: State, seat: int, action: Action, tendency: Tendency | None) -> float:
        base = likelihood(bp, state, seat, action)
        if base is None:
            return action_likelihood(state, seat, action, tendency)
        lean = 0.0 if leans is None else leans[seat]
        if lean <= 0.0:
            return base
        return (1.0 - lean) * base + lean * action_likelihood(state, seat, action, tendency)

    return weigh


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
    return equity_after(state, seat)


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
        blueprint: bool = False,
        carry: bool = True,
        floor: float = 0.0,
    ) -> None:
        self.name = name
        self.blueprint = blueprint
        """Models the other seats by the blueprint where one covers the table (the module's
        docstring); False: by the rules of thumb (``expert-pimc``, the expert as it was)."""
        self.floor = floor
        """On the blueprint, the least share of a rival's decisions modelled by the rules of
        thumb (its read type; ``simple``'s knobs before it has shown one), in the weights and
        the rollouts alike: 0 models a rival never seen by the blueprint alone, 0.5 by the two
        models evenly (the experto, ``FLOOR``). Argentine 1v1 only: 0 at team tables and in
        Truco Paulista."""
        self.carry = carry
        """In team play too, the 1v1 blueprint read from the seat's side (docs/bots.md,
        "Teams")."""
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
        """Plays by what its seat has read of its rivals (``rivals``); ``expert-blind``, the
        expert as it was, reads nobody (for the arena)."""

    def fresh_reading(self) -> Reading | None:
        """The reading its seat keeps over a match: the rivals' types (``rivals.Reading``)."""
        return Reading() if self.reads else None

    def budget(self, rules: Rules) -> tuple[int, int]:
        """The worlds and the tries of a decision at a table with these rules."""
        if not self.by_mode:
            return self.worlds, self.tries
        worlds = self.by_mode.get((rules.variant, rules.players), self.worlds)
        return worlds, max(1, round(self.tries * worlds / self.worlds))

    def choose(self, told: Situation, rng: Random) -> Action:
        """The search's choice; the partners' hidden cards are sampled to agree with the señas
        the seat received in this hand, the rivals' actions weighed by the seat's reading."""
        view, legal = told.view, told.legal
        heard = told.heard if self.signals else ()
        reading = told.reading if self.reads else None
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
        if reading is not None and reading.types:
            tendencies = reading.tendencies(view.rules.players)
            styles = tuple(self.rollout if s == seat else t.style for s, t in enumerate(tendencies))
        bp = blueprint_for(view.rules, self.carry) if self.blueprint else None
        leans: tuple[float, ...] | None = None
        read = reading is not None and bool(reading.types)
        players = view.rules.players
        # The floor is for one Argentine rival alone: at team tables it lost to expert-pimc
        # where the blueprint alone was even (docs/bots-measured.md, "The floor"), and Truco
        # Paulista's rules of thumb are others.
        floor = self.floor if players == 2 and view.rules.game != "paulista" else 0.0
        if bp is not None and (read or floor > 0.0):
            # A rival moves from the blueprint toward its read type as far as it has shown it,
            # and at least by the floor (toward the rules of thumb while nothing is read).
            shown = reading.leans(players) if reading is not None and read else (0.0,) * players
            leans = tuple(0.0 if s == seat else max(floor, x) for s, x in enumerate(shown))
            if styles is None:
                styles = (self.rollout,) * players
        weigh = action_likelihood if bp is None else blueprint_likelihood(bp, leans)
        worlds = sample_worlds(
            view, sampler, *self.budget(view.rules), heard, tendencies, likelihood=weigh
        )
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
                if bp is not None:
                    value = play_out(bp, after, seat, Random(world_seed), styles, leans)
                    totals[i] += weight * value
                    continue
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


__all__ = [
    "ROLLOUTS",
    "ExpertBot",
    "blueprint_likelihood",
    "candidates",
    "rollout",
    "world_signs",
]

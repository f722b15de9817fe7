"""The kinds of rival the expert can tell apart, and how likely each made the actions it saw.

A *type* is a setting of the rule-of-thumb policy's knobs (``policy.Style``): how often it
bluffs, from how many envido points and what hand strength it calls, how cautious its answers
are, or one of the two extremes (accepts every call; raises whenever it may). The grid spans
the knobs from a rival who never bluffs and folds anything short of strong to one who bluffs a
quarter of the time and accepts almost anything, with today's assumption (``ROLLOUT_STYLE``)
at its centre.

At the end of each hand the seat's view shows the hand's public history and the cards that were
seen (played face up, shown for the tantos). ``hand_evidence`` deals the cards it did not see
to the other seats a few times, consistently with everything seen and declared, replays the
hand on the engine and asks, at each decision of a rival, how likely each type was to take the
action it took (the policy is deterministic given one uniform draw, so that chance is exact:
the share of draws that give the action). Averaged over the deals, that is the likelihood of
the hand's actions under each type; ``Posterior`` adds it up over the match. A small share of
every type's choices is spread over all the legal actions, so that nobody, a person least of
all, is ever ruled out by one odd move.

Beside the types, one more model may be weighed (``Extra``): the blueprint, where one covers the
table (``rivals.read_hand``). Its column is the last of the evidence and of ``Posterior``, with
the prior ``BLUEPRINT_PRIOR``; ``Posterior.blueprint`` is how likely the rival plays like it.

Unlike counting showdowns, this reads every decision, the quiet ones too: a rival who plays a
card without calling the envido it holds, who declines our truco, who answers with the cards it
later shows.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise
from random import Random
from typing import NamedTuple

from truco.actions import TAPADA, Action, Deal, Verb
from truco.bots.context import ctx_of_state
from truco.bots.knobs import Style
from truco.bots.policy import decide
from truco.cards import DECK, Card, envido_points, flor_points
from truco.engine import apply, to_act
from truco.errors import TrucoError
from truco.manilhas import LIMPO_DECK
from truco.rules import Rules
from truco.state import State, new_match
from truco.variants import variant_of
from truco.view import SeatView

ROLLOUT_STYLE = Style(bluff=0.06, caution=0.4)
"""How the expert's rollouts play every seat (today's assumption about any rival)."""

NOISE = 0.05
"""The share of a type's choices spread evenly over the legal actions (nobody is a machine)."""
DEALS = 6
"""Deals of the unseen cards per hand, to average the likelihood over."""
TRIES = 60
"""Deals drawn at most to find them."""


class RivalType(NamedTuple):
    key: str
    style: Style
    prior: float


def _grid() -> tuple[RivalType, ...]:
    # Each knob: today's value (weight 0.5) and one step to each side (0.25 each).
    bluffs = ((0.0, 0.25), (ROLLOUT_STYLE.bluff, 0.5), (0.25, 0.25))
    envidos = ((25, 0.25), (ROLLOUT_STYLE.envido_call, 0.5), (29, 0.25))
    trucos = ((0.6, 0.25), (ROLLOUT_STYLE.truco_call, 0.5), (0.8, 0.25))
    cautions = ((0.0, 0.25), (ROLLOUT_STYLE.caution, 0.5), (1.0, 0.25))
    out: list[RivalType] = []
    for bluff, pb in bluffs:
        for envido, pe in envidos:
            for truco, pt in trucos:
                for caution, pc in cautions:
                    style = ROLLOUT_STYLE._replace(
                        bluff=bluff, envido_call=envido, truco_call=truco, caution=caution
                    )
                    key = f"b{bluff:g}-e{envido}-t{truco:g}-c{caution:g}"
                    out.append(RivalType(key, style, 0.9 * pb * pe * pt * pc))
    out.append(RivalType("always-quiero", ROLLOUT_STYLE._replace(always_quiero=True), 0.05))
    out.append(RivalType("always-raise", ROLLOUT_STYLE._replace(always_raise=True), 0.05))
    return tuple(out)


TYPES = _grid()
"""Every type the reading weighs, with its prior (they sum to 1)."""
NEUTRAL_TYPE = next(i for i, t in enumerate(TYPES) if t.style == ROLLOUT_STYLE)
"""Today's assumption: the type with the largest prior."""


def _cuts(style: Style) -> list[float]:
    """The draws at which the policy's choice may change for this style (its bluffs and its
    loose acceptances, in every variant), so that one draw inside each piece stands for it."""
    b, c = style.bluff, style.caution
    cuts = {b, 1.0 - b, 2 * b, 1.0 - 2 * b, 0.24 * (1.0 - c), 0.1 * (1.0 - c)}
    return sorted({0.0, 1.0, *(x for x in cuts if 0.0 < x < 1.0)})


_PIECES = [
    [((lo + hi) / 2, hi - lo) for lo, hi in pairwise(cuts)]
    for cuts in (_cuts(t.style) for t in TYPES)
]
SLIPS = (-0.06, 0.06)
"""How far off its thresholds a rival may decide, both ways (``decide``'s misreading: its hand
strength off by this, its envido points by ten times it): nobody's thresholds are sharp, and
one decision at the edge of a knob must not settle the rival's type."""
_QUIET = frozenset((Verb.PLAY, Verb.TAPADA, Verb.MAZO))


Extra = Callable[[State, int, Action], float | None]
"""Another model of a rival: the chance it takes the action (None: it has nothing to say, and
the column takes today's assumption's chance)."""
BLUEPRINT_PRIOR = 0.5
"""The prior that a rival plays like the blueprint (the extra model) rather than like one of the
types."""


def chances(state: State, seat: int, action: Action) -> list[float] | None:
    """For each type, the chance that ``seat`` (holding its cards in ``state``) takes ``action``
    among the legal ones, with ``NOISE``; None when every type would choose alike (no call or
    answer among the legal actions: the card played says nothing of the knobs)."""
    legal = state.legal
    if all(a.verb in _QUIET for a in legal):
        return None
    ctx = ctx_of_state(state, seat)
    floor = NOISE / len(legal)
    share = (1.0 - NOISE) / len(SLIPS)
    out: list[float] = []
    for t, pieces in zip(TYPES, _PIECES, strict=True):
        p = 0.0
        for slip in SLIPS:
            for draw, width in pieces:
                if decide(ctx, legal, draw, t.style, slip) == action:
                    p += width
        out.append(floor + share * p)
    return out


def _logmeanexp(rows: list[list[float]]) -> list[float]:
    out = []
    for col in zip(*rows, strict=True):
        top = max(col)
        out.append(top + math.log(sum(math.exp(x - top) for x in col) / len(col)))
    return out


def reads_types(rules: Rules) -> bool:
    """Whether a table's rivals can be read by type. Not at a team table: the rivals decide with
    their partners' señas, which the seat never sees, so the policy replayed here would misjudge
    them (not measured; left out). Not in pata de gallo: the pie's choice of three cards from
    four is not modelled here."""
    team_table = rules.players >= 4 and rules.game != "paulista"
    return not team_table and not variant_of(rules).pie_alone


def hand_evidence(
    view: SeatView, rng: Random, model: Extra | None = None
) -> dict[int, list[float]]:
    """Per rival seat, the log-likelihood of its actions in the finished hand of ``view`` under
    each type (``TYPES``), and under ``model`` last when given, averaged over deals of the cards
    the seat did not see. Empty when no deal agrees with the view (a hand history written by
    hand, say) or the rival took no decision."""
    me = view.seat
    assert me is not None
    players = view.rules.players
    rivals = [s for s in view.playing if view.teams[s] != view.teams[me]]
    if not rivals or not reads_types(view.rules):
        return {}
    known: list[list[Card]] = [[] for _ in range(players)]
    tapadas = [0] * players
    for trick in (*view.tricks, view.plays):
        for who, card, _down in trick:
            if card is None:
                tapadas[who] += 1
            elif card not in known[who]:
                known[who].append(card)
    known[me] = sorted({*known[me], *view.hand})
    for who, cards in view.shown:
        known[who].extend(c for c in cards if c not in known[who])
    for who, cards in view.partners:
        known[who].extend(c for c in cards if c not in known[who])
    seen = {c for cards in known for c in cards}
    if view.vira is not None:
        seen.add(view.vira)
    deck = LIMPO_DECK if view.rules.baralho == "limpo" else DECK
    unseen = [c for c in deck if c not in seen]
    points = {who: (pts, flor) for who, pts, flor in view.declared if pts is not None}
    start = new_match(
        view.rules,
        mano=view.mano,
        score=tuple(s - p for s, p in zip(view.score, view.hand_points, strict=True)),
        pica=view.pica,
    )
    dealt_size = _dealt_sizes(view)
    rows: dict[int, list[list[float]]] = {s: [] for s in rivals}
    hidden = any(dealt_size[s] > len(known[s]) for s in range(players) if s != me)
    for _ in range(TRIES):
        if len(next(iter(rows.values()))) >= (DEALS if hidden else 1):
            break
        rng.shuffle(unseen)
        pos = 0
        hands: list[tuple[Card, ...]] = []
        downs: list[list[Card]] = []
        ok = True
        for s in range(players):
            extra = max(0, dealt_size[s] - len(known[s]))
            drawn = unseen[pos : pos + extra]
            pos += extra
            hand = tuple(sorted(known[s] + drawn))
            if s in points:
                pts, flor = points[s]
                if (flor_points(hand) if flor else envido_points(hand)) != pts:
                    ok = False
                    break
            hands.append(hand)
            downs.append(drawn[: tapadas[s]] if s != me else [])
        if not ok or pos > len(unseen):
            continue
        logs = _replay_logs(start, hands, downs, view, rivals, model)
        if logs is None:
            continue
        for s in rivals:
            rows[s].append(logs[s])
    out: dict[int, list[float]] = {}
    for s, got in rows.items():
        if got and any(any(x != 0.0 for x in row) for row in got):
            out[s] = _logmeanexp(got)
    return out


def _dealt_sizes(view: SeatView) -> list[int]:
    """How many cards each seat was dealt: what it still holds, what it played, face down too."""
    played = [0] * view.rules.players
    for trick in (*view.tricks, view.plays):
        for who, _card, _down in trick:
            played[who] += 1
    return [view.hand_sizes[s] + played[s] for s in range(view.rules.players)]


def _replay_logs(
    start: State,
    hands: list[tuple[Card, ...]],
    downs: list[list[Card]],
    view: SeatView,
    rivals: list[int],
    model: Extra | None = None,
) -> dict[int, list[float]] | None:
    """Replay the hand in one deal; per rival, the summed log-chance of its decisions by type
    (and by ``model``). None when the deal cannot have been the hand's (an action illegal, a
    declaration unlike)."""
    try:
        state = apply(start, Deal(tuple(hands), view.vira)).state
    except TrucoError:
        return None
    columns = len(TYPES) + (0 if model is None else 1)
    logs = {s: [0.0] * columns for s in rivals}
    used = [0] * len(hands)
    for who, text in view.history:
        if text == "tapada ??":
            if used[who] >= len(downs[who]):
                return None
            action = TAPADA[downs[who][used[who]]]
            used[who] += 1
        else:
            action = Action.parse(text)
        if to_act(state) != who or action not in state.legal:
            return None
        odds = chances(state, who, action) if who in logs and len(state.legal) > 1 else None
        if odds is not None:
            row = logs[who]
            for i, p in enumerate(odds):
                row[i] += math.log(p)
            if model is not None:
                q = model(state, who, action)
                p = odds[NEUTRAL_TYPE] if q is None else NOISE / len(state.legal) + (1 - NOISE) * q
                row[-1] += math.log(p)
        state = apply(state, action).state
    if state.declared != view.declared:
        return None
    return logs


class Posterior:
    """What the seat makes of one rival's type over a match: the prior plus every hand's
    evidence, in logs."""

    def __init__(self) -> None:
        rest = 1.0 - BLUEPRINT_PRIOR
        self.logs = [math.log(rest * t.prior) for t in TYPES] + [math.log(BLUEPRINT_PRIOR)]
        self.hands = 0

    def add(self, evidence: list[float]) -> None:
        if len(evidence) == len(TYPES):
            # No blueprint was weighed (none covers the table): it says what the neutral type says.
            evidence = [*evidence, evidence[NEUTRAL_TYPE]]
        self.logs = [a + b for a, b in zip(self.logs, evidence, strict=True)]
        self.hands += 1

    def restore(self, logs: list[float], hands: int) -> None:
        """Sums kept elsewhere (a snapshot); an older one, without the blueprint's column, takes
        its prior."""
        if len(logs) == len(TYPES):
            rest = math.log(1.0 - BLUEPRINT_PRIOR)
            logs = [x + rest for x in logs] + [math.log(BLUEPRINT_PRIOR)]
        self.logs, self.hands = list(logs), hands

    def blueprint(self) -> float:
        """How likely the rival plays like the blueprint (the last column), all seen so far."""
        return self.probabilities()[-1]

    def probabilities(self) -> list[float]:
        top = max(self.logs)
        weights = [math.exp(x - top) for x in self.logs]
        total = sum(weights)
        return [w / total for w in weights]

    def style(self) -> Style:
        """The rival's knobs as read: one of the extremes when it is more likely than not,
        else each knob at its own most likely value (the knobs are told apart by different
        decisions, so each is surer than any one cell of the grid)."""
        probs = self.probabilities()[: len(TYPES)]
        for i, t in enumerate(TYPES):
            if (t.style.always_quiero or t.style.always_raise) and probs[i] > 0.5:
                return t.style
        knobs: list[dict[float, float]] = [{}, {}, {}, {}]
        for p, t in zip(probs, TYPES, strict=True):
            if t.style.always_quiero or t.style.always_raise:
                continue
            values = (t.style.bluff, t.style.envido_call, t.style.truco_call, t.style.caution)
            for k, v in zip(knobs, values, strict=True):
                k[v] = k.get(v, 0.0) + p
        bluff, envido, truco, caution = (max(k, key=k.__getitem__) for k in knobs)
        return ROLLOUT_STYLE._replace(
            bluff=bluff, envido_call=int(envido), truco_call=truco, caution=caution
        )


__all__ = [
    "BLUEPRINT_PRIOR",
    "NEUTRAL_TYPE",
    "ROLLOUT_STYLE",
    "TYPES",
    "Extra",
    "Posterior",
    "RivalType",
    "chances",
    "hand_evidence",
    "reads_types",
]

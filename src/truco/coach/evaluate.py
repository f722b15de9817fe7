"""One decision seen from the seat that made it: every legal action's match-win equity.

The worlds are the expert's (``truco.bots.worlds.sample_worlds``): deals of the cards the seat
had not seen that agree with the public history and every declaration, each weighted by how
likely the other seats' calls and answers were with those cards. Every legal action is applied
in every world and the hand played out; the same rollout draws for every action of a world
(common random numbers), so the differences between actions are not drowned by the luck of the
draws. Counts, never clocks: the same seed gives the same numbers.

Where a blueprint covers the table (``blueprint_for``: 1v1, and team play carried over), the
worlds are weighed by the blueprint's probabilities and every seat plays the hand out by it, as
the experto does: the "best" holds against a rival close to unexploitable, not only against the
rules of thumb. Elsewhere (and with ``blueprint=False``, the coach as it was) both are the rules
of thumb's (``action_likelihood``, ``expert.rollout``).
"""

from __future__ import annotations

from random import Random
from typing import NamedTuple

from truco.actions import Action
from truco.bots.base import Situation
from truco.bots.blueprint.policy import blueprint_for, play_out
from truco.bots.expert import ExpertBot, blueprint_likelihood, rollout
from truco.bots.worlds import action_likelihood, sample_worlds
from truco.engine import apply
from truco.view import SeatView

WORLDS = 320
"""Sampled worlds per decision by default: enough for the labels' thresholds to stand well above
the sampling noise (docs/coach.md), and a whole 1v1 hand still analysed in well under 2 s."""
TRIES_PER_WORLD = 40
"""Rejection sampling: deals tried per world wanted (declared points reject many deals)."""


class ActionValue(NamedTuple):
    """An action (its notation text) and the seat's match-win equity after it (0..1)."""

    action: str
    equity: float


def evaluate(
    view: SeatView, *, worlds: int = WORLDS, seed: int | str = 0, blueprint: bool = True
) -> tuple[ActionValue, ...]:
    """The equity of each of the view's legal actions, in the order of ``view.legal``; empty when
    the seat is not to act or no world agrees with the view (it cannot happen for a real view,
    but the sampler's budget of tries can run out)."""
    seat = view.seat
    legal = view.legal
    if seat is None or not legal:
        return ()
    sampler = Random(seed)
    bp = blueprint_for(view.rules, carry=True) if blueprint else None
    weigh = action_likelihood if bp is None else blueprint_likelihood(bp)
    found = sample_worlds(view, sampler, worlds, worlds * TRIES_PER_WORLD, likelihood=weigh)
    totals = [0.0] * len(legal)
    weight_sum = 0.0
    for state, weight in found:
        world_seed = sampler.getrandbits(32)
        if weight <= 0.0:
            continue
        weight_sum += weight
        for i, action in enumerate(legal):
            after = apply(state, action).state
            if bp is None:
                totals[i] += weight * rollout(after, seat, Random(world_seed))
            else:
                totals[i] += weight * play_out(bp, after, seat, Random(world_seed))
    if weight_sum <= 0.0:
        return ()
    return tuple(ActionValue(str(a), t / weight_sum) for a, t in zip(legal, totals, strict=True))


def best_of(values: tuple[ActionValue, ...]) -> ActionValue:
    """The highest equity; between equal ones, the first in the order of the legal actions."""
    return max(values, key=lambda v: v.equity)


def hint(view: SeatView, *, worlds: int = WORLDS, seed: int | str = 0) -> Action | None:
    """The "pista": the action the analysis ranks first for the seat's current decision (None
    when the seat is not to act). A forced action needs no search. Where the sampler's tries
    run out (a rare, tightly constrained position) it is the expert's own choice, which has a
    rule-of-thumb fallback, rather than no pista at all."""
    if not view.legal:
        return None
    if len(view.legal) == 1:
        return view.legal[0]
    values = evaluate(view, worlds=worlds, seed=seed)
    if not values:
        return ExpertBot(blueprint=True).choose(Situation(view, view.legal), Random(seed))
    return Action.parse(best_of(values).action)

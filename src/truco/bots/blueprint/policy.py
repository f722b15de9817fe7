"""Playing by a blueprint: its choice at a seat's decision, the likelihood it gives a rival's
action (the experto's worlds are weighed by it), and a hand played out by it (the experto's
rollouts). Where the blueprint has no entry (a key training never reached, a mode it was not
trained for) the rules of thumb (``policy.decide``) stand in.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from truco.actions import Action, Verb
from truco.bots.blueprint import store
from truco.bots.blueprint.abstraction import (
    Choice,
    choices,
    options_of,
    resolve,
    resolve_view,
    state_key,
    view_key,
)
from truco.bots.blueprint.game import setting_of
from truco.bots.context import ctx_of_state
from truco.bots.equity import equity_after
from truco.bots.knobs import Style
from truco.bots.policy import decide
from truco.bots.rival_types import ROLLOUT_STYLE
from truco.engine import apply, to_act
from truco.rules import Rules
from truco.state import State
from truco.view import SeatView

FLOOR = 0.02
"""The least likelihood a rival's action gets: anybody may bluff, or play off the blueprint."""
_NOT_MODELLED = frozenset((Verb.MAZO, Verb.TAPADA))


def blueprint_for(rules: Rules, carry: bool = False) -> store.Blueprint | None:
    """The package's blueprint for a table with these rules: 1v1 of the standard game (with or
    without flor) and of Truco Paulista; with ``carry``, team play of the standard game and of
    Paulista too, read from the seat's side as if it were 1v1 (docs/bots.md, "Teams")."""
    name = setting_of(rules)
    if name is None and carry and rules.variant == "standard" and rules.players in (4, 6):
        name = "paulista" if rules.game == "paulista" else ("flor" if rules.flor else "standard")
    return None if name is None else store.load(name)


def _pick(probs: Sequence[float], draw: float) -> int:
    for i, p in enumerate(probs):
        draw -= p
        if draw < 0.0:
            return i
    return len(probs) - 1


BETS = frozenset("TERFLCA")
"""The abstract actions that call or raise (the truco, the envido, the flor)."""


def noisy(
    probs: Sequence[float],
    noise: float,
    found: Sequence[Choice] = (),
    bet_weight: float = 1.0,
) -> list[float]:
    """The blueprint's probabilities mixed with another choice: ``noise`` of the time any
    abstract action alike, a bet (``BETS``) ``bet_weight`` times as likely as the rest (the
    lower levels and a persona's style, docs/bots.md "The ladder")."""
    weights = [bet_weight if c.token in BETS else 1.0 for c in found] or [1.0] * len(probs)
    total = sum(weights)
    return [(1.0 - noise) * p + noise * w / total for p, w in zip(probs, weights, strict=True)]


def view_probs(
    bp: store.Blueprint, view: SeatView
) -> tuple[tuple[Choice, ...], tuple[float, ...] | None]:
    found = choices(view.legal)
    if len(found) == 1:
        return found, (1.0,)
    return found, bp.probs(view_key(view, options_of(found)), len(found))


def state_probs(
    bp: store.Blueprint, state: State, seat: int
) -> tuple[tuple[Choice, ...], tuple[float, ...] | None]:
    """The same for ``seat`` in a whole state (the worlds, the rollouts, the reading)."""
    found = choices(state.legal)
    if len(found) == 1:
        return found, (1.0,)
    return found, bp.probs(state_key(state, seat, options_of(found)), len(found))


def choose_view(
    bp: store.Blueprint, view: SeatView, draw: float, noise: float = 0.0, bet_weight: float = 1.0
) -> Action | None:
    """The blueprint's choice for the view's seat (None: it has no entry for it), with
    ``noise`` (``noisy``)."""
    found, probs = view_probs(bp, view)
    if probs is None:
        return None
    if noise > 0.0:
        probs = tuple(noisy(probs, noise, found, bet_weight))
    return resolve_view(view, found[_pick(probs, draw)])


def likelihood(bp: store.Blueprint, state: State, seat: int, action: Action) -> float | None:
    """How likely the blueprint made ``seat`` take ``action`` in ``state`` (None: no entry; a card
    counts as the choice to play one, whichever card)."""
    if action.verb in _NOT_MODELLED:
        return None
    found, probs = state_probs(bp, state, seat)
    if len(found) == 1:
        return 1.0
    if probs is None:
        return None
    play = action.verb is Verb.PLAY
    for c, p in zip(found, probs, strict=True):
        if (play and c.token == "P") or c.action is action:
            return max(FLOOR, p)
    return None


def chance(bp: store.Blueprint, state: State, seat: int, action: Action) -> float | None:
    """The chance the blueprint gives ``seat`` of taking exactly ``action`` in ``state``, a card
    by the card rule (None: no entry, or an action it does not model). Unlike ``likelihood``,
    no floor: the reading (``rival_types``) spreads its own."""
    if action.verb in _NOT_MODELLED:
        return None
    found, probs = state_probs(bp, state, seat)
    if probs is None:
        return None
    play = action.verb is Verb.PLAY
    for c, p in zip(found, probs, strict=True):
        if play and c.token == "P":
            return p if resolve(state, seat, c) == action else 0.0
        if c.action is action:
            return p
    return None


def play_out(
    bp: store.Blueprint,
    state: State,
    seat: int,
    rng: Random,
    styles: Sequence[Style | None] | None = None,
    leans: Sequence[float] | None = None,
) -> float:
    """Play the hand out with every seat on the blueprint (its own cards of the world each); the
    match equity of ``seat`` after it. ``styles``/``leans``: a rival read as playing by some
    knobs plays by them ``lean`` of its decisions (the rules of thumb, ``policy.decide``)."""
    random = rng.random
    while state.phase == 1:
        legal = state.legal
        actor = to_act(state)
        assert actor is not None
        action: Action | None = None
        if len(legal) == 1:
            action = legal[0]
        else:
            style = None if styles is None else styles[actor]
            if style is not None and leans is not None and random() < leans[actor]:
                action = decide(ctx_of_state(state, actor), legal, random(), style)
            else:
                found, probs = state_probs(bp, state, actor)
                if len(found) == 1:
                    action = resolve(state, actor, found[0])
                elif probs is not None:
                    action = resolve(state, actor, found[_pick(probs, random())])
            if action is None:
                action = decide(ctx_of_state(state, actor), legal, random(), ROLLOUT_STYLE)
        assert action is not None
        state = apply(state, action).state
    return equity_after(state, seat)


__all__ = [
    "BETS",
    "FLOOR",
    "blueprint_for",
    "chance",
    "choose_view",
    "likelihood",
    "noisy",
    "play_out",
    "state_probs",
    "view_probs",
]

"""The rival's type (bots/rival_types.py): the grid, the chances it gives, what it reads."""

from __future__ import annotations

import math
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truco.bots import make_bot
from truco.bots.base import Bot, Situation
from truco.bots.rival_types import (
    NEUTRAL_TYPE,
    ROLLOUT_STYLE,
    TYPES,
    Posterior,
    chances,
    hand_evidence,
    reads_types,
)
from truco.bots.rivals import NEUTRAL, Reading, type_tendency
from truco.cards import DECK
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.rules import Rules, Variant
from truco.state import new_match
from truco.view import observe, visible_cards


def test_the_prior_favours_todays_assumption() -> None:
    assert math.isclose(sum(t.prior for t in TYPES), 1.0)
    assert TYPES[NEUTRAL_TYPE].style == ROLLOUT_STYLE
    assert max(TYPES, key=lambda t: t.prior) is TYPES[NEUTRAL_TYPE]
    assert len({t.key for t in TYPES}) == len(TYPES)
    # With no evidence the reading is today's assumption.
    assert Posterior().style() == ROLLOUT_STYLE
    assert type_tendency(Posterior().style()) == NEUTRAL
    assert Reading().tendency(1) == NEUTRAL


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from((2, 4, 6)), flor=st.booleans())
def test_each_types_chances_sum_to_one_over_the_legal_actions(
    seed: int, players: int, flor: bool
) -> None:
    rng = Random(seed)
    state = deal(new_match(Rules(players=players, flor=flor)), rng).state
    checked = 0
    while (actor := to_act(state)) not in (None, CHANCE) and checked < 6:
        legal = legal_actions(state)
        rows = [chances(state, actor, a) for a in legal]
        if len(legal) > 1 and rows[0] is not None:
            checked += 1
            for i in range(len(TYPES)):
                total = sum(row[i] for row in rows if row is not None)
                assert math.isclose(total, 1.0, abs_tol=1e-9), (TYPES[i].key, legal)
        assert all(row is None for row in rows) or all(row is not None for row in rows)
        state = apply(state, legal[rng.randrange(len(legal))]).state


def _read(rival: str, seed: int, hands: int) -> Posterior:
    """Seat 0 (``simple``) reads seat 1 over seeded 1v1 matches, ``hands`` hands in all."""
    posterior = Posterior()
    rng = Random(seed)
    match = 0
    while posterior.hands < hands:
        match += 1
        bots: list[Bot] = [make_bot("simple"), make_bot(rival)]
        state = new_match(Rules())
        while (actor := to_act(state)) is not None and posterior.hands < hands:
            if actor == CHANCE:
                if state.hand_no:
                    evidence = hand_evidence(observe(state, 0), Random(match))
                    if 1 in evidence:
                        posterior.add(evidence[1])
                state = deal(state, rng).state
                continue
            action = bots[actor].choose(Situation(observe(state, actor), legal_actions(state)), rng)
            state = apply(state, action).state
    return posterior


def test_the_reading_tells_the_exploiters_apart() -> None:
    assert _read("always-quiero", 1, 8).style().always_quiero
    assert _read("always-raise", 1, 4).style().always_raise
    tight = _read("never-bluff", 1, 30).style()
    assert tight.caution == 1.0 and not tight.always_quiero and not tight.always_raise
    assert tight.envido_call > ROLLOUT_STYLE.envido_call or tight.truco_call > 0.7
    # ``simple`` plays close to today's assumption: read as no extreme and no nit.
    plain = _read("simple", 2, 30).style()
    assert not plain.always_quiero and not plain.always_raise
    assert plain.caution < 1.0 and plain.envido_call <= ROLLOUT_STYLE.envido_call


@pytest.mark.parametrize("variant", ["standard", "destantado"])
def test_the_types_evidence_is_only_what_the_seat_saw(variant: Variant) -> None:
    """The same hand with every other seat's unplayed cards swapped for unseen ones gives the
    same evidence: the reading deals the unseen cards itself."""
    rules = Rules(players=2 if variant == "standard" else 3, variant=variant)
    players = rules.players
    rng = Random(3)
    bots: list[Bot] = [make_bot("simple" if s % 2 == 0 else "never-bluff") for s in range(players)]
    state = new_match(rules)
    compared = read = 0
    while compared < 8:
        actor = to_act(state)
        if actor is None:
            state = new_match(rules)
            continue
        if actor == CHANCE:
            if state.hand_no:
                view = observe(state, 0)
                unseen = [c for c in DECK if c not in visible_cards(view)]
                rng.shuffle(unseen)
                hands = tuple(
                    h if s == 0 else tuple(unseen.pop() for _ in h)
                    for s, h in enumerate(state.hands)
                )
                swapped = observe(state._replace(hands=hands), 0)
                evidence = hand_evidence(view, Random(9))
                assert evidence == hand_evidence(swapped, Random(9))
                compared += 1
                read += bool(evidence)
            state = deal(state, rng).state
            continue
        action = bots[actor].choose(Situation(observe(state, actor), legal_actions(state)), rng)
        state = apply(state, action).state
    assert read > 0  # some hands said something of the rivals


def test_a_team_table_is_not_read_by_type() -> None:
    """At a team table the rivals decide with señas the seat never sees: no type evidence."""
    rng = Random(5)
    bots: list[Bot] = [make_bot("simple" if s % 2 == 0 else "always-raise") for s in range(4)]
    state = deal(new_match(Rules(players=4)), rng).state
    while (actor := to_act(state)) not in (CHANCE, None):
        action = bots[actor].choose(Situation(observe(state, actor), legal_actions(state)), rng)
        state = apply(state, action).state
    assert hand_evidence(observe(state, 0), Random(1)) == {}
    assert not reads_types(Rules(players=4)) and not reads_types(Rules(players=6))
    assert not reads_types(Rules(variant="pata_de_gallo"))  # the pie's discard
    assert reads_types(Rules()) and reads_types(Rules(variant="destantado"))
    assert reads_types(Rules(game="paulista", players=4))  # no señas at Truco Paulista

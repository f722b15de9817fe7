"""explain: why an action is refused, in the words of the rule, on hand-built states."""

from __future__ import annotations

import re
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import truco
from handstates import after
from truco.actions import DISCARD, PLAY, SIMPLE, TAPADA, Action
from truco.explain import why_not
from truco.rules import Variant

TWO = "1e 4c 5o | 7o 6c 12b"
EVERY_ACTION = (*PLAY, *TAPADA, *DISCARD, *SIMPLE.values())


@pytest.mark.parametrize(
    ("actions", "refused", "reason"),
    [
        ("", "play 7o", "seat 0 does not hold 7o"),
        ("", "tapada 1e", "a card may be played face down only from the second trick on"),
        ("0 truco", "play 7o", "the truco waits for an answer: answer it first"),
        ("0 truco", "vale-cuatro", "the answer to a truco can only raise to the next level"),
        ("0 truco, 1 quiero", "retruco", "only the side that accepted the last bet can raise"),
        ("0 truco, 1 quiero", "envido", "envido cannot be called once the truco was accepted"),
        ("0 envido", "play 7o", "an envido waits for an answer"),
        (
            "0 real-envido",
            "envido",
            "quiero, no-quiero or a raise first (legal now: quiero, no-quiero, falta-envido)",
        ),
        ("0 envido, 1 quiero", "real-envido", "the envido of this hand was already played"),
        ("0 play 4c, 1 play 7o", "envido", "envido can only be called in the first trick"),
        ("0 play 4c", "quiero", "there is no call to answer"),
        ("", "flor", "flor is not played at this table"),
        ("", "con-flor-quiero", "there is no flor to answer"),
        ("", "discard 1e", "only the pie of pata de gallo discards"),
        ("0 envido, 1 no-quiero, 0 mazo", "play 7o", "the next hand has not been dealt yet"),
    ],
)
def test_the_rule_that_refuses_an_action(actions: str, refused: str, reason: str) -> None:
    state = after(TWO, actions)
    action = Action.parse(refused)
    assert not truco.is_legal(state, action)
    assert reason in why_not(state, action)
    with pytest.raises(truco.IllegalActionError, match=re.escape(reason)):
        truco.check(state, action)


def test_the_reason_lists_what_is_legal_instead() -> None:
    state = after(TWO, "0 truco")
    assert why_not(state, Action.parse("play 7o")).endswith(
        "(legal now: quiero, no-quiero, retruco, envido, real-envido, falta-envido, mazo)"
    )


def test_a_match_that_is_over_refuses_everything() -> None:
    over = truco.new_match(truco.Rules(target=15), score=(15, 0))
    assert why_not(over, Action.parse("mazo")) == "the match is over"


def test_a_table_without_tapadas_says_so() -> None:
    state = after(TWO, "0 play 4c, 1 play 7o", tapada="off")  # seat 1 won primera: he leads
    reason = why_not(state, Action.parse("tapada 6c"))
    assert reason.startswith("carta tapada is not played at this table")


def test_a_seat_without_flor_at_a_table_with_flor() -> None:
    state = after("1e 4e 5o | 7o 6c 12b", flor=True)
    assert why_not(state, Action.parse("flor")).startswith("seat 0 has no flor")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((2, 3, 4)))
def test_every_refused_action_has_a_reason(seed: int, players: int) -> None:
    rng = Random(seed)
    variant: Variant = "pata_de_gallo" if players == 3 else "standard"
    state = truco.new_match(truco.Rules(players=players, variant=variant, flor=True))
    for _ in range(40):
        seat = truco.to_act(state)
        if seat is None:
            break
        if seat == truco.CHANCE:
            state = truco.deal(state, rng).state
            continue
        for action in EVERY_ACTION:
            if action not in state.legal:
                reason = why_not(state, action)
                assert reason and not reason.startswith("(")
        state = truco.apply(state, rng.choice(state.legal)).state

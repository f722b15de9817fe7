"""state: a State drawn by str() and repr(), its named parts, and the position it stands for."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import truco
from truco.rules import Rules
from truco.state import Declaration, State, TantoCall, TrucoCall, position_key

# Seat 0 is mano with 1e 4c 5o (5 of envido); seat 1 holds 7o 6c 12b (7), so the envido goes
# to seat 1; seat 0 wins primera, then calls truco.
TRUCO_WAITING = """\
players = 2
score = [12, 9]
hands = ["1e 4c 5o", "7o 6c 12b"]
actions = ["0 envido", "1 quiero", "0 play 1e", "1 play 7o", "0 truco"]
"""


def test_repr_is_one_short_line() -> None:
    state = truco.new_match(truco.Rules(), score=(12, 9))
    assert repr(state) == "<State hand 0, score 12-9, to deal>"
    state = truco.replay_text(TRUCO_WAITING).state
    assert repr(state) == "<State hand 1, score 12-11, seat 1 to act>"


def test_str_draws_the_table_with_every_seats_cards() -> None:
    state = truco.replay_text(TRUCO_WAITING).state
    assert str(state).splitlines() == [
        "Truco standard, 2 players; score 12-11 (per team, to 30)",
        "Hand 1, mano seat 0, seat 1 to act",
        "  seat 0 (team 0): 4c 5o",
        "  seat 1 (team 1): 6c 12b",
        "  primera: 0 1e, 1 7o -> team 0",
        "  envido calls: envido",
        "  waiting: truco by seat 0, seat 1 answers",
    ]


def test_str_of_a_match_to_deal_and_of_one_over() -> None:
    rules = truco.Rules(variant="destantado", players=3)
    assert str(truco.new_match(rules)).splitlines() == [
        "Truco destantado, 3 players; score 10-10-10 (porotos left per player)",
        "Hand 1 to deal",
    ]
    over = truco.new_match(truco.Rules(target=15), score=(15, 3))
    assert repr(over) == "<State hand 0, score 15-3, over, team 0 won>"
    assert str(over).splitlines()[1] == "Match over after hand 0: team 0 won"


def test_drawing_keeps_the_tuples_hash_and_equality() -> None:
    state = truco.replay_text(TRUCO_WAITING).state
    assert hash(state) == hash(tuple(state)) and state == tuple(state)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from((2, 4, 6)), steps=st.integers(0, 60))
def test_drawing_any_reached_state(seed: int, players: int, steps: int) -> None:
    rng = Random(seed)
    state: State = truco.new_match(truco.Rules(players=players, flor=True))
    for _ in range(steps):
        seat = truco.to_act(state)
        if seat is None:
            break
        if seat == truco.CHANCE:
            state = truco.deal(state, rng).state
        else:
            state = truco.apply(state, rng.choice(truco.legal_actions(state))).state
    short, table = repr(state), str(state)
    assert "\n" not in short and len(short) < 80
    if truco.to_act(state) in (None, truco.CHANCE):
        return  # between hands or over: the score and who deals or won, no cards
    held = [str(card) for hand in state.hands for card in hand]
    assert all(card in table for card in held)  # omniscient: hidden cards are drawn too
    if state.truco_call is not None:
        assert "waiting: " in table


def test_the_calls_waiting_are_named_and_still_tuples() -> None:
    state = truco.replay_text(TRUCO_WAITING).state
    call = state.truco_call
    assert type(call) is TrucoCall and call == (2, 0, 1)
    assert (call.level, call.caller, call.responder) == (2, 0, 1)
    envido = truco.replay_text(
        TRUCO_WAITING.replace(', "1 quiero", "0 play 1e", "1 play 7o", "0 truco"', "")
    ).state
    assert type(envido.tanto_call) is TantoCall and envido.tanto_call.responder == 1


def test_the_position_leaves_the_history_out() -> None:
    # The log and the derived legal actions are history, not position; whose turn it is counts.
    first = truco.replay_text(TRUCO_WAITING).state
    assert position_key(first) == position_key(first._replace(log=(), legal=()))
    assert position_key(first) != position_key(first._replace(turn=1))


@pytest.mark.parametrize(
    "rules",
    [Rules(flor=True), Rules(variant="pata_de_gallo"), Rules(variant="destantado")]
    + [Rules(variant="pica_pica"), Rules(game="paulista")],
    ids=lambda r: r.variant,
)
def test_every_call_waiting_is_a_named_call(rules: Rules) -> None:
    # Compiled or not, every room builds the calls as their NamedTuples.
    for seed in range(8):
        rng = Random(seed)
        state = truco.new_match(rules)
        while (seat := truco.to_act(state)) is not None:
            if seat == truco.CHANCE:
                state = truco.deal(state, rng).state
                continue
            assert state.truco_call is None or type(state.truco_call) is TrucoCall
            assert state.tanto_call is None or type(state.tanto_call) is TantoCall
            assert all(type(d) is Declaration for d in state.declared)
            state = truco.apply(state, rng.choice(truco.legal_actions(state))).state

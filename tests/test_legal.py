"""legal: the one source of legality, and the predicates ``explain`` reuses, on hand-built
states (the deal and actions written in the notation)."""

from __future__ import annotations

from random import Random

import pytest

import truco
from handstates import after, hand
from truco.actions import (
    DISCARD,
    FLOR,
    MAZO,
    NO_QUIERO,
    PLAY,
    QUIERO,
    RETRUCO,
    SIMPLE,
    TAPADA,
    TRUCO,
    Action,
)
from truco.legal import (
    can_raise_truco,
    envido_allowed,
    envido_primero_allowed,
    has_played,
    must_sing_flor,
    seat_to_act,
    tapada_allowed,
)
from truco.rooms import legal_by_rule, legal_of
from truco.rules import Rules

EVERY_ACTION = (*PLAY, *TAPADA, *DISCARD, *SIMPLE.values())
ORDER = EVERY_ACTION.index

# Seat 0 (mano) holds 1e 4c 5o, seat 1 holds 7o 6c 12b: no flor between them.
TWO = "1e 4c 5o | 7o 6c 12b"


def names(actions: tuple[Action, ...]) -> list[str]:
    return [str(a) for a in actions]


def test_the_mano_opens_with_his_cards_and_every_first_call() -> None:
    state = after(TWO)
    assert seat_to_act(state) == 0
    assert names(legal_of(state)) == [
        "play 1e", "play 4c", "play 5o", "truco", "envido", "real-envido", "falta-envido", "mazo",
    ]  # fmt: skip


def test_a_pending_call_is_answered_by_its_responder() -> None:
    state = after(TWO, "0 truco")
    assert seat_to_act(state) == 1  # not the turn's seat 0
    assert {QUIERO, NO_QUIERO, RETRUCO} <= set(legal_of(state))
    assert not any(a.verb.value == "play" for a in legal_of(state))
    state = after(TWO, "0 envido")
    assert seat_to_act(state) == 1 and names(legal_of(state))[:2] == ["quiero", "no-quiero"]


def test_the_engine_stores_what_legal_of_computes_for_state_and_working_copy() -> None:
    for state in hand(TWO, "0 envido, 1 quiero, 0 play 1e, 1 truco, 0 quiero, 1 play 7o"):
        assert legal_of(state) == legal_of(list(state)) == truco.legal_actions(state)


def test_envido_only_in_the_first_trick_and_before_ones_own_card() -> None:
    assert envido_allowed(after(TWO), 0)
    assert not envido_allowed(after(TWO), 1)  # not his turn
    assert envido_allowed(after(TWO, "0 play 4c"), 1)  # the pie, before his own card
    assert not envido_allowed(after(TWO, "0 play 4c, 1 play 7o"), 1)  # segunda
    state = after(TWO, "0 play 4c", envido_until="first_card")
    assert not envido_allowed(state, 1)  # at this table only before the hand's first card


def test_no_envido_once_the_truco_was_accepted() -> None:
    state = after(TWO, "0 truco, 1 quiero")
    assert not envido_allowed(state, 0)
    assert not {"envido", "real-envido", "falta-envido"} & set(names(legal_of(state)))


def test_el_envido_esta_primero_answers_only_the_first_truco() -> None:
    assert envido_primero_allowed(after(TWO, "0 truco"), 1)
    assert "envido" in names(legal_of(after(TWO, "0 truco")))
    assert not envido_primero_allowed(after(TWO, "0 truco, 1 retruco"), 0)
    assert not envido_primero_allowed(after(TWO, "0 truco", envido_primero="off"), 1)


def test_tapada_from_the_second_trick_by_default() -> None:
    assert not tapada_allowed(after(TWO))
    assert tapada_allowed(after(TWO, "0 play 4c, 1 play 7o"))
    assert tapada_allowed(after(TWO, tapada="always"))
    assert not tapada_allowed(after(TWO, "0 play 4c, 1 play 7o", tapada="off"))
    legal = names(legal_of(after(TWO, "0 play 4c, 1 play 7o")))
    assert "tapada 6c" in legal and "tapada 12b" in legal


def test_only_the_side_that_accepted_raises_the_truco() -> None:
    state = after(TWO)
    assert can_raise_truco(state, 0) and can_raise_truco(state, 1)  # before any truco
    state = after(TWO, "0 truco, 1 quiero")
    assert can_raise_truco(state, 1) and not can_raise_truco(state, 0)
    assert RETRUCO not in legal_of(state)  # seat 0's turn: he may not raise
    state = after(TWO, "0 truco, 1 retruco, 0 vale-cuatro, 1 quiero")
    assert not can_raise_truco(state, 0) and not can_raise_truco(state, 1)


def test_a_flor_must_be_sung_before_anything_else() -> None:
    flor = "1e 4e 5e | 7o 6c 12b"
    state = after(flor, flor=True)
    assert must_sing_flor(state, 0) and not must_sing_flor(state, 1)
    assert legal_of(state) == (FLOR,)
    state = after(flor, "0 flor", flor=True)
    assert not must_sing_flor(state, 0)  # sung and settled
    assert seat_to_act(state) == 0 and "play 1e" in names(legal_of(state))
    assert not must_sing_flor(after(flor, flor=False), 0)


def test_has_played_in_this_trick_only() -> None:
    state = after(TWO, "0 play 4c")
    assert has_played(state, 0) and not has_played(state, 1)
    assert not has_played(after(TWO, "0 play 4c, 1 play 7o"), 0)  # a new trick


def test_the_seat_to_act_always_has_a_way_out() -> None:
    # Mazo is always there for the seat whose turn it is, unless a call waits for him.
    state = after(TWO, "0 play 4c")
    assert MAZO in legal_of(state)
    assert TRUCO in legal_of(state)


RULE_TABLES = (
    Rules(),
    Rules(players=4, flor=True, tapada="always"),
    Rules(players=6, envido_until="second_card", falta_until="first_trick"),
    Rules(flor=True, envido_primero="first_trick", no_falta_first_hand=True),
    Rules(variant="pata_de_gallo", flor=True),
    Rules(variant="pica_pica"),
    Rules(variant="destantado"),
    Rules(game="paulista", players=4, no_raise_to_win=True),
    Rules(game="paulista", mao_de_ferro="cega", tapada="always"),
)


@pytest.mark.parametrize("rules", RULE_TABLES, ids=lambda r: r.variant)
def test_legal_of_is_the_fast_form_of_the_rule(rules: Rules) -> None:
    # The rule (rooms.refusal, every action asked) and the memo tables of legal_of give the
    # same actions in every state that random matches reach.
    for seed in range(6):
        rng = Random(seed)
        state = truco.new_match(rules)
        while (seat := truco.to_act(state)) is not None:
            if seat == truco.CHANCE:
                state, _ = truco.deal(state, rng)
                continue
            assert legal_by_rule(state) == set(legal_of(state)), repr(state)
            state, _ = truco.apply(state, rng.choice(truco.legal_actions(state)))

"""The variants' registry (``truco.variants``) and the facts ``observe`` derives from it.

The rules of each variant: docs/rules.md ("Variants"), from ``shared/seeds/000_*.txt`` and
``003_*.txt``. Random playouts that check these facts against the engine at every step are in
tests/test_properties.py (``Contract``); here, one fixed hand for each fact.
"""

from __future__ import annotations

from typing import get_args

import pytest

from truco.actions import Action, Deal
from truco.cards import Card
from truco.engine import apply
from truco.errors import RulesError
from truco.events import Reason
from truco.rules import Rules, Variant
from truco.state import Phase, State, new_match
from truco.variants import (
    BY_NAME,
    VARIANTS,
    VariantInfo,
    find_variant,
    half,
    start_score,
    target_half,
    variant_of,
)
from truco.view import observe


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def play(state: State, *actions: str) -> State:
    for text in actions:
        state = apply(state, Action.parse(text)).state
    return state


# --- the registry -------------------------------------------------------------------------------


def test_every_variant_has_one_entry() -> None:
    assert tuple(BY_NAME) == get_args(Variant)
    assert [v.name for v in VARIANTS] == list(get_args(Variant))


@pytest.mark.parametrize(
    ("name", "variant"),
    [
        ("standard", "standard"),
        ("Clasico", "standard"),
        ("pata_de_gallo", "pata_de_gallo"),
        ("Pata de Gallo", "pata_de_gallo"),
        ("pata-de-gallo", "pata_de_gallo"),
        ("  GALLO ", "pata_de_gallo"),
        ("destantado", "destantado"),
        ("porotos", "destantado"),
        ("pica-pica", "pica_pica"),
        ("PICA_PICA", "pica_pica"),
        ("pica", "pica_pica"),
    ],
)
def test_find_variant_by_name_or_alias(name: str, variant: str) -> None:
    assert find_variant(name) is BY_NAME[variant]


@pytest.mark.parametrize("name", ["", "truco", "pata", "pica pica pica", "parejas"])
def test_an_unknown_variant_is_a_rules_error(name: str) -> None:
    with pytest.raises(RulesError, match="no variant named"):
        find_variant(name)


@pytest.mark.parametrize("info", VARIANTS, ids=lambda v: v.name)
def test_rules_take_seats_and_scoring_from_the_registry(info: VariantInfo) -> None:
    rules = Rules(variant=info.name)  # type: ignore[arg-type]
    assert variant_of(rules) is info
    assert rules.players == info.players[0]
    assert rules.individual is info.individual
    assert rules.scorers == (rules.players if info.individual else 2)
    assert rules.teams == (rules.players if info.own_side else 2)
    for players in (2, 3, 4, 6):
        if players in info.players or (players == 2 and 2 not in info.players):
            Rules(variant=info.name, players=players)  # type: ignore[arg-type]
        else:
            with pytest.raises(RulesError):
                Rules(variant=info.name, players=players)  # type: ignore[arg-type]
    if not info.flor:
        with pytest.raises(RulesError, match="without flor"):
            Rules(variant=info.name, flor=True)  # type: ignore[arg-type]


def test_start_score_and_half() -> None:
    assert start_score(Rules()) == 0
    assert start_score(Rules(variant="destantado", porotos=7)) == 7
    assert new_match(Rules(variant="destantado", porotos=7)).score == (7, 7, 7)
    assert half(Rules(target=30)) == target_half(30) == 15
    assert half(Rules(variant="destantado")) is None  # piles of porotos: no target, no halves


# --- the facts observe derives ----------------------------------------------------------------


def test_standard_view() -> None:
    state = apply(new_match(Rules()), Deal((cards("1e 7e 3o"), cards("1b 7o 2c")))).state
    view = observe(state, 0)
    assert view.phase is Phase.PLAY and Phase.PLAY.wire == "play"
    assert view.playing == (0, 1)
    assert view.pie is None and view.discard is None and view.bettors == ()
    assert (view.pot, view.start_score, view.individual, view.half) == (0, 0, False, 15)
    assert view.end_reason is None


def test_pata_de_gallo_view() -> None:
    rules = Rules(variant="pata_de_gallo")
    deal = Deal((cards("1e 7e 3o"), cards("1b 7o 2c"), cards("4e 5e 6e 7c")))
    state = apply(new_match(rules, mano=0), deal).state
    for seat in (None, 0, 1, 2):
        view = observe(state, seat)
        assert view.pie == 2  # the seat before the mano, who got four cards
        assert view.discard == 2  # his discard comes first
        assert view.individual and view.playing == (0, 1, 2)
    state = play(state, "discard 7c")
    assert observe(state, 0).discard is None
    assert observe(state, 0).pie == 2


def test_pica_pica_view_of_a_1v1_hand() -> None:
    rules = Rules(variant="pica_pica")
    state = new_match(rules, mano=1, score=(6, 3), pica=0)
    hands = [(), cards("1e 7e 3o"), (), (), cards("1b 7o 2c"), ()]
    state = apply(state, Deal(tuple(hands))).state
    view = observe(state, None)
    assert view.pica == 0
    assert view.playing == (1, 4)  # the mano and the seat facing him
    assert set(view.retired) == {0, 2, 3, 5}


def test_destantado_view() -> None:
    rules = Rules(variant="destantado", porotos=10)
    deal = Deal((cards("1e 7e 3o"), cards("1b 7o 2c"), cards("4e 5e 6c")))
    state = apply(new_match(rules), deal).state
    view = observe(state, 1)
    assert view.start_score == 10 and view.half is None and view.individual
    state = play(state, "envido", "quiero")
    assert observe(state, 2).bettors == (0, 1)  # the caller and who accepted so far
    state = play(state, "no-quiero")
    assert observe(state, 2).bettors == ()
    state = play(state, "truco", "no-quiero", "no-quiero")
    view = observe(state, None)
    # Nobody accepted: the caller's truco went to the pot, and the hand is over.
    assert view.pot == 1
    assert view.phase is Phase.DEAL
    assert view.end_reason is Reason.TRUCO_NO_QUIERO


@pytest.mark.parametrize(
    ("actions", "reason"),
    [
        (["mazo"], Reason.MAZO),
        (["truco", "no-quiero"], Reason.TRUCO_NO_QUIERO),
        # An envido answered on top of the truco, then the truco declined.
        (["truco", "envido", "no-quiero", "no-quiero"], Reason.TRUCO_NO_QUIERO),
        (["truco", "envido", "quiero", "no-quiero"], Reason.TRUCO_NO_QUIERO),
        (["truco", "retruco", "no-quiero"], Reason.TRUCO_NO_QUIERO),
        (["play 1e", "play 1b", "play 7e", "play 7o"], Reason.TRUCO),
    ],
)
def test_why_a_hand_ended(actions: list[str], reason: Reason) -> None:
    state = apply(new_match(Rules()), Deal((cards("1e 7e 3o"), cards("1b 7o 2c")))).state
    state = play(state, *actions)
    assert observe(state, None).phase is Phase.DEAL
    assert observe(state, None).end_reason is reason


def test_the_match_ends_on_envido_points() -> None:
    rules = Rules(target=15)
    state = new_match(rules, score=(14, 0))
    state = apply(state, Deal((cards("1e 7e 3o"), cards("1b 7o 2c")))).state
    state = play(state, "envido", "quiero")
    view = observe(state, None)
    assert view.phase is Phase.OVER
    assert view.end_reason is Reason.ENVIDO
    state = apply(
        new_match(rules, score=(14, 0)), Deal((cards("1e 7e 3o"), cards("1b 7o 2c")))
    ).state
    state = play(state, "envido", "no-quiero")
    assert observe(state, None).end_reason is Reason.ENVIDO_NO_QUIERO

"""rules: what a ``Rules`` accepts, refuses and derives: the seats and scoring of each variant
from the registry, the game and the variant selecting each other, the named rule sets of
``find_rules``, and the options a Truco Paulista table refuses (a ``RulesError`` each).
"""

from __future__ import annotations

import pytest

from truco.errors import RulesError
from truco.rules import Rules, find_rules
from truco.variants import BY_NAME, VARIANTS, VariantInfo, find_variant, half, variant_of

PAULISTA = Rules(game="paulista")


@pytest.mark.parametrize("info", VARIANTS, ids=lambda v: v.name)
def test_rules_take_seats_and_scoring_from_the_registry(info: VariantInfo) -> None:
    # VariantInfo.name is typed str; the registry's names are the Variant literals
    # (test_variants.test_every_variant_has_one_entry).
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


def test_game_and_variant_select_each_other() -> None:
    by_game, by_variant = Rules(game="paulista"), Rules(variant="paulista")
    assert by_game == by_variant
    assert (by_game.game, by_game.variant, by_game.target, by_game.players) == (
        "paulista",
        "paulista",
        12,
        2,
    )
    assert Rules().game == "argentino"
    assert find_rules("truco-paulista") == PAULISTA
    assert find_rules("duplas").players == 4
    assert find_variant("brasileiro") is BY_NAME["paulista"]
    assert half(PAULISTA) is None  # no malas and buenas


@pytest.mark.parametrize(
    "options",
    [
        {"game": "paulista", "target": 15},
        {"game": "paulista", "flor": True},
        {"game": "paulista", "variant": "destantado"},
        {"game": "mineiro"},
        {"game": "paulista", "manilhas": "nova"},
        {"game": "paulista", "mao_de_ferro": "open"},
        {"manilhas": "velha"},
        {"players": 4, "tie_lead": "opener"},
    ],
)
def test_bad_paulista_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Rules(**options)  # type: ignore[arg-type]  # wrong on purpose: each is refused

"""The variants' registry (``truco.variants``): one entry per variant, found by its name or an
alias, and the start score and halves it gives.

The rules of each variant: docs/rules.md ("Variants"), from ``shared/seeds/000_*.txt`` and
``003_*.txt``. The seats and scoring a ``Rules`` takes from the registry are in test_rules; the
facts ``observe`` derives from it, in test_view.
"""

from __future__ import annotations

from typing import get_args

import pytest

from truco.errors import RulesError
from truco.rules import Rules, Variant
from truco.state import new_match
from truco.variants import (
    BY_NAME,
    VARIANTS,
    find_variant,
    half,
    start_score,
    target_half,
)


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


def test_start_score_and_half() -> None:
    assert start_score(Rules()) == 0
    assert start_score(Rules(variant="destantado", porotos=7)) == 7
    assert new_match(Rules(variant="destantado", porotos=7)).score == (7, 7, 7)
    assert half(Rules(target=30)) == target_half(30) == 15
    assert half(Rules(variant="destantado")) is None  # piles of porotos: no target, no halves

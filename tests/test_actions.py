"""Actions and verbs: the chains' values are stated once, on ``Verb``."""

from __future__ import annotations

from dataclasses import fields

from truco.actions import TRUCO_LEVEL, TRUCO_RAISE, Verb
from truco.rules import Rules
from truco.variants import VARIANTS


def test_each_truco_call_raises_the_level_it_answers() -> None:
    # TRUCO_RAISE says which call follows each accepted level; the call's own level is one more.
    for level, call in TRUCO_RAISE.items():
        assert call.verb.truco_level == level + 1 == TRUCO_LEVEL[call]
    assert [v for v in Verb if v.truco_level] == [Verb.TRUCO, Verb.RETRUCO, Verb.VALE_CUATRO]


def test_paulista_values_climb_by_three_from_truco() -> None:
    chain = [v for v in Verb if v.paulista_value]
    assert chain == [Verb.TRUCO, Verb.SEIS, Verb.NOVE, Verb.DOZE]
    assert [v.paulista_value for v in chain] == [3, 6, 9, 12]
    assert Verb.QUIERO.truco_level is None and Verb.QUIERO.paulista_value is None


def test_each_variant_names_options_of_the_rules() -> None:
    names = {f.name for f in fields(Rules)}
    for info in VARIANTS:
        assert set(info.options) <= names, info.name

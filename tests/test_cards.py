"""cards: the deck, the card tokens and each card's values."""

from __future__ import annotations

import pytest

from truco.cards import DECK, Card, format_cards, parse_cards
from truco.errors import NotationError


def test_every_card_round_trips() -> None:
    assert len(DECK) == 40
    names = [str(c) for c in DECK]
    assert len(set(names)) == 40
    for card in DECK:
        assert Card.parse(str(card)) == card
        assert Card.parse(str(card).upper()) == card
    assert {n[:-1] for n in names} == {"1", "2", "3", "4", "5", "6", "7", "10", "11", "12"}
    assert {n[-1] for n in names} == set("eboc")
    assert parse_cards(format_cards(DECK)) == DECK


@pytest.mark.parametrize("token", ["8e", "9b", "13c", "0o", "1x", "e1", "1", "??", "", "1ee"])
def test_unknown_cards_are_refused(token: str) -> None:
    with pytest.raises(NotationError, match="unknown card"):
        Card.parse(token)


def test_card_values() -> None:
    assert Card.parse("1e").truco_rank > Card.parse("1b").truco_rank > Card.parse("7e").truco_rank
    assert Card.parse("12c").envido_value == 0
    assert Card.parse("7o").envido_value == 7

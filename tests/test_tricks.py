"""tricks: who wins a trick (pardas, partners, tapadas) and who wins the hand from its tricks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from truco.cards import DECK, TRUCO_RANK, Card
from truco.tricks import PARDA, hand_winner, trick_result

TWO = (0, 1)
FOUR = (0, 1, 0, 1)


def plays(*cards: str, down: tuple[int, ...] = ()) -> list[tuple[int, Card, bool]]:
    """Seat i plays the i-th card; the seats in ``down`` play theirs face down."""
    return [(seat, Card.parse(card), seat in down) for seat, card in enumerate(cards)]


def test_the_higher_card_takes_the_trick() -> None:
    assert trick_result(plays("7o", "1e"), TWO) == (1, 1)  # el ancho de espada
    assert trick_result(plays("1b", "7e"), TWO) == (0, 0)  # ancho de basto over siete de espada
    assert trick_result(plays("3c", "12o", "2b", "1o"), FOUR) == (0, 0)


def test_equal_cards_of_two_teams_are_a_parda() -> None:
    assert trick_result(plays("3c", "3o"), TWO) == (PARDA, PARDA)
    assert trick_result(plays("4c", "3e", "3o", "5b"), FOUR) == (PARDA, PARDA)


def test_partners_who_tie_hold_the_trick_for_the_first_of_them() -> None:
    assert trick_result(plays("3c", "4o", "3e", "5b"), FOUR) == (0, 0)


def test_a_higher_card_after_a_tie_breaks_it() -> None:
    assert trick_result(plays("3c", "3o", "1e", "4b"), FOUR) == (0, 2)


def test_a_face_down_card_ranks_below_every_card() -> None:
    assert trick_result(plays("1e", "4c", down=(0,)), TWO) == (1, 1)
    assert trick_result(plays("1e", "1b", down=(0, 1)), TWO) == (PARDA, PARDA)


@given(st.lists(st.sampled_from(DECK), min_size=2, max_size=6, unique=True))
def test_the_unique_best_card_wins_for_its_seat(cards: list[Card]) -> None:
    teams = tuple(seat % 2 for seat in range(len(cards)))
    best = max(TRUCO_RANK[c] for c in cards)
    holders = [seat for seat, c in enumerate(cards) if TRUCO_RANK[c] == best]
    team, seat = trick_result([(s, c, False) for s, c in enumerate(cards)], teams)
    if len({teams[s] for s in holders}) > 1:
        assert (team, seat) == (PARDA, PARDA)
    else:
        assert (team, seat) == (teams[holders[0]], holders[0])


@pytest.mark.parametrize(
    ("results", "winner"),
    [
        ((), None),
        ((0,), None),
        ((0, 0), 0),  # primera and segunda
        ((0, 1), None),  # the tercera decides
        ((0, 1, 1), 1),
        ((0, 1, 0), 0),
        ((PARDA, 1), 1),  # parda in primera: the segunda decides
        ((PARDA, PARDA), None),
        ((PARDA, PARDA, 0), 0),
        ((PARDA, PARDA, PARDA), 1),  # three pardas: the mano's team (1 here)
        ((1, PARDA), 1),  # parda in segunda: the winner of primera
        ((0, 1, PARDA), 0),  # parda in tercera: the winner of primera
    ],
)
def test_the_hand_from_its_tricks(results: tuple[int, ...], winner: int | None) -> None:
    assert hand_winner(results, mano_team=1) == winner


def test_three_sides_each_with_a_trick_go_to_the_winner_of_primera() -> None:
    assert hand_winner((2, 0, 1), mano_team=0) == 2  # destantado: three players on their own


@given(st.lists(st.sampled_from((PARDA, 0, 1)), min_size=3, max_size=3), st.sampled_from((0, 1)))
def test_three_tricks_always_decide_a_hand_of_two_sides(results: list[int], mano: int) -> None:
    winner = hand_winner(results, mano)
    assert winner in (0, 1)
    if results.count(0) >= 2 or results.count(1) >= 2:
        assert results.count(winner) >= 2

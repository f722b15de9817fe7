"""engine: the deal, as a chance step or given as a value, and ``check``/``is_legal``.

``deal`` turns up a vira only where the room does, from the cards no seat holds; a ``Deal``
given to ``apply`` is refused when its vira is missing, dealt or not of the game; ``is_legal``
allows exactly what the legality code lists. Whole matches through the engine are in
tests/test_properties.py; each action's effect is in test_effects and the golden histories.
"""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import truco
from test_legal import EVERY_ACTION, ORDER
from test_paulista import cards
from test_rules import PAULISTA
from truco.actions import Deal
from truco.cards import DECK, Card
from truco.engine import apply, deal
from truco.errors import IllegalActionError
from truco.events import ViraTurned
from truco.rooms import legal_of
from truco.rules import Rules
from truco.state import new_match


def test_the_deal_turns_up_a_vira_no_seat_holds() -> None:
    rng = Random(5)
    for players in (2, 4, 6):
        state = new_match(Rules(game="paulista", players=players))
        for _ in range(30):
            after, events = deal(state, rng)
            held = {c for hand in after.dealt for c in hand}
            assert 0 <= after.vira < 40 and after.vira not in held
            assert [e for e in events if type(e) is ViraTurned] == [ViraTurned(DECK[after.vira])]
    velha = deal(new_match(Rules(game="paulista", manilhas="velha")), rng)
    assert velha.state.vira == -1
    assert not [e for e in velha.events if type(e) is ViraTurned]
    argentine = deal(new_match(Rules()), rng).state
    assert argentine.vira == -1


def test_a_deal_names_its_vira() -> None:
    start = new_match(PAULISTA)
    hands = (cards("3e 2e 1e"), cards("5c 6c 7c"))
    with pytest.raises(IllegalActionError, match="vira"):
        apply(start, Deal(hands))
    with pytest.raises(IllegalActionError, match="also dealt"):
        apply(start, Deal(hands, Card.parse("2e")))
    with pytest.raises(IllegalActionError, match="no vira"):
        apply(new_match(Rules()), Deal(hands, Card.parse("4o")))
    assert str(Deal(hands, Card.parse("4o"))) == "deal 3e 2e 1e | 5c 6c 7c vira 4o"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((2, 4, 6)), st.booleans())
def test_check_allows_exactly_what_legal_of_lists(seed: int, players: int, flor: bool) -> None:
    rng = Random(seed)
    state = truco.deal(truco.new_match(truco.Rules(players=players, flor=flor)), rng).state
    while truco.to_act(state) not in (None, truco.CHANCE):
        legal = legal_of(state)
        assert legal and len(set(legal)) == len(legal)  # something to do, nothing twice
        assert [a for a in EVERY_ACTION if truco.is_legal(state, a)] == sorted(legal, key=ORDER)
        state = truco.apply(state, rng.choice(legal)).state

"""Truco Paulista: the cards' order, what ``observe`` shows (vira, manilhas, a mão de onze's
partners, a blind mão de ferro) and its wire form, why its actions are refused, the baralho
limpo. The rules' selection is in test_rules, the deal's vira in test_engine.

The hands' rules themselves are golden histories (``tests/golden/paulista_*.toml``).
"""

from __future__ import annotations

from random import Random

import pytest

from truco import protocol
from truco.actions import CEGA, CORRE, JOGA, Action, Deal
from truco.cards import DECK, RANKS, Card, parse_cards
from truco.engine import apply, deal, is_legal, legal_actions
from truco.errors import IllegalActionError, RulesError
from truco.manilhas import (
    LIMPO_DECK,
    ORDER,
    VELHA,
    french_name,
    french_short,
    manilha_rank,
    manilhas_of,
    rank_table,
)
from truco.rules import Rules
from truco.state import State, new_match
from truco.view import observe


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def test_the_manilhas_are_the_next_rank_wrapping() -> None:
    assert [manilha_rank(Card.of(r, 0)) for r in ORDER] == [5, 6, 7, 10, 11, 12, 1, 2, 3, 4]
    assert manilhas_of(Card.parse("3o")) == cards("4b 4c 4e 4o")  # zap, copeta, espadilha...
    assert manilhas_of(None) == VELHA == cards("4b 7c 1e 7o")


@pytest.mark.parametrize("vira", DECK, ids=str)
def test_the_order_of_a_hand(vira: Card) -> None:
    ranks = rank_table(vira)
    manilhas = manilhas_of(vira)
    # Manilhas above every common card, by suit; the commons by rank only, 3 high, 4 low.
    assert [ranks[c] for c in manilhas] == [14, 13, 12, 11]
    commons = [c for c in DECK if c not in manilhas]
    assert max(ranks[c] for c in commons) < 11
    for a in commons:
        for b in commons:
            assert (ranks[a] > ranks[b]) == (ORDER.index(a.rank) > ORDER.index(b.rank))


def test_the_manilha_velha_order() -> None:
    ranks = rank_table(-1)
    assert [ranks[c] for c in VELHA] == [14, 13, 12, 11]
    assert ranks[Card.parse("7b")] == ranks[Card.parse("7e")] < ranks[Card.parse("10o")]
    assert ranks[Card.parse("4o")] == 1


def test_french_names() -> None:
    assert french_name(Card.parse("4b")) == "4 de paus"
    assert french_name(Card.parse("1e")) == "A de espadas"
    assert french_name(Card.parse("12c")) == "K de copas"
    assert [french_short(Card.of(r, 2)) for r in RANKS] == [
        *("A♦", "2♦", "3♦", "4♦", "5♦", "6♦", "7♦"),
        *("Q♦", "J♦", "K♦"),
    ]


def _dealt(rules: Rules, score: tuple[int, int], mano: int = 0) -> State:
    hands = (cards("3e 2e 1e"), cards("5c 6c 7c"), cards("3b 2b 1b"), cards("5b 6b 7b"))
    start = new_match(rules, score=score, mano=mano)
    return apply(start, Deal(hands[: rules.players], Card.parse("3o"))).state


def test_the_view_of_a_paulista_hand() -> None:
    state = _dealt(Rules(game="paulista", players=4), (3, 5))
    view = observe(state, 0)
    assert view.game == "paulista" and view.vira == Card.parse("3o")
    assert view.manilhas == cards("4b 4c 4e 4o")
    assert view.hand_value == 1 and view.onze == -1 and view.onze_call is None
    assert not view.ferro and not view.blind and view.partners == ()
    assert view.tantos is None and view.flor is None and view.half is None
    spectator = observe(state, None)
    assert spectator.vira == view.vira and spectator.manilhas == view.manilhas
    argentine = observe(new_match(Rules()), 0)
    assert (argentine.game, argentine.vira, argentine.manilhas) == ("argentino", None, ())
    velha = observe(new_match(Rules(game="paulista", manilhas="velha")), None)
    assert velha.manilhas == VELHA  # known before the first hand


def test_mao_de_onze_shows_the_partners_cards_to_the_side_at_11_only() -> None:
    state = _dealt(Rules(game="paulista", players=4), (5, 11), mano=0)
    views = [observe(state, s) for s in range(4)]
    assert [v.onze for v in views] == [1] * 4
    assert [v.onze_call for v in views] == [1] * 4  # team 1's first seat from the mano
    assert views[1].legal == (JOGA, CORRE)
    assert views[1].partners == ((3, cards("5b 6b 7b")),)
    assert views[3].partners == ((1, cards("5c 6c 7c")),)
    assert views[0].partners == () and views[2].partners == ()
    assert observe(state, None).partners == ()
    played = apply(state, JOGA).state
    assert observe(played, 0).hand_value == 3
    assert not any(a.verb.value == "truco" for a in legal_actions(played))


def test_mao_de_ferro_played_blind() -> None:
    state = _dealt(Rules(game="paulista"), (11, 11))
    view = observe(state, 0)
    assert view.ferro and view.blind and view.onze == -1
    assert view.hand == () and view.hand_sizes == (3, 3)
    # The one action names no card (issue: "play 3e" told the player what he held unseen).
    assert view.legal == (CEGA,) and all(a.card is None for a in view.legal)
    assert not is_legal(state, Action.parse("play 3e"))
    assert not is_legal(state, Action.parse("play 2e"))
    after = apply(state, CEGA).state  # the core plays the next card in the order dealt
    assert after.plays == ((0, Card.parse("3e"), False),)
    assert observe(after, 0).history == ((0, "cega"),)
    seen = _dealt(Rules(game="paulista", mao_de_ferro="aberta"), (11, 11))
    open_view = observe(seen, 0)
    assert open_view.ferro and not open_view.blind and open_view.hand == cards("3e 2e 1e")


def test_the_wire_carries_the_paulista_fields() -> None:
    state = _dealt(Rules(game="paulista", players=4), (11, 4))
    view = observe(state, 0)
    wire = protocol.view_json(view)
    assert wire["game"] == "paulista" and wire["vira"] == "3o"
    assert wire["manilhas"] == ["4b", "4c", "4e", "4o"]
    assert wire["onze"] == 0 and wire["onze_call"] == 0 and wire["hand_value"] == 1
    # The wire's shapes type a JSON array of fixed length as a tuple; view_json gives lists.
    partners: object = wire["partners"]
    assert partners == [[2, ["3b", "2b", "1b"]]]
    assert wire["options"]["game"] == "paulista" and wire["options"]["manilhas"] == "vira"
    assert protocol.view_from_json(wire) == view


def test_illegal_paulista_actions_say_why() -> None:
    state = _dealt(Rules(game="paulista"), (3, 5))
    for text, reason in [
        ("envido", "no envido"),
        ("mazo", "no mazo"),
        ("seis", "next call is truco"),
        ("desce", "no call to answer"),
        ("joga", "none to decide"),
    ]:
        with pytest.raises(IllegalActionError, match=reason):
            apply(state, Action.parse(text))
    with pytest.raises(IllegalActionError, match="Truco Paulista, not at this table"):
        apply(apply(new_match(Rules()), Deal((cards("1e 2e 3e"), cards("4c 5c 6c")))).state, CORRE)


def test_why_not_cega_and_a_raise_that_would_already_win() -> None:
    state = _dealt(Rules(game="paulista"), (3, 5))
    with pytest.raises(IllegalActionError, match="only in a blind mão de ferro"):
        apply(state, CEGA)
    blind = _dealt(Rules(game="paulista"), (11, 11))
    with pytest.raises(IllegalActionError, match=r"played blind \(cega\)"):
        apply(blind, Action.parse("play 3e"))
    pagat = _dealt(Rules(game="paulista", no_raise_to_win=True), (0, 9))
    called = apply(pagat, Action.parse("truco")).state
    with pytest.raises(IllegalActionError, match="no_raise_to_win"):
        apply(called, Action.parse("seis"))


def test_the_baralho_limpo_deals_its_24_cards_only() -> None:
    rules = Rules(game="paulista", baralho="limpo", players=6)
    seen: set[Card] = set()
    for seed in range(300):
        state = deal(new_match(rules), Random(seed)).state
        seen.update(c for hand in state.hands for c in hand)
        seen.add(DECK[state.vira])
    assert seen == set(LIMPO_DECK) and len(seen) == 24
    # Only a vira 3 differs from the 40-card deck: it makes the Qs manilhas, not the 4s.
    one = new_match(Rules(game="paulista", baralho="limpo"))
    hands = (cards("10b 11e 12e"), cards("1c 2c 3c"))
    view = observe(apply(one, Deal(hands, Card.parse("3o"))).state, 0)
    assert view.manilhas == cards("10b 10c 10e 10o")
    with pytest.raises(RulesError, match="manilha velha"):
        Rules(game="paulista", baralho="limpo", manilhas="velha")
    with pytest.raises(RulesError, match="options of Truco Paulista"):
        Rules(baralho="limpo")

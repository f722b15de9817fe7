"""view: what ``observe`` shows a seat, a spectator, or (``reveal``) the replay of a finished match.

The facts it derives so that clients only draw them: who plays, the pie, the discard, the pica,
the pot and the bettors, why a hand ended; the call awaited and each side's mão de onze; every
card face up with ``reveal`` (the server decides when; docs/protocol.md, "Replay"), and nothing
more without it. Random playouts that check the view at every step are in
tests/test_properties.py (``check_views``, ``Contract``); here, one fixed hand for each fact.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from truco import protocol
from truco.actions import ENVIDO, JOGA, REAL_ENVIDO, RETRUCO, SEIS, TRUCO, Action, Deal, Verb
from truco.cards import Card, parse_cards
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.events import Reason
from truco.rules import Rules
from truco.state import PLAY, Phase, State, new_match
from truco.view import AwaitedCall, observe, visible_cards


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def play(state: State, *actions: str) -> State:
    for text in actions:
        state = apply(state, Action.parse(text)).state
    return state


def dealt(rules: Rules, score: tuple[int, ...] | None = None, vira: str | None = None) -> State:
    hands = (parse_cards("3e 2e 1e"), parse_cards("5c 6c 7c"))
    start = new_match(rules, score=score) if score else new_match(rules)
    return apply(start, Deal(hands, Card.parse(vira) if vira else None)).state


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


def test_the_awaited_truco_names_its_level_and_who_answers() -> None:
    state = dealt(Rules())
    assert observe(state, 0).awaited is None
    state = apply(state, TRUCO).state
    assert observe(state, None).awaited == AwaitedCall(Verb.TRUCO, 0, 1, 2)
    state = apply(state, RETRUCO).state
    assert observe(state, 0).awaited == AwaitedCall(Verb.RETRUCO, 1, 0, 3)


def test_an_envido_sung_over_a_truco_is_awaited_first() -> None:
    state = apply(dealt(Rules()), TRUCO).state
    assert ENVIDO in legal_actions(state)
    state = apply(state, ENVIDO).state
    assert observe(state, 0).awaited == AwaitedCall(Verb.ENVIDO, 1, 0, None)
    state = apply(state, REAL_ENVIDO).state
    assert observe(state, 1).awaited == AwaitedCall(Verb.REAL_ENVIDO, 0, 1, None)


def test_a_paulista_call_is_awaited_by_its_value() -> None:
    state = apply(dealt(Rules(game="paulista"), vira="3o"), TRUCO).state
    assert observe(state, 0).awaited == AwaitedCall(Verb.TRUCO, 0, 1, 3)
    state = apply(state, SEIS).state
    assert observe(state, 0).awaited == AwaitedCall(Verb.SEIS, 1, 0, 6)


def test_each_side_at_the_mao_de_onze() -> None:
    at_11 = observe(dealt(Rules(game="paulista"), (4, 11), "3o"), 0)
    assert at_11.onze_at == 11 and at_11.at_onze == (False, True)
    assert at_11.awaited is None and at_11.onze_call == 1
    played = apply(dealt(Rules(game="paulista"), (4, 11), "3o"), JOGA).state
    assert observe(played, 0).at_onze == (False, True)
    ferro = observe(dealt(Rules(game="paulista"), (11, 11), "3o"), None)
    assert ferro.at_onze == (True, True) and ferro.ferro
    argentine = observe(dealt(Rules(target=30), (29, 29)), 0)
    assert argentine.onze_at is None and argentine.at_onze == (False, False)


# --- reveal ------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([2, 4, 6]),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 12),
)
def test_a_revealed_view_shows_every_card_of_the_deal(players: int, seed: int, moves: int) -> None:
    rng = random.Random(seed)
    state, _ = deal(new_match(Rules(players=players, tapada="always")), rng)
    for _ in range(moves):
        if state.phase != PLAY or to_act(state) in (None, CHANCE):
            break
        legal = legal_actions(state)
        # Face-down cards first: they are what reveal uncovers.
        tapadas = [a for a in legal if a.verb is Verb.TAPADA]
        state = apply(state, rng.choice(tapadas or list(legal))).state
    dealt = {c for hand in state.dealt for c in hand}
    for seat in (None, *range(players)):
        open_view = observe(state, seat, reveal=True)
        assert visible_cards(open_view) == dealt
        assert open_view.open_hands == state.hands
        assert all(card is not None for trick in open_view.tricks for _, card, _ in trick)
        assert all(card is not None for _, card, _ in open_view.plays)
        assert "??" not in str(open_view.history)
        # The codec carries it both ways.
        assert protocol.view_from_json(protocol.view_json(open_view)) == open_view
        # Without reveal: nothing more than before, and no open hands.
        hidden = observe(state, seat)
        assert hidden.open_hands == ()
        assert protocol.view_json(hidden)["open_hands"] == []
        own = set(state.dealt[seat]) if seat is not None else set()
        assert visible_cards(hidden) <= own | {
            c for trick in (*state.tricks, state.plays) for _, c, down in trick if not down
        } | {c for _, shown in state.shown for c in shown}

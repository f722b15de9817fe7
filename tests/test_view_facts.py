"""What the view computes so that clients only draw it: the call awaited and each side's mão de
onze; the wire carries them, and the codec (not the core) reads messages older than them."""

from __future__ import annotations

from typing import get_type_hints

from truco import protocol
from truco.actions import ENVIDO, JOGA, REAL_ENVIDO, RETRUCO, SEIS, TRUCO, Deal, Verb
from truco.cards import Card, parse_cards
from truco.engine import apply, legal_actions
from truco.protocol import shapes
from truco.rules import Rules
from truco.state import State, new_match
from truco.view import AwaitedCall, SeatView, observe


def _dealt(rules: Rules, score: tuple[int, ...] | None = None, vira: str | None = None) -> State:
    hands = (parse_cards("3e 2e 1e"), parse_cards("5c 6c 7c"))
    start = new_match(rules, score=score) if score else new_match(rules)
    return apply(start, Deal(hands, Card.parse(vira) if vira else None)).state


def test_the_awaited_truco_names_its_level_and_who_answers() -> None:
    state = _dealt(Rules())
    assert observe(state, 0).awaited is None
    state = apply(state, TRUCO).state
    assert observe(state, None).awaited == AwaitedCall(Verb.TRUCO, 0, 1, 2)
    state = apply(state, RETRUCO).state
    assert observe(state, 0).awaited == AwaitedCall(Verb.RETRUCO, 1, 0, 3)


def test_an_envido_sung_over_a_truco_is_awaited_first() -> None:
    state = apply(_dealt(Rules()), TRUCO).state
    assert ENVIDO in legal_actions(state)
    state = apply(state, ENVIDO).state
    assert observe(state, 0).awaited == AwaitedCall(Verb.ENVIDO, 1, 0, None)
    state = apply(state, REAL_ENVIDO).state
    assert observe(state, 1).awaited == AwaitedCall(Verb.REAL_ENVIDO, 0, 1, None)


def test_a_paulista_call_is_awaited_by_its_value() -> None:
    state = apply(_dealt(Rules(game="paulista"), vira="3o"), TRUCO).state
    assert observe(state, 0).awaited == AwaitedCall(Verb.TRUCO, 0, 1, 3)
    state = apply(state, SEIS).state
    assert observe(state, 0).awaited == AwaitedCall(Verb.SEIS, 1, 0, 6)


def test_each_side_at_the_mao_de_onze() -> None:
    at_11 = observe(_dealt(Rules(game="paulista"), (4, 11), "3o"), 0)
    assert at_11.onze_at == 11 and at_11.at_onze == (False, True)
    assert at_11.awaited is None and at_11.onze_call == 1
    played = apply(_dealt(Rules(game="paulista"), (4, 11), "3o"), JOGA).state
    assert observe(played, 0).at_onze == (False, True)
    ferro = observe(_dealt(Rules(game="paulista"), (11, 11), "3o"), None)
    assert ferro.at_onze == (True, True) and ferro.ferro
    argentine = observe(_dealt(Rules(target=30), (29, 29)), 0)
    assert argentine.onze_at is None and argentine.at_onze == (False, False)


def test_the_wire_carries_them_and_reads_them_back() -> None:
    onze = apply(_dealt(Rules(game="paulista"), (11, 3), "3o"), JOGA).state  # no truco in it
    view = observe(onze, 1)
    wire = protocol.view_json(view)
    assert wire["onze_at"] == 11 and wire["at_onze"] == [True, False] and wire["awaited"] is None
    assert protocol.view_from_json(wire) == view
    called = observe(apply(_dealt(Rules()), TRUCO).state, 1)
    wire = protocol.view_json(called)
    assert wire["awaited"] == {"verb": "truco", "caller": 0, "responder": 1, "value": 2}
    assert protocol.view_from_json(wire) == called


def test_an_older_message_is_read_with_what_the_core_says_of_a_fresh_match() -> None:
    wire = dict(protocol.view_json(observe(new_match(Rules(game="paulista")), None)))
    for key in ("onze_at", "at_onze", "awaited", "playing", "start_score", "half"):
        del wire[key]
    view = protocol.view_from_json(wire)
    assert view.onze_at == 11 and view.at_onze == (False, False) and view.awaited is None
    assert view == observe(new_match(Rules(game="paulista")), None)


def test_the_view_shape_is_the_codecs_and_the_cores() -> None:
    """The JSON shape the TypeScript View is written from has exactly view_json's keys, and the
    core's SeatView has no defaults left (old messages are the codec's concern)."""
    wire = protocol.view_json(observe(new_match(Rules()), None))
    assert list(wire) == list(get_type_hints(shapes.ViewJson))
    assert SeatView._field_defaults == {}

"""The view's facts on the wire: the call awaited and each side's mão de onze (what ``observe``
computes of them is tested in test_view) are carried both ways, and the codec (not the core)
reads messages older than them."""

from __future__ import annotations

from typing import get_type_hints

from test_view import dealt
from truco import protocol
from truco.actions import JOGA, TRUCO
from truco.engine import apply
from truco.protocol import shapes
from truco.rules import Rules
from truco.state import new_match
from truco.view import SeatView, observe


def test_the_wire_carries_them_and_reads_them_back() -> None:
    onze = apply(dealt(Rules(game="paulista"), (11, 3), "3o"), JOGA).state  # no truco in it
    view = observe(onze, 1)
    wire = protocol.view_json(view)
    assert wire["onze_at"] == 11 and wire["at_onze"] == [True, False] and wire["awaited"] is None
    assert protocol.view_from_json(wire) == view
    called = observe(apply(dealt(Rules()), TRUCO).state, 1)
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

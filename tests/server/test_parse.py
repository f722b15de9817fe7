"""The protocol decoder never raises, whatever arrives, and encodes views and events as JSON."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from truco import protocol
from truco.cards import Card
from truco.engine import apply, deal, legal_actions
from truco.rules import Rules
from truco.state import new_match
from truco.view import observe

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=20,
)


def frames() -> st.SearchStrategy[Any]:
    data = st.dictionaries(
        st.sampled_from(["a", "v", "action", "text", "sena", "x"]),
        JSON | st.sampled_from(["play 1e", "mazo", "truco", "ancho-espada"]),
    )
    message = st.fixed_dictionaries(
        {"t": st.sampled_from(["act", "chat", "sena", "rematch", "ping", "nope"]) | st.text()},
        optional={"d": data | JSON},
    )
    return st.one_of(
        message.map(json.dumps), JSON.map(json.dumps), st.text(), st.binary().map(bytes)
    )


@given(frames())
def test_parse_never_raises(raw: str | bytes) -> None:
    result = protocol.parse(raw)
    if isinstance(result, protocol.Unexpected):
        assert result.code in protocol.ERROR_CODES and result.message


def test_parse_reads_each_message() -> None:
    act = protocol.parse('{"t": "act", "d": {"a": 3, "v": 7, "action": "play 1e"}}')
    assert isinstance(act, protocol.Act) and (act.a, act.v, str(act.action)) == (3, 7, "play 1e")
    assert protocol.parse('{"t": "chat", "d": {"text": " hola "}}') == protocol.Chat("hola")
    assert protocol.parse('{"t": "sena", "d": {"sena": "tres"}}') == protocol.Sena("tres")
    assert protocol.parse('{"t": "rematch", "d": {}}') == protocol.Rematch()
    assert protocol.parse('{"t": "ping"}') == protocol.Ping()
    assert protocol.parse(b'{"t": "ping"}') == protocol.Ping()
    bad = protocol.parse('{"t": "act", "d": {"a": 3, "v": 7, "action": "play 9z"}}')
    assert isinstance(bad, protocol.Unexpected) and bad.code == "bad_message" and bad.a == 3


def test_views_and_events_are_plain_json() -> None:
    rng = random.Random(3)
    state, events = deal(new_match(Rules(players=4, flor=True)), rng)
    for _ in range(3):
        plays = [a for a in legal_actions(state) if str(a).startswith("play")]
        state, more = apply(state, rng.choice(plays))
        events += more
    for seat in (None, 0, 1, 2, 3):
        view = protocol.view_json(observe(state, seat))
        assert json.loads(json.dumps(view)) == view
        assert view["seat"] == seat and view["phase"] == "play"
        assert view["options"] == {"players": 4, "target": 30, "flor": True}
    first = protocol.event_json(events[0])
    assert first == {"type": "HandStarted", "hand": 1, "mano": 0}
    dealt = protocol.event_json(events[1])
    assert dealt["type"] == "CardsDealt" and all(isinstance(c, str) for c in dealt["cards"])
    assert protocol.encode("pong", {}) == '{"t":"pong","d":{}}'


def test_encode_writes_the_core_values_as_the_codec_reads_them() -> None:
    """Cards and actions in notation, verbs by value, named tuples as arrays, keys that are not
    strings as strings, as the standard library's JSON would; and a lone surrogate, which no
    UTF-8 text can carry, as "?" rather than a failed send."""
    rng = random.Random(5)
    state, events = deal(new_match(Rules()), rng)
    action = legal_actions(state)[0]
    card = state.hands[0][0]
    by_seat: dict[int, list[Card]] = {3: [card]}
    d = {"card": card, "action": action, "verb": action.verb, "event": events[0], "seats": by_seat}
    out = json.loads(protocol.encode("x", d))["d"]
    assert out == {
        "card": str(card),
        "action": str(action),
        "verb": action.verb.value,
        "event": list(events[0]),
        "seats": {"3": [str(card)]},
    }
    assert protocol.encode("chat", {"text": "hola \ud800"}) == '{"t":"chat","d":{"text":"hola ?"}}'
    assert protocol.encode("chat", {"text": "¡Truco, ñato!"}) == (
        '{"t":"chat","d":{"text":"¡Truco, ñato!"}}'
    )
    bad = protocol.parse('{"t": "chat", "d": {"text": "hola \\ud800"}}')
    assert isinstance(bad, protocol.Unexpected) and bad.code == "bad_message"
    deep = protocol.parse("[" * 2000 + "]" * 2000)
    assert isinstance(deep, protocol.Unexpected) and deep.message == "not JSON: nested too deeply"
    not_utf8 = protocol.parse(b"\xff\xfe")
    assert isinstance(not_utf8, protocol.Unexpected) and not_utf8.code == "bad_json"

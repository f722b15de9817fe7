"""``truco play --connect``: the client's handling of the server's messages (docs/protocol.md)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from truco import protocol
from truco.actions import Action
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.errors import TrucoError
from truco.events import CardPlayed, Event, visible_to
from truco.protocol import event_from_json, view_from_json
from truco.rules import Rules
from truco.state import DISCARD_KIND, State, new_match
from truco.tui.session import RemoteGame, invite_token, ws_url
from truco.view import observe


def playouts(rules: Rules, seed: int, steps: int = 400) -> list[tuple[State, tuple[Event, ...]]]:
    rng = random.Random(seed)
    state = new_match(rules)
    out = []
    for _ in range(steps):
        actor = to_act(state)
        if actor is None:
            break
        if actor == CHANCE:
            state, events = deal(state, rng)
        else:
            state, events = apply(state, rng.choice(legal_actions(state)))
        out.append((state, events))
    return out


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(players=4, flor=True),
        Rules(players=6),
        Rules(variant="pata_de_gallo", flor=True),
        Rules(variant="destantado"),
        Rules(variant="pica_pica", pica_from=1),
    ],
    ids=lambda r: f"{r.variant}-{r.players}",
)
def test_view_and_events_survive_the_wire(rules: Rules) -> None:
    """What the server sends (protocol.view_json/event_json, through JSON) reads back as the
    same SeatView and events the local game uses (the variants: per-hand teams, the pie's
    pending discard, pica-pica's 1v1 hands, destantado's stakes)."""
    special = 0
    for state, events in playouts(rules, seed=rules.players):
        special += (
            state.pica >= 0
            or (state.tanto_call is not None and state.tanto_call[0] == DISCARD_KIND)
            or 0 in state.stakes
        )
        for seat in (0, 1, None):
            view = observe(state, seat)
            wire = json.loads(json.dumps(protocol.view_json(view)))
            assert view_from_json(wire) == view
        for event in events:
            if visible_to(event, 0):
                wire = json.loads(json.dumps(protocol.event_json(event)))
                assert event_from_json(wire) == event
    assert special > 0 or rules.variant == "standard"


def test_variant_events_and_fields_come_through() -> None:
    """A server's view of the variants reads back with its per-hand teams, pica and stakes, and
    the new events are known: none is dropped as an unknown type."""
    seen: set[str] = set()
    for rules, seed in ((Rules(variant="pata_de_gallo"), 1), (Rules(variant="destantado"), 2)):
        for _state, events in playouts(rules, seed=seed, steps=600):
            for event in events:
                wire = json.loads(json.dumps(protocol.event_json(event)))
                got = event_from_json(wire)
                assert got == event
                seen.add(type(event).__name__)
    assert {"Discarded", "PorotosPassed", "Scored"} <= seen


def test_a_view_without_the_variant_fields_gets_defaults() -> None:
    """An older server sends no ``teams``, ``pica`` or ``stakes``: the client takes them from
    the rules (the pie of pata de gallo from the mano), never seat % 2."""
    rules = Rules(variant="pata_de_gallo")
    (state, _), *_ = playouts(rules, seed=3, steps=1)
    # A plain dict: an older server's message lacks keys the wire's TypedDict requires.
    wire: dict[str, Any] = dict(protocol.view_json(observe(state, 0)))
    for key in ("teams", "pica", "stakes", "score", "hand_points", "discard", "pie"):
        wire.pop(key, None)
    view = view_from_json(json.loads(json.dumps(wire)))
    assert view.teams == state.teams == (0, 0, 1)  # mano 0: the pie is seat 2
    assert (view.pica, view.stakes, view.score, view.hand_points) == (
        -1,
        (1, 1, 1),
        (0, 0, 0),
        (0, 0, 0),
    )
    destantado: dict[str, Any] = dict(
        protocol.view_json(observe(new_match(Rules(variant="destantado")), None))
    )
    for key in ("teams", "score", "hand_points"):
        destantado.pop(key, None)
    view = view_from_json(destantado)
    assert view.teams == (0, 1, 2) and view.score == (10, 10, 10)


def test_messages_update_the_game() -> None:
    (state, _), (after, events) = playouts(Rules(), seed=1, steps=2)
    seat = to_act(state)
    assert seat is not None
    game = RemoteGame()
    table = {"table": "abc", "seats": [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Bot"}]}
    full = {"v": 1, "seat": seat, "view": protocol.view_json(observe(state, seat)), "table": table}
    assert game.handle({"t": "full", "d": full}) == []
    assert game.v == 1 and game.seat == seat and game.names == ("Ana", "Bot")
    assert game.human_to_act and not game.over
    assert game.view is not None and game.view.legal == legal_actions(state)

    action = Action.parse(str(legal_actions(state)[0]))
    message = game.act(action)
    assert message == {"t": "act", "d": {"a": 1, "v": 1, "action": str(action)}}
    assert game.pending == {1: str(action)}

    ev = {
        "v": 2,
        "events": [protocol.event_json(e) for e in events] + [{"type": "Future", "x": 1}],
        "view": protocol.view_json(observe(after, seat)),
    }
    got = game.handle({"t": "ev", "d": ev})
    assert got == list(events)  # an unknown event type is skipped, not an error
    assert game.v == 2
    assert game.pending == {1: str(action)}  # an ev without our a acknowledges nothing
    assert game.handle({"t": "ack", "d": {"a": 1, "v": 2}}) == []
    assert game.pending == {}
    # The version an action made carries its a: that is its ack.
    game.pending[7] = str(action)
    game.handle({"t": "ev", "d": {**ev, "v": 3, "a": 7}})
    assert game.pending == {} and game.v == 3

    game.act(action)
    game.handle({"t": "err", "d": {"code": "stale_version", "message": "stale", "a": 2}})
    game.handle({"t": "chat", "d": {"seat": 1, "name": "Bot", "text": "hola", "at": 0}})
    game.handle({"t": "table", "d": {"table": "abc", "seats": [{"seat": 0, "name": "Ana B"}]}})
    game.handle({"t": "pong", "d": {}})
    assert game.notices == ["El servidor no aceptó: stale", "Bot: hola"]
    # A fresh name: the assert above narrowed game.names to two, and handle() is opaque to mypy.
    names: tuple[str, ...] = game.names
    assert names == ("Ana B",)
    assert game.pending == {}
    # A partner's seña (a person's or a bot's: the server sends both alike) is written too.
    game.notices.clear()
    game.handle({"t": "sena", "d": {"seat": 0, "sena": "tres"}})
    assert game.notices == ["Ana B te hace una seña: un tres"]


def test_card_played_face_down_from_the_wire() -> None:
    ev = event_from_json({"type": "CardPlayed", "seat": 1, "card": None, "face_down": True})
    assert ev == CardPlayed(1, None, True)


def test_invite_links() -> None:
    assert ws_url("http://localhost:8000/t/abc123") == (
        "http://localhost:8000",
        "ws://localhost:8000/ws/tables/abc123",
    )
    base, url = ws_url("https://truco.example/t/x9?token=tok", v=7)
    assert base == "https://truco.example"
    # The seat token never goes in the address (it would be in the server's access log).
    assert url == "wss://truco.example/ws/tables/x9?v=7"
    assert invite_token("https://truco.example/t/x9?token=tok") == "tok"
    assert invite_token("https://truco.example/t/x9") is None
    for bad in ("truco.example/t/x", "ftp://h/t/x", "http://h/nothing"):
        with pytest.raises(TrucoError):
            ws_url(bad)


def test_the_terminal_prints_a_rated_matchs_changes() -> None:
    from truco.tui.session import RemoteGame

    game = RemoteGame()
    changes = [
        {"seat": 0, "name": "Ana", "before": 1522, "after": 1534, "provisional": False},
        {"seat": 1, "name": "Beto", "before": 1000, "after": 959, "provisional": True},
    ]
    changes[1]["left"] = True
    game.handle({"t": "rated", "d": {"match": 1, "mode": "1v1", "changes": changes}})
    assert game.notices == [
        "Puntaje (1v1):",
        "  Ana: +12 → 1534",
        "  Beto: -41 → 959? (abandonó: cuenta como derrota)",
    ]
    game.notices.clear()
    game.handle({"t": "rated", "d": {"match": 1, "changes": "nada"}})
    assert game.notices == []


def test_the_terminal_says_once_what_the_caretaker_played() -> None:
    """Back at a seat the caretaker played: the one table message of the return says what it
    played, and the log gets it once, in the table's language (the words: ``protocol.told``)."""
    (state, _), *_ = playouts(Rules(), seed=1, steps=1)
    game = RemoteGame()
    seats: list[dict[str, Any]] = [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Beto"}]
    table = {"table": "abc", "seats": seats}
    game.handle({"t": "full", "d": {"v": 1, "seat": 1, "view": view(state, 1), "table": table}})
    spell = {"hands": list(range(3, 12)), "score": [7, 9]}
    back = {"table": "abc", "seats": [seats[0], {**seats[1], "caretaker": spell}]}
    game.handle({"t": "table", "d": back})
    assert game.notices == ["Mientras no estabas, jugó por vos el asistente: 9 manos (3 a 11), 7-9"]
    game.notices.clear()
    game.handle(
        {"t": "table", "d": {**table, "seats": [{**seats[0], "caretaker": spell}, seats[1]]}}
    )
    game.handle(
        {"t": "table", "d": {**table, "seats": [seats[0], {**seats[1], "caretaker": None}]}}
    )
    bad = {"hands": "3", "score": [7, 9]}
    game.handle({"t": "table", "d": {**table, "seats": [seats[0], {**seats[1], "caretaker": bad}]}})
    empty = {"hands": [], "score": [7, 9]}
    game.handle(
        {"t": "table", "d": {**table, "seats": [seats[0], {**seats[1], "caretaker": empty}]}}
    )
    assert game.notices == []  # another's spell, none, nonsense, nothing played: nothing said
    # At a Truco Paulista table the terminal says it in pt-BR, one hand in the singular.
    (paulista, _), *_ = playouts(Rules(variant="paulista"), seed=1, steps=1)
    game = RemoteGame()
    game.handle({"t": "full", "d": {"v": 1, "seat": 1, "view": view(paulista, 1), "table": table}})
    one = {"hands": [4], "score": [2, 5]}
    game.handle({"t": "table", "d": {**table, "seats": [seats[0], {**seats[1], "caretaker": one}]}})
    assert game.notices == ["Enquanto você não estava, o assistente jogou por você: a mão 4, 2-5"]


def view(state: State, seat: int) -> dict[str, Any]:
    return json.loads(json.dumps(protocol.view_json(observe(state, seat))))  # type: ignore[no-any-return]

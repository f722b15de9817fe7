"""Property: no input from a client breaks a table, another connection, or a hidden card.

Random JSON, random text and bytes, invalid UTF-8, and valid messages mutated (fields dropped or
of the wrong type, unknown types, huge and negative numbers, wrong versions, actions that are
not legal, acts from the wrong seat or a spectator, deep nesting, lone surrogates) are sent to a
real table of the in-process app by either seat or a spectator. After each one:

- the sender's connection is still open and answers (nothing here is over the limits);
- a frame from anyone who is not to act leaves the table's version where it was;
- every frame any connection received is UTF-8 and holds no card its seat may not see (judged
  against the engine state of the version the message carries);
- afterwards both seats still play legal actions, which are acknowledged, and the HTTP API
  still answers.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from server.helpers import Connection, Player, app_state, create, join, serving, settle
from server.test_leaks import NAMES, allowed, cards_in
from truco.actions import Verb
from truco.cards import DECK, Card
from truco.engine import CHANCE, legal_actions, to_act
from truco.server import Settings
from truco.server.tables.table import Table
from truco.state import OVER, State

CARDS = [str(c) for c in DECK] + ["??", "9e", "1x", "", "0"]
NUMBERS = st.sampled_from(
    [0, -1, 1, 2**53, 2**53 + 1, 2**63, 10**100, 1.0, 1.5, -0.0, 1e308, True, False, None]
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
ODD_TEXT = st.sampled_from(["\ud800", "\udfff hola", "\x00", "play 1e\x00", "🂡" * 40, " " * 5])


@pytest.fixture
def fuzz_client(settings: Settings) -> Iterator[TestClient]:
    """The app with the message rate limits out of the way: this sends as fast as it can."""
    roomy = settings.but(
        message_burst=10**9,
        messages_per_second=1e9,
        # Every example opens three connections and may chat, all from the one test address.
        address_connect_burst=10**9,
        address_chat_burst=10**9,
    )
    with serving(roomy) as c:
        yield c


def actions() -> st.SearchStrategy[str]:
    """Action texts: legal or not, well formed or not."""
    verbs = [v.value for v in Verb]
    return st.one_of(
        st.sampled_from(verbs),
        st.builds(lambda v, c: f"{v} {c}", st.sampled_from(verbs), st.sampled_from(CARDS)),
        st.text(max_size=30),
        ODD_TEXT,
    )


class Ctx:
    """What a frame is built from: the table's current version and the sender's legal moves."""

    def __init__(self, v: int, legal: list[str]) -> None:
        self.v = v
        self.legal = legal


Frame = str | bytes


@st.composite
def act_frames(draw: st.DrawFn, ctx: Ctx) -> Frame:
    """A valid act for the sender, then mutated (or not) into something else."""
    # Draws never depend on the table (a legal move is picked by index): hypothesis replays an
    # example draw by draw, and the table's state could differ if something went wrong.
    pick, other = draw(st.integers(0, 99)), draw(actions())
    action = ctx.legal[pick % len(ctx.legal)] if ctx.legal else other
    d: dict[str, Any] = {"a": draw(st.integers(0, 10**6)), "v": ctx.v, "action": action}
    msg: Any = {"t": "act", "d": d}
    for _ in range(draw(st.integers(0, 3))):
        if not isinstance(msg, dict) or not isinstance(msg.get("d", {}), dict):
            break  # wrapped in a list: nothing left to mutate by name
        kind = draw(
            st.sampled_from(
                ["drop", "junk", "number", "version", "action", "type", "extra", "wrap"]
            )
        )
        key = draw(st.sampled_from(["a", "v", "action"]))
        if kind == "drop":
            if draw(st.booleans()):
                d.pop(key, None)
            else:
                msg.pop("d", None)
        elif kind == "junk":
            d[key] = draw(JSON)
        elif kind == "number":
            d[key] = draw(NUMBERS)
        elif kind == "version":
            d["v"] = ctx.v + draw(st.sampled_from([-3, -2, -1, 1, 2, 50, 2**53]))
        elif kind == "action":
            d["action"] = draw(actions())
        elif kind == "type":
            msg["t"] = draw(st.sampled_from(["ACT", "act ", "", "chat", "ev"]) | JSON)
        elif kind == "extra":  # fields that must not matter: a seat, a token
            d[draw(st.sampled_from(["seat", "token", "s"]))] = draw(
                st.sampled_from([0, 1, 2, -1, "0"])
            )
        else:
            msg = {"t": "act", "d": [d]} if draw(st.booleans()) else [msg]
    text = json.dumps(msg)
    return text.encode() if draw(st.booleans()) else text


def other_frames() -> st.SearchStrategy[Frame]:
    message = st.fixed_dictionaries(
        {"t": st.sampled_from(["chat", "sena", "rematch", "ping", "nope", "full"]) | st.text()},
        optional={
            "d": st.dictionaries(
                st.sampled_from(["text", "sena", "a", "v", "action"]),
                JSON | ODD_TEXT | st.sampled_from(["ancho-espada", "tres", "x" * 301]),
            )
            | JSON
        },
    )
    depth = st.integers(1, 3500)
    return st.one_of(
        message.map(json.dumps),
        JSON.map(json.dumps),
        st.text(max_size=60),
        st.binary(max_size=60),
        st.sampled_from([b"\xff\xfe", b'{"t": "ping"\xff}', b"\xed\xa0\x80", b"\xc0\xaf"]),
        depth.map(lambda n: "[" * n + "]" * n),
        depth.map(lambda n: '{"t": "act", "d": ' + '{"a": ' * n + "1" + "}" * n + "}"),
        depth.map(lambda n: "[" * n),
        st.just('{"t": "act", "t": "ping", "d": {}}'),
        ODD_TEXT.map(lambda s: json.dumps({"t": "chat", "d": {"text": s}}, ensure_ascii=False)),
        ODD_TEXT.map(lambda s: json.dumps({"t": "chat", "d": {"text": s}})),
    )


CARD_WORD = re.compile(r"(?<![0-9A-Za-z])(?:1[0-2]|[1-7])[eboc](?![0-9A-Za-z])")


HELP_EXAMPLE = re.compile(r"""(as in|such as) (\\"|')[a-z-]+ 1e(\\"|')""")
"""The fixed example in the messages of protocol.parse and the notation."""
ALL_CARDS = frozenset(DECK)


def named(text: str) -> set[Card]:
    """The cards named as words anywhere in ``text``."""
    return {Card.parse(w) for w in CARD_WORD.findall(text) if w in NAMES}


class Watch:
    """The table's states by version, and the cards each connection sent itself."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.states: dict[int, State] = {}
        self.echo: dict[int, set[Card]] = {}

    def note(self) -> None:
        for ver in self.table.recent:
            self.states[ver.v] = ver.state
        self.states[self.table.v] = self.table.state

    def hidden(self, seat: int | None) -> set[Card]:
        """Every card that was ever in another seat's hand unseen by ``seat``."""
        out: set[Card] = set()
        for state in self.states.values():
            if state.hand_no:
                others = {c for s, hand in enumerate(state.dealt) if s != seat for c in hand}
                out |= others - allowed(state, seat)
        return out

    def sent(self, who: Player, frame: Frame) -> None:
        text = frame.decode("utf-8", "replace") if isinstance(frame, bytes) else frame
        self.echo.setdefault(id(who), set()).update(named(text))

    def check(self, who: Player, seat: int | None, start: int) -> None:
        """Judge every message ``who`` received from index ``start`` on."""
        self.note()
        for msg in who.seen[start:]:
            t, d = msg["t"], msg["d"]
            assert t != "close", (seat, msg)
            if t in ("full", "ev"):
                v = d["v"]
                ok: AbstractSet[Card] = allowed(self.states[v], seat) if v in self.states else set()
                seen = cards_in(msg)
            elif t == "err":
                # An error may name a card another seat holds only if the client itself named
                # it. Its message is prose ("play 1e: ..."), so cards are found as words; the
                # notation's own example ("as in 'play 1e'") is no card of anyone's.
                prose = HELP_EXAMPLE.sub("", json.dumps(d, ensure_ascii=False))
                ok = ALL_CARDS - (self.hidden(seat) - self.echo.get(id(who), set()))
                seen = named(prose)
            elif t == "chat":
                ok, seen = set(), cards_in({k: v for k, v in d.items() if k != "text"})
            else:
                ok, seen = set(), cards_in(msg)
            assert seen <= ok, (seat, t, sorted(map(str, seen - ok)), msg)


MARKS = itertools.count(777_000_000_001)


def sync(who: Connection) -> None:
    """Read everything ``who`` was sent before now.

    Not with a ping: a fuzzed frame may itself be a ping (``{"t": "act", "t": "ping"}``), and
    its pong would be taken for ours. An act whose action cannot be read is refused at once
    with its own, unique, ``a``; the server reads a connection's frames in order.
    """
    a = next(MARKS)
    who.send("act", {"a": a, "v": 0, "action": "sync"})
    while True:
        msg = who.recv()
        assert msg["t"] != "close", msg
        if msg["t"] == "err" and msg["d"].get("a") == a:
            return


class Utf8Player(Player):
    """Every frame the server sends must be valid UTF-8 (a real socket could not carry it)."""

    def receive_text(self, timeout: float) -> str | None:
        text = super().receive_text(timeout)
        if text is not None:
            text.encode("utf-8")  # raises on a lone surrogate
        return text


def dealt(table: Table) -> None:
    """Wait for a pending deal (its timer runs at once here), so that what is drawn next does
    not depend on timing: hypothesis replays a failing example draw by draw."""
    end = time.monotonic() + 5
    while to_act(table.state) == CHANCE and table.state.phase != OVER:
        assert time.monotonic() < end, "the deal did not happen"
        time.sleep(0.002)


def fuzz_table(client: TestClient, data: st.DataObject) -> None:
    t = create(client)
    beto_token = join(client, t["table"])
    table: Table = app_state(client).hub.tables[t["table"]]
    watch = Watch(table)
    ana = Utf8Player(client, t["table"], t["token"])
    beto = Utf8Player(client, t["table"], beto_token)
    spectator = Utf8Player(client, t["table"])
    everyone: list[tuple[Player, int | None]] = [(ana, 0), (beto, 1), (spectator, None)]
    try:
        settle([ana, beto])
        for who, _ in everyone:
            sync(who)
        for _ in range(data.draw(st.integers(1, 6), label="frames")):
            who, seat = data.draw(st.sampled_from(everyone), label="sender")
            dealt(table)
            actor, v = to_act(table.state), table.v
            legal = [str(a) for a in legal_actions(table.state)] if seat == actor else []
            frame = data.draw(act_frames(Ctx(v, legal)) | other_frames(), label="frame")
            watch.sent(who, frame)
            if isinstance(frame, bytes):
                who.ws.send_bytes(frame)
            else:
                who.send_text(frame)
            sync(who)
            if seat is None or seat != actor:
                assert table.v == v, ("a frame from someone not to act changed the table", frame)
        for who, _ in everyone:
            sync(who)

        # The table still plays: each seat makes a legal move, acknowledged.
        acted: set[int] = set()
        for _ in range(12):
            mover = settle([ana, beto])
            if mover is None or acted == {0, 1}:
                break
            assert mover.view is not None
            legal = mover.view["legal"]
            mover.play(legal[data.draw(st.integers(0, 99), label="legal") % len(legal)])
            acted.add(mover.view["seat"])
        for who, seat in everyone:
            sync(who)
            watch.check(who, seat, 0)
        assert acted == {0, 1} or table.state.phase == OVER
        assert client.get(f"/api/tables/{t['table']}").status_code == 200
    finally:
        for who, _ in everyone:
            who.close()
            Player.opened.remove(who)


def fuzz_settings(examples: int) -> hsettings:
    return hsettings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


@fuzz_settings(40)
@given(data=st.data())
def test_bad_input_never_breaks_a_table(fuzz_client: TestClient, data: st.DataObject) -> None:
    fuzz_table(fuzz_client, data)


@pytest.mark.slow
@fuzz_settings(120)
@given(data=st.data())
def test_bad_input_never_breaks_a_table_long(fuzz_client: TestClient, data: st.DataObject) -> None:
    fuzz_table(fuzz_client, data)


def test_the_judge_is_not_vacuous(fuzz_client: TestClient) -> None:
    """The check fails on a message that shows another seat's card, and on a closed socket."""
    t = create(fuzz_client)
    beto = Player(fuzz_client, t["table"], join(fuzz_client, t["table"]))
    table: Table = app_state(fuzz_client).hub.tables[t["table"]]
    ana = Player(fuzz_client, t["table"], t["token"])
    ana.catch_up(1)  # dealt once both came
    beto.catch_up(1)
    watch = Watch(table)
    other = str(table.state.dealt[1][0])
    ana.seen.append({"t": "ev", "d": {"v": 1, "view": {"history": [[1, f"play {other}"]]}}})
    with pytest.raises(AssertionError):
        watch.check(ana, 0, 0)
    ana.seen[-1] = {"t": "err", "d": {"code": "illegal_action", "message": f"no {other}"}}
    with pytest.raises(AssertionError):
        watch.check(ana, 0, 0)
    watch.sent(ana, json.dumps({"t": "act", "d": {"action": f"play {other}"}}))
    watch.check(ana, 0, 0)  # quoting the client's own words is no leak
    ana.seen.append({"t": "close", "d": {"code": 1011}})
    with pytest.raises(AssertionError):
        watch.check(ana, 0, 0)


def test_deep_nesting_is_bad_json_and_the_connection_stays(fuzz_client: TestClient) -> None:
    """``json`` raises RecursionError, not ValueError, on deep nesting (found by this file)."""
    t = create(fuzz_client)
    ana = Player(fuzz_client, t["table"], t["token"])
    ana.recv()
    ana.send_text("[" * 4000 + "]" * 4000)
    err = ana.until("err")["d"]
    assert err["code"] == "bad_json"
    sync(ana)

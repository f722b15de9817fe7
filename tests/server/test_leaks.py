"""Property: no message sent to a seat or a spectator holds a card that seat may not see.

Random games at random tables (2, 4 or 6 seats, flor, face-down cards), driven through the
table owner with the protocol's own messages, with connections coming back at random versions.
A card may reach seat s only if s was dealt it, it was played face up in the current hand, or
it was shown at the end of the hand; a spectator sees only the last two. The replay's answers
during the match (each finished hand, frame by frame, as the server would send it to a seat)
are judged the same way against the state of each step; a spectator gets none.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from truco.cards import DECK, Card
from truco.engine import CHANCE, legal_actions, to_act
from truco.notation import states
from truco.senas import SENAS
from truco.server.errors import TableError
from truco.server.settings import Settings, sqlite_url
from truco.server.store.database import Store
from truco.server.tables import replay
from truco.server.tables.conn import Conn
from truco.server.tables.hub import Hub
from truco.server.tables.table import PLAYING, Table
from truco.state import PLAY, State

NAMES = {str(c): c for c in DECK}


def cards_in(value: Any) -> set[Card]:
    """Every card named in a JSON value (strings such as "1e" or "play 7o")."""
    found: set[Card] = set()
    if isinstance(value, str):
        found.update(NAMES[w] for w in value.split() if w in NAMES)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= cards_in(k) | cards_in(v)
    return found


def allowed(state: State, seat: int | None) -> set[Card]:
    out: set[Card] = set(state.dealt[seat]) if seat is not None and state.hand_no else set()
    for trick in (*state.tricks, state.plays):
        out.update(card for _, card, face_down in trick if not face_down)
    if state.phase != PLAY:
        for _, cards in state.shown:
            out.update(cards)
    return out


Judge = Callable[[State, int | None], set[Card]]
"""What a message of a state may name to a seat (None: a spectator)."""


class Watch:
    """Every state the table went through, by version, to judge each message against (with
    ``judge``: ``allowed``, or a game's own, as Truco Paulista's public vira)."""

    def __init__(self, table: Table, judge: Judge | None = None) -> None:
        self.table = table
        self.judge: Judge = judge or allowed
        self.states: dict[int, State] = {0: table.state}
        self.checked = 0
        self.replayed = 0
        """The finished hands whose replay was judged."""

    def replays(self, tokens: list[str]) -> None:
        """Judge the replay of each newly finished hand, as each seat and a spectator ask for
        it while the match is on (the match's last hand is public: it is not judged here)."""
        if self.table.status != PLAYING:
            return
        while self.replayed < len(self.table.hands):
            history = self.table.hands[self.replayed]
            self.replayed += 1
            steps = [state for state, _ in states(history)]
            try:
                replay.viewer(self.table, None)
            except TableError as exc:
                assert exc.code == "bad_token"
            else:
                raise AssertionError("a spectator may replay a match in play")
            for seat, token in enumerate(tokens):
                who = replay.viewer(self.table, token)
                frames = json.loads(json.dumps(replay.frames(history, who, self.replayed)))
                for frame, state in zip(frames, steps, strict=True):
                    seen = cards_in(frame)
                    ok = allowed(state, seat)
                    assert seen <= ok, (seat, frame["step"], sorted(map(str, seen - ok)), frame)
                    self.checked += 1

    def note(self) -> None:
        for ver in self.table.recent:
            self.states[ver.v] = ver.state
        self.states[self.table.v] = self.table.state

    def drain(self, conn: Conn) -> None:
        while conn.pending:
            msg = json.loads(conn.pending.popleft())
            seen = cards_in(msg)
            if msg["t"] in ("full", "ev", "pista"):
                ok = self.judge(self.states[msg["d"]["v"]], conn.seat)
            else:
                ok = set()
            assert seen <= ok, (conn.seat, msg["t"], sorted(map(str, seen - ok)), msg)
            self.checked += 1


async def play(players: int, flor: bool, tapada: str, seed: int, rng: random.Random) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        url = sqlite_url(str(Path(tmp) / "leaks.db"))
        # Seats reconnect here far more often than people do: out of the reconnect limit's way.
        settings = Settings(
            database_url=url, bot_delay=0, deal_delay=0, seed=seed, seat_connect_burst=10**6
        )
        hub = Hub(Store(url), settings)
        await hub.start()
        try:
            options = {"players": players, "flor": flor, "tapada": tapada, "target": 15}
            created = await hub.create("P0", options, {}, None)
            table = hub.tables[created.table]
            watch = Watch(table)
            tokens = [created.token]
            for s in range(1, players):
                tokens.append((await table.join(f"P{s}", s))[1])
            conns: list[Conn] = []
            for token in tokens:
                conns.append(Conn(limit=10**6))
                await table.connect(conns[-1], token, 0)
            spectators = [Conn(limit=10**6)]
            await table.connect(spectators[0], None, 0)
            for _ in range(600):
                for _ in range(20):  # let a pending deal happen
                    if to_act(table.state) != CHANCE:
                        break
                    await asyncio.sleep(0)
                watch.note()
                for conn in conns + spectators:
                    watch.drain(conn)
                watch.replays(tokens)
                actor = to_act(table.state)
                if actor is None:
                    break
                if actor == CHANCE:
                    await asyncio.sleep(0.001)
                    continue
                if rng.random() < 0.08:  # someone reconnects, from a random version
                    last_v = rng.randint(0, table.v)
                    who = rng.randrange(players + 1)
                    conn = Conn(limit=10**6)
                    if who == players:
                        await table.connect(conn, None, last_v)
                        spectators.append(conn)
                    else:
                        await table.connect(conn, tokens[who], last_v)
                        watch.drain(conns[who])
                        conns[who] = conn
                    watch.drain(conn)
                action = rng.choice(legal_actions(table.state))
                frame = {"t": "act", "d": {"a": table.v, "v": table.v, "action": str(action)}}
                await table.receive(conns[actor], json.dumps(frame))
            watch.note()
            for conn in conns + spectators:
                watch.drain(conn)
            assert to_act(table.state) is None  # the match was played to its end
            # Every hand but the last (which ends the match) was replayed while it was on.
            assert watch.replayed == len(table.hands) - 1
            return watch.checked
        finally:
            await hub.stop()


@hsettings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
@given(
    players=st.sampled_from([2, 4, 6]),
    flor=st.booleans(),
    tapada=st.sampled_from(["from_second", "always"]),
    seed=st.integers(0, 2**32),
    rng=st.randoms(use_true_random=False),
)
def test_no_message_shows_a_hidden_card(
    players: int, flor: bool, tapada: str, seed: int, rng: random.Random
) -> None:
    checked = asyncio.run(play(players, flor, tapada, seed, rng))
    assert checked > 0


def test_the_check_catches_a_leak() -> None:
    """The property's judge is not vacuous: another seat's card in a message fails it."""
    from truco.engine import deal
    from truco.rules import Rules
    from truco.state import new_match

    state, _ = deal(new_match(Rules()), random.Random(1))
    other = state.dealt[1][0]
    assert other not in allowed(state, 0)
    assert cards_in({"view": {"history": [[1, f"play {other}"]]}}) == {other}
    assert allowed(state, None) == set()


def test_the_check_catches_a_replay_that_shows_too_much() -> None:
    """The replay's judge is not vacuous: the frames of a finished match (every card face up)
    fail it for a seat, and a seat's own frames pass it."""
    from truco.engine import deal
    from truco.notation import from_state
    from truco.rules import Rules
    from truco.state import new_match

    state, _ = deal(new_match(Rules()), random.Random(1))
    while state.phase == PLAY:
        state = _first(state)
    history = from_state(state)
    steps = [s for s, _ in states(history)]
    open_frames = replay.frames(history, replay.EVERYONE, 1)
    assert not cards_in(open_frames[0]) <= allowed(steps[0], 0)
    for frame, step in zip(replay.frames(history, 0, 1), steps, strict=True):
        assert cards_in(frame) <= allowed(step, 0)


def _first(state: State) -> State:
    from truco.engine import apply

    return apply(state, legal_actions(state)[0]).state


# --- señas: a person's and the bots', to partners only -------------------------------------


class SenaWatch(Watch):
    """The no-leak judge, and a seña may reach only a partner of its sender: never a rival,
    never a spectator, never the sender himself."""

    def __init__(self, table: Table, bots: set[int]) -> None:
        super().__init__(table)
        self.bots = bots
        self.from_bots: dict[int, int] = {}
        """Señas a bot made, by the seat that received them."""

    def drain(self, conn: Conn) -> None:
        teams = self.table.state.teams
        for raw in list(conn.pending):
            msg = json.loads(raw)
            if msg["t"] == "sena":
                sender = msg["d"]["seat"]
                assert conn.seat is not None, ("a spectator got a seña", msg)
                assert conn.seat != sender and teams[conn.seat] == teams[sender], (
                    "a seña reached a rival",
                    conn.seat,
                    msg,
                )
                if sender in self.bots:
                    self.from_bots[conn.seat] = self.from_bots.get(conn.seat, 0) + 1
        super().drain(conn)


async def play_with_bots(players: int, flor: bool, seed: int, rng: random.Random) -> SenaWatch:
    """A match of people and bots at a team table: every person has a bot partner and a bot
    rival; the people play at random and make random señas."""
    with tempfile.TemporaryDirectory() as tmp:
        url = sqlite_url(str(Path(tmp) / "senas.db"))
        settings = Settings(
            database_url=url,
            bot_delay=0,
            deal_delay=0,
            seed=seed,
            seat_connect_burst=10**6,
            chat_burst=10**6,
            bot_processes=0,
        )
        hub = Hub(Store(url), settings)
        await hub.start()
        try:
            # 2v2: people 0 and 1, bots 2 and 3; 3v3: people 0, 1 and 4, bots 2, 3 and 5.
            bot_seats = {2: "normal", 3: "facil"}
            if players == 6:
                bot_seats[5] = "normal"
            options = {"players": players, "flor": flor, "target": 15}
            created = await hub.create("P0", options, bot_seats, None)
            table = hub.tables[created.table]
            watch = SenaWatch(table, set(bot_seats))
            tokens = {0: created.token}
            for s in range(1, players):
                if s not in bot_seats:
                    tokens[s] = (await table.join(f"P{s}", s))[1]
            conns: dict[int, Conn] = {}
            for s, token in tokens.items():
                conns[s] = Conn(limit=10**6)
                await table.connect(conns[s], token, 0)
            spectator = Conn(limit=10**6)
            await table.connect(spectator, None, 0)
            for _ in range(2000):  # the people's actions
                for _ in range(100_000):  # the dealer and the bots act on their clock
                    actor = to_act(table.state)
                    if actor is None or (actor != CHANCE and actor not in bot_seats):
                        break
                    await asyncio.sleep(0.001)
                watch.note()
                for conn in (*conns.values(), spectator):
                    watch.drain(conn)
                if actor is None:
                    break
                for conn in conns.values():
                    if rng.random() < 0.3:
                        sena = {"t": "sena", "d": {"sena": rng.choice(SENAS)}}
                        await table.receive(conn, json.dumps(sena))
                action = rng.choice(legal_actions(table.state))
                frame = {"t": "act", "d": {"a": table.v, "v": table.v, "action": str(action)}}
                await table.receive(conns[actor], json.dumps(frame))
            watch.note()
            for conn in (*conns.values(), spectator):
                watch.drain(conn)
            assert to_act(table.state) is None
            return watch
        finally:
            await hub.stop()


@pytest.mark.parametrize(
    ("players", "flor", "seed"), [(4, False, 1), (4, True, 2), (6, False, 3), (6, True, 4)]
)
def test_senas_reach_partners_only(players: int, flor: bool, seed: int) -> None:
    """People's and bots' señas reach their partners and nobody else (judged in ``drain``),
    and no message shows a hidden card; a person with a bot partner sees its señas. (Seeded
    cases rather than hypothesis: the bots' personas come from the table's random id, so a
    case cannot be replayed exactly.)"""
    watch = asyncio.run(play_with_bots(players, flor, seed, random.Random(seed)))
    assert watch.checked > 0
    assert watch.from_bots.get(0, 0) > 0  # seat 0's partner, seat 2, is a bot

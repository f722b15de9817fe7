"""What the caretaker played for an absent person, told to her once on her return.

With another person seated, a person who does not come back within the grace period is played by
the caretaker; on her return the one ``table`` message of it names the hands of the match that
ended while it held her seat, and the score she came back to. That survives a restart: the
store keeps where the spell began, and the restored table plays on for her at once. A property
drives random matches with a seat away for a random stretch (a restart now and then) and judges
the report against what the other person saw meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from server.helpers import Player, serving, settle, step, two_people
from server.test_away import db_rows, info_of
from truco.engine import CHANCE, legal_actions, to_act
from truco.protocol.told import caretaker_played as told_line
from truco.server import Settings
from truco.server.settings import sqlite_url
from truco.server.store.database import Store
from truco.server.tables.conn import Conn
from truco.server.tables.hub import Hub
from truco.server.tables.table import Table
from truco.tui.session import RemoteGame

HANG = 120.0
"""Seconds a wait for the table may take: only a hang guard (the bots decide in worker
processes, so a wait yields to the loop until they answered, however long that takes)."""


async def waits() -> AsyncIterator[None]:
    """Turns of the loop, each after a short sleep, until the hang guard."""
    end = time.monotonic() + HANG
    while time.monotonic() < end:
        yield
        await asyncio.sleep(0.001)
    raise AssertionError("the table did not move on")


def ended(view: dict[str, Any]) -> int:
    """How many hands of the match had ended at ``view``."""
    playing = view["phase"] == "play"  # the hand of the view is not over yet
    return int(view["hand"]) - (1 if playing else 0)


def spells(messages: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The caretaker reports for ``seat`` that ``messages`` hold."""
    tables = [
        m["d"] if m["t"] == "table" else m["d"]["table"]
        for m in messages
        if m["t"] in ("table", "full")
    ]
    return [t["seats"][seat]["caretaker"] for t in tables if t["seats"][seat]["caretaker"]]


def test_a_restart_keeps_what_the_caretaker_played(settings: Settings) -> None:
    quick = settings.but(grace_seconds=0.1)
    with serving(quick) as c:
        table, t, token, ana, beto = two_people(c)
        beto.close()
        while not ana.until("table")["d"]["seats"][1]["replaced"]:
            pass
        assert ana.view is not None
        began = ended(ana.view)
        while ana.view is not None and ended(ana.view) < began + 2:  # two hands for him
            assert step([ana], lambda legal: "mazo" if "mazo" in legal else legal[0])
        ana.close()  # (her own grace period may run out as the server stops: not judged here)
    stored = db_rows(
        quick,
        f"SELECT spell_match, spell_hands FROM truco_seats WHERE table_id = '{table}' AND seat = 1",
    )
    assert stored == [(1, began)]
    # Restarted, with a grace period nobody reaches: the caretaker plays for him from the start.
    with serving(settings.but(grace_seconds=600.0)) as c:
        assert info_of(c, table)["seats"][1]["replaced"]
        ana = Player(c, table, t["token"])
        settle([ana])
        assert ana.view is not None
        now = ended(ana.view)
        while ana.view is not None and ended(ana.view) < now + 1:  # and one more after it
            assert step([ana], lambda legal: "mazo" if "mazo" in legal else legal[0])
        back = Player(c, table, token)
        told = back.until("table")["d"]
        while told["seats"][1]["replaced"]:  # what the table said before he was back
            told = back.until("table")["d"]
        settle([ana, back])
        assert back.view is not None and ana.view is not None
        spell = told["seats"][1]["caretaker"]
        assert spell == {
            "hands": list(range(began + 1, ended(back.view) + 1)),
            "score": back.view["score"],
        }
        assert len(spell["hands"]) >= 3
        assert spells(back.seen, 1) == [spell]  # once
        # The terminal client, given what the server sent him, writes it in its log once.
        game = RemoteGame()
        for msg in back.seen:
            game.handle(msg)
        assert game.notices == [told_line(spell)]
        assert info_of(c, table)["seats"][1]["caretaker"] is None
    assert db_rows(
        quick,
        f"SELECT spell_match, spell_hands FROM truco_seats WHERE table_id = '{table}' AND seat = 1",
    ) == [(None, None)]
    # Back for good: a restart after it tells him nothing again.
    with serving(settings) as c:
        again = Player(c, table, token)
        again.until("table")
        assert not info_of(c, table)["seats"][1]["replaced"]
        assert spells(again.seen, 1) == []


class Seen:
    """One connection's messages, in order, and the view they left it with."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn
        self.messages: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None

    def read(self) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
        """The messages that arrived since the last read, each with the view it left."""
        new = []
        while self.conn.pending:
            msg = json.loads(self.conn.pending.popleft())
            if msg["t"] in ("full", "ev"):
                self.view = msg["d"]["view"]
            self.messages.append(msg)
            new.append((msg, self.view))
        return new


async def settled(table: Table) -> None:
    """Yield until the table waits for a person (or the match is over)."""
    async for _ in waits():
        actor = to_act(table.state)
        if actor is None or (actor != CHANCE and not table.seats[actor].bot_plays):
            return


async def away(
    players: int, seed: int, leave: int, stretch: int, restart: bool, rng: random.Random
) -> tuple[list[int], int]:
    """Ana (seat 0) and Beto (seat 1) play at random; Beto leaves after ``leave`` actions and
    is back after ``stretch`` more of Ana's (the server restarted meanwhile, if ``restart``).
    Returns the hands the report named and how many reports Beto heard."""
    with tempfile.TemporaryDirectory() as tmp:
        url = sqlite_url(str(Path(tmp) / "spell.db"))
        settings = Settings(
            database_url=url,
            bot_delay=0,
            deal_delay=0,
            seed=seed,
            grace_seconds=0.0,
            seat_connect_burst=10**6,
        )
        bots = {s: "random" for s in range(2, players)}
        hub = Hub(Store(url), settings)
        await hub.start()
        try:
            created = await hub.create("Ana", {"players": players, "target": 15}, bots, None)
            table = hub.tables[created.table]
            tokens = [created.token, (await table.join("Beto", 1))[1]]
            seen = [Seen(Conn(limit=10**6)), Seen(Conn(limit=10**6))]
            for s in (0, 1):
                await table.connect(seen[s].conn, tokens[s], 0)

            async def act(seat: int) -> None:
                action = rng.choice(legal_actions(table.state))
                frame = {"t": "act", "d": {"a": table.v, "v": table.v, "action": str(action)}}
                await table.receive(seen[seat].conn, json.dumps(frame))

            async def turns(count: int, present: tuple[int, ...]) -> None:
                for _ in range(count):
                    await settled(table)
                    actor = to_act(table.state)
                    if actor is None or actor not in present:
                        return  # over, or Beto's turn while he is away and not yet replaced
                    await act(actor)

            await turns(leave, (0, 1))
            await table.disconnect(seen[1].conn)
            began: int | None = None
            async for _ in waits():  # the grace period passes: Ana hears the caretaker came
                for msg, view in seen[0].read():
                    if msg["t"] == "table" and msg["d"]["seats"][1]["replaced"] and view:
                        began = ended(view)  # the hands she had seen end by then
                if began is not None or to_act(table.state) is None:
                    break
            await turns(stretch, (0,))
            if restart and began is not None:
                await hub.stop()
                hub = Hub(Store(url), settings.but(grace_seconds=600.0))
                await hub.start()
                restored = await hub.get(created.table)  # a finished match's too
                assert isinstance(restored, Table)
                table = restored
                assert table.seats[1].replaced
                seen[0] = Seen(Conn(limit=10**6))
                await table.connect(seen[0].conn, tokens[0], 0)
                await turns(rng.randrange(8), (0,))
            await settled(table)
            seen[0].read()
            back = Seen(Conn(limit=10**6))
            await table.connect(back.conn, tokens[1], rng.randint(0, table.v))
            # Ana's turn (or the end) when he came: the hands and score he came back to.
            seen[0].read()
            assert seen[0].view is not None
            expected = [] if began is None else list(range(began + 1, ended(seen[0].view) + 1))
            back.read()
            told = spells(back.messages, 1)
            if expected:
                assert told == [{"hands": expected, "score": seen[0].view["score"]}]
            else:
                assert told == []
            await turns(rng.randrange(6), (0, 1))
            again = Seen(Conn(limit=10**6))
            await table.connect(again.conn, tokens[1], 0)
            await turns(2, (0, 1))
            back.read(), again.read(), seen[0].read()
            assert spells(back.messages, 1) == told  # once: not again, to him or to Ana
            assert spells(again.messages, 1) == []
            assert spells(seen[0].messages, 1) == told  # Ana heard it with him, once
            await settled(table)  # no bot's decision in flight as the loop closes
            return (told[0]["hands"] if told else []), len(told)
        finally:
            await hub.stop()


@hsettings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(
    players=st.sampled_from([2, 4]),
    seed=st.integers(0, 2**32),
    leave=st.integers(0, 30),
    stretch=st.integers(0, 60),
    restart=st.booleans(),
    choices=st.integers(0, 2**32),
)
def test_the_report_names_the_hands_it_played_once(
    players: int, seed: int, leave: int, stretch: int, restart: bool, choices: int
) -> None:
    rng = random.Random(choices)  # the people's choices (the table's own are seeded by seed)
    hands, told = asyncio.run(away(players, seed, leave, stretch, restart, rng))
    event(f"hands told: {min(len(hands), 3)}{'+' if len(hands) >= 3 else ''}")
    assert told == (1 if hands else 0)

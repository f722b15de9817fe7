"""The pista: the expert's choice for a seat's current decision, only for a person alone
against bots, only on her turn, from her own view, computed off the table's loop."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import WAIT, Player, app_state, create, join, serving, settle
from server.test_leaks import Watch
from truco.actions import Action, Deal, Verb
from truco.cards import parse_cards
from truco.coach import hint
from truco.engine import apply, legal_actions, to_act
from truco.rules import from_options
from truco.server import Settings
from truco.server.settings import sqlite_url
from truco.server.store.database import Store
from truco.server.tables.botpool import BotPool
from truco.server.tables.clock import seeded
from truco.server.tables.conn import Conn
from truco.server.tables.hub import Hub
from truco.server.tables.table import Table
from truco.state import new_match
from truco.view import observe


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The app, waiting as long as it takes for a pista (a loaded machine is slow to answer,
    and a pool that gives up answers ``pista_unavailable``, which these tests do not test)."""
    with serving(settings.but(bot_seconds=600.0)) as c:
        yield c


def alone_vs_bot(client: TestClient) -> tuple[Player, Table]:
    """Ana at seat 0 against an expert, connected and on her turn."""
    t = create(client, bots={"1": "experto"})
    ana = Player(client, t["table"], t["token"])
    table: Table = app_state(client).hub.tables[t["table"]]
    assert settle([ana]) is ana
    return ana, table


def answer(player: Player) -> dict[str, Any]:
    """The next ``pista`` or ``err`` this connection gets."""
    while True:
        msg = player.recv()
        if msg["t"] in ("pista", "err"):
            return msg


def refused(player: Player, code: str = "pista_unavailable") -> None:
    player.send("pista")
    msg = answer(player)
    assert msg["t"] == "err" and msg["d"]["code"] == code, msg


def test_alone_against_bots_gets_a_legal_action_for_its_decision(client: TestClient) -> None:
    ana, table = alone_vs_bot(client)
    assert ana.seen[0]["d"]["table"]["pista"] is True
    assert ana.view is not None
    v, view = ana.v, observe(table.state, 0)
    ana.send("pista")
    msg = answer(ana)
    assert msg["t"] == "pista", msg
    assert msg["d"]["v"] == v
    assert msg["d"]["action"] in ana.view["legal"]
    # Computed from the seat's own view, seeded by the table and the version.
    assert msg["d"]["action"] == str(hint(view, seed=seeded(table.seed, "pista", v, 0)))


def test_a_table_with_two_people_gets_none(client: TestClient) -> None:
    rivals = create(client)
    join(client, rivals["table"])
    assert client.get(f"/api/tables/{rivals['table']}").json()["pista"] is False
    t = create(client, options={"players": 4}, bots={"1": "experto", "3": "experto"})
    assert client.get(f"/api/tables/{t['table']}").json()["pista"] is False  # a seat is empty
    token = join(client, t["table"], "Beto", seat=2)  # a person as Ana's partner
    ana = Player(client, t["table"], t["token"])
    beto = Player(client, t["table"], token)
    actor = settle([ana, beto])
    assert actor is not None
    assert client.get(f"/api/tables/{t['table']}").json()["pista"] is False
    refused(actor)


def test_a_spectator_and_a_seat_not_to_act_get_none(settings: Settings) -> None:
    # The bot waits long enough for Ana to ask while it is the bot's decision.
    with serving(settings.but(bot_seconds=600.0, bot_delay=600.0)) as client:
        ana, table = alone_vs_bot(client)
        refused(Player(client, table.id))
        assert ana.view is not None
        ana.play(next(a for a in ana.view["legal"] if a.startswith("play")))
        assert ana.v == table.v
        refused(ana)


def test_pistas_asked_again_for_one_decision_are_rate_limited(settings: Settings) -> None:
    with serving(settings.but(bot_seconds=600.0, pista_burst=2, pista_per_second=0.001)) as client:
        ana, _ = alone_vs_bot(client)
        for _ in range(3):  # the decision's own pista, then the allowance of 2 again
            ana.send("pista")
            assert answer(ana)["t"] == "pista"
        refused(ana, "rate_limited")


def test_one_pista_per_decision_is_always_answered(settings: Settings) -> None:
    # A quick hand, one pista at each of her decisions, faster than the allowance refills: none
    # is refused (issue 25, point 7: the limit guards against floods, not a pista a turn).
    tight = settings.but(bot_seconds=600.0, pista_burst=1, pista_per_second=0.001)
    with serving(tight) as client:
        t = create(client, bots={"1": "facil"})
        ana = Player(client, t["table"], t["token"])
        for _ in range(4):
            assert settle([ana]) is ana and ana.view is not None
            ana.send("pista")
            msg = answer(ana)
            assert msg["t"] == "pista", msg
            legal = ana.view["legal"]
            assert msg["d"]["action"] in legal
            fallback = "quiero" if "quiero" in legal else legal[0]
            ana.play(next((a for a in legal if a.startswith("play")), fallback))


def test_the_pista_depends_only_on_the_seats_view() -> None:
    """No hidden card leaks: two deals that differ only in the rival's cards give seat 0 the
    same view, and the pool's worker the same pista for the same seed."""
    rules = from_options(None, {})
    mine = tuple(parse_cards("1e 7o 3b"))
    states = [
        apply(new_match(rules), Deal((mine, tuple(parse_cards(rival))))).state
        for rival in ("1b 7e 3c", "4c 5c 6o")
    ]
    views = [observe(s, 0) for s in states]
    assert states[0] != states[1] and views[0] == views[1]
    pool = BotPool(1, 600.0)
    try:
        hints = [asyncio.run(pool.pista(view, "7:pista:1:0")) for view in views]
    finally:
        pool.close()
    assert hints[0] is not None and hints[0] in views[0].legal
    assert hints[0] == hints[1]


def calm(legal: tuple[Action, ...]) -> list[Action]:
    """The legal actions less those that can end a match at once (the falta, the mazo)."""
    quiet = [a for a in legal if a.verb not in (Verb.FALTA_ENVIDO, Verb.MAZO)]
    return quiet or list(legal)


async def ask_along_a_match(db: Path, pistas: int) -> int:
    """Ana, alone with three bots, asks for a pista at each of her turns (and then plays at
    random) until she got ``pistas``; every message she gets is judged by the server's no-leak
    property (test_leaks.py): a pista names no card she may not see."""
    url = sqlite_url(str(db))
    settings = Settings(
        database_url=url,
        bot_delay=0,
        deal_delay=0,
        seed=3,
        pista_burst=10**6,
        bot_processes=1,
        bot_seconds=600.0,
    )
    hub = Hub(Store(url), settings)
    await hub.start()
    rng = random.Random(3)
    try:
        bots = {1: "normal", 2: "normal", 3: "normal"}
        created = await hub.create("Ana", {"players": 4, "flor": True}, bots, None)
        table = hub.tables[created.table]
        watch, conn, got = Watch(table), Conn(limit=10**6), 0
        await table.connect(conn, created.token, 0)
        while got < pistas:
            watch.note()
            watch.drain(conn)
            actor = to_act(table.state)
            assert actor is not None, "the match ended first"
            if actor != 0:  # a deal or a bot (in the pool) comes first
                await asyncio.sleep(0.005)
                continue
            await table.receive(conn, json.dumps({"t": "pista"}))
            # A hang guard (it returns on the answer), well within the test's own limit.
            async with asyncio.timeout(WAIT):
                while not any(m.startswith(('{"t":"pista"', '{"t":"err"')) for m in conn.pending):
                    await asyncio.sleep(0.005)
            assert not any(m.startswith('{"t":"err"') for m in conn.pending), list(conn.pending)
            got += 1
            watch.drain(conn)
            frame = {
                "a": table.v,
                "v": table.v,
                # Cards and answers, never a falta envido or a mazo: a random falta accepted
                # by a bot could end the match before Ana asked for her pistas.
                "action": str(rng.choice(calm(legal_actions(table.state)))),
            }
            await table.receive(conn, json.dumps({"t": "act", "d": frame}))
        return watch.checked
    finally:
        await hub.stop()


def test_no_pista_shows_a_hidden_card(tmp_path: Path) -> None:
    assert asyncio.run(ask_along_a_match(tmp_path / "t.db", 6)) > 6

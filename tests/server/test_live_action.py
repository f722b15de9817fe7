"""A live action is parsed and checked once, and the transition checked is the one committed:
replaying the log is the only path that reads a logged action again (issue 15, point 3)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from truco.actions import Action
from truco.engine import CHANCE, legal_actions, to_act
from truco.server.settings import Settings, sqlite_url
from truco.server.store.database import Store
from truco.server.tables.conn import Conn
from truco.server.tables.hub import Hub
from truco.server.tables.table import Table


async def play(url: str, parsed: list[str], moves: int) -> tuple[Table, int]:
    settings = Settings(database_url=url, bot_delay=0, deal_delay=0, seed=7)
    hub = Hub(Store(url), settings)
    await hub.start()
    try:
        created = await hub.create("Ana", {"players": 2}, {}, None)
        table = hub.tables[created.table]
        tokens = [created.token, (await table.join("Beto", 1))[1]]
        conns = [Conn(limit=10**6), Conn(limit=10**6)]
        for conn, token in zip(conns, tokens, strict=True):
            await table.connect(conn, token, 0)
        rng = random.Random(1)
        sent = 0
        while sent < moves and to_act(table.state) is not None:
            actor = to_act(table.state)
            if actor == CHANCE:
                await asyncio.sleep(0.001)
                continue
            assert actor is not None
            action = rng.choice(legal_actions(table.state))
            frame = {"t": "act", "d": {"a": sent, "v": table.v, "action": str(action)}}
            before = len(parsed)
            await table.receive(conns[actor], json.dumps(frame))
            assert parsed[before:] == [str(action)]  # read once, by the codec
            sent += 1
        return table, sent
    finally:
        await hub.stop()


def test_a_live_action_is_parsed_once_and_replay_reads_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[str] = []
    real = Action.parse

    def counting(text: str) -> Action:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(Action, "parse", staticmethod(counting))
    url = sqlite_url(str(tmp_path / "live.db"))
    table, sent = asyncio.run(play(url, parsed, 40))
    assert sent > 0

    async def rebuild() -> Table:
        store = Store(url)
        try:
            row = await store.load(table.id)
            assert row is not None
            return Table.from_row(row, store, table.settings)
        finally:
            await store.close()

    parsed.clear()
    rebuilt = asyncio.run(rebuild())
    assert len(parsed) == sent  # the replay reads each logged action once
    assert rebuilt.state == table.state and rebuilt.v == table.v

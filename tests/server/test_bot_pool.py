"""Bots decide in worker processes, never on the server's loop, and a broken pool does not stall
a table (issue 16, point 6). Nothing here measures time: it counts which process decided."""

from __future__ import annotations

import ast
import asyncio
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import truco
from server.helpers import Player, app_state, create, serving, step
from truco.bots import make_bot, make_persona_bot
from truco.bots.base import Situation
from truco.engine import deal, legal_actions, to_act
from truco.rules import Rules
from truco.server import Settings
from truco.server.tables import botpool, clock
from truco.server.tables.botpool import FALLBACK, BotPool, decide
from truco.server.tables.seats import BOT, HUMAN, Seat
from truco.server.tables.table import Table
from truco.state import new_match
from truco.view import observe


@pytest.fixture
def pooled(settings: Settings) -> Iterator[TestClient]:
    with serving(settings.but(bot_processes=2)) as c:
        yield c


def pool_of(client: TestClient, table: str) -> BotPool:
    found: Table = app_state(client).hub.tables[table]
    return found._pool


def play_hands(ana: Player, hands: int) -> None:
    """Ana plays her first legal action until ``hands`` more hands were dealt (or the end)."""
    while ana.view is None:
        ana.recv(60)
    until = max(1, ana.view["hand"]) + hands  # hand 0: not dealt until she came
    # A generous wait: a new pool starts its workers afresh (they import the bots).
    while ana.view["hand"] < until and step([ana], lambda legal: legal[0], timeout=60):
        pass


def test_expert_bots_decide_in_other_processes(pooled: TestClient) -> None:
    t = create(pooled, options={"players": 4}, bots={"1": "experto", "2": "normal", "3": "experto"})
    ana = Player(pooled, t["table"], t["token"])
    pool = pool_of(pooled, t["table"])
    earlier = dict(pool.pids)
    play_hands(ana, 2)
    decided = sum(pool.pids.values()) - sum(earlier.values())
    bot_actions = sum(
        1
        for m in ana.seen
        if m["t"] == "ev"
        for e in m["d"]["events"]
        if e.get("seat") in (1, 2, 3) and e["type"] in ("CardPlayed", "Called", "Answered")
    )
    assert decided > 0 and bot_actions > 0
    # Every decision was made by a worker: none on the server's own process (and its loop).
    assert os.getpid() not in pool.pids
    workers = {pid for pid, n in pool.pids.items() if n > earlier.get(pid, 0)}
    assert 1 <= len(workers) <= 2  # no more workers than the setting allows


def test_a_killed_worker_does_not_stall_the_table(pooled: TestClient) -> None:
    t = create(pooled, bots={"1": "experto"})
    ana = Player(pooled, t["table"], t["token"])
    pool = pool_of(pooled, t["table"])
    earlier = dict(pool.pids)  # the pool is the process's: other tests' workers are gone
    play_hands(ana, 1)
    workers = {pid for pid, n in pool.pids.items() if n > earlier.get(pid, 0)}
    assert workers and os.getpid() not in workers
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    before = dict(pool.pids)
    play_hands(ana, 2)  # the bot keeps playing
    new = {pid for pid, n in pool.pids.items() if n > before.get(pid, 0)}
    assert new and not new & workers  # decided by the pool's new workers
    assert pool.failures >= 1
    assert ana.view is not None and not [m for m in ana.seen if m["t"] == "err"]


def test_a_decision_too_slow_is_made_by_the_caretaker_and_the_pool_kept() -> None:
    state, _ = deal(new_match(Rules()), random.Random(4))
    seat = to_act(state)
    assert seat is not None and seat >= 0
    view, legal = observe(state, seat), legal_actions(state)
    pool = BotPool(1, seconds=1e-9)  # no worker answers that fast
    try:
        workers = pool._pool()
        action = asyncio.run(pool.choose("expert", Situation(view, legal), "slow"))
        assert action in legal
        # The fallback never bets in anyone's name (issue 11): the caretaker's own choice.
        assert (
            FALLBACK == "caretaker"
            and action == decide(FALLBACK, Situation(view, legal), "slow")[0]
        )
        assert pool.pids == {os.getpid(): 1} and pool.failures == 1  # decided here, once
        assert pool._pool() is workers  # a slow answer is no broken pool: nothing replaced
    finally:
        pool.close()


def test_a_bot_seat_plays_with_its_personas_style_and_a_caretaker_with_none(
    settings: Settings,
) -> None:
    """The table hands a bot seat's persona to the pool (issue 14, point 5): the decision is the
    persona's bot's (its style), while the caretaker standing in for a person plays plain."""
    state, _ = deal(new_match(Rules()), random.Random(4))
    seat = to_act(state)
    assert seat is not None and seat >= 0
    bot_seats = [Seat(s, "Tito", BOT, "facil", None) for s in range(2)]
    pool = BotPool(0, seconds=10.0)  # on the loop: the same decide() a worker runs
    botpool._bots.clear()
    kind, _, _ = asyncio.run(clock.decide(pool, settings, state, bot_seats, 7, 1))
    assert kind == "act" and ("facil", "Tito") in botpool._bots
    styled = make_persona_bot("facil", "Tito")
    assert botpool._bots[("facil", "Tito")].name == styled.name != make_bot("facil").name
    people = [Seat(s, "Ana", HUMAN, None, "hash") for s in range(2)]
    asyncio.run(clock.decide(pool, settings, state, people, 7, 1))
    assert (settings.takeover_bot, "") in botpool._bots


def test_a_table_stopped_as_its_bots_answer_arrives_stops() -> None:
    """A table's task is cancelled (the server stops, the table moves) just as a worker's answer
    arrives: the cancellation must win. Python 3.11's ``asyncio.wait_for`` returned the answer
    instead, the table's loop went on waiting for commands, and stopping the server hung."""
    state, _ = deal(new_match(Rules()), random.Random(4))
    seat = to_act(state)
    assert seat is not None and seat >= 0
    view, legal = observe(state, seat), legal_actions(state)
    pool = BotPool(1, seconds=60)

    async def cancelled_as_the_answer_arrives() -> bool:
        await pool.choose("random", Situation(view, legal), "warm")  # the worker is up
        task = asyncio.create_task(pool.choose("random", Situation(view, legal), "late"))
        await asyncio.sleep(0)  # the task now waits for the worker
        # Block the loop while the worker answers (a random bot's move: a millisecond), so
        # that its answer is queued on the loop before the cancellation, as when the two race.
        time.sleep(1)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            return True
        return False

    try:
        assert asyncio.run(cancelled_as_the_answer_arrives())
    finally:
        pool.close()


def test_no_module_waits_with_asyncio_wait_for() -> None:
    """The race above is in ``asyncio.wait_for`` itself (Python 3.11), wherever a cancelled task
    awaits it: the package bounds its waits with ``asyncio.timeout``, which lets the
    cancellation through."""
    package = Path(truco.__file__).parent
    found = [
        f"{path.relative_to(package)}:{node.lineno}"
        for path in sorted(package.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "wait_for"
    ]
    assert found == []

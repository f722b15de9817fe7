"""A finished hand's analysis served (issue 13): who may have which, the same numbers as
``truco analizar``, the limits (queue, rates, cache), a loop that stays free while analyses run,
and nothing hidden leaving through it during a match."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from server.helpers import WAIT, Player, app_state, create, join, serving, step
from server.test_leaks import allowed, cards_in
from server.test_pista import calm
from server.test_play import play_out
from truco.engine import CHANCE, legal_actions, to_act
from truco.notation import dumps, loads, states
from truco.server import Settings
from truco.server.errors import TableError
from truco.server.settings import sqlite_url
from truco.server.store.database import Store
from truco.server.tables.analysis import Analyses, Busy, analyse
from truco.server.tables.conn import Conn
from truco.server.tables.hub import Hub
from truco.server.tables.table import FINISHED, Table

T = TypeVar("T")

WORLDS = 24
"""Few worlds: these tests judge who gets what, not the numbers' precision."""


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with serving(settings.but(analysis_worlds=WORLDS, bot_seconds=600.0)) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def url(table: str, n: int) -> str:
    return f"/api/tables/{table}/hands/{n}/analysis"


def two_people(client: TestClient) -> tuple[str, list[str], list[Player]]:
    """Ana and Beto at a table to 15, hand 1 over (played at random, calmly)."""
    t = create(client, options={"target": 15})
    tokens = [t["token"], join(client, t["table"])]
    players = [Player(client, t["table"], token) for token in tokens]
    rng = random.Random(4)
    while players[0].view is None or players[0].view["hand"] < 2:
        assert step(players, lambda legal: rng.choice(calm_words(legal)))
    return t["table"], tokens, players


def calm_words(legal: list[str]) -> list[str]:
    """``calm`` for the wire's words: no falta envido, no mazo (the match must not end)."""
    quiet = [a for a in legal if a not in ("falta-envido", "mazo")]
    return quiet or legal


def table_of(client: TestClient, table: str) -> Table:
    found: Table = app_state(client).hub.tables[table]
    return found


def test_during_the_match_a_player_gets_his_own_decisions_without_the_face_up_line(
    client: TestClient,
) -> None:
    table, tokens, _ = two_people(client)
    hand = table_of(client, table).hands[0]
    for seat, token in enumerate(tokens):
        r = client.post(url(table, 1), json={"seat": seat}, headers=bearer(token))
        assert r.status_code == 200, r.text
        body = r.json()
        assert (body["hand"], body["seat"], body["seed"], body["worlds"]) == (1, seat, 0, WORLDS)
        assert body["face_up"] is False and body["decisions"]
        assert all(d["seat"] == seat and "face_up" not in d for d in body["decisions"])
        # The worker's function, in this process: the same numbers for the same seed.
        assert body["decisions"] == analyse(dumps(hand), seat, 1, WORLDS, 0, False)["decisions"]

    refusals = [
        (url(table, 1), {"seat": 0}, {}, 401, "bad_token"),  # no token
        (url(table, 1), {"seat": 0}, bearer("not-a-seat-token"), 401, "bad_token"),
        (url(table, 1), {"seat": 1}, bearer(tokens[0]), 401, "bad_token"),  # the rival's
        (url(table, 2), {"seat": 0}, bearer(tokens[0]), 404, "table_not_found"),  # not over
        (url(table, 0), {"seat": 0}, bearer(tokens[0]), 404, "table_not_found"),
        (url("nope", 1), {"seat": 0}, bearer(tokens[0]), 404, "table_not_found"),
        (url(table, 1), {"seat": 6}, bearer(tokens[0]), 422, "bad_message"),
        (url(table, 1), {"seat": 0, "seed": -1}, bearer(tokens[0]), 422, "bad_message"),
    ]
    for path, body, headers, status, code in refusals:
        r = client.post(path, json=body, headers=headers)
        assert (r.status_code, r.json()["code"]) == (status, code), (path, body, r.text)
    r = client.post(
        url(table, 1), json={"seat": 0}, headers={"Origin": "https://elsewhere.example"}
    )
    assert r.status_code == 403 and r.json()["code"] == "bad_origin"


def test_once_the_match_is_over_any_seat_is_analysed_whole_as_truco_analizar_does(
    client: TestClient, tmp_path: Path
) -> None:
    table, _, players = two_people(client)
    play_out(players, random.Random(8))
    match = client.get(f"/api/tables/{table}/match.toml")
    assert match.status_code == 200
    (tmp_path / "match.toml").write_text(match.text)
    r = client.post(url(table, 1), json={"seat": 1, "seed": 5})  # no token: the match is over
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["face_up"] is True and body["decisions"]
    assert all("face_up" in d for d in body["decisions"])
    command = [sys.executable, "-m", "truco", "analizar", str(tmp_path / "match.toml")]
    command += ["--seat", "1", "--seed", "5", "--worlds", str(WORLDS), "--json"]
    cli = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    assert body["decisions"] == [d for d in cli["decisions"] if d["hand"] == 1]


def test_answers_are_cached_and_starting_one_is_limited_per_seat_and_player(
    settings: Settings,
) -> None:
    limited = settings.but(
        analysis_worlds=WORLDS, bot_seconds=600.0, analysis_burst=1, analysis_per_second=1e-6
    )
    with serving(limited) as client:
        table, tokens, _ = two_people(client)
        first = client.post(url(table, 1), json={"seat": 0}, headers=bearer(tokens[0]))
        assert first.status_code == 200
        # The same request again: the kept answer, and no credit spent.
        for _ in range(3):
            again = client.post(url(table, 1), json={"seat": 0}, headers=bearer(tokens[0]))
            assert again.status_code == 200 and again.json() == first.json()
        analyses: Analyses = app_state(client).analyses
        assert len(analyses.cache) == 1
        # Another seed is another analysis: over the player's allowance.
        r = client.post(url(table, 1), json={"seat": 0, "seed": 1}, headers=bearer(tokens[0]))
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
        # The same player (the client's identity cookie) at the other seat: over his own.
        r = client.post(url(table, 1), json={"seat": 1}, headers=bearer(tokens[1]))
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
        # Another player (a browser of his own) at Beto's seat has its own allowance.
        client.cookies.clear()
        r = client.post(url(table, 1), json={"seat": 1}, headers=bearer(tokens[1]))
        assert r.status_code == 200, r.text
        # Ana's seat spent its allowance: another browser with her token gets no more.
        client.cookies.clear()
        r = client.post(url(table, 1), json={"seat": 0, "seed": 2}, headers=bearer(tokens[0]))
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text


def test_an_address_is_rate_limited_over_its_seats(settings: Settings) -> None:
    limited = settings.but(
        analysis_worlds=WORLDS,
        bot_seconds=600.0,
        address_analysis_burst=1,
        address_analysis_per_second=1e-6,
    )
    with serving(limited) as client:
        table, tokens, _ = two_people(client)
        assert client.post(url(table, 1), json={"seat": 0}, headers=bearer(tokens[0])).is_success
        r = client.post(url(table, 1), json={"seat": 1}, headers=bearer(tokens[1]))
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text


def test_a_full_queue_answers_analysis_busy(settings: Settings) -> None:
    with serving(settings.but(analysis_queue=0)) as client:
        table, tokens, _ = two_people(client)
        r = client.post(url(table, 1), json={"seat": 0}, headers=bearer(tokens[0]))
        assert r.status_code == 503 and r.json()["code"] == "analysis_busy", r.text


async def act_at_random(table: Table, conns: list[Conn], rng: random.Random) -> bool:
    """The seat to act plays a calm random action (a deal is waited for); False at the end."""
    actor = to_act(table.state)
    while actor == CHANCE:
        await asyncio.sleep(0.001)
        actor = to_act(table.state)
    if actor is None:
        return False
    action = rng.choice(calm(legal_actions(table.state)))
    frame = {"t": "act", "d": {"a": table.v, "v": table.v, "action": str(action)}}
    await table.receive(conns[actor], json.dumps(frame))
    return True


async def seated_table(hub: Hub, options: dict[str, Any]) -> tuple[Table, list[str], list[Conn]]:
    """A table of people only, every seat connected."""
    created = await hub.create("P0", options, {}, None)
    table = hub.tables[created.table]
    tokens = [created.token]
    for seat in range(1, table.rules.players):
        tokens.append((await table.join(f"P{seat}", seat))[1])
    conns = [Conn(limit=10**6) for _ in tokens]
    for conn, token in zip(conns, tokens, strict=True):
        await table.connect(conn, token, 0)
    return table, tokens, conns


async def play_while_analysing(db: Path) -> tuple[int, float, dict[str, Any]]:
    """Hand 1 played, its analysis asked (a long one: many worlds), and the table played on
    until the analysis is back: the actions applied meanwhile, the slowest of them in seconds,
    and the analysis."""
    url_ = sqlite_url(str(db))
    settings = Settings(
        database_url=url_,
        bot_delay=0,
        deal_delay=0,
        seed=11,
        analysis_worlds=3000,
        analysis_queue=1,
        analysis_seconds=600.0,
    )
    hub = Hub(Store(url_), settings)
    await hub.start()
    analyses = Analyses(settings)
    rng = random.Random(11)
    try:
        table, tokens, conns = await seated_table(hub, {"target": 30})
        while not table.hands:
            assert await act_at_random(table, conns, rng)
        work = asyncio.create_task(analyses.answer(table, 1, 0, 0, tokens[0], "a"))
        await asyncio.sleep(0)  # it takes the queue's one place
        with pytest.raises(Busy):
            await analyses.answer(table, 1, 1, 0, tokens[1], "b")
        acted, slowest = 0, 0.0
        while not work.done():
            started = time.perf_counter()
            if not await act_at_random(table, conns, rng):
                break
            slowest = max(slowest, time.perf_counter() - started)
            acted += 1
        return acted, slowest, await work
    finally:
        analyses.close()
        await hub.stop()


def test_a_table_plays_on_while_an_analysis_runs(tmp_path: Path) -> None:
    """The analysis runs in its worker: the loop keeps applying the table's actions meanwhile
    (analysed on the loop, it would be back before a single one)."""
    acted, slowest, answer = asyncio.run(play_while_analysing(tmp_path / "t.db"))
    print(f"actions while analysing: {acted}; the slowest took {slowest * 1000:.1f} ms")
    assert answer["decisions"]
    assert acted >= 20


async def analyse_along(players: int, flor: bool, seed: int, rng: random.Random) -> int:
    """A match of people at random; after each of its first hands, every seat asks for its
    analysis during the match. Each answer is judged by the server's no-leak property
    (test_leaks.py): it names no card the seat did not see in that hand, and it has no
    face-up line. Returns the answers judged."""
    with tempfile.TemporaryDirectory() as tmp:
        return await judge_analyses(Path(tmp) / "leaks.db", players, flor, seed, rng)


async def guarded(what: str, step: Awaitable[T], state: Callable[[], str] = str) -> T:
    """``step``, failed by name if it hangs: this test once hung under a loaded full run, and
    the pytest timeout's dump could not tell a table that never took an action from an analysis
    that never came back. A hang guard, not a time limit (WAIT is far above a loaded step)."""
    try:
        async with asyncio.timeout(WAIT):
            return await step
    except TimeoutError:
        raise AssertionError(f"{what} did not come back within {WAIT:.0f} s {state()}") from None


def pool_state(analyses: Analyses) -> str:
    """What the analysis pool holds, for a hang's message: the work under way and whether each
    worker process is alive."""
    executor = analyses.pool._executor
    workers = getattr(executor, "_processes", None) or {}
    alive = {pid: proc.is_alive() for pid, proc in workers.items()}
    return f"(under way: {analyses.pool.running}, workers alive: {alive})"


async def judge_analyses(db: Path, players: int, flor: bool, seed: int, rng: random.Random) -> int:
    url_ = sqlite_url(str(db))
    settings = Settings(
        database_url=url_,
        bot_delay=0,
        deal_delay=0,
        seed=seed,
        analysis_worlds=8,
        analysis_queue=100,
        analysis_seconds=2 * WAIT,  # the hang guard below speaks first, with the pool's state
        analysis_burst=10**6,
        address_analysis_burst=10**6,
    )
    hub = Hub(Store(url_), settings)
    await hub.start()
    analyses = Analyses(settings)
    judged = 0
    try:
        table, tokens, conns = await seated_table(
            hub, {"players": players, "flor": flor, "target": 30}
        )
        while len(table.hands) < 2 and await guarded("an action", act_at_random(table, conns, rng)):
            n = len(table.hands)
            if table.status == FINISHED:  # the match ended: every hand is public now
                break
            if n == 0 or judged >= n * players:
                continue
            end = [state for state, _ in states(table.hands[n - 1])][-1]
            for seat in range(players):
                answer = await guarded(
                    f"the analysis of hand {n}, seat {seat}",
                    analyses.answer(table, n, seat, 0, tokens[seat], "a"),
                    lambda: pool_state(analyses),
                )
                assert answer["face_up"] is False
                assert all("face_up" not in d for d in answer["decisions"])
                seen = cards_in(answer)
                assert seen <= allowed(end, seat), (
                    seat,
                    sorted(map(str, seen - allowed(end, seat))),
                )
                rival = tokens[(seat + 1) % players]
                with pytest.raises(TableError):
                    await analyses.answer(table, n, seat, 0, rival, "a")
                judged += 1
        return judged
    finally:
        analyses.close()
        await hub.stop()


@hsettings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(
    players=st.sampled_from([2, 4, 6]),
    flor=st.booleans(),
    seed=st.integers(0, 2**32),
    rng=st.randoms(use_true_random=False),
)
def test_no_analysis_shows_a_hidden_card(
    players: int, flor: bool, seed: int, rng: random.Random
) -> None:
    assert asyncio.run(analyse_along(players, flor, seed, rng)) > 0


def test_during_the_match_the_answer_depends_on_the_seats_views_alone() -> None:
    """Two hands that differ only in the two cards the rival never showed: seat 0 saw the
    same, and gets the same analysis during the match. Whole (after the match) they differ,
    in the face-up line: it is the one part that knows the rival's cards."""

    def hand(rival: str) -> str:
        return (
            "players = 2\ntarget = 30\nscore = [0, 0]\nmano = 0\n"
            f'hands = ["4o 5c 6b", "7c {rival}"]\n'
            'actions = ["0 play 4o", "1 play 7c", "1 truco", "0 no-quiero"]\n'
        )

    strong, weak = hand("1e 1b"), hand("4c 5o")
    assert loads(strong).hands[0] == loads(weak).hands[0]
    during = [analyse(text, 0, 1, WORLDS, 3, False) for text in (strong, weak)]
    assert during[0] == during[1] and len(during[0]["decisions"]) == 2
    whole = [analyse(text, 0, 1, WORLDS, 3, True) for text in (strong, weak)]
    assert whole[0]["decisions"][1]["face_up"]["best"] == "no-quiero"
    assert whole[1]["decisions"][1]["face_up"]["best"] == "quiero"


async def wait_past_the_limit(db: Path) -> tuple[str, dict[str, Any]]:
    """An analysis whose request stops waiting at once: its refusal, and the answer the next
    request finds once the worker is done."""
    url_ = sqlite_url(str(db))
    settings = Settings(
        database_url=url_, bot_delay=0, deal_delay=0, seed=5, analysis_worlds=WORLDS
    )
    hub = Hub(Store(url_), settings)
    await hub.start()
    analyses = Analyses(settings.but(analysis_seconds=0.0))
    try:
        table, tokens, conns = await seated_table(hub, {"target": 30})
        rng = random.Random(5)
        while not table.hands:
            assert await act_at_random(table, conns, rng)
        with pytest.raises(TableError) as refused:
            await analyses.answer(table, 1, 0, 0, tokens[0], "a")
        # The work went on: it still holds its place in the queue until its worker is done.
        assert analyses.pool.running == 1
        async with asyncio.timeout(WAIT):  # a hang guard; it returns when the worker is done
            while analyses.pool.running:
                await asyncio.sleep(0.01)
        kept = await analyses.answer(table, 1, 0, 0, tokens[0], "a")  # from the cache
        return refused.value.code, kept
    finally:
        analyses.close()
        await hub.stop()


def test_an_analysis_outlives_a_request_that_stopped_waiting(tmp_path: Path) -> None:
    code, kept = asyncio.run(wait_past_the_limit(tmp_path / "t.db"))
    assert code == "unavailable"
    assert kept["decisions"]

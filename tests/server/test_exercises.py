"""Ejercicios (docs/players.md): exercises made from finished matches of the real server (a real
SQLite file), never from a match in play and never with a card the position's seat could not
see; the day's exercise the same for everyone; each first attempt moving the player's puzzle
rating and the exercise's, and nothing after it."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import Player, create, serving, step
from server.test_leaks import allowed, cards_in
from truco.coach.analysis import in_card_order
from truco.notation import states
from truco.server import Settings, sqlite_url
from truco.server.exercises import glicko
from truco.server.exercises.generate import MARGIN, finished_hands
from truco.server.exercises.service import Pass, generation_pass, in_thread
from truco.server.exercises.store import Exercises
from truco.server.store.database import Store

WORLDS = 48
"""Worlds per search in these tests: the coach's numbers are noisier, the rules the same."""


def play(client: TestClient, seed: int, hands: int | None = None) -> str:
    """A table of Ana against the random bot, played to its end (or for ``hands`` hands)."""
    t = create(client, options={"target": 15}, bots={"1": "random"})
    ana = Player(client, t["table"], t["token"])
    rng = random.Random(seed)
    while step([ana], rng.choice):
        if hands is not None and ana.view is not None and ana.view["hand"] > hands:
            break
    ana.close()
    return str(t["table"])


@dataclasses.dataclass
class World:
    settings: Settings
    over: list[str]
    playing: str
    first: Pass
    cookie: str
    """Ana's identity cookie: she played seat 0 of every table."""


async def _pass(settings: Settings) -> Pass:
    store = Store(settings.database_url)
    try:
        await store.migrate()
        return await generation_pass(Exercises(store), settings, in_thread)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """Two finished matches and one still in play, then one generation pass."""
    db = tmp_path_factory.mktemp("exercises") / "truco.db"
    settings = Settings(
        database_url=sqlite_url(str(db)),
        bot_delay=0.0,
        deal_delay=0.0,
        seed=7,
        tables_burst=10**6,
        waiting_per_creator=10**6,
        exercises_worlds=WORLDS,
        exercises_decisions=40,
        exercises_burst=10**6,
        address_exercises_burst=10**6,
    )
    with serving(settings) as client:
        over = [play(client, 1), play(client, 2)]
        playing = play(client, 3, hands=3)
        assert client.get(f"/api/tables/{playing}").json()["status"] == "playing"
        cookie = client.cookies["truco_player"]
    yield World(settings, over, playing, asyncio.run(_pass(settings)), cookie)


async def _rows(settings: Settings) -> tuple[list[Any], dict[str, Any]]:
    from sqlalchemy import select

    from truco.server.store.schema import exercise_sources_t, exercises_t

    store = Store(settings.database_url)
    try:
        async with store.reading() as conn:
            rows = list((await conn.execute(select(exercises_t))).all())
            sources = {r.table_id: r.found for r in await conn.execute(select(exercise_sources_t))}
        logs = {t: await store.load(t) for t in {r.table_id for r in rows}}
    finally:
        await store.close()
    return rows, {"sources": sources, "logs": logs}


def test_exercises_come_only_from_finished_matches(world: World) -> None:
    assert world.first.tables == 2 and world.first.found > 0
    rows, more = asyncio.run(_rows(world.settings))
    assert {r.table_id for r in rows} <= set(world.over)
    # The table in play was not even taken: it is read once its match is over.
    assert set(more["sources"]) == set(world.over)
    assert sum(more["sources"].values()) == len(rows) == world.first.found
    # A second pass finds nothing new to read.
    again = asyncio.run(_pass(world.settings))
    assert again == Pass(0, 0)


def test_a_log_cut_in_play_gives_no_hand() -> None:
    """Whatever a table's status says, only the hands of a match whose replayed state is over
    are read: a log cut mid-match, or a rematch still in play, gives none of its hands."""
    from truco import CHANCE, Rules, apply, deal, new_match, observe, to_act

    rng = random.Random(5)
    state = new_match(Rules(players=2, target=15))
    log: list[tuple[str, dict[str, Any]]] = []
    while (seat := to_act(state)) is not None:
        if seat == CHANCE:
            state, _ = deal(state, rng)
            log.append(("deal", {"hands": [" ".join(map(str, h)) for h in state.hands]}))
        else:
            action = rng.choice(observe(state, seat).legal)
            state, _ = apply(state, action)
            log.append(("act", {"seat": seat, "action": str(action)}))
    options = {"target": 15}
    whole = finished_hands(options, log)
    assert whole and {m for m, _, _ in whole} == {1}
    assert finished_hands(options, log[:-1]) == []
    # A rematch whose match is in play: the first match's hands, none of the second's.
    second = [("rematch", {"mano": 0}), *log[:6]]
    assert finished_hands(options, log + second) == whole


def test_no_exercise_shows_a_card_its_seat_could_not_see(world: World) -> None:
    rows, more = asyncio.run(_rows(world.settings))
    assert rows
    for row in rows:
        table = more["logs"][row.table_id]
        entries = [(e.kind, e.data) for e in table.log]
        history = next(
            h
            for m, n, h in finished_hands(table.options, entries)
            if (m, n) == (row.match, row.hand)
        )
        state = [s for s, _ in states(in_card_order(history))][row.idx]
        position = json.loads(row.position)
        assert position["seat"] == row.seat and position["to_act"] == row.seat
        assert position["open_hands"] == []
        seen = cards_in(position)
        assert seen <= allowed(state, row.seat), seen - allowed(state, row.seat)
        assert position["legal"] == [str(a) for a in state.legal]
        # And the answer is clear: the best beats every other by the margin.
        options = json.loads(row.options)
        assert options[0][0] == row.best and row.margin >= MARGIN - 1e-9
        assert all(options[0][1] - e >= MARGIN - 1e-3 for _, e in options[1:])
        assert row.words_es.startswith("Lo mejor es") and row.words_en.startswith("The best is")


def test_a_first_attempt_moves_both_ratings_and_later_ones_nothing(world: World) -> None:
    with (
        serving(world.settings) as ana,
        serving(world.settings) as beto,
        serving(world.settings) as carla,
    ):
        r = ana.get("/api/ejercicios/siguiente")
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["me"] == {"rating": 1500, "deviation": 350, "attempts": 0}
        exercise = got["exercise"]
        assert exercise["answered"] is None and exercise["rating"] == 1500
        # The answer is not in what is sent before answering.
        assert "best" not in exercise and "options" not in exercise
        legal = exercise["position"]["legal"]
        ex_id = exercise["id"]
        bad = ana.post(f"/api/ejercicios/{ex_id}/respuesta", json={"action": "nope"})
        assert bad.status_code == 422
        unknown = ana.post("/api/ejercicios/0000/respuesta", json={"action": legal[0]})
        assert unknown.status_code == 404

        # Beto answers first and learns the answer; Ana then answers something else.
        best = beto.post(f"/api/ejercicios/{ex_id}/respuesta", json={"action": legal[0]})
        best_action = best.json()["best"]
        before = ana.get(f"/api/ejercicios/{ex_id}").json()["exercise"]["rating"]
        wrong = next(a for a in legal if a != best_action)
        first = ana.post(f"/api/ejercicios/{ex_id}/respuesta", json={"action": wrong}).json()
        assert first["first"] is True and first["solved"] is False
        assert first["rating_before"] == 1500 and first["rating_after"] < 1500
        assert first["words"]["es"].startswith("Lo mejor es")
        assert first["words"]["en"].startswith("The best is")
        assert first["options"][0]["action"] == first["best"] == best_action
        mine = ana.get("/api/ejercicios/siguiente").json()["me"]
        assert mine["rating"] == first["rating_after"] and mine["attempts"] == 1
        assert ana.get(f"/api/ejercicios/{ex_id}").json()["exercise"]["rating"] > before

        # Answering again, right this time, moves nothing and says it was not the first.
        again = ana.post(f"/api/ejercicios/{ex_id}/respuesta", json={"action": best_action})
        assert again.json()["first"] is False and again.json()["solved"] is False
        assert ana.get("/api/ejercicios/siguiente").json()["me"] == mine
        # The exercise answered is shown with its answer; the stream moves on past it.
        shown = ana.get(f"/api/ejercicios/{ex_id}").json()["exercise"]
        assert shown["answered"]["best"] == best_action
        assert ana.get("/api/ejercicios/siguiente").json()["exercise"]["id"] != ex_id

        # Carla, a newcomer, finds the answer: her rating rises, the exercise's falls.
        before = carla.get(f"/api/ejercicios/{ex_id}").json()["exercise"]["rating"]
        right = carla.post(f"/api/ejercicios/{ex_id}/respuesta", json={"action": best_action})
        assert right.json()["solved"] and right.json()["rating_after"] > 1500
        assert carla.get(f"/api/ejercicios/{ex_id}").json()["exercise"]["rating"] < before


def test_a_player_s_stream_starts_with_his_own_positions(world: World) -> None:
    rows, _ = asyncio.run(_rows(world.settings))
    mine = {r.id for r in rows if r.seat == 0}
    assert mine, "none of Ana's decisions made an exercise"
    assert all(r.player_id is None for r in rows if r.seat == 1)  # the bot's decisions
    with serving(world.settings) as ana:
        ana.cookies.set("truco_player", world.cookie)
        first = ana.get("/api/ejercicios/siguiente").json()["exercise"]
    assert first["own"] is True and first["id"] in mine


def test_the_day_s_exercise_is_the_same_for_everyone(world: World) -> None:
    with serving(world.settings) as ana, serving(world.settings) as beto:
        a = ana.get("/api/ejercicios/hoy").json()["exercise"]
        b = beto.get("/api/ejercicios/hoy").json()["exercise"]
        assert a is not None and a["id"] == b["id"]
        assert ana.get("/api/ejercicios/hoy").json()["exercise"]["id"] == a["id"]


def test_glicko_matches_glickman_s_example() -> None:
    """Glickman's worked example, one game of it: 1500 (RD 200) beats 1400 (RD 30)."""
    after = glicko.update(glicko.Rating(1500, 200, 0.06), glicko.Rating(1400, 30, 0.06), 1.0)
    assert round(after.rating, 1) == 1563.6 and round(after.deviation, 1) == 175.4
    player, exercise = glicko.game(glicko.NEW, glicko.NEW, solved=False)
    assert player.rating < 1500 < exercise.rating


def test_requests_are_rate_limited(tmp_path: Path) -> None:
    settings = Settings(database_url=sqlite_url(str(tmp_path / "t.db")), exercises_burst=2)
    with serving(settings) as client:
        codes = [client.get("/api/ejercicios/siguiente").status_code for _ in range(4)]
    assert codes[:2] == [200, 200] and codes[-1] == 429

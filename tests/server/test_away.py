"""When the caretaker plays for an absent person, and when it does not.

At a table of one person and bots, nobody plays for her while she is away: the table waits,
paused (no clock runs), and expires ``waiting_seconds`` after she left, the time it was paused
kept in the store across a restart. With another person seated the caretaker plays for her after
the grace period, and on her return the table says once which hands it played and the score
(a restart in between: ``test_spell.py``). A table
whose people never came (one the queue formed, say) does not start: it expires
``arrival_seconds`` after its seats were filled, without a row of play.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from typing import Any

from fastapi.testclient import TestClient

from server.helpers import WAIT, Player, app_state, create, serving, settle, step, two_people
from server.test_playnow import Person, queue, status
from truco.server import Settings
from truco.server.errors import CLOSE_EXPIRED
from truco.server.tables.hub import Hub


def info_of(client: TestClient, table: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_for(client: TestClient, table: str, check: Any) -> dict[str, Any]:
    """Poll the table until ``check`` holds (the deadline is only a hang guard)."""
    end = time.monotonic() + WAIT
    while True:
        info = info_of(client, table)
        if check(info):
            return info
        assert time.monotonic() < end, info
        time.sleep(0.02)


def db_rows(settings: Settings, sql: str) -> list[tuple[Any, ...]]:
    path = settings.database_url.split("///", 1)[1]
    with sqlite3.connect(path) as db:
        return db.execute(sql).fetchall()


def events(settings: Settings, table: str) -> int:
    return int(
        db_rows(settings, f"SELECT COUNT(*) FROM truco_events WHERE table_id = '{table}'")[0][0]
    )


def test_a_table_of_one_person_and_bots_waits_for_her(settings: Settings) -> None:
    quick = settings.but(grace_seconds=0.05, waiting_seconds=600.0)
    with serving(quick) as c:
        t = create(c, options={"players": 4}, bots={"1": "random", "2": "random", "3": "random"})
        table = t["table"]
        ana = Player(c, table, t["token"])
        settle([ana])  # dealt, and it is her turn (the bots played up to it)
        ana.close()
        info = wait_for(c, table, lambda i: i["paused"])
        assert info["seats"][0]["replaced"] is False and info["status"] == "playing"
        v = info["v"]
        # Well past the grace period (bots move at once here): nothing was played for her.
        c.portal.call(asyncio.sleep, 0.5)  # type: ignore[union-attr]
        info = info_of(c, table)
        assert info["v"] == v and info["paused"] and not info["seats"][0]["replaced"]
        assert events(quick, table) == v
        (since,) = db_rows(quick, f"SELECT away_since FROM truco_tables WHERE id = '{table}'")[0]
        assert since is not None

        # She is back: the table goes on from where it stopped, and she plays her own turn.
        back = Player(c, table, t["token"])
        info = wait_for(c, table, lambda i: not i["paused"])
        assert db_rows(quick, f"SELECT away_since FROM truco_tables WHERE id = '{table}'")[0] == (
            None,
        )
        assert step([back], lambda legal: legal[0])
        assert info_of(c, table)["v"] > v
        back.close()
        wait_for(c, table, lambda i: i["paused"])
    # A restart keeps it paused, from the time she left (written in the store).
    (since,) = db_rows(quick, f"SELECT away_since FROM truco_tables WHERE id = '{table}'")[0]
    with serving(quick) as c:
        hub: Hub = app_state(c).hub
        assert c.portal is not None
        info = info_of(c, table)
        assert info["paused"] and info["status"] == "playing"
        c.portal.call(asyncio.sleep, 0.3)
        assert info_of(c, table)["v"] == info["v"]
        assert db_rows(quick, f"SELECT away_since FROM truco_tables WHERE id = '{table}'")[0] == (
            since,
        )
        assert c.portal.call(hub.expire_waiting, time.time() + 60) == []  # kept a while
        assert c.portal.call(hub.expire_waiting, time.time() + 601) == [table]
        r = c.get(f"/api/tables/{table}")
        assert r.status_code == 404 and "expired" in r.json()["message"]


def test_the_caretaker_plays_between_people_and_says_so(settings: Settings) -> None:
    quick = settings.but(grace_seconds=0.1)
    with serving(quick) as c:
        table, _, token, ana, beto = two_people(c)
        beto.close()
        wait_for(c, table, lambda i: i["seats"][1]["replaced"])
        assert not info_of(c, table)["paused"]  # another person is seated: it goes on
        hand = ana.view["hand"] if ana.view else 0
        while ana.view is not None and ana.view["hand"] < hand + 2:  # two hands for him, at least
            assert step([ana], lambda legal: "mazo" if "mazo" in legal else legal[0])
        back = Player(c, table, token, v=beto.v)
        told = back.until("table")["d"]  # the one table message of his return says it
        spell = told["seats"][1]["caretaker"]
        assert spell is not None and len(spell["hands"]) >= 2
        assert spell["hands"] == list(range(spell["hands"][0], spell["hands"][-1] + 1))
        assert back.view is not None  # caught up before it (the full, or the missed events)
        assert spell["score"] == back.view["score"]
        ended = back.view["hand"] - (back.view["phase"] == "play")
        assert spell["hands"][-1] == ended
        assert told["seats"][0]["caretaker"] is None
        # Told once: not in what the table says afterwards, nor to a connection after it.
        assert info_of(c, table)["seats"][1]["caretaker"] is None
        back.close()
        again = Player(c, table, token)
        assert again.until("table")["d"]["seats"][1]["caretaker"] is None


def test_a_matched_table_nobody_came_to_expires_without_playing(settings: Settings) -> None:
    quick = settings.but(queue_bots_after=60.0, arrival_seconds=30.0, grace_seconds=0.05)
    with serving(quick) as c:
        hub: Hub = app_state(c).hub
        assert c.portal is not None
        ana, beto = queue(c, name="Ana"), queue(c, name="Beto")
        a, b = status(ana, wait=5), status(beto, wait=5)
        assert a["status"] == b["status"] == "matched" and a["table"] == b["table"]
        table = a["table"]
        c.portal.call(asyncio.sleep, 0.3)  # past the grace period: nobody plays for them
        info = info_of(c, table)
        assert info["arriving"] and info["v"] == 0 and events(quick, table) == 0
        assert c.portal.call(hub.expire_waiting, time.time() + 10) == []
        assert c.portal.call(hub.expire_waiting, time.time() + 31) == [table]
        assert c.get(f"/api/tables/{table}").status_code == 404
    assert events(quick, table) == 0
    assert db_rows(quick, f"SELECT status FROM truco_tables WHERE id = '{table}'") == [("expired",)]


def test_who_came_hears_her_rivals_did_not_and_queues_again(settings: Settings) -> None:
    quick = settings.but(queue_bots_after=60.0, arrival_seconds=30.0, grace_seconds=0.05)
    with serving(quick) as c:
        hub: Hub = app_state(c).hub
        assert c.portal is not None
        ana = queue(c, name="Ana")
        beto = queue(c, name="Beto")
        a = status(ana, wait=5)
        table = a["table"]
        came = Player(c, table, ana["token"])
        full = came.until("full")["d"]
        assert full["table"]["arriving"] and full["v"] == 0
        c.portal.call(asyncio.sleep, 0.3)
        assert info_of(c, table)["v"] == 0  # not dealt: Beto never came
        assert c.portal.call(hub.expire_waiting, time.time() + 31) == [table]
        told = came.until("table")["d"]
        while told["status"] == "playing":  # what she heard before, as she sat down
            told = came.until("table")["d"]
        assert told["status"] == "expired" and told["expired"] == "no_show"
        code, _ = came.closed()
        assert code == CLOSE_EXPIRED
        assert events(quick, table) == 0
        # She may queue again at once (her ticket was matched, so it does not hold her back).
        again = queue(ana["person"], name="Ana")
        assert again["status"] == "waiting"
        assert isinstance(beto["person"], Person)


def test_everyone_came_the_table_starts(settings: Settings) -> None:
    quick = settings.but(queue_bots_after=60.0, arrival_seconds=30.0)
    with serving(quick) as c:
        ana, beto = queue(c), queue(c)
        a, b = status(ana, wait=5), status(beto, wait=5)
        table = a["table"]
        pa = Player(c, table, ana["token"])
        pa.until("full")
        assert info_of(c, table)["v"] == 0
        pb = Player(c, table, beto["token"])
        assert settle([pa, pb]) is not None  # dealt: someone is to act
        info = info_of(c, table)
        assert not info["arriving"] and info["v"] >= 1 and b["table"] == table

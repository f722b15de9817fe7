"""Rated tables through the real app (SQLite): who may sit, the ratings moved once at the end of
the match and shown to everyone, a player who left for good, the ranking and the player page."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import Player, app_state, create, serving, settle
from truco.server import Settings


def claim(client: TestClient, name: str) -> str:
    """The client's player (its identity cookie) claims ``name``; returns the player's id."""
    r = client.post("/api/me/name", json={"name": name, "password": f"clave de {name}"})
    assert r.status_code == 200, r.text
    player_id: str = r.json()["id"]
    return player_id


def other(client: TestClient, address: str = "testclient") -> TestClient:
    """A second browser on the same server: its own cookies, hence its own player (and, given
    ``address``, its own address; every test client's is "testclient")."""
    second = TestClient(client.app, client=(address, 50000))
    second.portal = client.portal  # the app runs in the first client's event loop
    return second


def mazo(legal: list[str]) -> str:
    # Going to the mazo at once ends each hand in one action: a match to 10 is over quickly.
    return "mazo" if "mazo" in legal else legal[0]


def play_out(players: list[Player]) -> None:
    while (actor := settle(players)) is not None:
        assert actor.view is not None
        actor.play(mazo(actor.view["legal"]))


def rated_of(player: Player) -> dict[str, Any]:
    """The ``rated`` message this connection got (it may have come while it read other ones)."""
    seen = [m for m in player.seen if m["t"] == "rated"]
    d: dict[str, Any] = seen[-1]["d"] if seen else player.until("rated")["d"]
    return d


def db_rows(settings: Settings, sql: str) -> list[tuple[Any, ...]]:
    path = settings.database_url.split("///", 1)[1]
    with sqlite3.connect(path) as conn:
        return conn.execute(sql).fetchall()


def test_a_rated_one_against_one_moves_both_ratings_once(settings: Settings) -> None:
    with serving(settings) as ana_client:
        beto_client = other(ana_client)
        ana_id = claim(ana_client, "Ana")
        claim(beto_client, "Beto")
        one_v_one = {"players": 2, "target": 10}
        created = create(ana_client, name="ignored", options=one_v_one, rated=True)
        table = created["table"]
        info = ana_client.get(f"/api/tables/{table}").json()
        assert info["rated"] is True and info["pista"] is False
        assert info["seats"][0]["name"] == "Ana"  # a rated seat shows the claimed name
        lobby = ana_client.get("/api/tables").json()
        assert [e["rated"] for e in lobby if e["table"] == table] == [True]
        r = beto_client.post(f"/api/tables/{table}/seats", json={"name": "x"})
        assert r.status_code == 200, r.text
        ana = Player(ana_client, table, created["token"])
        beto = Player(beto_client, table, r.json()["token"])
        play_out([ana, beto])
        seen = [rated_of(ana), rated_of(beto)]
        assert seen[0] == seen[1]
        changes = {c["name"]: c for c in seen[0]["changes"]}
        assert seen[0]["mode"] == "1v1" and seen[0]["match"] == 1
        assert set(changes) == {"Ana", "Beto"}
        assert ana.view is not None
        winner = "Ana" if ana.view["winner"] == 0 else "Beto"
        loser = "Beto" if winner == "Ana" else "Ana"
        assert changes[winner]["before"] == changes[loser]["before"] == 1000
        assert changes[winner]["after"] > 1000 > changes[loser]["after"]
        assert changes[winner]["provisional"] and not changes[winner]["left"]

        board = ana_client.get("/api/leaderboard", params={"mode": "1v1"})
        assert board.status_code == 200
        assert board.headers["x-total-count"] == "2"
        assert board.json() == {
            "mode": "1v1",
            "period": "all",
            "since": None,
            "players": [
                {
                    "name": name,
                    "rating": changes[name]["after"],
                    "matches": 1,
                    "provisional": True,
                    "gained": None,
                    "won": None,
                }
                for name in (winner, loser)
            ],
        }
        assert ana_client.get("/api/leaderboard", params={"mode": "2v2"}).json()["players"] == []

        page = beto_client.get("/api/players/ana").json()  # names compare without case
        assert page["name"] == "Ana"
        assert page["ratings"] == {
            "1v1": {"rating": changes["Ana"]["after"], "matches": 1, "provisional": True}
        }
        assert [p["rating"] for p in page["history"]["1v1"]] == [1000, changes["Ana"]["after"]]
        (match,) = page["matches"]
        assert match["table"] == table and match["replay"] == f"/r/{table}?match=1"
        assert match["result"] == ("won" if winner == "Ana" else "lost")
        assert match["partners"] == [] and match["rivals"] == [{"name": "Beto", "level": None}]
        assert ana_client.get("/api/players/Nadie").status_code == 404
        assert ana_client.get("/api/players/Nadie").json()["code"] == "player_not_found"

        # Whoever connects once the match is over hears the changes too.
        late = Player(ana_client, table)
        assert rated_of(late) == seen[0]
    assert db_rows(settings, "SELECT matches FROM truco_ratings ORDER BY player_id") == [(1,), (1,)]
    assert len(db_rows(settings, "SELECT * FROM truco_results")) == 2

    # A restart replays the log to the end of the match: nothing is rated again, and the
    # changes are read back for whoever connects.
    with serving(settings) as again:
        back = Player(again, table, created["token"])
        assert rated_of(back) == seen[0]
        again.get("/api/leaderboard")
    assert db_rows(settings, "SELECT matches FROM truco_ratings ORDER BY player_id") == [(1,), (1,)]
    assert db_rows(settings, f"SELECT won FROM truco_results WHERE player_id = '{ana_id}'") == [
        (winner == "Ana",)
    ]


def test_rated_tables_need_claimed_names_the_standard_game_and_levelled_bots(
    settings: Settings,
) -> None:
    with serving(settings) as client:
        r = client.post("/api/tables", json={"name": "Ana", "rated": True})
        assert (r.status_code, r.json()["code"]) == (403, "name_required")
        claim(client, "Ana")
        for body in (
            {"options": {"variant": "pata_de_gallo"}},
            {"options": {"variant": "pica_pica"}},
            {"options": {"players": 2}, "bots": {"1": "random"}},
        ):
            r = client.post("/api/tables", json={"name": "Ana", "rated": True, **body})
            assert (r.status_code, r.json()["code"]) == (422, "bad_options"), body
        created = create(client, options={"players": 4}, bots={"1": "experto"}, rated=True)
        # One seat a player at a rated table: another would rate him twice.
        r = client.post(f"/api/tables/{created['table']}/seats", json={"name": "Ana"})
        assert (r.status_code, r.json()["code"]) == (409, "seat_taken")
        stranger = other(client)
        r = stranger.post(f"/api/tables/{created['table']}/seats", json={"name": "Beto"})
        assert (r.status_code, r.json()["code"]) == (403, "name_required")
        r = client.post(
            f"/api/tables/{created['table']}/bots",
            json={"seat": 2, "level": "random"},
            headers={"Authorization": f"Bearer {created['token']}"},
        )
        assert (r.status_code, r.json()["code"]) == (422, "bad_options")
        # A casual table asks nothing of anyone.
        casual = stranger.post("/api/tables", json={"name": "Beto"})
        assert (
            casual.status_code == 201
            and not stranger.get(f"/api/tables/{casual.json()['table']}").json()["rated"]
        )


def test_a_rated_table_of_bots_waits_and_expiring_unfinished_counts_as_a_loss(
    settings: Settings,
) -> None:
    # Alone with bots, nobody plays for her while she is away: the table waits for her, and
    # counts as her loss only once it expires unfinished (test_away.py has the pause itself).
    settings = dataclasses.replace(settings, grace_seconds=0.1, seed=11, waiting_seconds=600.0)
    with serving(settings) as client:
        claim(client, "Ana")
        one_v_one = {"players": 2, "target": 10}
        created = create(client, options=one_v_one, bots={"1": "facil"}, rated=True)
        ana = Player(client, created["table"], created["token"])
        ana.until("full")
        ana.close()
        for _ in range(20_000):  # a hang guard only
            if client.get(f"/api/tables/{created['table']}").json()["paused"]:
                break
            time.sleep(0.01)
        assert db_rows(settings, "SELECT COUNT(*) FROM truco_results") == [(0,)]
        hub = app_state(client).hub
        assert client.portal is not None
        assert client.portal.call(hub.expire_waiting, time.time() + 601) == [created["table"]]
        page = client.get("/api/players/Ana").json()
        assert page["matches"][0]["result"] == "left"
        assert page["matches"][0]["rivals"][0]["level"] == "facil"
        assert page["history"]["1v1"][-1]["rating"] < 1000  # her loss
    assert db_rows(settings, 'SELECT seat, won, "left" FROM truco_results ORDER BY seat') == [
        (0, 0, 1),
        (1, db_rows(settings, "SELECT won FROM truco_results WHERE seat = 1")[0][0], 0),
    ]


def test_a_rated_table_always_has_a_turn_clock_in_the_range(settings: Settings) -> None:
    low, high = settings.rated_turn_range
    with serving(settings) as client:
        claim(client, "Ana")
        one_v_one = {"players": 2}
        for seconds in (0.3, 1e-9, low - 1, high + 1):
            r = client.post(
                "/api/tables",
                json={
                    "name": "x",
                    "options": one_v_one,
                    "bots": {"1": "facil"},
                    "turn_seconds": seconds,
                    "rated": True,
                },
            )
            assert r.status_code == 422 and r.json()["code"] == "bad_options", (seconds, r.text)
        plain = create(client, options=one_v_one, bots={"1": "facil"}, rated=True)
        info = client.get(f"/api/tables/{plain['table']}").json()
        assert info["turn_seconds"] == settings.rated_turn_seconds
        timed = create(client, options=one_v_one, bots={"1": "facil"}, rated=True, turn_seconds=low)
        assert client.get(f"/api/tables/{timed['table']}").json()["turn_seconds"] == low
        casual = create(client, options=one_v_one, bots={"1": "facil"}, turn_seconds=0.3)
        assert client.get(f"/api/tables/{casual['table']}").json()["turn_seconds"] == 0.3


def test_a_rival_who_stalls_is_rated_a_loss_and_the_leader_may_leave(settings: Settings) -> None:
    # A short clock (allowed by these settings only) so that the staller's runs out quickly.
    settings = dataclasses.replace(
        settings, grace_seconds=0.1, rated_turn_range=(0.2, 120.0), stall_timeouts=3
    )
    with serving(settings) as ana_client:
        beto_client = other(ana_client)
        claim(ana_client, "Ana")
        claim(beto_client, "Beto")
        created = create(ana_client, options={"players": 2}, rated=True, turn_seconds=0.3)
        table = created["table"]
        r = beto_client.post(f"/api/tables/{table}/seats", json={"name": "x"})
        assert r.status_code == 200, r.text
        ana = Player(ana_client, table, created["token"])
        beto = Player(beto_client, table, r.json()["token"])  # connected, never acting
        ran_out = 0
        while ran_out < settings.stall_timeouts:
            actor = settle([ana, beto])
            assert actor is not None, "the match ended before Beto stalled"
            assert actor.view is not None
            if actor is ana:
                ana.play(actor.view["legal"][0])
            else:  # Beto's turn: his clock runs out and a bot moves for him
                v = beto.v
                while ana.v == v:
                    ana.until("ev")
                ran_out += 1
        ana.close()  # the leader leaves: the caretaker finishes her match
        for _ in range(20_000):  # a hang guard only: it ends as soon as the match does
            if ana_client.get(f"/api/tables/{table}").json()["status"] == "over":
                break
            time.sleep(0.01)
        changes = {c["name"]: c for c in rated_of(beto)["changes"]}
        assert changes["Ana"]["before"] == changes["Ana"]["after"] == 1000
        assert changes["Beto"]["left"] is True
        assert changes["Beto"]["after"] < changes["Beto"]["before"] == 1000
    # Ana's match is not counted either; Beto's is.
    assert db_rows(settings, "SELECT matches FROM truco_ratings ORDER BY matches") == [(0,), (1,)]


def conceding(players: list[Player]) -> None:
    """The first player never goes to the mazo; the second goes whenever he may and declines
    every call: the farmer and his second account."""
    while (actor := settle(players)) is not None:
        assert actor.view is not None
        legal = actor.view["legal"]
        if actor is players[0]:
            actor.play(next((a for a in legal if a != "mazo"), legal[0]))
        else:
            actor.play(next((a for a in ("mazo", "no-quiero") if a in legal), legal[0]))


def play_match(
    ana_client: TestClient,
    beto_client: TestClient,
    play: Callable[[list[Player]], None] = play_out,
) -> dict[str, dict[str, Any]]:
    """A rated 1v1 between the two browsers' players, played out; the changes by name."""
    created = create(ana_client, options={"players": 2, "target": 10}, rated=True)
    table = created["table"]
    r = beto_client.post(f"/api/tables/{table}/seats", json={"name": "x"})
    assert r.status_code == 200, r.text
    ana = Player(ana_client, table, created["token"])
    beto = Player(beto_client, table, r.json()["token"])
    play([ana, beto])
    changes = {c["name"]: c for c in rated_of(ana)["changes"]}
    ana.close()
    beto.close()
    return changes


def moved(changes: dict[str, dict[str, Any]]) -> set[str]:
    return {name for name, c in changes.items() if c["before"] != c["after"]}


def test_two_accounts_one_browser_has_been_move_no_rating(settings: Settings) -> None:
    with serving(settings) as first:
        claim(first, "Ana")
        assert first.post("/api/logout").status_code == 200
        claim(first, "Beto")  # the same browser: Ana and Beto are linked
        second = other(first)
        r = second.post("/api/login", json={"name": "Ana", "password": "clave de Ana"})
        assert r.status_code == 200, r.text
        assert moved(play_match(second, first)) == set()
        # Two people on their own browsers (behind one address, as every test client is).
        third = other(first)
        claim(third, "Caro")
        assert moved(play_match(second, third)) == {"Ana", "Caro"}


def test_rated_matches_between_two_players_are_limited_per_day(settings: Settings) -> None:
    settings = dataclasses.replace(settings, rated_pair_per_day=2)
    with serving(settings) as ana_client:
        beto_client = other(ana_client)
        claim(ana_client, "Ana")
        claim(beto_client, "Beto")
        assert moved(play_match(ana_client, beto_client)) == {"Ana", "Beto"}
        assert moved(play_match(beto_client, ana_client)) == {"Ana", "Beto"}
        assert moved(play_match(ana_client, beto_client)) == set()


def test_truco_admin_flags_a_rival_always_beaten(settings: Settings) -> None:
    from truco.server.admin import list_flags

    with serving(settings) as ana_client:
        beto_client = other(ana_client)
        claim(ana_client, "Ana")
        claim(beto_client, "Beto")
        winners = set()
        for _ in range(3):
            changes = play_match(ana_client, beto_client)
            winners |= {n for n, c in changes.items() if c["after"] > c["before"]}
    db = settings.database_url.split("///", 1)[1]
    flagged = json.loads(list_flags(db, as_json=True, matches=3))
    if len(winners) == 1:  # one of them won all three: the pair is flagged, once
        assert [(f["winner"], f["matches"]) for f in flagged] == [(winners.pop(), 3)]
    else:
        assert flagged == []
    assert json.loads(list_flags(db, as_json=True, matches=4)) == []


@pytest.mark.parametrize("beto_address", ["testclient", "10.0.0.2"])
def test_truco_admin_flags_say_conceded_early_and_one_address(
    settings: Settings, beto_address: str
) -> None:
    from truco.server.admin import list_flags

    with serving(settings) as ana_client:
        beto_client = other(ana_client, beto_address)
        claim(ana_client, "Ana")
        claim(beto_client, "Beto")
        for _ in range(3):
            changes = play_match(ana_client, beto_client, conceding)
            assert changes["Ana"]["after"] > changes["Ana"]["before"]
    db = settings.database_url.split("///", 1)[1]
    (flag,) = json.loads(list_flags(db, as_json=True, matches=3))
    assert (flag["winner"], flag["loser"], flag["matches"]) == ("Ana", "Beto", 3)
    assert flag["loser_left"] == 0 and flag["loser_early"] == 3
    # Every test client is "testclient": Ana's address. An address only adds to the flag.
    assert flag["same_address"] is (beto_address == "testclient")
    assert "conceded early" in list_flags(db, as_json=False, matches=3)
    points = db_rows(settings, "SELECT name, points FROM truco_results ORDER BY name")
    assert [name for name, _ in points] == ["Ana"] * 3 + ["Beto"] * 3
    assert all(p >= 10 for name, p in points if name == "Ana")
    assert all(p == 0 for name, p in points if name == "Beto")

"""Torneos against a real server process: a Swiss played to its end (rated, with a bye), and an
arena whose server is killed mid-tournament and started again on the same database.

Nobody connects to the tables: a short turn clock plays each absent player's turns for him,
so every game ends on its own, as a real one whose players walked away would."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.helpers import WAIT
from server.test_restart import Server


def tournament_server(db: Path) -> Server:
    """A server whose tournaments pair every 0.2 s and whose turn clocks run out at once."""
    return Server(
        db,
        TRUCO_TOURNAMENT_TICK="0.2",
        TRUCO_TOURNAMENT_TURN_SECONDS="0.01",
        TRUCO_RATED_TURN_MIN="0.01",
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "torneos.db"


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        s.stop()


def until(look: Callable[[], dict[str, Any]], done: Callable[[dict[str, Any]], bool]) -> Any:
    """Poll until ``done``; a hang guard only, never a measure of time."""
    end = time.monotonic() + 4 * WAIT
    while True:
        seen = look()
        if done(seen):
            return seen
        assert time.monotonic() < end, f"never came: {seen}"
        time.sleep(0.2)


def named(server: Server, name: str) -> httpx.Client:
    c = server.client()
    c.get("/api/tables")  # the identity cookie
    r = c.post("/api/me/name", json={"name": name, "password": "una clave larga " + name})
    assert r.status_code == 200, r.text
    return c


def check_scores(seen: dict[str, Any]) -> None:
    """Every game with a winner gave its side a point each, every bye one; nothing twice."""
    points: dict[str, float] = {}
    played: dict[str, int] = {}
    for g in seen["games"]:
        for side_no, side in enumerate(g["sides"]):
            for name in side:
                if name == "Bot":
                    continue
                points.setdefault(name, 0.0)
                if g["bye"] or g["winner"] == side_no:
                    points[name] += 1
                if not g["bye"] and g["winner"] is not None:
                    played[name] = played.get(name, 0) + 1
    for row in seen["standings"]:
        assert row["score"] == points.get(row["name"], 0.0)
        assert row["games"] == played.get(row["name"], 0)


def test_a_rated_swiss_plays_its_rounds_with_a_bye_and_no_rematch(
    db: Path, servers: list[Server]
) -> None:
    server = tournament_server(db)
    servers.append(server)
    ana, beto, caro = (named(server, n) for n in ("Ana", "Beto", "Caro"))
    r = ana.post(
        "/api/tournaments",
        json={
            "name": "Copa",
            "kind": "swiss",
            "rounds": 2,
            "rated": True,
            "target": 15,
            "starts_in": 3600,
        },
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert r.json()["link"] == f"/torneo/{tid}"
    for c in (ana, beto, caro):
        assert c.post(f"/api/tournaments/{tid}/players").status_code == 200
    assert any(t["id"] == tid for t in ana.get("/api/tournaments").json()["tournaments"])
    # Not started yet: nobody plays.
    seen = ana.get(f"/api/tournaments/{tid}").json()
    assert seen["tournament"]["status"] == "scheduled" and seen["games"] == []
    assert seen["you"] == {"joined": True, "table": None, "creator": True}
    # A guest (no claimed name) is refused by a rated tournament.
    guest = server.client()
    guest.get("/api/tables")
    assert guest.post(f"/api/tournaments/{tid}/players").json()["code"] == "needs_name"
    server.stop()
    servers.remove(server)
    # Started again with the start time moved to now: the new process picks it up.
    import sqlite3

    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE truco_tournaments SET starts_at = '2000-01-01 00:00:00'")
    server = tournament_server(db)
    servers.append(server)
    look = server.client()
    seen = until(
        lambda: look.get(f"/api/tournaments/{tid}").json(),
        lambda s: s["tournament"]["status"] == "over",
    )
    games = seen["games"]
    assert seen["tournament"]["round"] == 2
    for round_no in (1, 2):
        played = [g for g in games if g["round"] == round_no]
        assert sum(g["bye"] for g in played) == 1
        assert sum(not g["bye"] for g in played) == 1
        assert all(g["winner"] is not None for g in played if not g["bye"])
    tables = [frozenset(g["sides"][0] + g["sides"][1]) for g in games if not g["bye"]]
    assert len(set(tables)) == len(tables), "a rematch that could be avoided"
    byes = [g["sides"][0][0] for g in games if g["bye"]]
    assert len(set(byes)) == 2
    check_scores(seen)
    # Rated: the tables' results moved the players' ratings (the rated path of any table).
    for g in games:
        if g["table"] is not None:
            info = look.get(f"/api/tables/{g['table']}").json()
            assert info["rated"] is True
    rated = [look.get(f"/api/players/{n}").json()["ratings"] for n in ("Ana", "Beto", "Caro")]
    assert sum(r["1v1"]["matches"] for r in rated if "1v1" in r) == 4, rated


def test_an_arena_pairs_again_at_once_and_survives_a_restart(
    db: Path, servers: list[Server]
) -> None:
    server = tournament_server(db)
    servers.append(server)
    ana, beto = server.client(), server.client()
    for c in (ana, beto):
        c.get("/api/tables")
    r = ana.post(
        "/api/tournaments",
        json={"name": "Arena", "kind": "arena", "minutes": 1, "target": 15, "starts_in": 0},
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert ana.post(f"/api/tournaments/{tid}/players", json={"name": "Ana"}).status_code == 200
    r = beto.post(f"/api/tournaments/{tid}/players", json={"name": "Beto"})
    assert r.status_code == 200, r.text

    def look() -> dict[str, Any]:
        return dict(beto.get(f"/api/tournaments/{tid}").json())

    seen = until(look, lambda s: any(g["winner"] is not None for g in s["games"]))
    assert seen["tournament"]["status"] == "running"
    before = {g["table"] for g in seen["games"]}
    server.kill()
    servers.remove(server)
    server = tournament_server(db)
    servers.append(server)
    # The same identities on the new process (the cookie's key lives in the database).
    beto = httpx.Client(base_url=server.base, cookies=beto.cookies, timeout=30)
    seen = until(look, lambda s: s["tournament"]["status"] == "over")
    games = seen["games"]
    assert len(games) >= 2
    assert {g["table"] for g in games} - before, "no table was opened after the restart"
    assert all(g["winner"] is not None for g in games)
    # Never two tables at once for one player: the two play each other, one table at a time.
    assert all(sorted(g["sides"][0] + g["sides"][1]) == ["Ana", "Beto"] for g in games)
    check_scores(seen)
    assert [r["name"] for r in seen["standings"]] == sorted(
        ["Ana", "Beto"],
        key=lambda n: -next(r["score"] for r in seen["standings"] if r["name"] == n),
    )
    assert seen["you"]["joined"] is True

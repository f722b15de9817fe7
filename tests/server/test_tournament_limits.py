"""The per-player limits of Torneos, on the app in process with a real SQLite file: a player is
in at most ``tournaments_joined_most`` tournaments not over yet (one he withdrew from counts no
more; coming back to one he is in costs nothing), and a full tournament answers so (it once
answered as if the database were down)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from server.helpers import Device, serving
from truco.server import Settings


def new(c: TestClient, name: str, **more: object) -> str:
    r = c.post("/api/tournaments", json={"name": name, "starts_in": 3600, **more})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_a_player_is_in_at_most_so_many_open_tournaments(settings: Settings) -> None:
    limited = settings.but(tournaments_joined_most=2, tournaments_per_player=5, tournaments_burst=5)
    with serving(limited) as ana:
        ana.get("/api/tables")  # the identity cookie
        a, b, c = new(ana, "Primera"), new(ana, "Segunda"), new(ana, "Tercera")
        with Device(ana).on() as beto:
            beto.get("/api/tables")
            assert beto.post(f"/api/tournaments/{a}/players").status_code == 200
            assert beto.post(f"/api/tournaments/{b}/players").status_code == 200
            # In a tournament already: joining it again is no new one.
            assert beto.post(f"/api/tournaments/{b}/players").status_code == 200
            third = beto.post(f"/api/tournaments/{c}/players")
            assert third.status_code == 429, third.text
            assert third.json()["code"] == "too_many_tournaments"
            assert "2 tournaments" in third.json()["message"]
            seen = beto.get(f"/api/tournaments/{c}").json()
            assert not any(row["name"] == "Invitado" for row in seen["standings"])
            # Withdrawing from one frees its place.
            assert beto.delete(f"/api/tournaments/{a}/players").status_code == 200
            assert beto.post(f"/api/tournaments/{c}/players").status_code == 200
        # Ana created three but joined none: creating is not being in one.
        assert ana.post(f"/api/tournaments/{a}/players").status_code == 200


def test_a_full_tournament_says_so(settings: Settings) -> None:
    with serving(settings) as ana:
        ana.get("/api/tables")
        duo = new(ana, "De a dos", max_players=2)
        assert ana.post(f"/api/tournaments/{duo}/players").status_code == 200
        with Device(ana).on() as beto:
            beto.get("/api/tables")
            assert beto.post(f"/api/tournaments/{duo}/players").status_code == 200
        with Device(ana).on() as carla:
            carla.get("/api/tables")
            full = carla.post(f"/api/tournaments/{duo}/players")
            assert full.status_code == 409, full.text
            assert full.json()["code"] == "tournament_full"


def test_a_whole_number_is_a_number_however_written(settings: Settings) -> None:
    """JSON's 4.0 is the integer 4, as the schema says; "4" is a string, refused."""
    with serving(settings) as ana:
        ana.get("/api/tables")
        body = {"name": "Enteros", "starts_in": 3600, "target": 15.0, "minutes": 20.0}
        r = ana.post("/api/tournaments", json={**body, "max_players": 4.0})
        assert r.status_code == 201, r.text
        assert r.json()["target"] == 15
        for wrong in ("4", 4.5, True):
            r = ana.post("/api/tournaments", json={**body, "max_players": wrong})
            assert r.status_code == 422 and r.json()["code"] == "bad_message", (wrong, r.text)

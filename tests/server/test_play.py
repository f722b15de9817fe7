"""Create, join and play whole matches over the WebSocket; export the hands; rematch."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

from fastapi.testclient import TestClient

from server.helpers import Player, create, join, step
from truco import notation
from truco.server import Settings, create_app


def play_out(players: list[Player], rng: random.Random, limit: int = 2000) -> None:
    """Play random legal actions for whoever is to act until the match is over."""
    for _ in range(limit):
        if not step(players, rng.choice):
            return
    raise AssertionError("the match did not end")


def test_create_join_and_play_a_match(client: TestClient) -> None:
    t = create(client, options={"target": 15})
    info = client.get(f"/api/tables/{t['table']}").json()
    assert info["status"] == "waiting"
    assert [s["kind"] for s in info["seats"]] == ["human", "empty"]
    assert t["invite"] == f"/t/{t['table']}"
    assert any(x["table"] == t["table"] for x in client.get("/api/tables").json())

    ana = Player(client, t["table"], t["token"])
    first = ana.recv()
    assert first["t"] == "full" and first["d"]["seat"] == 0 and first["d"]["v"] == 0
    assert first["d"]["view"]["phase"] == "deal"

    token = join(client, t["table"])
    beto = Player(client, t["table"], token)
    assert beto.recv()["t"] == "full"
    info = client.get(f"/api/tables/{t['table']}").json()
    assert info["status"] == "playing"
    assert info["seats"][1] == {
        "seat": 1,
        "name": "Beto",
        "kind": "human",
        "connected": True,
        "level": None,
        "replaced": False,
        "rematch": False,
        "caretaker": None,
    }

    play_out([ana, beto], random.Random(1))
    assert ana.view is not None and beto.view is not None
    assert ana.view["score"] == beto.view["score"]
    assert max(ana.view["score"]) >= 15
    assert ana.v == beto.v == client.get(f"/api/tables/{t['table']}").json()["v"]
    assert client.get(f"/api/tables/{t['table']}").json()["status"] == "over"

    # Every finished hand downloads as a history that replays to the score the players saw.
    n = ana.view["hand"]
    last = client.get(f"/api/tables/{t['table']}/hands/{n}.toml")
    assert last.status_code == 200
    assert notation.replay_text(last.text).score == tuple(ana.view["score"])
    first_hand = notation.replay_text(client.get(f"/api/tables/{t['table']}/hands/1.toml").text)
    assert first_hand.finished
    assert client.get(f"/api/tables/{t['table']}/hands/{n + 1}.toml").status_code == 404
    match = tomllib.loads(client.get(f"/api/tables/{t['table']}/match.toml").text)
    assert len(match["hands"]) == n

    # Acting after the end is refused; a rematch starts when both ask.
    ana.act("mazo")
    assert ana.until("err")["d"]["code"] == "match_over"
    ana.send("rematch")
    assert ana.until("table")["d"]["seats"][0]["rematch"] is True
    beto.send("rematch")
    full = beto.until("full")
    assert full["d"]["view"]["score"] == [0, 0]
    assert full["d"]["table"]["match"] == 2
    beto.until("ev")
    assert beto.view is not None and beto.view["phase"] == "play"
    assert beto.view["mano"] == 1
    ana.close()
    beto.close()


def test_bots_play_against_a_person(client: TestClient) -> None:
    t = create(client, options={"players": 4, "flor": True}, bots={"1": "random", "3": "random"})
    caro = join(client, t["table"], "Caro", seat=2)
    info = client.get(f"/api/tables/{t['table']}").json()
    assert info["status"] == "playing"
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "human", "bot"]
    assert info["options"] == {"players": 4, "target": 30, "flor": True}
    ana = Player(client, t["table"], t["token"])
    ana.recv()
    assert ana.view is not None and ana.view["hand"] == 0  # Caro has not come: not dealt yet
    Player(client, t["table"], caro)
    ana.until("ev")  # everyone came: dealt
    assert ana.view is not None and ana.view["hand"] == 1
    assert len(ana.view["cards"]) == 3


def test_bad_http_requests(client: TestClient) -> None:
    r = client.post("/api/tables", json={"name": "Ana", "options": {"players": 3}})
    assert r.status_code == 422 and r.json()["code"] == "bad_options"
    r = client.post("/api/tables", json={"name": "Ana", "options": {"colour": "red"}})
    assert r.status_code == 422 and r.json()["code"] == "bad_options"
    r = client.post("/api/tables", json={"name": "Ana", "bots": {"1": "nobody"}})
    assert r.status_code == 422 and r.json()["code"] == "bad_options"
    r = client.post("/api/tables", json={"name": ""})
    assert r.status_code == 422 and r.json()["code"] == "bad_message"
    assert client.get("/api/tables/nope").json()["code"] == "table_not_found"
    assert client.get("/api/tables/nope").status_code == 404
    r = client.post("/api/tables/nope/seats", json={"name": "Beto"})
    assert r.status_code == 404

    t = create(client)
    join(client, t["table"])
    r = client.post(f"/api/tables/{t['table']}/seats", json={"name": "Caro"})
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"


def test_creator_fills_a_seat_with_a_bot(client: TestClient) -> None:
    t = create(client)
    url = f"/api/tables/{t['table']}/bots"
    r = client.post(url, json={"seat": 1}, headers={"Authorization": "Bearer wrong"})
    assert r.status_code == 401 and r.json()["code"] == "bad_token"
    r = client.post(url, json={"seat": 1}, headers={"Authorization": f"Bearer {t['token']}"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["kind"] == "bot"
    assert r.json()["status"] == "playing"


def test_the_web_client_or_a_page_saying_it_is_not_built(
    settings: Settings, tmp_path: Path
) -> None:
    with TestClient(create_app(settings.but(static_dir=str(tmp_path / "none")))) as c:
        r = c.get("/")
        assert r.status_code == 200 and "not built" in r.text
        assert "not built" in c.get("/t/abc").text
    site = tmp_path / "dist"
    site.mkdir()
    (site / "index.html").write_text("<p>the client</p>")
    (site / "app.js").write_text("let x = 1;")
    with TestClient(create_app(settings.but(static_dir=str(site)))) as c:
        assert c.get("/").text == "<p>the client</p>"
        assert c.get("/t/abc").text == "<p>the client</p>"
        assert c.get("/app.js").text == "let x = 1;"
        assert c.get("/api/tables").status_code == 200

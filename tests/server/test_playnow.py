"""Jugar ahora in one process: tickets, the long poll, tables formed, the bot offer, limits."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import Player, app_state, serving
from truco.server import Settings


class Person:
    """One player: a browser of her own (her identity cookie, sent with each of her requests)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        r = client.get("/api/me", headers={"cookie": "none=1"})
        self.id = r.json()["id"]
        self.headers = {"cookie": f"truco_player={r.cookies['truco_player']}"}

    def post(self, path: str, **kw: Any) -> Any:
        return self.client.post(path, headers=self.headers, **kw)

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, headers=self.headers, **kw)

    def delete(self, path: str) -> Any:
        return self.client.delete(path, headers=self.headers)


def queue(who: TestClient | Person, mode: str = "1v1", name: str | None = None) -> dict[str, Any]:
    """A ticket for ``who`` (a client: a new person)."""
    person = who if isinstance(who, Person) else Person(who)
    body: dict[str, Any] = {"mode": mode}
    if name is not None:
        body["name"] = name
    r = person.post("/api/queue", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    data["person"] = person
    return data


def status(ticket: dict[str, Any], wait: float = 0) -> dict[str, Any]:
    r = ticket["person"].get(f"/api/queue/{ticket['ticket']}", params={"wait": wait})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def seated_view(client: TestClient, table: str, token: str) -> dict[str, Any]:
    player = Player(client, table, token)
    full = player.until("full")
    view: dict[str, Any] = full["d"]
    return view


@pytest.fixture
def slow_offer(settings: Settings) -> Iterator[TestClient]:
    """Bots offered after a minute: these tests never see the offer unless they ask for it."""
    with serving(settings.but(queue_bots_after=60.0)) as c:
        yield c


def test_two_players_get_one_table(slow_offer: TestClient) -> None:
    client = slow_offer
    ana = queue(client, name="Ana")
    assert ana["status"] == "waiting" and ana["offer"] is None and ana["table"] is None
    beto = queue(client, name="Beto")
    a, b = status(ana, wait=5), status(beto, wait=5)
    assert a["status"] == b["status"] == "matched"
    assert a["table"] == b["table"] and a["invite"] == f"/t/{a['table']}"
    assert {a["seat"], b["seat"]} == {0, 1}
    info = client.get(f"/api/tables/{a['table']}").json()
    assert info["status"] == "playing" and info["options"]["players"] == 2
    assert info["turn_seconds"] == 60
    names = {s["seat"]: s["name"] for s in info["seats"]}
    assert names == {a["seat"]: "Ana", b["seat"]: "Beto"}
    # Each seat token came with its ticket, and opens that seat.
    assert seated_view(client, a["table"], ana["token"])["seat"] == a["seat"]
    assert seated_view(client, b["table"], beto["token"])["seat"] == b["seat"]
    # A matched ticket is not in the queue any more: the next player waits alone.
    carla = queue(client)
    assert status(carla, wait=0.3)["status"] == "waiting"


def test_a_waiting_long_poll_hears_of_its_match(slow_offer: TestClient) -> None:
    client = slow_offer
    ana = queue(client)
    heard: list[dict[str, Any]] = []
    poll = threading.Thread(target=lambda: heard.append(status(ana, wait=20)))
    poll.start()
    beto = queue(client)
    poll.join(60)
    assert heard and heard[0]["status"] == "matched"
    assert heard[0]["table"] == status(beto)["table"]


def test_teams_of_two_and_three(slow_offer: TestClient) -> None:
    client = slow_offer
    for mode, n in (("2v2", 4), ("3v3", 6)):
        tickets = [queue(client, mode, name=f"P{i}") for i in range(n)]
        answers = [status(t, wait=5) for t in tickets]
        assert {a["table"] for a in answers} != {None}
        assert len({a["table"] for a in answers}) == 1
        assert sorted(a["seat"] for a in answers) == list(range(n))
        for t, a in zip(tickets, answers, strict=True):
            assert seated_view(client, a["table"], t["token"])["seat"] == a["seat"]


def test_modes_do_not_mix_and_a_player_who_left_is_not_paired(slow_offer: TestClient) -> None:
    client = slow_offer
    one = queue(client, "1v1")
    two = queue(client, "2v2")
    assert status(one, wait=0.3)["status"] == "waiting"
    assert status(two)["status"] == "waiting"
    r = one["person"].delete(f"/api/queue/{one['ticket']}")
    assert r.status_code == 200 and r.json()["status"] == "left"
    assert one["person"].get(f"/api/queue/{one['ticket']}").json()["code"] == "ticket_not_found"
    other = queue(client, "1v1")
    assert status(other, wait=0.3)["status"] == "waiting"


def test_one_ticket_per_player(slow_offer: TestClient) -> None:
    ana = Person(slow_offer)
    first = queue(ana, "1v1")
    again = queue(ana, "1v1")
    assert again["ticket"] != first["ticket"]
    # The same mode keeps the place in the queue; the first ticket is gone.
    assert again["waited"] >= first["waited"]
    assert ana.get(f"/api/queue/{first['ticket']}").status_code == 404
    other = queue(ana, "2v2")
    assert ana.get(f"/api/queue/{again['ticket']}").status_code == 404
    # She waits in the 2v2 queue only: a 1v1 player finds nobody.
    beto = queue(slow_offer, "1v1")
    assert status(beto, wait=0.3)["status"] == "waiting"
    assert status(other)["status"] == "waiting" and other["mode"] == "2v2"


def test_a_lone_player_is_offered_bots(settings: Settings) -> None:
    with serving(settings.but(queue_bots_after=0.5)) as client:
        ana = queue(client, "2v2", name="Ana")
        assert ana["offer"] is None
        r = ana["person"].post(f"/api/queue/{ana['ticket']}/bots")
        assert r.status_code == 409 and r.json()["code"] == "no_offer"
        # The long poll answers as soon as the offer comes.
        offered = status(ana, wait=20)
        assert offered["status"] == "waiting" and offered["offer"] == "bots"
        assert offered["waited"] >= 0.5
        r = ana["person"].post(f"/api/queue/{ana['ticket']}/bots")
        assert r.status_code == 200, r.text
        took = r.json()
        assert took["status"] == "matched" and took["seat"] == 0 and took["offer"] is None
        info = client.get(f"/api/tables/{took['table']}").json()
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
        assert info["options"]["players"] == 4 and info["turn_seconds"] is None
        assert info["status"] == "playing"
        assert seated_view(client, took["table"], ana["token"])["seat"] == 0
        # Asked again, the answer is the same table.
        assert (
            ana["person"].post(f"/api/queue/{ana['ticket']}/bots").json()["table"] == took["table"]
        )


def test_ratings_keep_far_players_apart_at_first(slow_offer: TestClient) -> None:
    client = slow_offer
    maker = app_state(client).matchmaker
    given = iter([0.0, 24.0, 1.0])

    async def rating_of(player: str, mode: str) -> float:
        return next(given)

    maker.rating_of = rating_of
    low, high, near = queue(client), queue(client), queue(client)
    assert status(high, wait=0.3)["status"] == "waiting"
    a, b = status(low), status(near)
    assert a["status"] == b["status"] == "matched" and a["table"] == b["table"]


def test_limits(settings: Settings) -> None:
    with serving(settings.but(queue_per_address=2, queue_max=3)) as client:
        queue(client, "3v3")
        queue(client, "3v3")
        r = Person(client).post("/api/queue", json={"mode": "3v3"})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    with serving(settings.but(queue_max=2)) as client:
        queue(client, "3v3")
        queue(client, "3v3")
        r = Person(client).post("/api/queue", json={"mode": "3v3"})
        assert r.status_code == 503 and r.json()["code"] == "queue_full"
    with serving(settings.but(queue_burst=2, queue_per_minute=0.001)) as client:
        queue(client, "3v3")
        queue(client, "3v3")
        r = Person(client).post("/api/queue", json={"mode": "3v3"})
        assert r.status_code == 429
    with serving(settings.but(queue_polls_burst=3, queue_polls_per_second=0.001)) as client:
        t = queue(client)
        for _ in range(3):
            status(t)
        assert t["person"].get(f"/api/queue/{t['ticket']}").status_code == 429


def test_bad_requests(client: TestClient) -> None:
    r = client.post("/api/queue", json={"mode": "4v4"})
    assert r.status_code == 422 and r.json()["code"] == "bad_message"
    r = client.post("/api/queue", json={"mode": "1v1", "name": "a\u202eb"})
    assert r.status_code == 422 and r.json()["code"] == "bad_name"
    assert client.get("/api/queue/" + "0" * 32).status_code == 404
    t = queue(client)
    # Only its player hears of a ticket.
    other = Person(client)
    assert other.get(f"/api/queue/{t['ticket']}").json()["code"] == "ticket_not_found"
    assert other.delete(f"/api/queue/{t['ticket']}").status_code == 404
    assert status(t)["status"] == "waiting"
    assert client.get("/api/queue/nope").status_code == 422
    r = client.post("/api/queue", json={"mode": "1v1"}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    t = queue(client)
    r = t["person"].get(f"/api/queue/{t['ticket']}", params={"wait": 1000})
    assert r.status_code == 422


def claimed(client: TestClient, name: str) -> Person:
    """A new player who claimed ``name``."""
    person = Person(client)
    r = person.post("/api/me/name", json={"name": name, "password": f"clave de {name}"})
    assert r.status_code == 200, r.text
    # As a browser does, she keeps the cookie the claim gave back: her session (sessions.py).
    person.headers = {"cookie": f"truco_player={r.cookies['truco_player']}"}
    return person


def test_claimed_names_meet_at_a_rated_table_guests_at_a_casual_one(
    slow_offer: TestClient,
) -> None:
    client = slow_offer
    ana, beto = queue(claimed(client, "Anabel")), queue(claimed(client, "Bautista"))
    a, b = status(ana, wait=5), status(beto, wait=5)
    assert a["status"] == b["status"] == "matched" and a["table"] == b["table"]
    info = client.get(f"/api/tables/{a['table']}").json()
    assert info["rated"] is True
    assert {s["name"] for s in info["seats"]} == {"Anabel", "Bautista"}
    # One guest at the table makes it casual: a rated result needs a claimed name each.
    carla, guest = queue(claimed(client, "Carolina")), queue(client)
    c, g = status(carla, wait=5), status(guest, wait=5)
    assert c["table"] == g["table"] is not None
    assert client.get(f"/api/tables/{c['table']}").json()["rated"] is False


def test_the_queue_pairs_by_the_skill_the_ratings_keep(client: TestClient) -> None:
    from sqlalchemy import insert

    from truco.server.players import ranking, ratings
    from truco.server.players.rated import ratings_t

    store = app_state(client).hub.store
    lookup = ranking.skill_lookup(store)
    strong = claimed(client, "Fuerte")

    async def rows() -> tuple[float, float, float]:
        async with store.writing() as conn:
            await conn.execute(
                insert(ratings_t).values(
                    player_id=strong.id,
                    mode="1v1",
                    mu=31.5,
                    sigma=2.0,
                    rating=ratings.shown(31.5, 2.0),
                    matches=40,
                    updated_at=datetime.now(UTC),
                )
            )
        return (
            await lookup(strong.id, "1v1"),
            await lookup(strong.id, "2v2"),
            await lookup("guest:0123", "1v1"),
        )

    assert client.portal.call(rows) == (31.5, ratings.MU, ratings.MU)  # type: ignore[union-attr]

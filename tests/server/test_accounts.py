"""Claimed names and passwords: claim, log in on another device, log out, change the password;
the name rule, the limits, and answers that never say whether a name exists (docs/players.md)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from server.helpers import Device, Player, create, serving
from truco.server import Settings, create_app
from truco.server.players.accounts import (
    Busy,
    Hashing,
    account_name,
    looks_like_a_bot,
    name_key,
)
from truco.server.players.identity import COOKIE
from truco.server.players.names import NameRefused
from truco.server.players.records import Players
from truco.server.store.database import Store

PASSWORD = "mate amargo 1921"


@pytest.fixture
def other(settings: Settings) -> Iterator[TestClient]:
    """A second device (its own cookies) on the same server's database."""
    with TestClient(create_app(settings)) as c:
        yield c


def claim(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/me/name", json={"name": name, "password": password})


def login(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/login", json={"name": name, "password": password})


@pytest.mark.parametrize(
    "name",
    [
        "Don Ramón",
        "don ramon",
        "DON RAMÓN (Experto)",
        "Don Ramón [Expert]",
        "DonRamon experto",
        "Ｔｉｔｏ",
        "Doña Porota",
        "Bot",
        "el bot",
        "Robot 3",
        "b.o.t",
    ],
)
def test_names_that_look_like_a_bot_are_refused(name: str) -> None:
    assert looks_like_a_bot(name)
    with pytest.raises(NameRefused) as refused:
        account_name(name)
    assert refused.value.reason == "bot"


@pytest.mark.parametrize("name", ["Ramona", "Titogol", "Bottaro", "Abbot Costello", "Ana"])
def test_other_names_are_fine(name: str) -> None:
    assert not looks_like_a_bot(name)
    assert account_name(name) == name


def test_the_name_rule_and_its_key() -> None:
    for short in ("Al", " A ", "日本"):
        with pytest.raises(NameRefused):
            account_name(short)
    assert account_name("  Juan   Pérez ") == "Juan Pérez"
    with pytest.raises(NameRefused):
        account_name("x" * 21)
    with pytest.raises(NameRefused):
        account_name("Ana\u202eX")
    assert name_key("ＡＮＡ") == name_key("ana") == name_key("Ana")
    assert name_key("Straße") == name_key("STRASSE")


def test_claim_then_log_in_on_another_device(client: TestClient, other: TestClient) -> None:
    first = client.get("/api/me").json()["id"]
    r = claim(client, "Ana Laura")
    assert r.status_code == 200, r.text
    assert r.json() == {"id": first, "name": "Ana Laura", "seats": []}
    t = create(client)
    assert other.get("/api/me").json()["id"] != first
    r = login(other, "ana laura")
    assert r.status_code == 200, r.text
    assert r.json() == {
        "id": first,
        "name": "Ana Laura",
        "seats": [{"table": t["table"], "seat": 0}],
    }
    assert other.get("/api/me").json()["id"] == first  # the cookie carries that player now
    cookie = [c for c in r.headers.get_list("set-cookie") if c.startswith(COOKIE + "=")]
    assert len(cookie) == 1 and "HttpOnly" in cookie[0]


def test_a_name_is_claimed_once_and_by_one_player(client: TestClient, other: TestClient) -> None:
    assert claim(client, "Carolina").status_code == 200
    for name in ("carolina", "ＣＡＲＯＬＩＮＡ", " CAROLINA "):
        r = claim(other, name, "otra clave larga")
        assert r.status_code == 409 and r.json()["code"] == "name_unavailable", r.text
    r = claim(client, "Carolina Dos")
    assert r.status_code == 409 and r.json()["code"] == "name_unavailable"
    assert client.get("/api/me").json()["name"] == "Carolina"
    assert other.get("/api/me").json()["name"] is None


def test_claims_are_checked(client: TestClient) -> None:
    for name, password, code in [
        ("Tito", PASSWORD, "bad_name"),
        ("Al", PASSWORD, "bad_name"),
        ("x" * 21, PASSWORD, "bad_name"),
        ("Ana\x00", PASSWORD, "bad_name"),
        ("Ana", "corta", "bad_message"),
        ("Ana", "x" * 129, "bad_message"),
    ]:
        r = claim(client, name, password)
        assert r.status_code == 422 and r.json()["code"] == code, (name, r.text)
    assert client.get("/api/me").json()["name"] is None
    assert claim(client, "Ana", "x" * 128).status_code == 200


def test_a_failed_login_never_says_whether_the_name_exists(
    client: TestClient, other: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert claim(client, "Beatriz").status_code == 200
    checked: list[str] = []
    verify = PasswordHasher.verify

    def counting(self: PasswordHasher, stored: str, password: str) -> bool:
        checked.append(stored)
        return verify(self, stored, password)

    monkeypatch.setattr(PasswordHasher, "verify", counting)
    wrong = login(other, "Beatriz", "no es la clave")
    unknown = login(other, "Nadie Nunca", "no es la clave")
    malformed = login(other, "\x00", "no es la clave")
    for r in (wrong, unknown, malformed):
        assert r.status_code == 401
        assert r.json() == {"code": "bad_login", "message": "wrong name or password"}
    # An unknown name costs an Argon2 check too, against a hash like the real ones.
    assert len(checked) == 3 and all(h.startswith("$argon2id$") for h in checked)
    assert other.get("/api/me").json()["name"] is None


def test_logins_are_limited_per_address(settings: Settings) -> None:
    with serving(settings.but(login_burst=3, logins_per_minute=0.001)) as c:
        codes = [login(c, f"Nadie {i}", "cualquier cosa").status_code for i in range(4)]
        assert codes == [401, 401, 401, 429]
        r = login(c, "Otro", "cualquier cosa")
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert "address" in r.json()["message"]


def test_logins_are_limited_per_name(settings: Settings) -> None:
    limited = settings.but(name_login_burst=3, name_logins_per_minute=0.001)
    with serving(limited) as c, TestClient(create_app(limited)) as d:
        assert claim(c, "Dolores").status_code == 200
        for _ in range(3):
            assert login(d, "dolores", "no es la clave").status_code == 401
        r = login(d, "DOLORES")  # even the right password waits now
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert "name" in r.json()["message"]
        assert claim(d, "Ernesto").status_code == 200
        assert login(c, "Ernesto").status_code == 200  # another name is not held up


def test_log_out_is_a_fresh_anonymous_player(client: TestClient) -> None:
    assert claim(client, "Fermín").status_code == 200
    t = create(client)
    me = client.get("/api/me").json()
    assert me["seats"] == [{"table": t["table"], "seat": 0}]
    r = client.post("/api/logout")
    assert r.status_code == 200
    fresh = r.json()
    assert fresh["name"] is None and fresh["seats"] == [] and fresh["id"] != me["id"]
    assert client.get("/api/me").json() == fresh
    assert login(client, "Fermín").json() == me


def test_change_the_password(client: TestClient, other: TestClient) -> None:
    r = client.post("/api/me/password", json={"password": PASSWORD, "new_password": "x" * 10})
    assert r.status_code == 401 and r.json()["code"] == "bad_login"  # no name, no password
    assert claim(client, "Graciela").status_code == 200
    new = "otra clave muy larga"
    r = client.post("/api/me/password", json={"password": "equivocada", "new_password": new})
    assert r.status_code == 401 and r.json()["code"] == "bad_login"
    r = client.post("/api/me/password", json={"password": PASSWORD, "new_password": "corta"})
    assert r.status_code == 422 and r.json()["code"] == "bad_message"
    r = client.post("/api/me/password", json={"password": PASSWORD, "new_password": new})
    assert r.status_code == 200 and r.json()["name"] == "Graciela"
    assert login(other, "Graciela").status_code == 401
    assert login(other, "Graciela", new).status_code == 200


def test_an_old_hash_is_renewed_at_login(settings: Settings, client: TestClient) -> None:
    assert claim(client, "Horacio").status_code == 200
    me = client.get("/api/me").json()["id"]
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(PASSWORD)

    async def stored(value: str | None = None) -> str | None:
        store = Store(settings.database_url)
        try:
            players = Players(store)
            if value is not None:
                await players.set_password(me, value)
            found = await players.get(me)
            return found.password_hash if found else None
        finally:
            await store.close()

    asyncio.run(stored(weak))
    assert login(client, "Horacio").status_code == 200
    renewed = asyncio.run(stored())
    assert renewed is not None and renewed != weak
    assert not PasswordHasher().check_needs_rehash(renewed)


def test_account_requests_from_a_foreign_page_are_refused(client: TestClient) -> None:
    r = client.post(
        "/api/login",
        json={"name": "Ana", "password": PASSWORD},
        headers={"Origin": "http://evil.example"},
    )
    assert r.status_code == 403 and r.json()["code"] == "bad_origin"


def test_any_device_of_the_player_takes_the_seat_back(client: TestClient) -> None:
    assert claim(client, "Isabel").status_code == 200
    t = create(client, bots={"1": "random"})
    first = Player(client, t["table"], t["token"])
    assert first.until("full")["d"]["seat"] == 0
    # Another device, logged in as the same player, with no seat token.
    phone = Device(client)
    with phone.on() as c:
        assert login(c, "Isabel").status_code == 200
        second = Player(c, t["table"], player=True)
    assert second.until("full")["d"]["seat"] == 0
    assert first.closed()[0] == 4001  # replaced, as by a reconnect with the token
    # Without asking for it, the same device only watches; the token still works alone.
    with phone.on() as c:
        watcher = Player(c, t["table"])
    assert watcher.until("full")["d"]["seat"] is None
    client.cookies.clear()
    third = Player(client, t["table"], t["token"])
    assert third.until("full")["d"]["seat"] == 0
    assert second.closed()[0] == 4001


def test_a_player_without_a_seat_there_watches(client: TestClient) -> None:
    t = create(client, bots={"1": "random"})
    with Device(client).on() as c:
        stranger = Player(c, t["table"], player=True)
    assert stranger.until("full")["d"]["seat"] is None
    client.cookies.clear()  # no identity at all: a spectator too
    nobody = Player(client, t["table"], player=True)
    assert nobody.until("full")["d"]["seat"] is None


def test_the_seat_is_the_players_after_a_restart(settings: Settings) -> None:
    with serving(settings) as c:
        assert claim(c, "Julieta").status_code == 200
        t = create(c)
        cookie = c.cookies[COOKIE]
    with serving(settings) as c:
        c.cookies.set(COOKIE, cookie)
        back = Player(c, t["table"], player=True)
        assert back.until("full")["d"]["seat"] == 0


def test_password_checks_past_the_line_are_refused_at_once_and_known_browsers_go_aside() -> None:
    async def flood() -> tuple[list[bool | BaseException], bool, bool]:
        hashing = Hashing(waiting=1)
        stored = await hashing.hash(PASSWORD)
        # Two running and one waiting fill the strangers' lane; the next ones are refused
        # before they wait (nothing of theirs is in line).
        checks = [asyncio.ensure_future(hashing.verify(stored, PASSWORD)) for _ in range(5)]
        await asyncio.sleep(0)
        known = await hashing.verify(stored, PASSWORD, known=True)  # its own lane: not refused
        refused_while_full = False
        try:
            await hashing.verify(stored, PASSWORD)
        except Busy:
            refused_while_full = True
        results = await asyncio.gather(*checks, return_exceptions=True)
        return results, known, refused_while_full

    results, known, _ = asyncio.run(flood())
    assert results[:3] == [True, True, True]
    assert all(isinstance(r, Busy) for r in results[3:])
    assert known is True


def test_a_flooded_login_answers_503_with_retry_after(settings: Settings) -> None:
    async def run() -> tuple[list[httpx.Response], httpx.Response]:
        app = create_app(dataclasses.replace(settings, hashes_waiting=0, login_burst=100))
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://testserver") as ana,
        ):
            r = await ana.post("/api/me/name", json={"name": "Ana", "password": PASSWORD})
            assert r.status_code == 200, r.text
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
                tries = [
                    c.post("/api/login", json={"name": "Ana", "password": PASSWORD})
                    for _ in range(6)
                ]
                answers = list(await asyncio.gather(*tries))
            # Ana's own browser has been Ana: her login has a lane of its own.
            mine = await ana.post("/api/login", json={"name": "Ana", "password": PASSWORD})
            return answers, mine

    answers, mine = asyncio.run(run())
    busy = [r for r in answers if r.status_code == 503]
    assert busy and all(r.json()["code"] == "busy" and r.headers["Retry-After"] for r in busy)
    assert {r.status_code for r in answers} <= {200, 503}
    assert mine.status_code == 200, mine.text

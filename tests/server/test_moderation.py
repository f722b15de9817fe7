"""Moderation (issue 26, point 12): mutes, blocks and reports per player identity, in the store
(a real SQLite file and a real PostgreSQL) and through the real app; chat and señas the table's
process leaves out; blocks in Jugar ahora's pairing and over follows; the creator removing
someone from a casual table before it starts (docs/players.md, "Silenciar, bloquear y
denunciar")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server import test_players_store as players_store
from server.helpers import Player, create, join, serving
from server.test_friends import claim, code, named, someone
from server.test_playnow import Person, queue, status
from truco.server import Settings
from truco.server.admin import list_reports
from truco.server.players.blocks import BLOCK, MUTE, Blocks, TooMany, entry_key
from truco.server.players.follows import Follows
from truco.server.players.reports import Reports, TooManyReports
from truco.server.queue.matchmaking import Curve, Waiting, pair
from truco.server.store.database import Store

ANA, BETO, CARO = "a" * 32, "b" * 32, "c" * 32
url = players_store.url
run = players_store.run


def test_mutes_and_blocks_are_per_owner_bounded_and_undone(url: str) -> None:
    async def body(store: Store) -> None:
        await named(store, (ANA, "Ana"), (BETO, "Beto"), (CARO, "Caro"))
        blocks = Blocks(store)
        assert await blocks.add(ANA, BETO, MUTE, "Beto", 1)
        assert not await blocks.add(ANA, BETO, MUTE, "Beto", 1)  # once
        with pytest.raises(TooMany):
            await blocks.add(ANA, CARO, MUTE, "Caro", 1)
        assert await blocks.add(ANA, CARO, BLOCK, "Caro", 1)  # each kind has its own count
        assert {(e.kind, e.label) for e in await blocks.entries(ANA)} == {
            (MUTE, "Beto"),
            (BLOCK, "Caro"),
        }
        assert await blocks.entries(BETO) == []
        assert await blocks.hiding(BETO, [ANA, CARO]) == {ANA}
        assert await blocks.hiding(CARO, [ANA, BETO]) == {ANA}
        assert await blocks.hiding(ANA, [BETO, CARO]) == set()
        # Only a block keeps two apart, either way round.
        assert await blocks.apart([ANA, BETO, CARO]) == {frozenset((ANA, CARO))}
        assert await blocks.blocked_between(CARO, ANA)
        assert not await blocks.blocked_between(ANA, BETO)
        assert await blocks.remove(ANA, entry_key(ANA, BETO), BLOCK) is None  # a mute, not this
        assert await blocks.remove(ANA, entry_key(ANA, BETO), MUTE) == "Beto"
        assert await blocks.hiding(BETO, [ANA]) == set()

    run(url, body)


def test_a_block_undoes_the_blocked_players_follow_and_invitations(url: str) -> None:
    async def body(store: Store) -> None:
        await named(store, (ANA, "Ana"), (BETO, "Beto"))
        follows = Follows(store)
        assert await follows.follow(BETO, ANA, 10)
        assert await follows.follow(ANA, BETO, 10)
        await Blocks(store).add(ANA, BETO, BLOCK, "Beto", 10)
        assert not await follows.follows(BETO, ANA)
        assert await follows.follows(ANA, BETO)  # hers stays

    run(url, body)


def test_reports_are_kept_and_counted_per_day(url: str) -> None:
    async def body(store: Store) -> None:
        await named(store, (ANA, "Ana"), (BETO, "Beto"))
        reports = Reports(store)
        common: dict[str, Any] = {"table": "t1", "seat": 1, "text": "me insulta", "most": 2}
        await reports.send(ANA, BETO, "Beto", reason="acoso", quoted="tonta", **common)
        await reports.send(ANA, BETO, "Beto", reason="spam", quoted=None, **common)
        with pytest.raises(TooManyReports):
            await reports.send(ANA, BETO, "Beto", reason="otro", quoted=None, **common)
        await reports.send(BETO, ANA, "Ana", reason="otro", quoted=None, **common)  # his own
        got = await reports.listed()
        assert [(r.reporter, r.target_name, r.reason) for r in got] == [
            ("Beto", "Ana", "otro"),
            ("Ana", "Beto", "spam"),
            ("Ana", "Beto", "acoso"),
        ]
        assert got[2].quoted == "tonta" and got[2].table == "t1" and got[2].seat == 1
        assert len(await reports.listed(target=BETO)) == 2

    run(url, body)


def test_the_pairing_never_groups_two_players_apart() -> None:
    curve = Curve(base=100.0, per_second=0.0, most=100.0)
    pool = [Waiting("t1", 10.0, 0.0), Waiting("t2", 10.0, 1.0), Waiting("t3", 11.0, 2.0)]
    assert [m.seats for m in pair("1v1", pool, 5.0, curve)] == [("t1", "t2")]
    apart = {frozenset(("t1", "t2"))}
    # t1 passes over t2 and takes the next nearest; t2 waits.
    assert [set(m.seats) for m in pair("1v1", pool, 5.0, curve, apart)] == [{"t1", "t3"}]
    four = [*pool, Waiting("t4", 12.0, 3.0)]
    assert pair("2v2", four, 5.0, curve, apart) == []  # no group of four without both
    assert [set(m.seats) for m in pair("2v2", four, 5.0, curve)] == [{"t1", "t2", "t3", "t4"}]


@pytest.fixture
def mod_settings(settings: Settings, tmp_path: Any) -> Settings:
    return settings.but(max_mutes=2, max_blocks=2, reports_per_day=2, report_text_most=20)


@pytest.fixture
def ana(mod_settings: Settings) -> Iterator[TestClient]:
    with serving(mod_settings) as c:
        yield c


def chat_lines(player: Player) -> list[str]:
    """The chat lines a connection got until it is quiet (a ping's pong ends the read)."""
    player.send("ping")
    lines = []
    while (msg := player.recv())["t"] != "pong":
        if msg["t"] == "chat":
            lines.append(msg["d"]["text"])
    return lines


def test_a_muted_players_chat_is_not_sent_to_who_muted_him(ana: TestClient) -> None:
    beto = someone(ana)
    t = create(ana, options={"players": 4}, bots={})
    table, token = t["table"], t["token"]
    beto_token = join(beto, table, "Beto", 1)
    mine, his = Player(ana, table, token), Player(beto, table, beto_token)
    mine.until("full")
    his.until("full")
    nobody = ana.post("/api/me/mutes", json={"table": table, "seat": 2})
    assert code(nobody) == (404, "player_not_found")
    assert code(ana.post("/api/me/mutes", json={"table": table, "seat": 0})) == (
        422,
        "moderate_self",
    )
    r = ana.post("/api/me/mutes", json={"table": table, "seat": 1})
    assert r.status_code == 201, r.text
    key = r.json()["key"]
    assert r.json()["label"] == "Beto" and BETO not in r.text
    listed = ana.get("/api/me/moderation", params={"table": table}).json()
    assert listed["table"] == {
        "muted": [1],
        "blocked": [],
        "keys": [{"seat": 1, "kind": "mute", "key": key}],
    }
    assert [e["label"] for e in listed["mutes"]] == ["Beto"] and listed["most_mutes"] == 2
    his.send("chat", {"text": "hola"})
    assert chat_lines(his) == ["hola"]  # he hears himself (his line is through the table)
    mine.send("chat", {"text": "buenas"})
    assert chat_lines(mine) == ["buenas"]  # she does not hear him
    assert his.until("chat")["d"]["text"] == "buenas"  # he hears her
    assert ana.delete(f"/api/me/mutes/{key}").status_code == 200
    assert code(ana.delete(f"/api/me/mutes/{key}")) == (404, "player_not_found")
    his.send("chat", {"text": "otra vez"})
    assert mine.until("chat")["d"]["text"] == "otra vez"


def test_a_muted_partners_senas_are_not_sent(ana: TestClient) -> None:
    caro = someone(ana)
    t = create(ana, options={"players": 4}, bots={"1": "random", "3": "random"})
    table, token = t["table"], t["token"]
    caro_token = join(caro, table, "Caro", 2)
    mine, hers = Player(ana, table, token), Player(caro, table, caro_token)
    for p in (mine, hers):
        p.until("full")
    hers.send("sena", {"sena": "tres"})
    assert mine.until("sena")["d"] == {"seat": 2, "sena": "tres"}
    assert ana.post("/api/me/blocks", json={"table": table, "seat": 2}).status_code == 201
    hers.send("sena", {"sena": "dos"})
    hers.send("chat", {"text": "che"})
    mine.send("ping")
    while (msg := mine.recv())["t"] != "pong":
        assert msg["t"] not in ("sena", "chat"), msg
    # A reconnection's señas of the hand leave hers out too.
    again = Player(ana, table, token)
    again.send("ping")
    while (msg := again.recv())["t"] != "pong":
        assert msg["t"] != "sena", msg


def test_limits_of_mutes_and_reports(ana: TestClient) -> None:
    beto, caro, dani = someone(ana), someone(ana), someone(ana)
    for client, name in ((beto, "Beto"), (caro, "Caro"), (dani, "Dani")):
        claim(client, name)
    for name in ("Beto", "Caro"):
        assert ana.post("/api/me/mutes", json={"name": name}).status_code == 201
    assert code(ana.post("/api/me/mutes", json={"name": "Dani"})) == (409, "too_many_mutes")
    assert code(ana.post("/api/me/mutes", json={})) == (404, "player_not_found")
    report = {"name": "Beto", "reason": "acoso", "text": "me insulta"}
    assert code(ana.post("/api/reports", json={**report, "reason": "feo"})) == (422, "bad_message")
    long = {**report, "text": "x" * 21}
    assert code(ana.post("/api/reports", json=long)) == (422, "bad_report")
    r = ana.post("/api/reports", json={**report, "quoted": "sos malísima"})
    assert r.status_code == 201 and r.json() == {"reported": "Beto", "reason": "acoso"}
    assert ana.post("/api/reports", json=report).status_code == 201
    assert code(ana.post("/api/reports", json=report)) == (429, "too_many_reports")
    foreign = {"Origin": "https://elsewhere.example"}
    assert code(ana.post("/api/me/blocks", json={"name": "Beto"}, headers=foreign)) == (
        403,
        "bad_origin",
    )


def test_truco_admin_reports_lists_them(mod_settings: Settings, tmp_path: Any) -> None:
    with serving(mod_settings) as ana:
        beto = someone(ana)
        claim(beto, "Beto")
        body = {
            "name": "Beto",
            "reason": "trampa",
            "text": "canta las cartas",
            "quoted": "tengo 33",
        }
        assert ana.post("/api/reports", json=body).status_code == 201
    listed = list_reports(str(tmp_path / "truco.db"), as_json=False)
    assert "trampa" in listed and "'Beto'" in listed and "tengo 33" in listed
    assert "canta las cartas" in listed


def test_a_block_wins_over_follows_and_invitations(ana: TestClient) -> None:
    beto = someone(ana)
    claim(ana, "Ana")
    claim(beto, "Beto")
    assert beto.post("/api/me/friends", json={"name": "Ana"}).status_code == 200
    table = create(beto, name="Beto", bots={})["table"]
    assert ana.post("/api/me/blocks", json={"name": "Beto"}).status_code == 201
    assert beto.get("/api/me/friends").json()["friends"] == []  # his follow is gone
    assert code(beto.post("/api/me/friends", json={"name": "Ana"})) == (403, "blocked")
    assert code(ana.post("/api/me/friends", json={"name": "Beto"})) == (403, "blocked")
    assert code(beto.post("/api/me/invites", json={"name": "Ana", "table": table})) == (
        409,
        "not_following",
    )


def test_blocked_players_are_never_paired_by_jugar_ahora(settings: Settings) -> None:
    with serving(settings.but(queue_bots_after=60.0)) as c:
        ana, beto, caro = Person(c), Person(c), Person(c)
        # Ana blocks Beto by his seat at a table they sat at (neither claimed a name).
        made = c.post(
            "/api/tables", json={"name": "Ana", "options": {"players": 4}}, headers=ana.headers
        )
        assert made.status_code == 201, made.text
        tid = made.json()["table"]
        assert beto.post(f"/api/tables/{tid}/seats", json={"name": "Beto"}).status_code == 200
        assert ana.post("/api/me/blocks", json={"table": tid, "seat": 1}).status_code == 201
        first, second = queue(ana), queue(beto)
        assert status(first)["status"] == "waiting"
        assert status(second)["status"] == "waiting"
        third = queue(caro)
        got = [status(x, wait=5) for x in (first, second, third)]
        assert [g["status"] for g in got] == ["matched", "waiting", "matched"]
        assert got[0]["table"] == got[2]["table"]


def test_the_creator_removes_someone_before_the_match_starts(ana: TestClient) -> None:
    beto, caro = someone(ana), someone(ana)
    t = create(ana, options={"players": 4}, bots={})
    table, token = t["table"], t["token"]
    beto_token = join(beto, table, "Beto", 1)
    his = Player(beto, table, beto_token)
    his.until("full")
    url = f"/api/tables/{table}/seats/1"
    assert code(beto.delete(url, headers={"Authorization": f"Bearer {beto_token}"})) == (
        401,
        "bad_token",
    )
    r = ana.delete(url, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["kind"] == "empty"
    err = his.until("err")
    assert err["d"]["code"] == "removed"
    assert his.closed()[0] == 4403
    # He may not sit there again, in any seat; another person may.
    again = beto.post(f"/api/tables/{table}/seats", json={"name": "Beto"})
    assert code(again) == (403, "removed")
    join(caro, table, "Caro", 1)
    join(caro, table, "Caro", 2)
    join(caro, table, "Caro", 3)  # the table is full: the match starts
    late = ana.delete(f"/api/tables/{table}/seats/2", headers={"Authorization": f"Bearer {token}"})
    assert code(late) == (409, "seat_taken")


def test_moderation_requests_are_rate_limited_per_player(settings: Settings) -> None:
    # A burst of 3, then (as good as) none: a mute made and undone in a loop is stopped.
    with serving(settings.but(moderation_burst=3, moderation_per_second=0.001)) as ana:
        beto = someone(ana)
        claim(beto, "Beto")
        made = ana.post("/api/me/mutes", json={"name": "Beto"})
        assert made.status_code == 201, made.text
        key = made.json()["key"]
        assert ana.delete(f"/api/me/mutes/{key}").status_code == 200
        assert ana.get("/api/me/moderation").status_code == 200
        assert code(ana.post("/api/me/mutes", json={"name": "Beto"})) == (429, "rate_limited")
        assert code(ana.get("/api/me/moderation")) == (429, "rate_limited")
        report = {"name": "Beto", "reason": "spam"}
        assert code(ana.post("/api/reports", json=report)) == (429, "rate_limited")
        # Each player has his own budget.
        claim(ana, "Ana")
        assert beto.post("/api/me/blocks", json={"name": "Ana"}).status_code == 201


def test_moderations_limits_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # The names docs/operations.md gives them.
    for name, value in (
        ("TRUCO_MAX_MUTES", "7"),
        ("TRUCO_MAX_BLOCKS", "8"),
        ("TRUCO_REPORTS_PER_DAY", "3"),
        ("TRUCO_REPORT_TEXT_MOST", "40"),
        ("TRUCO_MODERATION_BURST", "5"),
        ("TRUCO_MODERATION_PER_SECOND", "0.5"),
    ):
        monkeypatch.setenv(name, value)
    got = Settings.from_env()
    assert (got.max_mutes, got.max_blocks, got.reports_per_day) == (7, 8, 3)
    assert (got.report_text_most, got.moderation_burst, got.moderation_per_second) == (40, 5, 0.5)

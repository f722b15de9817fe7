"""Tables of the variants (pata de gallo, destantado, pica-pica) played to the end over the
protocol, with bots in the other seats and a spectator watching; no hidden card reaches anyone.

The discarded card of pata de gallo's pie is the new secret: it must never reach another seat or
a spectator (docs/protocol.md, "Variants").
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import Connection, Player, create, settle
from server.test_leaks import Judge, Watch, cards_in
from truco import notation
from truco.cards import parse_cards
from truco.engine import CHANCE, legal_actions, to_act
from truco.server.settings import Settings, sqlite_url
from truco.server.store.database import Store
from truco.server.tables.conn import Conn
from truco.server.tables.hub import Hub
from truco.server.tables.table import Table

VARIANTS: dict[str, dict[str, Any]] = {
    "pata_de_gallo": {"variant": "pata_de_gallo", "target": 15},
    "destantado": {"variant": "destantado", "porotos": 5},
    "pica_pica": {"variant": "pica_pica", "target": 15, "pica_from": 1},
}
SEATS = {"pata_de_gallo": 3, "destantado": 3, "pica_pica": 6}


def play_alone(
    client: TestClient, options: dict[str, Any], rng: random.Random
) -> tuple[str, Player, Player]:
    """A person in seat 0 against random bots, and a spectator: played to the end."""
    players = options.get("players") or SEATS[options["variant"]]
    bots = {str(s): "random" for s in range(1, players)}
    t = create(client, options=options, bots=bots)
    ana = Player(client, t["table"], t["token"])
    watcher = Player(client, t["table"])
    for _ in range(3000):
        if settle([ana]) is None:
            break
        assert ana.view is not None
        ana.play(rng.choice(ana.view["legal"]))
    else:
        raise AssertionError("the match did not end")
    watcher.catch_up(ana.v)
    return t["table"], ana, watcher


def events(conn: Connection, kind: str) -> list[dict[str, Any]]:
    return [e for m in conn.seen if m["t"] == "ev" for e in m["d"]["events"] if e["type"] == kind]


def hand_messages(conn: Connection, hand: int) -> list[dict[str, Any]]:
    """The messages whose view is of hand ``hand`` (a deal's message is of the new hand)."""
    return [m for m in conn.seen if m["t"] in ("full", "ev") and m["d"]["view"]["hand"] == hand]


def match_hands(client: TestClient, table: str) -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = tomllib.loads(client.get(f"/api/tables/{table}/match.toml").text)[
        "hands"
    ]
    return hands


def test_the_variants_create_tables_of_their_own_seats(client: TestClient) -> None:
    for variant, seats in SEATS.items():
        t = create(client, options={"variant": variant})
        info = client.get(f"/api/tables/{t['table']}").json()
        assert len(info["seats"]) == seats
        assert info["options"]["variant"] == variant
        assert info["options"]["players"] == seats
    info = client.get(f"/api/tables/{create(client, options={'variant': 'destantado'})['table']}")
    assert info.json()["options"] | {} == {
        "players": 3,
        "target": 30,
        "flor": False,
        "variant": "destantado",
        "porotos": 10,
        "destantado_falta": 6,
    }
    for bad in (
        {"variant": "pata_de_gallo", "players": 4},
        {"variant": "pica_pica", "players": 2, "target": 7},
        {"variant": "destantado", "flor": True},
        {"variant": "truco_gallego"},
        {"variant": "destantado", "porotos": 0},
    ):
        r = client.post("/api/tables", json={"name": "Ana", "options": bad})
        assert r.status_code == 422 and r.json()["code"] == "bad_options", bad
    r = client.post(
        "/api/tables",
        json={"name": "Ana", "options": {"variant": "pata_de_gallo"}, "bots": {"3": "random"}},
    )
    assert r.status_code == 422 and r.json()["code"] == "bad_options"


def test_the_creator_fills_a_variant_table_with_bots(client: TestClient) -> None:
    for variant, seats in SEATS.items():
        t = create(client, options={"variant": variant})
        url = f"/api/tables/{t['table']}/bots"
        auth = {"Authorization": f"Bearer {t['token']}"}
        for seat in range(1, seats):
            assert client.get(f"/api/tables/{t['table']}").json()["status"] == "waiting"
            r = client.post(url, json={"seat": seat, "level": "random"}, headers=auth)
            assert r.status_code == 200, r.text
        info = client.get(f"/api/tables/{t['table']}").json()
        assert info["status"] == "playing"
        assert [s["kind"] for s in info["seats"]] == ["human"] + ["bot"] * (seats - 1)
        r = client.post(url, json={"seat": seats, "level": "random"}, headers=auth)
        assert r.status_code == 409
        ana = Player(client, t["table"], t["token"])
        ana.until("full")
        assert ana.view is not None and len(ana.view["score"]) == (2 if seats == 6 else 3)
        ana.close()


def test_pata_de_gallo_to_the_end_and_the_pie_discards_unseen(client: TestClient) -> None:
    table, ana, watcher = play_alone(client, VARIANTS["pata_de_gallo"], random.Random(3))
    assert ana.view is not None and watcher.view is not None
    assert ana.view["phase"] == "over"
    score = ana.view["score"]
    assert len(score) == 3 and watcher.view["score"] == score
    # The winner is a player, the first to the target.
    ended = events(ana, "MatchEnded")
    assert len(ended) == 1 and ended[0]["score"] == score
    assert ana.view["winner"] == ended[0]["winner"] and score[ended[0]["winner"]] >= 15
    # Every scored point went to one player, and they add up to the score.
    scored = events(ana, "Scored")
    assert {e["team"] for e in scored} <= {0, 1, 2}
    assert [sum(e["points"] for e in scored if e["team"] == s) for s in range(3)] == score

    hands = match_hands(client, table)
    assert len(hands) == ana.view["hand"] >= 1
    discards = 0
    for n, hand in enumerate(hands, 1):
        pie = (hand["mano"] - 1) % 3
        assert len(parse_cards(hand["hands"][pie])) == 4
        first = hand["actions"][0].split()
        assert first[:2] == [str(pie), "discard"]  # the pie's first action, always
        discarded = parse_cards(first[2])[0]
        discards += 1
        seen = hand_messages(watcher, n) + (hand_messages(ana, n) if pie != 0 else [])
        assert seen
        for msg in seen:
            assert discarded not in cards_in(msg), (n, str(discarded), msg)
        for msg in hand_messages(ana, n):
            view = msg["d"]["view"]
            assert view["pie"] == pie and view["teams"] == [int(s == pie) for s in range(3)]
            if view["to_act"] == pie and view["discard"] == pie:
                assert view["envido_call"] is None  # the pending discard is not an envido
                if pie == 0:
                    assert len(view["cards"]) == 4
                    assert view["legal"] == [f"discard {c}" for c in view["cards"]]
        # Each hand downloads as a history that replays.
        replay = notation.replay_text(client.get(f"/api/tables/{table}/hands/{n}.toml").text)
        assert replay.finished
        if n == len(hands):
            assert list(replay.score) == score and replay.winner == ana.view["winner"]
    assert discards == len(hands)
    # The others hear that the pie discarded, never what (the watcher may have come in after
    # the first discard: the match starts as soon as the table is created, bots being quick).
    assert len(hands) - 1 <= len(events(watcher, "Discarded")) <= len(hands)
    assert all(set(e) == {"type", "seat"} for e in events(watcher, "Discarded"))
    assert any(
        h[1] == "discard ??"
        for m in watcher.seen
        if m["t"] == "ev"
        for h in m["d"]["view"]["history"]
    )


def test_destantado_to_the_end_passing_porotos(client: TestClient) -> None:
    table, ana, watcher = play_alone(client, VARIANTS["destantado"], random.Random(4))
    assert ana.view is not None
    view = ana.view
    assert view["phase"] == "over" and view["teams"] == [0, 1, 2]
    assert view["options"]["porotos"] == 5
    # The winner is the first player to pass all his porotos.
    assert len(view["score"]) == 3 and view["score"][view["winner"]] == 0
    passed = events(ana, "PorotosPassed")
    assert passed and not events(ana, "Scored")
    piles = [5, 5, 5]
    for e in passed:
        assert e["seat"] != e["to"] and e["points"] > 0
        paid = min(e["points"], piles[e["seat"]])
        piles[e["seat"]] -= paid
        if e["to"] >= 0:
            piles[e["to"]] += e["points"]
    assert piles == view["score"]
    # Stakes: what each player is in for, in every view of the match; 0 once out of the truco.
    stakes = [m["d"]["view"]["stakes"] for m in ana.seen if m["t"] in ("full", "ev")]
    assert all(len(s) == 3 and all(0 <= x <= 4 for x in s) for s in stakes)
    assert {"flor"} & {
        a for m in ana.seen if m["t"] == "ev" for a in m["d"]["view"]["legal"]
    } == set()
    hands = match_hands(client, table)
    assert len(hands) == view["hand"]
    assert all(h["variant"] == "destantado" and h["porotos"] == 5 for h in hands)
    assert watcher.view is not None and watcher.view["score"] == view["score"]


def test_pica_pica_to_the_end_with_rounds_of_one_against_one(client: TestClient) -> None:
    table, ana, watcher = play_alone(client, VARIANTS["pica_pica"], random.Random(5))
    assert ana.view is not None and watcher.view is not None
    assert ana.view["phase"] == "over" and max(ana.view["score"]) >= 15
    assert len(ana.view["score"]) == 2 and ana.view["winner"] in (0, 1)
    views = [m["d"]["view"] for m in watcher.seen if m["t"] in ("full", "ev")]
    picas = {v["pica"] for v in views}
    assert picas >= {-1, 0}, picas
    for v in views:
        if v["phase"] != "play" or v["to_act"] == -1:
            continue
        assert v["teams"] == [0, 1, 0, 1, 0, 1]
        if v["pica"] >= 0:
            # Two face each other (seat s and s + 3); the other four sit the hand out.
            playing = [s for s in range(6) if s not in v["retired"]]
            assert len(playing) <= 2
            out = set(range(6)) - set(playing)
            assert all(v["hand_sizes"][s] == 0 for s in out)
        if v["pica"] == -1 and v["trick"] == 0 and not v["plays"] and not v["history"]:
            assert v["hand_sizes"] == [3] * 6
    hands = match_hands(client, table)
    assert len(hands) == ana.view["hand"]
    pica_hands = [h for h in hands if "pica" in h]
    assert pica_hands, "no 1v1 hand was played"
    for h in pica_hands:
        dealt = [parse_cards(x) for x in h["hands"]]
        assert sorted(len(x) for x in dealt) == [0, 0, 0, 0, 3, 3]
    assert {e["team"] for e in events(ana, "Scored")} <= {0, 1}


# --- the table owner, message by message -----------------------------------------------------


async def leak_checked(
    options: dict[str, Any], seed: int, rng: random.Random, judge: Judge | None = None
) -> tuple[int, Table]:
    """Play a variant's table to its end through the owner (people in every seat playing at
    random), judging every message each seat and a spectator receive (``test_leaks.Watch``,
    with ``judge`` if given); returns the number of messages checked, and the table rebuilt
    from its log."""
    with tempfile.TemporaryDirectory() as tmp:
        url = sqlite_url(str(Path(tmp) / "variants.db"))
        settings = Settings(database_url=url, bot_delay=0, deal_delay=0, seed=seed)
        hub = Hub(Store(url), settings)
        await hub.start()
        try:
            players = options.get("players") or SEATS[options["variant"]]
            created = await hub.create("P0", options, {}, None)
            table = hub.tables[created.table]
            watch = Watch(table, judge)
            tokens = [created.token]
            for s in range(1, players):
                tokens.append((await table.join(f"P{s}", s))[1])
            conns = [Conn(limit=10**6) for _ in tokens]
            for conn, token in zip(conns, tokens, strict=True):
                await table.connect(conn, token, 0)
            spectator = Conn(limit=10**6)
            await table.connect(spectator, None, 0)
            for _ in range(3000):
                for _ in range(20):
                    if to_act(table.state) != CHANCE:
                        break
                    await asyncio.sleep(0)
                watch.note()
                for conn in [*conns, spectator]:
                    watch.drain(conn)
                actor = to_act(table.state)
                if actor is None:
                    break
                if actor == CHANCE:
                    await asyncio.sleep(0.001)
                    continue
                action = rng.choice(legal_actions(table.state))
                frame = {"t": "act", "d": {"a": table.v, "v": table.v, "action": str(action)}}
                await table.receive(conns[actor], json.dumps(frame))
            watch.note()
            for conn in [*conns, spectator]:
                watch.drain(conn)
            assert to_act(table.state) is None  # the match was played to its end
            row = await hub.store.load(table.id)
            assert row is not None
            rebuilt = Table.from_row(row, hub.store, settings)
            assert rebuilt.state == table.state
            assert len(rebuilt.hands) == len(table.hands)
            return watch.checked, rebuilt
        finally:
            await hub.stop()


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("seed", [1, 2])
def test_no_message_of_a_variant_shows_a_hidden_card(variant: str, seed: int) -> None:
    checked, table = asyncio.run(leak_checked(VARIANTS[variant], seed, random.Random(seed)))
    assert checked > 0
    assert table.state.rules.variant == variant

"""The replay (docs/protocol.md, "Replay"): a whole match against a bot through the real server
(real SQLite), each finished hand replayed during the match as its player saw it and, once the
match is over, every hand with every card face up, its frames ending where the stored hand ends.
"""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from server.helpers import Player, app_state, create, join, step
from server.test_leaks import allowed, cards_in
from truco import notation
from truco.cards import Card
from truco.notation import HandHistory
from truco.server.tables.replay import MAX_FRAMES, FrameCache
from truco.server.tables.table import Table


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def stored(client: TestClient, table: str) -> list[HandHistory]:
    """The table's finished hands as the server keeps them (whole, every card)."""
    owner: Table = app_state(client).hub.tables[table]
    return list(owner.hands)


def dealt(history: HandHistory) -> set[Card]:
    return {c for hand in history.hands for c in hand if c is not None}


def check_as_seen(answer: dict[str, Any], history: HandHistory, seat: int) -> None:
    """Every frame shows ``seat`` only what it could see at that step."""
    assert answer["seat"] == seat and answer["reveal"] is False
    steps = [state for state, _ in notation.states(history)]
    assert len(answer["frames"]) == len(steps)
    for frame, state in zip(answer["frames"], steps, strict=True):
        assert frame["view"]["open_hands"] == []
        seen = cards_in(frame)
        assert seen <= allowed(state, seat), (frame["step"], seen - allowed(state, seat))
        assert frame["view"]["cards"] == [str(c) for c in state.hands[seat]]


def test_a_match_against_a_bot_replays_hidden_during_it_and_open_after(
    client: TestClient,
) -> None:
    t = create(client, options={"target": 15, "tapada": "always"}, bots={"1": "random"})
    table, token = t["table"], t["token"]
    ana = Player(client, table, token)
    rng = random.Random(11)
    mid: list[tuple[int, dict[str, Any]]] = []
    checked_hands = 0
    while step([ana], rng.choice):
        hands = stored(client, table)
        if len(hands) > checked_hands and ana.view is not None and ana.view["phase"] == "play":
            # A hand just ended, the match goes on: only its players replay it, as they saw it.
            n = len(hands)
            strangers = [
                client.get(f"/api/tables/{table}/replay{path}", headers=headers)
                for headers in ({}, bearer("not-a-seat-token"))
                for path in (f"/{n}", "")
            ]
            # Ana's view may be older than the bot's last move: the match is known to have been
            # going on at those requests only if it still is after them.
            if client.get(f"/api/tables/{table}").json()["status"] == "over":
                continue
            for r in strangers:
                assert r.status_code == 401 and r.json()["code"] == "bad_token", r.text
            r = client.get(f"/api/tables/{table}/replay/{n}", headers=bearer(token))
            assert r.status_code == 200, r.text
            check_as_seen(r.json(), hands[n - 1], 0)
            mid.append((n, r.json()))
            listing = client.get(f"/api/tables/{table}/replay", headers=bearer(token)).json()
            assert listing["seat"] == 0 and not listing["reveal"]
            # The bot plays on meanwhile: later hands may have ended too.
            assert [h["hand"] for h in listing["hands"]][:n] == list(range(1, n + 1))
            r = client.get(f"/api/tables/{table}/replay/99", headers=bearer(token))
            assert r.status_code == 404 and r.json()["code"] == "table_not_found"
            checked_hands = n
    assert client.get(f"/api/tables/{table}").json()["status"] == "over"
    assert mid, "no hand was replayed during the match"

    # Over: every hand, to anyone, every card face up, ending where the stored hand ends.
    hands = stored(client, table)
    public = notation.loads_match(client.get(f"/api/tables/{table}/match.toml").text)
    assert list(public) == hands
    results = notation.replay_match(public)
    listing = client.get(f"/api/tables/{table}/replay").json()
    assert listing["reveal"] is True and listing["seat"] is None
    assert listing["status"] == "over" and listing["options"]["target"] == 15
    assert [s["kind"] for s in listing["seats"]] == ["human", "bot"]
    assert len(listing["hands"]) == len(hands)
    tapadas = 0
    for n, (history, result, line) in enumerate(
        zip(hands, results, listing["hands"], strict=True), 1
    ):
        assert line["hand"] == n and line["steps"] == len(history.actions)
        assert line["score_before"] == list(history.score)
        assert line["score_after"] == list(result.score)
        assert line["points"] == list(result.points)
        answer = client.get(f"/api/tables/{table}/replay/{n}").json()
        assert answer["reveal"] is True and answer["seat"] is None
        frames = answer["frames"]
        assert len(frames) == len(history.actions) + 1
        assert frames[0]["action"] is None and frames[0]["seat"] is None
        assert [(f["seat"], f["action"]) for f in frames[1:]] == [
            (who, str(a)) for who, a in history.actions
        ]
        for frame in frames:
            # Every card of the deal is in sight at every step: held, played, face down or not.
            assert cards_in(frame["view"]) == dealt(history), frame["step"]
            tapadas += sum(1 for _, card, down in frame["view"]["plays"] if down and card)
        assert {f["view"]["hand"] for f in frames} == {n}
        assert frames[0]["events"][0] == {"type": "HandStarted", "hand": n, "mano": history.mano}
        last = frames[-1]["view"]
        assert last["score"] == list(result.score)
        assert last["hand_points"] == list(result.points)
        assert last["history"] == [[who, str(a)] for who, a in history.actions]
    assert tapadas > 0, "no tapada was played: the face-down cards went untested"
    assert results[-1].winner is not None

    # What a player replayed mid-match is the same hand, as he saw it.
    for n, answer in mid:
        assert answer["frames"][-1]["view"]["score"] == list(results[n - 1].score)
    first_frames = [client.get(f"/api/tables/{table}/replay/{n}").json() for n in (1, len(hands))]

    # A rematch: the table's replay is the new match (its players' only), and the finished one
    # stays public as match 1, rebuilt from the stored log.
    ana.send("rematch")
    while stored(client, table):
        ana.recv()
    assert client.get(f"/api/tables/{table}/replay").status_code == 401
    now = client.get(f"/api/tables/{table}/replay", headers=bearer(token)).json()
    assert now["match"] == now["matches"] == 2 and now["status"] == "playing"
    before = client.get(f"/api/tables/{table}/replay?match=1").json()
    assert before["match"] == 1 and before["matches"] == 2
    assert before["status"] == "over" and before["reveal"] is True
    assert before["hands"] == listing["hands"]
    for answer in first_frames:
        n = answer["hand"]
        again = client.get(f"/api/tables/{table}/replay/{n}?match=1").json()
        assert again["match"] == 1 and again["frames"] == answer["frames"]
    for bad in (0, 3):
        r = client.get(f"/api/tables/{table}/replay/1?match={bad}")
        assert r.status_code in (404, 422), r.text
    r = client.get(f"/api/tables/{table}/replay?match=3")
    assert r.status_code == 404 and r.json()["code"] == "table_not_found"


def test_two_players_each_see_their_own_cards_only(client: TestClient) -> None:
    t = create(client, options={"target": 15, "tapada": "always"})
    table = t["table"]
    beto_token = join(client, table)
    ana, beto = Player(client, table, t["token"]), Player(client, table, beto_token)
    rng = random.Random(4)
    while not stored(client, table) or not stored(client, table)[0].actions:
        assert step([ana, beto], rng.choice)
    assert step([ana, beto], rng.choice)
    history = stored(client, table)[0]
    for seat, token in ((0, t["token"]), (1, beto_token)):
        r = client.get(f"/api/tables/{table}/replay/1", headers=bearer(token))
        assert r.status_code == 200, r.text
        check_as_seen(r.json(), history, seat)
        other = {str(c) for c in history.hands[1 - seat]}
        first = r.json()["frames"][0]["view"]
        assert not other & set(first["cards"]), "the deal shows the other seat's cards"


def test_unknown_tables_and_hands(client: TestClient) -> None:
    r = client.get("/api/tables/nope/replay")
    assert r.status_code == 404 and r.json()["code"] == "table_not_found"
    r = client.get("/api/tables/nope/replay/1")
    assert r.status_code == 404 and r.json()["code"] == "table_not_found"
    t = create(client, bots={"1": "random"})
    r = client.get(f"/api/tables/{t['table']}/replay/1", headers=bearer(t["token"]))
    assert r.status_code == 404 and r.json()["code"] == "table_not_found"
    r = client.get(f"/api/tables/{t['table']}/replay/x", headers=bearer(t["token"]))
    assert r.status_code == 422 and r.json()["code"] == "bad_message"


def test_the_cache_keeps_the_newest_hands() -> None:
    cache = FrameCache(2)
    built: list[int] = []

    def build(n: int) -> list[dict[str, Any]]:
        built.append(n)
        return [{"n": n}]

    assert cache.get(("t", 1, 1, -1), lambda: build(1)) == [{"n": 1}]
    assert cache.get(("t", 1, 1, -1), lambda: build(1)) == [{"n": 1}]
    cache.get(("t", 1, 2, -1), lambda: build(2))
    cache.get(("t", 1, 1, -1), lambda: build(1))  # hand 1 is the newest again
    cache.get(("t", 1, 3, -1), lambda: build(3))  # hand 2 goes
    cache.get(("t", 1, 1, -1), lambda: build(1))
    cache.get(("t", 1, 2, -1), lambda: build(2))
    assert built == [1, 2, 3, 2] and len(cache) == 2
    assert MAX_FRAMES > 100

"""Truco Paulista as a table option: created through the variants' registry, named in the lobby
and the table's info, played to the end against bots over the protocol (a real SQLite file), its
hands downloaded and replayed, rebuilt from its log, and no message ever holding a card its
receiver may not see: the vira and the manilhas are public, a partner's cards reach only the
side deciding its mão de onze."""

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
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from server.helpers import create
from server.test_leaks import allowed
from server.test_variants import leak_checked, play_alone
from truco import notation
from truco.cards import DECK, Card
from truco.engine import CHANCE, legal_actions, to_act
from truco.manilhas import manilhas_of
from truco.paulista import onze_team, partners_of
from truco.server.settings import Settings, sqlite_url
from truco.server.store.database import Store
from truco.server.tables.conn import Conn
from truco.server.tables.hub import Hub
from truco.state import PLAY, State


def paulista_allowed(state: State, seat: int | None) -> set[Card]:
    """What a message of this state may name: what the Argentine game allows, the vira and the
    manilhas (public), and, to a seat of a side deciding or playing its mão de onze, its
    partners' cards."""
    out = allowed(state, seat)
    if state.vira >= 0:
        out |= {DECK[state.vira], *manilhas_of(DECK[state.vira])}
    elif state.rules.manilhas == "velha":
        out.update(manilhas_of(None))
    onze = onze_team(state.rules.target, state.score)
    if seat is not None and state.hand_no and state.phase == PLAY and state.teams[seat] == onze:
        for partner in partners_of(state.teams, seat):
            out.update(state.hands[partner])
    return out


def test_paulista_is_a_table_option_named_in_the_lobby_and_the_info(client: TestClient) -> None:
    for options in ({"game": "paulista"}, {"variant": "paulista", "players": 4}):
        t = create(client, options=options)
        info = client.get(f"/api/tables/{t['table']}").json()
        assert info["options"]["game"] == "paulista" and info["options"]["variant"] == "paulista"
        assert info["options"]["target"] == 12
        assert len(info["seats"]) == options.get("players", 2)
    velha = create(client, options={"game": "paulista", "manilhas": "velha"}, bots={"1": "random"})
    lobby = client.get("/api/tables").json()
    listed = {e["table"]: e for e in (lobby["tables"] if isinstance(lobby, dict) else lobby)}
    mine = [e for e in listed.values() if e["options"].get("game") == "paulista"]
    assert mine, lobby
    info = client.get(f"/api/tables/{velha['table']}").json()
    assert info["options"]["manilhas"] == "velha" and info["status"] == "playing"
    for bad in (
        {"game": "paulista", "target": 15},
        {"game": "paulista", "flor": True},
        {"game": "paulista", "manilhas": "nova"},
        {"game": "paulista", "variant": "pica_pica"},
        {"game": "paulista", "players": 3},
        {"game": "truco_gaucho"},
    ):
        r = client.post("/api/tables", json={"name": "Ana", "options": bad})
        assert r.status_code == 422 and r.json()["code"] == "bad_options", bad


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"game": "paulista", "players": 2}, 3),
        ({"game": "paulista", "players": 4, "manilhas": "velha"}, 4),
    ],
)
def test_a_paulista_match_to_the_end_against_bots(
    client: TestClient, options: dict[str, Any], seed: int
) -> None:
    table, ana, watcher = play_alone(client, options, random.Random(seed))
    assert ana.view is not None and watcher.view is not None
    view = ana.view
    assert view["phase"] == "over" and view["game"] == "paulista"
    assert max(view["score"]) >= 12 and watcher.view["score"] == view["score"]
    ended = [
        e for m in ana.seen if m["t"] == "ev" for e in m["d"]["events"] if e["type"] == "MatchEnded"
    ]
    assert len(ended) == 1 and ended[0]["winner"] == view["winner"]
    # Every hand is worth 1, 3, 6, 9 or 12 (a mão de onze run from gives 1).
    scored = [
        e for m in ana.seen if m["t"] == "ev" for e in m["d"]["events"] if e["type"] == "Scored"
    ]
    assert scored and {e["points"] for e in scored} <= {1, 3, 6, 9, 12}
    # The vira and the manilhas are public: the spectator sees them in every hand.
    views = [m["d"]["view"] for m in watcher.seen if m["t"] in ("full", "ev")]
    played = [v for v in views if v["hand"] > 0 and v["phase"] == "play" and v["to_act"] != -1]
    assert played and all(len(v["manilhas"]) == 4 for v in played)
    if options.get("manilhas") == "velha":
        assert all(v["vira"] is None and v["manilhas"] == ["4b", "7c", "1e", "7o"] for v in played)
    else:
        assert all(v["vira"] is not None for v in played)
    # Each hand downloads as a history of the Paulista game that replays to the match's score.
    hands = tomllib.loads(client.get(f"/api/tables/{table}/match.toml").text)["hands"]
    assert len(hands) == view["hand"]
    assert all(h["game"] == "paulista" for h in hands)
    assert all(("vira" in h) == (options.get("manilhas") != "velha") for h in hands)
    last = notation.replay_text(client.get(f"/api/tables/{table}/hands/{len(hands)}.toml").text)
    assert last.finished and list(last.score) == view["score"]


# --- the table owner, message by message -----------------------------------------------------


@hsettings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(
    players=st.sampled_from([2, 4]),
    manilhas=st.sampled_from(["vira", "velha"]),
    seed=st.integers(0, 2**32),
    rng=st.randoms(use_true_random=False),
)
def test_no_message_of_a_paulista_table_shows_a_hidden_card(
    players: int, manilhas: str, seed: int, rng: random.Random
) -> None:
    options = {"game": "paulista", "players": players, "manilhas": manilhas}
    checked, table = asyncio.run(leak_checked(options, seed, rng, paulista_allowed))
    assert checked > 0 and table.state.rules.game == "paulista"  # rebuilt from its log


def test_the_paulista_judge_is_not_vacuous() -> None:
    """Outside a mão de onze a partner's card is another seat's secret; at one, the side at 11
    sees its partners' hands, and the rivals still see none of them."""
    from truco.engine import deal
    from truco.rules import Rules
    from truco.state import new_match

    state, _ = deal(new_match(Rules(game="paulista", players=4)), random.Random(2))
    partner = state.hands[2][0]
    assert partner not in paulista_allowed(state, 0)
    assert DECK[state.vira] in paulista_allowed(state, None)
    at_onze, _ = deal(
        new_match(Rules(game="paulista", players=4))._replace(score=(11, 5)), random.Random(2)
    )
    assert set(at_onze.hands[2]) <= paulista_allowed(at_onze, 0)
    assert not set(at_onze.hands[2]) & paulista_allowed(at_onze, 1)


async def restarted_mid_hand(seed: int) -> tuple[State, State]:
    """A Paulista table of two people, two actions into its first hand, then the server stops
    and another starts on the same SQLite file: the table as it stood, and as restored."""
    with tempfile.TemporaryDirectory() as tmp:
        url = sqlite_url(str(Path(tmp) / "restart.db"))
        settings = Settings(database_url=url, bot_delay=0, deal_delay=0, seed=seed)
        hub = Hub(Store(url), settings)
        await hub.start()
        try:
            created = await hub.create("Ana", {"game": "paulista"}, {}, None)
            table = hub.tables[created.table]
            tokens = [created.token, (await table.join("Beto", 1))[1]]
            conns = [Conn(limit=10**6) for _ in tokens]
            for conn, token in zip(conns, tokens, strict=True):
                await table.connect(conn, token, 0)
            for _ in range(2):
                while to_act(table.state) == CHANCE:
                    await asyncio.sleep(0.001)
                actor = to_act(table.state)
                assert actor is not None
                action = str(legal_actions(table.state)[0])
                frame = {"t": "act", "d": {"a": table.v, "v": table.v, "action": action}}
                await table.receive(conns[actor], json.dumps(frame))
            before = table.state
        finally:
            await hub.stop()
        hub = Hub(Store(url), settings)
        await hub.start()
        try:
            await hub.restored.wait()
            restored = hub.tables[created.table]  # not set aside as a log that does not replay
            return before, restored.state
        finally:
            await hub.stop()


def test_a_paulista_table_is_restored_mid_hand_after_a_restart() -> None:
    before, after = asyncio.run(restarted_mid_hand(5))
    assert before.phase == PLAY and before.vira >= 0 and len(before.log) == 2
    assert after == before

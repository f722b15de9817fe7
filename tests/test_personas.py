"""Bots go by Spanish persona names with their level beside them, never by their program's name;
the ``random`` fuzzer is never offered to people."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from truco.bots import BOTS, LEVELS, make_bot
from truco.bots.personas import LABELS, PERSONAS, label, level_of, persona
from truco.rules import Rules
from truco.server import Settings, create_app, sqlite_url
from truco.server.schemas import BOT_NAMES, BotBody
from truco.tui.session import LocalGame

PROGRAMS = {name.lower() for name in (*BOTS, *LEVELS)} | {make_bot(n).name for n in BOTS}
"""Every name a bot program or level goes by inside the program."""
EVERY_NAME = sorted({*BOTS, *LEVELS})


def test_each_level_has_its_own_personas() -> None:
    assert set(PERSONAS) == set(LEVELS) == set(LABELS)
    names = [n for level in PERSONAS.values() for n in level]
    assert len(names) == len(set(names))  # disjoint lists, no name twice
    for level in PERSONAS.values():
        assert len(level) >= 6  # every seat of the largest table
    assert not {n.lower() for n in names} & PROGRAMS
    assert "Don Ramón" in names and "La Negra" in names


def test_the_labels_in_spanish_and_english() -> None:
    assert [label(level) for level in ("facil", "normal", "dificil", "experto")] == [
        "Fácil",
        "Normal",
        "Difícil",
        "Experto",
    ]
    assert label("experto", "en") == "Expert" and label("FACIL", "en") == "Easy"
    # A bot program is shown as the level it plays like.
    assert label("expert") == "Experto" and label("random") == "Fácil"
    assert level_of("expert-fast") == "dificil" and level_of("caretaker") == "normal"


@given(
    table=st.one_of(st.integers(), st.text(max_size=20)),
    levels=st.lists(st.sampled_from(EVERY_NAME), min_size=6, max_size=6),
)
def test_a_table_never_shows_two_bots_alike_nor_a_program_name(
    table: int | str, levels: list[str]
) -> None:
    names = [persona(level, seat, table) for seat, level in enumerate(levels)]
    assert len(set(names)) == len(names), names
    assert not {n.lower() for n in names} & PROGRAMS
    assert names == [persona(level, seat, table) for seat, level in enumerate(levels)]
    for name, level in zip(names, levels, strict=True):
        assert name in PERSONAS[level_of(level)]


def test_tables_differ_in_who_sits_where() -> None:
    line_ups = {tuple(persona("experto", s, table) for s in range(1, 4)) for table in range(40)}
    assert len(line_ups) >= 10


def test_random_is_never_offered_to_people() -> None:
    assert BOT_NAMES == ["facil", "normal", "dificil", "experto"]
    assert "random" not in LEVELS.values() and LEVELS["facil"] == "blueprint-facil"
    assert BotBody(seat=1).level == "normal"
    schema = create_app(Settings(database_url="sqlite+aiosqlite://")).openapi()
    bodies = schema["components"]["schemas"]
    assert bodies["BotBody"]["properties"]["level"]["enum"] == BOT_NAMES
    assert "random" not in str(bodies["CreateBody"]["properties"]["bots"])


def test_the_server_seats_bots_by_persona(tmp_path: Path) -> None:
    settings = Settings(database_url=sqlite_url(str(tmp_path / "truco.db")), bot_delay=0.0)
    with TestClient(create_app(settings)) as client:
        bots = {"1": "experto", "2": "facil", "3": "experto", "4": "random"}
        r = client.post(
            "/api/tables", json={"name": "Ana", "options": {"players": 6}, "bots": bots}
        )
        assert r.status_code == 201, r.text
        table = r.json()["table"]
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        # The lobby shows the table waiting for its last player, with its bots' personas.
        lobby = {t["table"]: t for t in client.get("/api/tables").json()}
        listed = [s["name"] for s in lobby[table]["seats"][1:5]]
        assert listed == [persona(bots[str(s)], s, table) for s in range(1, 5)]
        r = client.post(f"/api/tables/{table}/bots", json={"seat": 5}, headers=auth)
        assert r.status_code == 200, r.text
        seats = client.get(f"/api/tables/{table}").json()["seats"]
        names = [s["name"] for s in seats[1:]]
        assert len(set(names)) == 5 and not {n.lower() for n in names} & PROGRAMS, names
        levels = [s["level"] for s in seats[1:]]
        assert levels == ["experto", "facil", "experto", "random", "normal"]
        for s in seats[1:]:
            assert s["name"] == persona(s["level"], s["seat"], table)


def test_the_terminal_game_names_its_bots() -> None:
    game = LocalGame(rules=Rules(players=6), seed=3, bot="experto", seat=2)
    assert game.names[2] == ""  # the player's own seat reads "Vos"
    bots = [n for s, n in enumerate(game.names) if s != 2]
    assert len(set(bots)) == 5 and set(bots) <= set(PERSONAS["experto"])
    assert LocalGame(seed=3, bot="experto").names == LocalGame(seed=3, bot="experto").names

"""A player who does not come back within the grace period is replaced by a bot, and can take
the seat back."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.helpers import WAIT, Player, create, join, serving, settle, step
from truco.server import Settings


@pytest.fixture
def quick(settings: Settings) -> Iterator[TestClient]:
    with serving(settings.but(grace_seconds=0.3)) as c:
        yield c


def wait_for(client: TestClient, table: str, check: Any, timeout: float = WAIT) -> dict[str, Any]:
    """Poll the table until ``check`` holds (``timeout`` is only a hang guard)."""
    end = time.monotonic() + timeout
    while True:
        info: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if check(info):
            return info
        assert time.monotonic() < end, info
        time.sleep(0.02)


def test_a_bot_takes_the_seat_and_hands_it_back(quick: TestClient) -> None:
    t = create(quick)
    token = join(quick, t["table"])
    ana = Player(quick, t["table"], t["token"])
    beto = Player(quick, t["table"], token)
    settle([ana, beto])
    beto.close()
    info = wait_for(quick, t["table"], lambda i: not i["seats"][1]["connected"])
    assert info["seats"][1]["replaced"] is False  # within the grace period
    wait_for(quick, t["table"], lambda i: i["seats"][1]["replaced"])

    # Ana plays on; the bot answers for Beto.
    start = ana.v
    for _ in range(6):
        if not step([ana], lambda legal: legal[0]):
            break
    assert ana.view is not None
    acted = {who for who, _ in ana.view["history"]}
    assert ana.v > start and (1 in acted or ana.view["hand"] > 1)

    # Beto comes back with his token: the seat is his again, and nobody plays for him.
    back = Player(quick, t["table"], token, v=beto.v)
    info = wait_for(quick, t["table"], lambda i: i["seats"][1]["connected"])
    assert info["seats"][1]["replaced"] is False
    # The bot may have moved for him just before he came back: both see that move first.
    for player in (ana, back):
        player.catch_up(info["v"])
    for _ in range(40):
        actor = settle([ana, back])
        assert actor is not None
        if actor is back:
            break
        actor.play(actor.view["legal"][0])  # type: ignore[index]
    else:
        raise AssertionError("beto never got the turn")
    v = back.v
    time.sleep(0.5)
    assert quick.get(f"/api/tables/{t['table']}").json()["v"] == v
    assert back.view is not None
    assert back.play(back.view["legal"][0])["d"]["v"] == v + 1


def test_a_table_whose_people_never_came_is_not_played(quick: TestClient) -> None:
    t = create(quick)
    join(quick, t["table"])
    time.sleep(0.6)  # twice the grace period: nobody plays for people who never came
    info = quick.get(f"/api/tables/{t['table']}").json()
    assert info["v"] == 0 and info["arriving"]
    assert not info["seats"][0]["replaced"] and not info["seats"][1]["replaced"]
    # It expires instead (``arrival_seconds`` after its seats were taken: test_away.py).

"""``truco play --connect`` against the real server (uvicorn on a free local port)."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

uvicorn = pytest.importorskip("uvicorn")
server_mod = pytest.importorskip("truco.server")

from truco import notation  # noqa: E402
from truco.tui.app import TrucoApp  # noqa: E402
from truco.tui.net import join_table  # noqa: E402
from truco.tui.session import RemoteGame  # noqa: E402
from truco.tui.text import action_keys  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    settings = server_mod.Settings(
        database_url=server_mod.sqlite_url(str(tmp_path / "t.db")),
        bot_delay=0.0,
        deal_delay=0.0,
        seed=1,
    )
    port = _free_port()
    config = uvicorn.Config(
        server_mod.create_app(settings), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.skip("the server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(5)


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.loads(answer.read())


def test_join_by_invite(base_url: str) -> None:
    created = _post(f"{base_url}/api/tables", {"name": "Ana", "options": {"players": 2}})
    seat, token = join_table(base_url + created["invite"], "Beto")
    assert seat == 1 and token


def test_play_at_a_server_table(base_url: str, tmp_path: Path) -> None:
    created = _post(
        f"{base_url}/api/tables",
        {"name": "Ana", "options": {"target": 15}, "bots": {"1": "random"}},
    )
    game = RemoteGame()
    invite = base_url + created["invite"]
    app = TrucoApp(game, invite=invite, token=created["token"], delay=0, save_dir=tmp_path)
    rng = random.Random(1)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            deadline = time.monotonic() + 20
            acted = 0
            while time.monotonic() < deadline:
                await pilot.pause(0.02)
                view = game.view
                if view is None or game.pending:
                    continue
                if game.over or view.hand_no >= 3:
                    break
                if game.human_to_act:
                    keys = action_keys(view)
                    await pilot.press(rng.choice(sorted(keys)))
                    acted += 1
            assert game.view is not None and (game.view.hand_no >= 3 or game.over)
            assert acted > 0
            assert game.seat == 0 and game.names[1] == "random"
            assert sum(game.view.score) > 0
            await pilot.press("s")  # the finished hands, fetched from the server
            for _ in range(100):
                await pilot.pause(0.02)
                if app.saved:
                    break
            assert len(app.saved) >= 2
            first = notation.replay_text(app.saved[0].read_text(encoding="utf-8"))
            assert first.finished

    asyncio.run(asyncio.wait_for(run(), 60))

"""``truco play --connect`` against the real server (uvicorn on a free local port)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import RichLog, Static

uvicorn = pytest.importorskip("uvicorn")
server_mod = pytest.importorskip("truco.server")

from truco import notation  # noqa: E402
from truco.bots.personas import persona  # noqa: E402
from truco.tui.app import TrucoApp  # noqa: E402
from truco.tui.net import join_table  # noqa: E402
from truco.tui.session import RemoteGame  # noqa: E402
from truco.tui.text import action_keys  # noqa: E402


def _shown(app: TrucoApp, widget: str) -> str:
    content = app.query_one(widget, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


HANG_GUARD = 120.0
"""Seconds a wait gives up after (the server's start, a page, a match's hands, the saved files).
Each returns as soon as what it waits for is there: the guard only stops a hung test, as a
loaded machine may take many times as long as a quiet one; the whole run stays under twice it."""


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path)


@pytest.fixture
def quick_url(tmp_path: Path) -> Iterator[str]:
    """A server whose grace period is short, with its bots on the loop (no worker processes)."""
    yield from _serve(tmp_path, grace_seconds=0.1, bot_processes=0)


def _serve(tmp_path: Path, **more: Any) -> Iterator[str]:
    settings = server_mod.Settings(
        database_url=server_mod.sqlite_url(str(tmp_path / "t.db")),
        bot_delay=0.0,
        deal_delay=0.0,
        seed=1,
        **more,
    )
    port = _free_port()
    config = uvicorn.Config(
        server_mod.create_app(settings), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    # The server's bot workers are spawned on first use, while the terminal app runs in this
    # same process; multiprocessing's resource tracker, launched with the first of them, passes
    # sys.stderr's descriptor to its child, and Textual's stand-in for sys.stderr answers -1:
    # "bad value(s) in fds_to_keep", and the table set aside. Launched now, before any app runs,
    # the tracker has the real descriptor (a `truco serve` has no Textual app at all).
    resource_tracker.ensure_running()
    thread.start()
    deadline = time.monotonic() + HANG_GUARD
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
    with urllib.request.urlopen(request, timeout=HANG_GUARD) as answer:
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
            deadline = time.monotonic() + HANG_GUARD
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
            # A bot goes by its level's persona (bots/personas.py), never by its program's name.
            assert game.seat == 0 and game.names[1] == persona("random", 1, created["table"])
            assert sum(game.view.score) > 0
            await pilot.press("s")  # the finished hands, fetched from the server
            deadline = time.monotonic() + HANG_GUARD
            while not app.saved and time.monotonic() < deadline:
                await pilot.pause(0.02)
            assert len(app.saved) >= 2
            # Mid-match a player gets the hands as he saw them (the server's rule since issue
            # 16): his own cards whole, the bot's unplayed ones as ??.
            first = notation.loads(app.saved[0].read_text(encoding="utf-8"))
            assert first.actions and all(c is not None for c in first.hands[0])
            if game.over or all(c is not None for c in first.hands[1]):
                assert notation.replay(first).finished

    asyncio.run(asyncio.wait_for(run(), 2 * HANG_GUARD))


@pytest.mark.parametrize(
    ("options", "seats"),
    [
        ({"variant": "pata_de_gallo", "target": 15}, 3),
        ({"variant": "destantado"}, 3),
        ({"variant": "pica_pica", "target": 15, "pica_from": 1}, 6),
        ({"variant": "paulista", "players": 4}, 4),
    ],
    ids=["pata_de_gallo", "destantado", "pica_pica", "paulista"],
)
def test_a_variant_at_a_server_table(
    base_url: str, tmp_path: Path, options: dict[str, Any], seats: int
) -> None:
    """The variants over the wire: the server's view (per-hand teams, pica, stakes, the pie's
    discard) and its new events drawn as in a local game; keys act for our seat."""
    bots = {str(s): "random" for s in range(1, seats)}
    created = _post(f"{base_url}/api/tables", {"name": "Ana", "options": options, "bots": bots})
    game = RemoteGame()
    invite = base_url + created["invite"]
    app = TrucoApp(game, invite=invite, token=created["token"], delay=0, save_dir=tmp_path)
    rng = random.Random(2)
    verbs: list[str] = []

    async def run() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            deadline = time.monotonic() + HANG_GUARD
            while time.monotonic() < deadline:
                await pilot.pause(0.02)
                view = game.view
                if view is None or game.pending:
                    continue
                if game.over or view.hand_no >= 3:
                    break
                if game.human_to_act:
                    keys = action_keys(view)
                    if any(a.verb.value == "discard" for a in keys.values()):
                        assert "Sos el pie: elegí la carta" in _shown(app, "#hand")
                    key = rng.choice(sorted(keys))
                    verbs.append(keys[key].verb.value)
                    await pilot.press(key)
            view = game.view
            assert view is not None and (view.hand_no >= 3 or game.over)
            assert view.rules.variant == options["variant"] and len(view.teams) == seats
            score = _shown(app, "#score")
            if options["variant"] == "destantado":
                assert "Porotos" in score and "Pozo" in score
            elif options["variant"] == "paulista":  # the tentos, the vira, French cards
                assert "de 12 tentos" in score
                assert "Vira: " in _shown(app, "#table") and view.vira is not None
                assert any(s in _shown(app, "#table") for s in "♣♥♠♦")
            elif options["variant"] == "pata_de_gallo":
                bot = persona("random", 1, created["table"])
                assert all(f"{n} " in score for n in ("Vos", bot))
            else:
                assert "Nosotros" in score and "Ellos" in score
            # long lines wrap: compare the words
            return " ".join(" ".join(s.text for s in app.query_one("#log", RichLog).lines).split())

    log = asyncio.run(asyncio.wait_for(run(), 2 * HANG_GUARD))
    assert verbs, "we never acted"
    if options["variant"] == "pata_de_gallo":
        assert "discard" in verbs  # the second hand's pie: our seat
        assert "(pie): descarta una carta" in log
    if options["variant"] == "destantado":
        assert "pasa" in log and "poroto" in log
    if options["variant"] == "pica_pica":
        assert "mano de pica" in log


def _log_text(app: TrucoApp) -> str:
    """The "Jugadas" panel's text, without its spaces and line breaks (it wraps)."""
    lines = app.query_one("#log", RichLog).lines
    return re.sub(r"\s", "", "".join(line.text for line in lines))


def test_back_at_a_seat_the_caretaker_played(quick_url: str, tmp_path: Path) -> None:
    """Beto leaves, the caretaker plays two hands for him; back in the terminal, its log says
    once what it played and the score he came back to."""
    from server.helpers import settle, step
    from server.test_restart import Remote
    from truco.protocol.shapes import CaretakerJson
    from truco.protocol.told import caretaker_played

    created = _post(f"{quick_url}/api/tables", {"name": "Ana", "options": {"target": 30}})
    invite = quick_url + created["invite"]
    _, token = join_table(invite, "Beto")
    port = int(quick_url.rsplit(":", 1)[1])
    ana = Remote(port, created["table"], created["token"])
    beto = Remote(port, created["table"], token)
    settle([ana, beto])
    beto.close()
    while not ana.until("table")["d"]["seats"][1]["replaced"]:
        pass

    def ended() -> int:
        assert ana.view is not None
        return int(ana.view["hand"]) - (1 if ana.view["phase"] == "play" else 0)

    began = ended()
    while ended() < began + 2:
        assert step([ana], lambda legal: "mazo" if "mazo" in legal else legal[0])
    settle([ana])  # Ana's turn: the table waits for her while he comes back
    assert ana.view is not None
    hands = list(range(began + 1, ended() + 1))
    said = caretaker_played(CaretakerJson(hands=hands, score=list(ana.view["score"])))
    assert said is not None and said.startswith("Mientras no estabas, jugó por vos el asistente")
    game = RemoteGame()
    app = TrucoApp(game, invite=invite, token=token, delay=0, save_dir=tmp_path)

    async def run() -> None:
        async with app.run_test(size=(160, 40)) as pilot:
            deadline = time.monotonic() + HANG_GUARD

            async def until(check: Any) -> None:
                while not check():
                    assert time.monotonic() < deadline
                    await pilot.pause(0.02)

            def seats() -> list[dict[str, Any]]:
                found: list[dict[str, Any]] = game.table.get("seats") or [{}, {}]
                return found

            await until(lambda: game.view is not None and seats()[1].get("connected"))
            await until(lambda: re.sub(r"\s", "", said) in _log_text(app))
            ana.close()  # the table says so to him: nothing more of the caretaker's
            await until(lambda: not seats()[0].get("connected"))
            await pilot.pause(0.1)
            assert _log_text(app).count(re.sub(r"\s", "", said)) == 1

    asyncio.run(asyncio.wait_for(run(), 2 * HANG_GUARD))

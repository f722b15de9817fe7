"""``truco play --pistas``: 'p' shows the coach's pick for the current decision, only in a local
game against bots."""

from __future__ import annotations

import asyncio

import pytest
from rich.text import Text
from textual.widgets import Static

from truco.cli import main
from truco.coach import hint
from truco.rules import Rules
from truco.tui import text
from truco.tui.app import TrucoApp
from truco.tui.session import LocalGame, RemoteGame

SIZE = (80, 24)


def _hand(app: TrucoApp) -> str:
    content = app.query_one("#hand", Static).content
    return content.plain if isinstance(content, Text) else str(content)


async def _my_turn(app: TrucoApp, game: LocalGame, pilot: object) -> None:
    for _ in range(500):
        await pilot.pause()  # type: ignore[attr-defined]
        if not app.busy and game.human_to_act:
            return
    raise AssertionError("never my turn")


def test_p_shows_the_pista() -> None:
    async def run() -> None:
        game = LocalGame(rules=Rules(), seed=4, bot="random")
        app = TrucoApp(game, delay=0, pistas=True)
        async with app.run_test(size=SIZE) as pilot:
            await _my_turn(app, game, pilot)
            assert " p  pista" in _hand(app)
            view = game.view
            await pilot.press("p")
            for _ in range(400):
                await pilot.pause(0.05)
                if "Pista:" in _hand(app):
                    break
            expected = hint(view, seed=f"pista/{view.hand_no}/{len(view.history)}")
            assert expected is not None
            # A card's label carries its colours as markup; the screen shows the plain text.
            label = Text.from_markup(text.action_label(expected)).plain
            assert f"Pista: {label}" in _hand(app)
            assert game.view == view  # a pista plays nothing

    asyncio.run(run())


def test_without_pistas_p_does_nothing() -> None:
    async def run() -> None:
        game = LocalGame(rules=Rules(), seed=4, bot="random")
        app = TrucoApp(game, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await _my_turn(app, game, pilot)
            assert "pista" not in _hand(app)
            view = game.view
            await pilot.press("p")
            await pilot.pause(0.2)
            assert "Pista" not in _hand(app) and game.view == view

    asyncio.run(run())


def test_no_pistas_at_a_servers_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert not TrucoApp(RemoteGame(), invite="http://127.0.0.1:1/t/x", pistas=True).pistas
    assert main(["play", "--pistas", "--connect", "http://127.0.0.1:1/t/x"]) == 2
    assert "only for a local game" in capsys.readouterr().err

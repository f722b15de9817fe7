"""The Textual apps, driven by key presses with Textual's pilot (headless, 80x24)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Static

from truco import notation
from truco.actions import Verb
from truco.anotador import Anotador, load
from truco.rules import Rules
from truco.tui.anotar import AnotadorApp
from truco.tui.app import TrucoApp
from truco.tui.session import LocalGame, default_bot
from truco.tui.text import action_keys

SIZE = (80, 24)


def shown(app: TrucoApp | AnotadorApp, widget: str) -> str:
    content = app.query_one(widget, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def test_full_match_by_key_presses(tmp_path: Path) -> None:
    """A whole match against a bot: every action is a key shown on screen, hands end with a
    summary, the match with its result, and 's' saves every hand as a replayable history."""

    async def run() -> None:
        game = LocalGame(rules=Rules(target=15), seed=3, bot="random")
        app = TrucoApp(game, delay=0, save_dir=tmp_path)
        rng = random.Random(5)
        summaries = presses = 0
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(5000):
                await pilot.pause()
                if game.over:
                    break
                if app.paused:
                    assert "Fin de la mano" in shown(app, "#table")
                    assert "Enter" in shown(app, "#hand")
                    summaries += 1
                    await pilot.press("enter")
                elif not app.busy and game.human_to_act:
                    keys = action_keys(game.view)
                    hand = shown(app, "#hand")
                    for key in keys:
                        assert f" {key} " in hand, (key, hand)
                    # mostly cards, so that hands are played out, not only sung
                    cards = [k for k in keys if k.isdigit()]
                    key = rng.choice(cards if cards and rng.random() < 0.7 else sorted(keys))
                    await pilot.press(key)
                    presses += 1
            assert game.over, "the match did not end"
            await pilot.pause()
            table = shown(app, "#table")
            assert "Fin del partido" in table
            score = game.state.score
            assert f"{score[0]} a {score[1]}" in table
            await pilot.press("s")
            await pilot.pause()
            assert "Guardé" in shown(app, "#hand")
            await pilot.press("enter")
        assert app.return_value == 0
        assert presses > 10 and summaries >= 1
        files = sorted(tmp_path.glob("partida-*.toml"))
        assert len(files) == len(game.histories) == game.state.hand_no
        last = notation.replay_text(files[-1].read_text(encoding="utf-8"))
        assert last.state.score == game.state.score
        assert last.state.winner == game.state.winner

    asyncio.run(run())


def test_every_call_has_a_key() -> None:
    game = LocalGame(rules=Rules(flor=True), seed=1, bot="random")
    seen: set[Verb] = set()
    rng = random.Random(2)
    for _ in range(3000):
        if game.over:
            break
        if game.human_to_act:
            view = game.view
            keys = action_keys(view)
            assert set(keys.values()) == set(view.legal)
            seen.update(a.verb for a in view.legal)
            game.play(rng.choice(view.legal))
        else:
            game.step()
    assert {Verb.PLAY, Verb.TRUCO, Verb.ENVIDO, Verb.QUIERO} <= seen


def _script(seed: int) -> tuple[object, ...]:
    game = LocalGame(seed=seed, bot="random")
    rng = random.Random(0)
    while not game.over and game.state.hand_no < 4:
        if game.human_to_act:
            game.play(game.view.legal[rng.randrange(len(game.view.legal))])
        else:
            game.step()
    return game.state


def test_seed_makes_the_game_reproducible() -> None:
    assert _script(1) == _script(1)
    assert _script(1) != _script(2)


def test_default_bot_is_the_strongest_known() -> None:
    from truco.bots import make_bot

    assert LocalGame(seed=1).bot_name == default_bot()
    assert make_bot(default_bot()) is not None


def test_anotador_app_keys_and_persistence(tmp_path: Path) -> None:
    path = tmp_path / "anotador.json"

    async def first() -> None:
        app = AnotadorApp(Anotador(names=["Nos", "Ellos"]), path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("t", "e", "right", "plus", "plus", "f", "left", "minus")
            await pilot.pause()
            a = app.anotador
            # Nos: truco 2 + envido 2 - 1; Ellos: 1 + 1, then a falta with both sides in the
            # malas, which takes the match (30 - 2 = 28 points)
            assert a.score == (3, 30) and a.winner == 1
            # The words of the table, not the side's name in "¡Ganó Ellos!"; the falta rule in
            # words, not its option name.
            assert "¡Ganaron ellos!" in shown(app, "#side1")
            assert "falta: el partido si los dos están en malas" in shown(app, "#status")
            assert "match_if_malas" not in shown(app, "#status")
            await pilot.press("u", "u")  # undo the -1, then the falta
            await pilot.pause()
            assert a.score == (4, 2)
            assert "falta envido: 28" in shown(app, "#side1")
            assert "falta envido: 26" in shown(app, "#side0")

    asyncio.run(first())
    saved = load(path)
    assert saved is not None and saved.score == (4, 2)

    async def second() -> None:
        app = AnotadorApp(saved, path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "Nos  4" in shown(app, "#side0")
            await pilot.press("n", "n")
            await pilot.pause()
            assert app.anotador.score == (0, 0)
            # A new game can be undone, right after.
            await pilot.press("u")
            await pilot.pause()
            assert app.anotador.score == (4, 2)
            await pilot.press("n", "n")
            await pilot.pause()
            assert app.anotador.score == (0, 0)

    asyncio.run(second())
    again = load(path)
    assert again is not None and again.score == (0, 0)


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("falta", ["match_if_malas", "doble"])
def test_the_anotadors_header_is_shown_whole(columns: int, falta: str) -> None:
    """The header says the target and the falta rule in words; the longest rule wraps onto a
    second line instead of being cut at the screen's edge."""

    async def run() -> None:
        app = AnotadorApp(Anotador(names=["Nos", "Ellos"], falta=falta))
        async with app.run_test(size=(columns, 30)) as pilot:
            await pilot.pause()
            status = app.query_one("#status", Static)
            words = shown(app, "#status")
            inner = status.content_region
            assert len(words) <= inner.width * inner.height, (columns, inner, words)
            assert app.query_one("#sides").region.y >= status.region.bottom

    asyncio.run(run())


def test_keys_are_distinct() -> None:
    from truco.tui.text import CALL_KEYS

    keys = list(CALL_KEYS.values())
    # every verb but play, tapada, discard and cega (the blind mão de ferro's card, key 1),
    # which are keys on the cards
    assert len(set(keys)) == len(keys) == len(Verb) - 4
    assert not set(keys) & {"1", "2", "3", "4", "5", "6", "s"}


def test_command_line() -> None:
    from truco.cli import build_parser

    args = build_parser().parse_args(["play", "--seed", "1", "--bot", "facil", "--players", "4"])
    assert (args.seed, args.bot, args.players, args.plain, args.connect) == (
        1,
        "facil",
        4,
        False,
        None,
    )
    args = build_parser().parse_args(["play", "--variant", "destantado"])
    assert (args.variant, args.players) == ("destantado", None)  # the variant's own players
    args = build_parser().parse_args(["anotar", "--names", "A,B,C", "--target", "15"])
    assert (args.names, args.target, args.new) == ("A,B,C", 15, False)


def test_what_the_screen_says_about_a_hand() -> None:
    """Envido declarations, tricks and every event have their words."""
    from truco.tui import text

    rules = Rules(players=4, flor=True)
    game = LocalGame(rules=rules, seed=7, bot="random")
    rng = random.Random(3)
    declared = tricks = False
    kinds: set[str] = set()
    for _ in range(20_000):
        if declared and tricks and len(kinds) >= 10:
            break
        if game.over:  # random bots often sing a falta that ends the match: play another
            game = LocalGame(rules=rules, seed=rng.randrange(1000), bot="random")
        if game.human_to_act:
            legal = game.view.legal
            plays = [a for a in legal if a.verb is Verb.PLAY]
            found = game.play(rng.choice(plays if plays and rng.random() < 0.6 else legal))
        else:
            found = game.step() or []
        view = game.view
        names = text.Names.of(view)
        for event in found:
            kinds.add(type(event).__name__)
            line = text.event_line(event, names, view)
            assert line, event
        lines = "\n".join(text.table_lines(view, names))
        if view.declared:
            declared = True
            seat, points, _ = view.declared[0]
            assert f"Tantos: {names.seat(seat)} {points}" in lines
        if view.results:
            tricks = True
            assert "Primera:" in lines and "→" in lines
        assert len(text.score_lines(view, names)) == 8
    assert declared and tricks
    assert text.Names(0, (0, 1, 0, 1)).seat(2) == "Bot2+"  # a partner
    assert text.Names(0, (0, 1, 0, 1)).seat(1) == "Bot1"

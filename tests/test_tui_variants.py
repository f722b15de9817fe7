"""``truco play --variant``: pata de gallo, destantado and pica-pica in the Textual client, driven
by key presses with Textual's pilot (headless, 80x24) against random bots, and what the shared
text module (``truco.tui.text``) writes for the variants' seats, scores and events."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual.widgets import RichLog, Static

from truco import notation
from truco.actions import NO_QUIERO, QUIERO, Verb
from truco.engine import apply, deal, legal_actions
from truco.events import Discarded, PorotosPassed, Scored
from truco.rules import Rules
from truco.state import new_match
from truco.tui import text
from truco.tui.app import TrucoApp
from truco.tui.session import LocalGame
from truco.view import SeatView, observe

SIZE = (80, 24)

Choose = Callable[[SeatView, dict[str, Verb]], str]
Look = Callable[[str], None]


def shown(app: TrucoApp, widget: str) -> str:
    content = app.query_one(widget, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def logged(app: TrucoApp) -> str:
    """The log ("Jugadas"), its wrapped lines joined: words apart by one space."""
    return " ".join(" ".join(s.text for s in app.query_one("#log", RichLog).lines).split())


def score_row(app: TrucoApp, name: str) -> str:
    """The line of the score panel that starts with a player's (or a team's) name."""
    rows = [r for r in shown(app, "#score").splitlines() if r.split(" ")[0].rstrip("+") == name]
    assert len(rows) == 1, (name, shown(app, "#score"))
    return rows[0]


def name(seat: int, me: int, names: tuple[str, ...]) -> str:
    """How the terminal calls a seat: the bots by their personas (``LocalGame.names``)."""
    return "Vos" if seat == me else names[seat]


async def drive(
    app: TrucoApp, game: LocalGame, choose: Choose, look: Look, *, hands: int, tmp: Path
) -> tuple[int, str]:
    """Press keys until ``hands`` hands are over (or the match is). ``look`` checks the screen
    before each of the human's keys (``turn``) and at each hand's summary (``paused``). At the
    end, 's' saves the finished hands, and the last one replays to the same score. Returns how
    many hand summaries were shown, and the log ("Jugadas")."""
    summaries = 0
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3000):
            await pilot.pause()
            if game.over or (app.paused and game.state.hand_no >= hands):
                break
            if app.paused:
                table, n = shown(app, "#table"), game.state.hand_no
                # the summary's head, in Spanish (pt-BR at a Truco Paulista table)
                assert f"Fin de la mano {n}" in table or f"Fim da mão {n}" in table
                look("paused")
                summaries += 1
                await pilot.press("enter")
            elif not app.busy and game.human_to_act:
                keys = {k: a.verb for k, a in text.action_keys(game.view).items()}
                assert set(text.action_keys(game.view).values()) == set(game.view.legal)
                hand = shown(app, "#hand")
                for key in keys:  # every legal action has its key on the screen
                    assert f" {key} " in hand, (key, hand)
                look("turn")
                await pilot.press(choose(game.view, keys))
        assert game.over or game.state.hand_no >= hands, "the match did not get far enough"
        if app.paused:
            look("paused")
            summaries += 1
        await pilot.press("s")
        await pilot.pause()
        assert "Guardé" in shown(app, "#hand")
        log = logged(app)
    files = sorted(tmp.glob("partida-*.toml"))
    assert len(files) == len(game.histories) == game.state.hand_no
    last = notation.replay_text(files[-1].read_text(encoding="utf-8"))
    assert last.state.rules.variant == game.rules.variant
    assert last.state.score == game.state.score
    return summaries, log


def mostly_cards(rng: random.Random) -> Choose:
    def choose(view: SeatView, keys: dict[str, Verb]) -> str:
        cards = [k for k, v in keys.items() if v in (Verb.PLAY, Verb.DISCARD)]
        return rng.choice(cards if cards and rng.random() < 0.85 else sorted(keys))

    return choose


def test_pata_de_gallo_by_key_presses(tmp_path: Path) -> None:
    """Three players, each with his own score; the pie (who changes every hand) marked, and the
    partners of each hand read from the view, not from seat % 2. The human, pie of the first
    hand, discards one of his four cards with 1-4."""
    me = 2
    game = LocalGame(rules=Rules(variant="pata_de_gallo", target=15), seed=3, bot="random", seat=me)
    app = TrucoApp(game, delay=0, save_dir=tmp_path)
    seen = {"discard": 0, "after discard": 0}
    pies: set[int] = set()

    def look(when: str) -> None:
        view = game.view
        pie = (view.mano - 1) % 3
        assert view.pie == pie
        pies.add(pie)
        for seat in range(3):  # each player's own score; the pie and this hand's partner marked
            partner = "+" * (seat != me and seat != pie and pie != me)
            mark = " (pie)" * (seat == pie)
            row = score_row(app, name(seat, me, game.names))
            points = text.score_label(view.score[seat], view.half)
            assert row == f"{name(seat, me, game.names)}{partner}{mark} {points}", row
        if when != "turn":
            return
        table = shown(app, "#table")
        if any(a.verb is Verb.DISCARD for a in view.legal):
            assert len(view.hand) == 4 and set(text.action_keys(view)) == {"1", "2", "3", "4"}
            assert "Sos el pie: descartá 1 de tus 4 cartas" in table
            assert "elegí la carta que descartás (1-4)" in shown(app, "#hand")
            assert "envido" not in shown(app, "#hand")  # his tantos count from the 3 he keeps
            seen["discard"] += 1
        elif pie == me:
            kept = text.discarded(view)
            assert kept is not None and f"Sos el pie: descartaste {kept.split()[1]}" in table
            assert len(view.hand) <= 3
            seen["after discard"] += 1
        else:
            assert f"Pie: {name(pie, me, game.names)} · ya descartó" in table

    summaries, log = asyncio.run(
        drive(app, game, mostly_cards(random.Random(1)), look, hands=3, tmp=tmp_path)
    )
    assert game.state.hand_no >= 3 and summaries >= 2
    assert seen["discard"] == 1 and seen["after discard"] >= 1
    assert pies == {2, 0, 1}  # the pie went round: seat 2, then 0, then 1
    assert "Vos (pie): descartás" in log
    # The second hand's pie; his card unseen.
    assert f"{game.names[0]} (pie): descarta una carta" in log
    bots = [n for n in game.names if n]
    assert "para Vos" in log and any(f"para {n}" in log for n in bots)  # points of each side


def test_destantado_by_key_presses(tmp_path: Path) -> None:
    """Porotos in each pile and the pot; a call waits for quiero / no quiero from each other
    player; who is in the bet and who left it."""
    # Seed 1: a deal whose match lasts the four hands looked at (since issue 17 the random bots
    # also raise the envido to the falta, which can empty a pile in the first hand).
    game = LocalGame(rules=Rules(variant="destantado"), seed=1, bot="random")
    app = TrucoApp(game, delay=0, save_dir=tmp_path)
    rng = random.Random(3)
    answers: list[str] = []
    called: list[int] = []
    declined: list[int] = []
    cards = mostly_cards(rng)

    def choose(view: SeatView, keys: dict[str, Verb]) -> str:
        if view.legal[:2] == (QUIERO, NO_QUIERO):  # a call waits (raises too, since issue 17)
            assert {"q", "n"} <= set(keys)
            key = "qn"[len(answers) % 2]
            answers.append(key)
            if key == "n" and view.truco_call is not None:
                declined.append(view.hand_no)
            return key
        if "t" in keys and not called:
            called.append(view.hand_no)
            return "t"
        return cards(view, keys)

    def look(when: str) -> None:
        view = game.view
        assert "Porotos · gana el que se queda sin" in shown(app, "#score")
        assert f"Pozo: {max(0, 30 - sum(view.score))}" in shown(app, "#score")
        for seat in range(3):
            row = score_row(app, name(seat, 0, game.names))
            pile = f"{name(seat, 0, game.names)} {view.score[seat]}"
            if view.phase == 1 and not view.stakes[seat]:
                assert row == f"{pile} · afuera", row
            elif view.phase == 1 and seat not in view.retired:
                assert row == f"{pile} · en juego {view.stakes[seat]}", row
            elif view.phase != 1:
                assert row == pile, row
        if when == "turn" and view.legal[:2] == (QUIERO, NO_QUIERO):
            assert "responde Vos" in shown(app, "#hand")
        if when == "paused" and declined and declined[-1] == view.hand_no:
            assert "No quisieron y se fueron: Vos" in shown(app, "#table")

    summaries, log = asyncio.run(drive(app, game, choose, look, hands=4, tmp=tmp_path))
    assert summaries >= 3
    assert "q" in answers and "n" in answers and declined and called
    assert "Vos: ¡Truco!" in log
    assert "pasa" in log and "poroto" in log  # PorotosPassed
    assert "Porotos: Vos" in log  # the piles after each hand


def test_pica_pica_by_key_presses(tmp_path: Path) -> None:
    """Rounds of three 1v1 hands ("mano de pica"): who plays each, and the human watching the
    two he sits out."""
    rules = Rules(variant="pica_pica", target=15, pica_from=1)
    game = LocalGame(rules=rules, seed=4, bot="random")
    app = TrucoApp(game, delay=0, save_dir=tmp_path)
    picas = {"played": 0, "watched": 0}

    def look(when: str) -> None:
        view = game.view
        for team, team_name in ((0, "Nosotros"), (1, "Ellos")):
            points = text.score_label(view.score[team], view.half)
            assert score_row(app, team_name) == f"{team_name} {points}"
        if view.pica < 0:
            return
        rival = (view.mano + 3) % 6
        if when == "turn":
            assert 0 in (view.mano, rival)  # the human plays only his own 1v1 hand
            pair = f"{name(view.mano, 0, game.names)} contra {name(rival, 0, game.names)}"
            assert f"Mano de pica {view.pica + 1} de 3: {pair}" in shown(app, "#table")
            picas["played"] += 1
        elif 0 not in (view.mano, rival):
            assert "(esta mano de pica no jugás: mirás)" in shown(app, "#hand")
            picas["watched"] += 1

    summaries, log = asyncio.run(
        drive(app, game, mostly_cards(random.Random(5)), look, hands=4, tmp=tmp_path)
    )
    assert summaries >= 3 and picas["played"] >= 1 and picas["watched"] >= 2
    rival = game.names[3]
    assert f"mano de pica: Vos contra {rival}" in log or f"mano de pica: {rival} contra Vos" in log
    assert "(mirás)" in log


# --- the words, without the app ------------------------------------------------------------


def test_names_follow_each_hands_teams() -> None:
    """Pata de gallo: the pie plays alone, and the other two are partners; it changes every
    hand. Scores are per player."""
    rules = Rules(variant="pata_de_gallo")
    rng = random.Random(1)
    state, _ = deal(new_match(rules, mano=0), rng)  # the pie is seat 2
    names = text.Names.of(observe(state, 0))
    assert (names.seat(1), names.seat(2)) == ("Bot1+", "Bot2")
    assert (names.team(0), names.team(1)) == ("Nosotros", "Bot2")
    assert [names.scorer(s) for s in range(3)] == ["Vos", "Bot1+", "Bot2"]
    mine = text.Names.of(observe(state, 2))  # the pie himself: no partner
    assert (mine.seat(0), mine.seat(1), mine.team(0), mine.team(1)) == (
        "Bot0",
        "Bot1",
        "Bot0 y Bot1",
        "Vos",
    )
    state, _ = deal(new_match(rules, mano=2), rng)  # the pie is seat 1: seat 0 pairs with 2
    assert text.Names.of(observe(state, 0)).seat(2) == "Bot2+"
    assert text.Names.of(observe(state, 0)).seat(1) == "Bot1"
    spectator = text.Names.of(observe(state, None))
    assert (spectator.team(0), spectator.team(1)) == ("Bot0 y Bot2", "Bot1")
    assert "Equipo" not in spectator.scorer(1)


def test_variant_events_have_their_words() -> None:
    """``Discarded``, ``PorotosPassed`` and per-player ``Scored``, in the log, the summary and
    (without styles) the line-based game."""
    rules = Rules(variant="pata_de_gallo")
    state, _ = deal(new_match(rules, mano=0), random.Random(2))
    view = observe(state, 0)
    names = text.Names.of(view)
    assert text.event_line(Discarded(2), names) == "Bot2 (pie): descarta una carta"
    pie = observe(state, 2)
    card = pie.legal[0].card
    after, events = apply(state, pie.legal[0])
    assert events == (Discarded(2),)
    mine = observe(after, 2)
    line = text.event_line(Discarded(2), text.Names.of(mine, plain=True), mine)
    assert line == f"Vos (pie): descartás {text.card_words(card)}"  # the plain game: in words
    assert text.pending_call(view, names) == "Bot2, el pie, está descartando…"
    assert text.pending_call(pie, text.Names.of(pie)) == (
        "Sos el pie: elegí la carta que descartás (1-4)"
    )
    scored = [Scored(0, 2, "truco"), Scored(1, 2, "truco")]
    assert text.plain(text.event_line(scored[1], names) or "") == "+2 para Bot1+ (la mano)"
    summary = text.plain(text.hand_summary(scored, view, names)[0])
    assert summary.endswith("+2 Vos y Bot1+ (la mano)"), summary

    d_rules = Rules(variant="destantado")
    d_state, _ = deal(new_match(d_rules), random.Random(3))
    d_view = observe(d_state, 0)
    d_names = text.Names.of(d_view, plain=True)
    passed = [
        PorotosPassed(1, 0, 2, "truco"),
        PorotosPassed(1, 2, 2, "truco"),
        PorotosPassed(0, -1, 1, "envido-no-quiero"),
    ]
    lines = [text.plain(text.event_line(e, d_names) or "") for e in passed]
    assert lines == [
        "Bot1 pasa 2 porotos a Vos (la mano)",
        "Bot1 pasa 2 porotos a Bot2 (la mano)",
        "Vos pasa 1 poroto al pozo (envido no querido)",
    ]
    summary = text.plain(text.hand_summary(passed, d_view, d_names)[0])
    assert summary.endswith(
        "Bot1 pasa 2 a Vos y 2 a Bot2 (la mano), Vos pasa 1 al pozo (envido no querido)"
    ), summary
    assert text.hand_points_text((-1, -4, 5), d_names) == "porotos Vos -1, Bot1 -4, Bot2 +5"


def test_destantado_call_waits_for_each_player() -> None:
    """The pending line names who must answer and who already said quiero."""
    state, _ = deal(new_match(Rules(variant="destantado")), random.Random(4))
    state, _ = apply(state, next(a for a in legal_actions(state) if a.verb is Verb.TRUCO))
    names = text.Names.of(observe(state, 0))
    assert text.pending_call(observe(state, 0), names) == "Vos cantó truco: responde Bot1"
    state, _ = apply(state, QUIERO)
    view = observe(state, 0)
    assert text.pending_call(view, names) == "Vos cantó truco: responde Bot2 · quiso Bot1"
    state, _ = apply(state, NO_QUIERO)
    view = observe(state, 0)
    assert text.pending_call(view, names) is None
    assert (
        text.stakes_line(view, names) == "Apuestas: Vos en juego 2 · Bot1 en juego 2 · Bot2 afuera"
    )
    assert "No quisieron y se fueron: Bot2" in text.table_lines(view, names)

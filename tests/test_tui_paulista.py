"""``truco play --juego paulista``: Truco Paulista in the Textual client, driven by key presses with
Textual's pilot (headless, 80x24) against random bots, to the end of a match; and what the shared
text module writes at a Paulista table (French cards, the vira, the tentos, the Brazilian words).
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

from test_tui_variants import drive, shown
from truco.actions import Verb
from truco.cards import Card
from truco.cli import build_parser
from truco.engine import apply, deal
from truco.rules import Rules
from truco.state import new_match
from truco.tui import text
from truco.tui.app import TrucoApp
from truco.tui.session import LocalGame
from truco.tui.text import lang, paulista
from truco.view import SeatView, observe

SPANISH = re.compile(
    r"\b(Vos|Nosotros|Ellos|Equipo|juega|Juega|Tanteador|Fin de|Fin del|cantó|Jugadas|Tu mano"
    r"|Repartiendo|la gana|Te tocaron|nadie suma|Perdiste|Ganaste|siguiente mano|guardar|salir"
    r"|primera|tercera|Primera|Tercera)\b"
)
"""Words of the Argentine table's Spanish that a Paulista table's screen must not show."""


def test_the_terminal_words_in_both_languages() -> None:
    assert set(lang.ES) == set(lang.PT)
    state, _ = deal(new_match(Rules(game="paulista", players=4)), random.Random(5))
    names = text.Names.of(observe(state, 0))
    assert [names.team(0), names.team(1), names.seat(0)] == ["Nós", "Eles", "Você"]
    assert names.trick(0) == "Primeira" and names.trick(2) == "Terceira"
    argentine, _ = deal(new_match(Rules(players=4)), random.Random(5))
    es = text.Names.of(observe(argentine, 0))
    assert [es.team(0), es.team(1), es.seat(0), es.trick(0)] == [
        "Nosotros",
        "Ellos",
        "Vos",
        "Primera",
    ]


def test_the_french_cards_and_the_words_of_a_paulista_table() -> None:
    state, _ = deal(new_match(Rules(game="paulista", players=4)), random.Random(5))
    view = observe(state, 0)
    names = text.Names.of(view)
    assert names.french
    # Cards in the French deck: 1 is the A, 10 the Q, 11 the J, 12 the K; copas and ouros red.
    assert names.card(Card.parse("1b")) == "[bold #000000 on #ffffff] A♣ [/]"
    assert names.card(Card.parse("10c")) == "[bold #c3202a on #ffffff] Q♥ [/]"
    assert text.plain(names.card(Card.parse("12o"))) == " K♦ "
    assert text.Names.of(view, plain=True).card(Card.parse("11e")) == "J de espadas"
    # The vira and its manilha, on the table.
    lines = text.plain("\n".join(text.table_lines(view, names))).splitlines()
    assert (str(view.vira), [str(c) for c in view.manilhas]) == ("2e", ["3b", "3c", "3e", "3o"])
    assert lines[:2] == ["Mão 1 · é mão: Você", "Vira:  2♠  · manilha: 3 (zap 3♣)"]
    # The score as tentos, in fours.
    score = "\n".join(text.plain(x) for x in text.score_lines(view, names))
    assert "Nós 0 de 12 tentos" in score and "○○○○ ○○○○ ○○○○" in score
    assert paulista.tentos(7, 12) == "●●●● ●●●○ ○○○○"
    # Its calls and answers in pt-BR, each with a key of its own.
    for verb, said in ((Verb.SEIS, "Seis!"), (Verb.DESCE, "Desce"), (Verb.CORRE, "Corre")):
        assert paulista.SAY[verb] == said and verb in text.CALL_KEYS


def test_the_mao_de_onze_shows_the_partners_cards() -> None:
    eleven = new_match(Rules(game="paulista", players=4))._replace(score=(11, 4))
    state, _ = deal(eleven, random.Random(2))
    view = observe(state, 0)
    assert view.onze == 0 and view.partners
    names = text.Names.of(view)
    pending = text.pending_call(view, names) or ""
    assert "Mão de onze" in pending
    keys = text.action_keys(view)
    assert {a.verb for a in keys.values()} == {Verb.JOGA, Verb.CORRE}
    assert text.action_label(keys["j"]) == "joga (mão de onze)"
    state, _ = apply(state, keys["j"])
    line = text.plain(" ".join(text.table_lines(observe(state, 0), names)))
    assert "mão de onze" in line and "valendo 3" in line


def test_truco_play_juego_paulista_by_key_presses(tmp_path: Path) -> None:
    args = build_parser().parse_args(["play", "--juego", "paulista", "--manilhas", "velha"])
    assert (args.juego, args.manilhas) == ("paulista", "velha")
    game = LocalGame(rules=Rules(game="paulista", manilhas="velha"), seed=4, bot="random")
    app = TrucoApp(game, delay=0, save_dir=tmp_path)
    rng = random.Random(2)
    seen = {"calls": 0, "tentos": 0}

    def choose(view: SeatView, keys: dict[str, Verb]) -> str:
        for verb in (Verb.JOGA, Verb.DESCE):
            if verb in keys.values():
                return next(k for k, v in keys.items() if v is verb)
        raises = [k for k, v in keys.items() if v in (Verb.TRUCO, Verb.SEIS)]
        if raises and rng.random() < 0.3:
            seen["calls"] += 1
            return raises[0]
        cards = [k for k, v in keys.items() if v is Verb.PLAY]
        return rng.choice(cards or sorted(keys))

    def look(when: str) -> None:
        for widget in ("#status", "#score", "#table", "#hand"):
            said = shown(app, widget)
            assert not SPANISH.search(said), (widget, said)
        titles = [app.query_one(w).border_title for w in ("#table", "#log", "#hand")]
        assert titles == ["Mesa", "Jogadas", "Sua mão"]
        status = shown(app, "#status")
        assert "Truco Paulista" in status and "12 tentos" in status and "flor" not in status
        score = shown(app, "#score")
        assert "de 12 tentos" in score
        seen["tentos"] += "●" in score
        if when == "turn" and game.view.manilhas:
            assert "Manilhas fixas: zap 4♣, copeta 7♥, espadilha A♠, pica-fumo 7♦" in shown(
                app, "#table"
            )

    summaries, log = asyncio.run(drive(app, game, choose, look, hands=99, tmp=tmp_path))
    assert game.over and max(game.state.score) >= 12
    assert summaries >= 2 and seen["tentos"] > 0
    assert "Fim da partida" in log and not SPANISH.search(log), log
    if seen["calls"]:
        assert "Truco!" in log


def test_the_log_says_the_vira() -> None:
    state, events = deal(new_match(Rules(game="paulista")), random.Random(1))
    names = text.Names.of(observe(state, 0))
    said = [text.event_line(e, names) for e in events]
    assert any(s and s.startswith("Vira: ") for s in said), said


def test_the_line_based_game_plays_paulista_in_its_words() -> None:
    from truco.tui.plain import run_text_game

    out: list[str] = []
    answers = iter(["2", "x", "1"])
    code = run_text_game(
        variant="paulista",
        players=4,
        seed=5,
        bot="random",
        input_fn=lambda _: next(answers, "1"),
        print_fn=out.append,
    )
    lines = "\n".join(out).splitlines()
    assert code == 0 and lines[0].startswith("Truco Paulista a 12 tentos, 4 jugadores")
    assert sum("Fim da partida" in line for line in lines) == 1
    menu = [line for line in lines if line.startswith("  1) ")]
    spanish = re.compile(r"ancho| de (espada|basto|oro|copa)\b")
    assert menu and not [line for line in menu if spanish.search(line)]
    assert any(line.startswith("  1) jogar ") for line in menu)
    assert any(line.startswith("Vira: ") for line in lines)
    assert any("Podés: 1) jogar " in line for line in lines)  # the 'x' was no option


def test_a_blind_mao_de_ferro_plays_the_next_card_by_one_key() -> None:
    both = new_match(Rules(game="paulista"))._replace(score=(11, 11))
    state, _ = deal(both, random.Random(3))
    view = observe(state, state.mano)
    assert view.ferro and view.blind and view.hand == ()
    keys = text.action_keys(view)
    assert list(keys) == ["1"] and keys["1"].verb is Verb.CEGA  # the next card, unseen
    line = text.plain(" ".join(text.table_lines(view, text.Names.of(view))))
    assert "mão de ferro (no escuro)" in line

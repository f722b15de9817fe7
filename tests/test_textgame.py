"""The terminal game, driven by scripted input against the real engine."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator

import pytest

from truco.rules import Rules, Variant
from truco.tui.plain import run_text_game
from truco.tui.session import LocalGame

MENU_LINE = re.compile(r"^  (\d+)\) (.+)$")
CARD_WORDS = re.compile(r"el (\d+) de (espada|basto|oro|copa)(?: \([a-z ]+\))?")
"""A card as the plain game says it: ``el 1 de espada (ancho de espada)``."""


def cards_said(line: str) -> list[str]:
    """The cards a line names in words, as they were said."""
    return [m.group(0) for m in CARD_WORDS.finditer(line)]


def notation(said: str) -> str:
    """The notation of a card said in words (``el 7 de oro``: ``7o``)."""
    m = CARD_WORDS.fullmatch(said)
    assert m is not None, said
    return f"{m.group(1)}{m.group(2)[0]}"


def bot_names(variant: Variant, seed: int, seat: int = 0, bot: str = "random") -> tuple[str, ...]:
    """The personas the bots go by at that table (the full client's ``LocalGame``)."""
    return LocalGame(rules=Rules(variant=variant), seed=seed, bot=bot, seat=seat).names


class Script:
    """An input_fn that answers from a list of lines, then a fallback (or EOF); records prompts."""

    def __init__(self, lines: Iterable[str] = (), then: str | None = "1") -> None:
        self.lines: Iterator[str] = iter(lines)
        self.then = then
        self.prompts = 0

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        line = next(self.lines, None)
        if line is not None:
            return line
        if self.then is None:
            raise EOFError
        return self.then


def play(input_fn: Callable[[str], str], **kwargs: object) -> tuple[int, list[str]]:
    out: list[str] = []
    code = run_text_game(input_fn=input_fn, print_fn=out.append, **kwargs)  # type: ignore[arg-type]
    return code, "\n".join(out).splitlines()


def winner_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if "Fin del partido: gana" in line]


@pytest.mark.parametrize(
    ("players", "target", "flor", "human_seat"),
    [(2, 30, False, 0), (2, 15, True, 1), (4, 30, True, 2), (6, 20, False, 5)],
)
def test_always_first_option_plays_a_whole_match(
    players: int, target: int, flor: bool, human_seat: int
) -> None:
    code, lines = play(
        Script(), players=players, target=target, flor=flor, seed=7, human_seat=human_seat
    )
    assert code == 0
    assert len(winner_lines(lines)) == 1
    assert re.search(r"ganan (Nosotros|Ellos) \(\d+ a \d+\)", winner_lines(lines)[0])
    assert any(line.startswith("Te tocaron: ") for line in lines)
    assert any(line.startswith("Fin de la mano: ") for line in lines)
    assert not any("Partido abandonado" in line for line in lines)


def test_each_turn_shows_score_mano_table_hand_and_menu() -> None:
    _, lines = play(Script(["1", "q"]), seed=1)
    first = next(i for i, line in enumerate(lines) if line.startswith("  1) "))
    shown = lines[:first]
    assert any(line.startswith("Tanteador: Nosotros 0 (malas) · Ellos 0 (malas)") for line in shown)
    assert any("es mano: Vos" in line for line in shown)
    assert any(line.startswith("Tus cartas: ") for line in shown)
    # after the first card is played, the table lists it under primera
    assert any(line.startswith("  Primera: Vos el ") for line in lines[first:])


def test_malas_and_buenas_at_every_target() -> None:
    # Issue 17 (seed 002): a game to 15 has its halves too, 7 malas and 8 buenas.
    _, lines = play(Script(["q"]), target=15, seed=1)
    assert any("malas" in line for line in lines)


def test_bad_input_reprompts_and_loses_nothing() -> None:
    script = Script(["xyz", "99", "", "vale-cuatro", "1"], then=None)
    code, lines = play(script, seed=3)
    assert code == 0
    text = "\n".join(lines)
    assert "No entiendo 'xyz'" in text
    assert "No hay opción 99" in text
    assert "Elegí una opción del 1 al" in text  # the empty line
    assert "No podés 'vale-cuatro' ahora" in text
    # the menu is printed once: the bad lines re-prompted on the same turn, then "1" was played
    assert script.prompts >= 6
    assert "Vos: juega " in text
    assert "Partido abandonado" in text  # EOF after the script ran out


def test_same_seed_and_input_give_the_same_game() -> None:
    assert play(Script(), seed=11) == play(Script(), seed=11)
    assert play(Script(), seed=11) != play(Script(), seed=12)


@pytest.mark.parametrize("word", ["q", "quit", "QUIT", "salir"])
def test_quit_stops_at_once(word: str) -> None:
    script = Script([word])
    code, lines = play(script, seed=5)
    assert code == 0
    assert script.prompts == 1
    assert lines[-1].startswith("Partido abandonado.")
    assert not winner_lines(lines)


def test_eof_and_ctrl_c_end_gracefully() -> None:
    code, lines = play(Script(then=None), seed=5)
    assert code == 0 and lines[-1].startswith("Partido abandonado.")

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    code, lines = play(interrupt, seed=5)
    assert code == 0 and lines[-1].startswith("Partido abandonado.")


def test_actions_typed_in_notation() -> None:
    """A player that always types the last menu option's notation (mazo, no-quiero...)."""
    out: list[str] = []

    def typist(prompt: str) -> str:
        start = max(i for i, line in enumerate(out) if line.startswith("  1) "))
        menu = [m.group(2) for line in out[start:] if (m := MENU_LINE.match(line))]
        return menu[-1]

    code = run_text_game(seed=2, target=15, input_fn=typist, print_fn=out.append)
    assert code == 0
    assert len(winner_lines(out)) == 1


def test_a_bare_card_plays_it() -> None:
    out: list[str] = []

    def card_typer(prompt: str) -> str:
        hand = next(x for x in reversed(out) if x.startswith("Tus cartas: "))
        cards = cards_said(hand)
        return notation(cards[0]) if len(cards) == 3 else "q"

    run_text_game(seed=4, input_fn=card_typer, print_fn=out.append)
    played = next(x for x in out if x.startswith("Vos: juega "))
    hand = next(x for x in out if x.startswith("Te tocaron: "))
    assert played == f"Vos: juega {cards_said(hand)[0]}"


def test_other_seats_cards_are_never_dealt_to_the_screen() -> None:
    _, lines = play(Script(), players=4, seed=9, human_seat=1)
    dealt = [line for line in lines if line.startswith("Te tocaron: ")]
    hands = sum(1 for line in lines if line.startswith("=== Mano "))
    assert len(dealt) == hands


def test_bad_settings_return_an_error_code() -> None:
    assert play(Script(), players=3)[0] == 2
    assert play(Script(), human_seat=2)[0] == 2


def final_line(lines: list[str], prefix: str) -> str:
    return [line for line in lines if line.startswith(prefix)][-1]


def test_pata_de_gallo_to_the_end() -> None:
    """Three players, each with his own score; the human is the pie of the second hand, is
    dealt four cards and discards the first one (option 1), unseen by the others."""
    code, lines = play(Script(), variant="pata_de_gallo", seed=9, bot="random")
    _, bot1, bot2 = bot_names("pata_de_gallo", 9)
    out = "\n".join(lines)
    assert code == 0 and len(winner_lines(lines)) == 1
    assert f"=== Mano 1 · es mano: Vos · pie: {bot2} ===" in lines
    assert f"=== Mano 2 · es mano: {bot1} · pie: Vos ===" in lines
    start = lines.index(f"=== Mano 2 · es mano: {bot1} · pie: Vos ===")
    dealt = cards_said(lines[start + 1].removeprefix("Te tocaron: "))
    assert len(dealt) == 4  # the pie's four cards
    menu = lines.index("Sos el pie: elegí la carta que descartás (1-4)", start)
    assert lines[menu + 2 : menu + 6] == [f"  {i}) descartar {c}" for i, c in enumerate(dealt, 1)]
    assert f"Vos (pie): descartás {dealt[0]}" in lines
    assert f"  Sos el pie: descartaste {dealt[0]}" in lines
    assert f"{bot2} (pie): descarta una carta" in lines  # the first hand's pie, card unseen
    # what a side wins, each of its players scores
    assert re.search(r"^\+\d+ para Vos \(", out, re.M)
    assert re.search(rf"^\+\d+ para ({bot1}|{bot2})\+? \(", out, re.M)
    # per-player scores, and the winner is a player
    assert final_line(lines, "Tanteador: ").startswith("Tanteador: Vos ")
    assert bot1 in final_line(lines, "Tanteador: ") and bot2 in final_line(lines, "Tanteador: ")
    assert re.search(
        rf"gana (Vos|{bot1}|{bot2}) \(Vos \d+ · {bot1} \d+ · {bot2} \d+\)", winner_lines(lines)[0]
    )
    assert "[/" not in out and "[b]" not in out  # the shared lines, without their styles


def test_destantado_to_the_end() -> None:
    """Porotos in each pile and the pot; the human answers the calls with quiero (option 1),
    and the first to pass all his porotos wins."""
    code, lines = play(Script(), variant="destantado", seed=5, bot="random")
    _, bot1, bot2 = bot_names("destantado", 5)
    who = f"(Vos|{bot1}|{bot2})"
    assert code == 0 and len(winner_lines(lines)) == 1
    assert lines[0].startswith("Destantado: 10 porotos cada uno, gana el que se queda sin")
    assert f"Porotos: Vos 10 · {bot1} 10 · {bot2} 10 · pozo 0" in lines
    assert f"  Apuestas: Vos en juego 1 · {bot1} en juego 1 · {bot2} en juego 1" in lines
    asked = next(i for i, line in enumerate(lines) if re.match(r".* cantó .*: responde Vos", line))
    assert lines[asked + 2 : asked + 4] == ["  1) quiero", "  2) no quiero"]
    assert "Vos: Quiero" in lines
    assert any(re.match(rf"{who} pasa \d+ porotos? (a {who}|al pozo) \(", x) for x in lines)
    winner = re.search(rf"gana {who}, que se quedó sin porotos", winner_lines(lines)[0])
    assert winner is not None
    piles = final_line(lines, "Porotos: ")
    assert f"{winner.group(1)} 0 ·" in piles, piles


def test_pica_pica_to_the_end() -> None:
    """Six players; between 5 and 10 points (target 20: the rounds stop 10 from the target
    since issue 17) a round of three 1v1 hands: the human plays his own and watches the other
    two."""
    code, lines = play(Script(), variant="pica_pica", target=20, seed=5, bot="random")
    bot3 = bot_names("pica_pica", 5)[3]
    assert code == 0 and len(winner_lines(lines)) == 1
    picas = [line for line in lines if "mano de pica" in line]
    assert len(picas) == 3
    assert sum("(mirás)" in line for line in picas) == 2
    assert any(
        re.match(rf"  Mano de pica \d de 3: (Vos contra {bot3}|{bot3} contra Vos)", x)
        for x in lines
    )
    assert re.search(r"ganan (Nosotros|Ellos) \(\d+ a \d+\)", winner_lines(lines)[0])


def test_the_pie_discards_a_card_typed_bare() -> None:
    """In seat 2 the human is the first hand's pie: a bare card discards it."""
    out: list[str] = []

    def typer(prompt: str) -> str:
        if not out[-1].startswith("  4) descartar "):
            return "q"  # once the card is put away
        dealt = next(x for x in out if x.startswith("Te tocaron: "))
        return notation(cards_said(dealt)[-1])

    code = run_text_game(
        variant="pata_de_gallo", seed=1, human_seat=2, input_fn=typer, print_fn=out.append
    )
    assert code == 0
    dealt = cards_said(next(x for x in out if x.startswith("Te tocaron: ")))
    assert f"Vos (pie): descartás {dealt[-1]}" in out


def test_a_variant_with_the_wrong_players_is_refused() -> None:
    code, lines = play(Script(), variant="pata_de_gallo", players=4)
    assert code == 2 and "pata_de_gallo is played by 3 players" in lines[0]


def test_the_command_line_passes_the_variant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from truco.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # input() ends at once: EOF
    assert main(["play", "--plain", "--variant", "pica_pica", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Truco pica-pica a 30 puntos, 6 jugadores, sin flor.")
    assert "Partido abandonado" in out
    assert main(["play", "--plain", "--variant", "destantado", "--players", "4"]) == 2

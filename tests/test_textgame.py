"""The terminal game, driven by scripted input against the real engine."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

import pytest

from truco.textgame import run_text_game

MENU_LINE = re.compile(r"^  (\d+)\) (.+)$")


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
    return [line for line in lines if "Fin del partido: ganan" in line]


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
    assert any(line.startswith("Nosotros 0 (malas) · Ellos 0 (malas)") for line in shown)
    assert any("es mano: Vos" in line for line in shown)
    assert any(line.startswith("Tus cartas: ") for line in shown)
    # after the first card is played, the table lists it under Baza 1
    assert any(line.startswith("  Baza 1: Vos ") for line in lines[first:])


def test_malas_and_buenas_only_from_target_20() -> None:
    _, lines = play(Script(["q"]), target=15, seed=1)
    assert not any("malas" in line for line in lines)


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
        cards = hand.removeprefix("Tus cartas: ").split()
        return cards[0] if len(cards) == 3 else "q"

    run_text_game(seed=4, input_fn=card_typer, print_fn=out.append)
    played = next(x for x in out if x.startswith("Vos: juega "))
    hand = next(x for x in out if x.startswith("Te tocaron: "))
    assert played.split()[-1] == hand.split()[2]


def test_other_seats_cards_are_never_dealt_to_the_screen() -> None:
    _, lines = play(Script(), players=4, seed=9, human_seat=1)
    dealt = [line for line in lines if line.startswith("Te tocaron: ")]
    hands = sum(1 for line in lines if line.startswith("=== Mano "))
    assert len(dealt) == hands


def test_bad_settings_return_an_error_code() -> None:
    assert play(Script(), players=3)[0] == 2
    assert play(Script(), human_seat=2)[0] == 2

"""The terminal game, driven by scripted input against the real engine."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator

import pytest

from truco.rules import Rules, Variant
from truco.tui.plain import run_text_game
from truco.tui.session import LocalGame
from truco.tui.text import LABELS, SAY

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
        rf"gana (Vos|{bot1}|{bot2})\+? \(Vos \d+ · {bot1}\+? \d+ · {bot2}\+? \d+\)",
        winner_lines(lines)[0],
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
    # Rounds of three (the bots' play, hence how often the score passes 5-10, is theirs).
    assert len(picas) >= 3 and len(picas) % 3 == 0
    assert sum("(mirás)" in line for line in picas) == 2 * len(picas) // 3
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


NOTATION = re.compile(r"\b(?:1[012]|[1-7])[eboc]\b|\?\?|^(?:play|tapada|discard|mazo)\b|-")
"""Notation: a card (``12e``), a verb (``play``, a bare ``mazo``), a hyphen (``no-quiero``)."""


def last_menu(out: list[str]) -> list[str]:
    """The options of the menu printed last."""
    start = max(i for i, line in enumerate(out) if line.startswith("  1) "))
    return [m.group(2) for line in out[start:] if (m := MENU_LINE.match(line))]


def to_the_end(out: list[str], input_fn: Callable[[str], str], **kwargs: object) -> None:
    """Play a match with ``input_fn``, its lines into ``out``: it must end with a winner."""
    code = run_text_game(input_fn=input_fn, print_fn=out.append, **kwargs)  # type: ignore[arg-type]
    assert code == 0 and len(winner_lines(out)) == 1


def every_menu_line(out: list[str]) -> list[str]:
    return [m.group(2) for line in out if (m := MENU_LINE.match(line))]


@pytest.mark.parametrize(
    ("variant", "players", "flor", "seed"),
    [
        ("standard", 2, True, 3),
        ("standard", 4, False, 8),
        ("pata_de_gallo", 3, False, 9),
        ("destantado", 3, False, 5),
    ],
)
@pytest.mark.parametrize("last", [False, True])
def test_the_menu_says_every_action_in_words(
    variant: Variant, players: int, flor: bool, seed: int, last: bool
) -> None:
    """Whole matches, taking the first option or the last (mazo, no quiero, a card face down):
    no menu line is notation, and every action is said as at the table."""
    out: list[str] = []

    def pick(prompt: str) -> str:
        return str(len(last_menu(out))) if last else "1"

    to_the_end(out, pick, variant=variant, players=players, flor=flor, seed=seed, bot="facil")
    said = every_menu_line(out)
    assert said and [x for x in said if NOTATION.search(x)] == []
    for x in said:
        if x.split()[0] in ("jugar", "tapar", "descartar"):
            assert CARD_WORDS.fullmatch(x.split(" ", 1)[1]), x
    if last:
        assert "me voy al mazo" in said


def spoken(option: str, turn: int) -> str:
    """The words of a menu option as a player might type them, by turn: as shown, shouted
    (capitals, accents, ¡!), or short ("12 de espada", "tiro el 4 de copa", "al mazo")."""
    m = re.fullmatch(r"(jugar|tapar|descartar) (el (\d+) de (\w+))(?: \(([a-z ]+)\))?", option)
    if m is not None:
        verb, card, rank, suit, nickname = m.groups()
        forms = [
            option,
            f"{verb} {rank} de {suit}s",
            f"{'tiro' if verb == 'jugar' else verb} {card}".upper(),
            f"{rank} {suit}" if verb == "jugar" else f"{verb} {card}",
        ]
        if nickname and "falso" not in nickname:
            forms.append(f"{verb} el {nickname}")
        return forms[turn % len(forms)]
    forms = [option, f"¡{option.capitalize()}!", option.upper().replace("E", "É")]
    if option == "me voy al mazo":
        forms.append("al mazo")
    return forms[turn % len(forms)]


@pytest.mark.parametrize(
    ("variant", "players", "flor", "seed"),
    [("standard", 2, True, 1), ("standard", 4, False, 6), ("pata_de_gallo", 3, False, 2)],
)
def test_a_game_typed_in_spanish_words_to_the_end(
    variant: Variant, players: int, flor: bool, seed: int
) -> None:
    """A player who never types a number nor notation: each turn he types the words of an option
    (in turn the first, the second...) the way people write, and the game takes each one as that
    option, to the end of the match."""
    out: list[str] = []
    typed: list[tuple[str, str]] = []

    def typist(prompt: str) -> str:
        options = last_menu(out)
        option = options[len(typed) % min(len(options), 3)]
        said = spoken(option, len(typed))
        typed.append((said, option))
        return said

    to_the_end(out, typist, variant=variant, players=players, flor=flor, seed=seed, bot="normal")
    assert not [x for x in out if x.startswith(("No entiendo", "No podés", "No hay"))]
    assert len(typed) > 5
    # each typed line was taken as the option it named: the log says so, in order
    said = {LABELS[v]: SAY[v] for v in LABELS} | {"me voy al mazo": "me voy al mazo"}
    calls = [f"Vos: {said[o]}" for _, o in typed if o in said]
    assert [x for x in out if x in [f"Vos: {x}" for x in said.values()]] == calls
    plays = [x for x in out if x.startswith("Vos: juega ")]
    words = [o for _, o in typed if o.startswith("jugar ")]
    assert [p.removeprefix("Vos: juega ") for p in plays if "tapada" not in p] == [
        o.removeprefix("jugar ") for o in words
    ]


def test_a_bad_command_lists_what_is_possible() -> None:
    """A command that is no option (unknown words, a number off the menu, a card not held, a
    call not open now) says so and lists every option of the menu, by number and in words."""
    out: list[str] = []
    script = Script(["xyz", "9", "jugar el 5 de oro", "quiero", "q"], then=None)
    run_text_game(seed=3, bot="facil", input_fn=script, print_fn=out.append)
    options = last_menu(out)
    listed = "Podés: " + " · ".join(f"{i}) {o}" for i, o in enumerate(options, 1))
    errors = [x for x in out if x.startswith("No ")]
    assert [x.split(" ", 2)[1] for x in errors] == ["entiendo", "hay", "podés", "podés"]
    assert errors[0].startswith("No entiendo 'xyz'.")
    assert errors[1].startswith("No hay opción 9: elegí un número del 1 al")
    assert errors[2].startswith("No podés 'jugar el 5 de oro' ahora")
    assert errors[3].startswith("No podés 'quiero' ahora")
    assert all(f"{listed}. Escribí el número o las palabras." in x for x in errors)
    assert "jugar el" in listed and "me voy al mazo" in listed


def test_the_bot_level_is_chosen_like_the_full_client() -> None:
    """Asked first, the four levels by their labels (Enter: the full client's default); by
    number or by name; the bots then go by their level's personas, with the label beside."""
    from truco.bots.personas import PERSONAS

    def table(lines: list[str]) -> str:
        return next(x for x in lines if x.startswith("En la mesa: "))

    _, lines = play(Script(["2", "q"]), choose_bot=True, seed=1)
    asked = lines.index("¿Contra qué bots jugás?")
    assert lines[asked + 1 : asked + 5] == [
        "  1) Fácil",
        "  2) Normal",
        "  3) Difícil",
        "  4) Experto (Enter)",
    ]
    name = table(lines).removeprefix("En la mesa: Vos, ").removesuffix(" (Normal)")
    assert name in PERSONAS["normal"]
    for typed, level, label in [
        ("dificil", "dificil", "Difícil"),
        ("Fácil", "facil", "Fácil"),
        ("", "experto", "Experto"),
    ]:
        _, lines = play(Script([typed, "q"]), choose_bot=True, players=4, seed=2)
        seats = table(lines).removeprefix("En la mesa: Vos, ").split(", ")
        assert len(seats) == 3 and all(s.endswith(f" ({label})") for s in seats)
        assert all(s.removesuffix(f" ({label})") in PERSONAS[level] for s in seats)
        assert not any(re.search(r"\bBot\d", x) for x in lines)
    _, lines = play(Script(["7", "facil", "q"]), choose_bot=True, seed=1)
    assert "No hay nivel '7'. Podés: 1) Fácil · 2) Normal · 3) Difícil · 4) Experto" in "\n".join(
        lines
    )
    assert table(lines).endswith("(Fácil)")
    code, lines = play(Script(["q"]), choose_bot=True, seed=1)
    assert code == 0 and lines[-1] == "Partido abandonado antes de empezar."


def test_the_command_line_offers_the_levels(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from truco.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("3\nq\n"))
    assert main(["play", "--plain", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "¿Contra qué bots jugás?" in out and "(Difícil)" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--plain", "--seed", "1", "--bot", "facil"]) == 0
    out = capsys.readouterr().out
    assert "¿Contra qué bots" not in out and "(Fácil)" in out


def test_words_read_back_into_every_legal_action() -> None:
    """Over whole random matches (every variant, flor): each legal action's menu words, and
    the words without articles or in capitals, name that action and no other."""
    import random

    from truco.engine import CHANCE, apply, deal, legal_actions, to_act
    from truco.state import new_match
    from truco.tui.text import action_words, parse_words

    rng = random.Random(1)
    checked = 0
    cases: list[tuple[Variant, int, bool]] = [
        ("standard", 2, True),
        ("standard", 4, True),
        ("pata_de_gallo", 3, False),
    ]
    for variant, players, flor in cases:
        state = new_match(Rules(variant=variant, players=players, flor=flor, target=15), mano=0)
        while (seat := to_act(state)) is not None:
            if seat == CHANCE:
                state, _ = deal(state, rng)
                continue
            legal = legal_actions(state)
            for action in legal:
                words = action_words(action)
                for typed in (words, words.upper(), words.replace("el ", "")):
                    assert parse_words(typed, legal) is action, (typed, legal)
                    checked += 1
            state, _ = apply(state, rng.choice(legal))
    assert checked > 500


def test_the_ways_people_say_an_action() -> None:
    from truco.actions import Action, Verb
    from truco.cards import Card
    from truco.tui.text import parse_words

    hand = [Card.parse(c) for c in ("1e", "1o", "1c", "4c")]
    legal = [
        *(Action(Verb.PLAY, c) for c in hand),
        *(Action(Verb.TAPADA, c) for c in hand),
        Action(Verb.RETRUCO),
        Action(Verb.QUIERO),
        Action(Verb.NO_QUIERO),
        Action(Verb.MAZO),
    ]
    assert parse_words("ancho de espada", legal) is Action(Verb.PLAY, hand[0])
    assert parse_words("jugar el 1 de espadas (ancho de espada)", legal) is legal[0]
    assert parse_words("tiro el 4 de copa", legal) is Action(Verb.PLAY, hand[3])
    assert parse_words("tapo el 4 de copa", legal) is Action(Verb.TAPADA, hand[3])
    assert parse_words("juego tapada el 4 de copa", legal) is Action(Verb.TAPADA, hand[3])
    assert parse_words("4 de copa tapada", legal) is Action(Verb.TAPADA, hand[3])
    assert parse_words("¡Quiero retruco!", legal) is Action(Verb.RETRUCO)
    assert parse_words("quiero", legal) is Action(Verb.QUIERO)
    assert parse_words("No quiero", legal) is Action(Verb.NO_QUIERO)
    assert parse_words("¡Me voy al mazo!", legal) is Action(Verb.MAZO)
    assert parse_words("al mazo", legal) is Action(Verb.MAZO)
    # words that name something not possible now are still read (the game says why not)
    assert parse_words("vale cuatro", legal) is Action(Verb.VALE_CUATRO)
    assert parse_words("jugar el 7 de oro", legal) is Action(Verb.PLAY, Card.parse("7o"))
    # both anchos falsos in hand: "ancho falso" names neither; with one, that one
    assert parse_words("ancho falso", legal) is None
    assert parse_words("ancho falso", legal[1:2]) is Action(Verb.PLAY, hand[1])
    for nonsense in ("", "xyz", "jugar", "jugar el 8 de oro", "13 espada", "quiero quiero"):
        assert parse_words(nonsense, legal) is None, nonsense


def test_a_command_too_long_is_refused_not_echoed() -> None:
    out: list[str] = []
    run_text_game(seed=3, bot="facil", input_fn=Script(["jugar " * 100, "q"]), print_fn=out.append)
    refused = [x for x in out if x.startswith("No entiendo una orden de más de 80 letras.")]
    assert len(refused) == 1 and "jugar jugar" not in refused[0] and "Podés: 1) " in refused[0]


def test_a_bot_partner_s_senas_are_written() -> None:
    """At a table of four, the person's bot partner signs in every hand (issue 14); in 1 vs 1
    nobody does."""
    _, lines = play(Script(), players=4, target=15, seed=3, bot="normal")
    senas = [line for line in lines if "te hace una seña:" in line]
    hands = {m.group(1) for line in lines if (m := re.match(r"Mano (\d+) ", line))}
    assert len(senas) >= len(hands) > 1  # at least one seña (a card or "nada") each hand
    names = LocalGame(rules=Rules(players=4, target=15), seed=3, bot="normal").names
    assert all(line.startswith(names[2]) for line in senas)  # the partner, never a rival
    _, lines = play(Script(), players=2, target=15, seed=3, bot="normal")
    assert not any("te hace una seña:" in line for line in lines)

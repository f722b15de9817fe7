"""The anotador: the score, the quick amounts, the falta, undo, JSON and the saved game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from truco.anotador import (
    FALTA_MODES,
    FALTA_WORDS,
    SAVE_NAME,
    Anotador,
    Entry,
    data_dir,
    fosforos,
    fosforos_groups,
    load,
    save,
)


def game(*scores: int, **kwargs: object) -> Anotador:
    a = Anotador(names=[f"S{i}" for i in range(len(scores))], **kwargs)  # type: ignore[arg-type]
    for side, points in enumerate(scores):
        if points:
            a.add(side, points)
    return a


def test_plus_minus_and_bounds() -> None:
    a = Anotador()
    assert a.score == (0, 0)
    a.add(0)
    a.add(0)
    a.add(1, 3)
    a.add(0, -1)
    assert a.score == (1, 3)
    a.add(0, -5)  # never below zero
    assert a.score == (0, 3)
    a.add(1, 100)  # never above the target
    assert a.score == (0, 30)
    assert a.winner == 1
    with pytest.raises(ValueError):
        a.add(2, 1)
    with pytest.raises(ValueError):
        a.add(0, 0)


def test_quick_amounts() -> None:
    a = Anotador()
    for name, side in [("envido", 0), ("real envido", 0), ("truco", 1), ("retruco", 1)]:
        a.quick(side, name)
    a.quick(0, "vale cuatro")
    assert a.score == (2 + 3 + 4, 2 + 3)
    assert [e.what for e in a.entries][-1] == "vale cuatro"
    with pytest.raises(ValueError, match="no quick amount"):
        a.quick(0, "contraflor")


@pytest.mark.parametrize(
    ("scores", "target", "falta", "side", "expected"),
    [
        # match_if_malas (the default): both in the malas, the winner takes the match...
        ((0, 0), 30, "match_if_malas", 0, 30),
        ((12, 3), 30, "match_if_malas", 1, 27),
        # ...otherwise what the leader needs.
        ((20, 3), 30, "match_if_malas", 1, 10),
        ((3, 20), 30, "match_if_malas", 0, 10),
        # leader: always what the leader lacks.
        ((12, 3), 30, "leader", 1, 18),
        # litoral: both in the malas, what the leader needs to enter the buenas.
        ((12, 3), 30, "litoral", 1, 4),
        # doble: a winner in the malas gets what he needs to enter the buenas.
        ((12, 3), 30, "doble", 1, 13),
        ((20, 3), 30, "doble", 0, 10),
        # loser: what the rival lacks.
        ((20, 3), 30, "loser", 0, 27),
        # diferencia: both in the malas, just enough to pass the rival by one.
        ((12, 3), 30, "diferencia", 1, 10),
        # targets without halves: nobody is in the malas.
        ((4, 9), 15, "match_if_malas", 0, 6),
        ((4, 9), 10, "match_if_malas", 0, 1),
        # games at 24 and 40 have halves of 12 and 20.
        ((10, 5), 24, "match_if_malas", 1, 19),
        ((25, 5), 40, "match_if_malas", 1, 15),
    ],
)
def test_falta_envido(
    scores: tuple[int, int], target: int, falta: str, side: int, expected: int
) -> None:
    a = game(*scores, target=target, falta=falta)
    assert a.falta_points(side) == expected
    entry = a.quick(side, "falta envido")
    assert entry == Entry(side, expected, "falta envido")


def test_falta_with_three_sides_counts_the_leader() -> None:
    a = game(3, 5, 20)  # side 2 leads and is in the buenas
    assert a.falta_points(0) == 10  # what the leader lacks (T - M)
    # against a side in the malas, both "in the malas": the winner takes the match
    assert a.falta_points(0, against=1) == 27
    with pytest.raises(ValueError):
        a.falta_points(0, against=0)


def test_malas_and_buenas() -> None:
    a = game(15, 16)
    assert a.status(0) == "malas"
    assert a.status(1) == "1 buena"
    a.add(1, 2)
    assert a.status(1) == "3 buenas"
    # Every target has halves (issue 17, seed 002: "Antes de la mitad del puntaje ... en malas").
    assert game(7, 0, target=15).status(0) == "malas"
    assert game(8, 0, target=15).status(0) == "1 buena"
    assert game(0, 0, target=24).half == 12


def test_undo_takes_back_each_change_in_order() -> None:
    a = Anotador()
    a.quick(0, "truco")
    a.add(1, 1)
    a.add(0, -1)
    assert a.score == (1, 1)
    assert a.undo() == Entry(0, -1, "")
    assert a.score == (2, 1)
    assert a.undo() == Entry(1, 1, "")
    assert a.undo() == Entry(0, 2, "truco")
    assert a.undo() is None
    assert a.score == (0, 0)


def test_undo_of_a_clamped_change_restores_the_score() -> None:
    a = game(2, 0)
    a.add(0, -5)
    assert a.score == (0, 0)
    a.undo()
    assert a.score == (2, 0)


def test_json_round_trip() -> None:
    a = Anotador(names=["Ana", "Beto", "Caro"], target=15, falta="loser")
    a.quick(2, "retruco")
    a.add(1, -1)
    text = a.dumps()
    assert json.loads(text)["names"] == ["Ana", "Beto", "Caro"]
    b = Anotador.loads(text)
    assert b == a
    assert b.score == a.score


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"names": ["a"], "target": 30, "entries": []}',
        '{"names": ["a", "b"], "target": 31, "entries": []}',
        '{"names": ["a", "b"], "target": 30, "entries": [[5, 1, ""]]}',
        '{"names": ["a", "b"], "target": 30, "falta": "nope", "entries": []}',
        '{"names": ["a", "b"]}',
    ],
)
def test_bad_json_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Anotador.loads(text)


def test_data_dir_follows_xdg(tmp_path: Path) -> None:
    assert data_dir({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "truco"
    assert data_dir({}) == Path.home() / ".local" / "share" / "truco"
    assert data_dir({"XDG_DATA_HOME": "relative"}) == Path.home() / ".local" / "share" / "truco"


def test_save_and_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert load() is None
    a = Anotador(names=["Nos", "Ellos"], target=15)
    a.quick(0, "envido")
    path = save(a)
    assert path == tmp_path / "truco" / SAVE_NAME
    assert load() == a
    path.write_text("{broken", encoding="utf-8")
    assert load() is None  # a broken file is a fresh start, not a crash


def test_fosforos() -> None:
    assert fosforos_groups(0) == []
    assert fosforos_groups(12) == [5, 5, 2]
    assert fosforos(5, 15) == ["┌─┐", "│╱│", "└─┘"]
    lines = fosforos(17, 30)
    assert len(lines) == 3
    # three full squares, the gap between malas and buenas, then two matches
    assert lines[1] == "│╱│ │╱│ │╱│   │"
    assert fosforos(0, 30) == ["", "", ""]


def test_the_winner_and_the_falta_rule_in_the_words_of_the_table() -> None:
    a = Anotador()
    assert a.winner_words(0) == "¡Ganamos!"
    assert a.winner_words(1) == "¡Ganaron ellos!"
    assert Anotador(names=["Ana", "Beto"]).winner_words(1) == "¡Ganó Beto!"
    assert Anotador(names=["Nosotros", "Ellos", "Otros"]).winner_words(0) == "¡Ganó Nosotros!"
    assert a.falta_words.startswith("el partido si los dos están en malas")
    for mode in FALTA_MODES:
        assert FALTA_WORDS[mode] and "_" not in FALTA_WORDS[mode]


def test_a_new_game_can_be_undone() -> None:
    a = Anotador()
    a.quick(0, "truco")
    a.add(1, 3)
    a.reset()
    assert a.score == (0, 0)
    assert a.undo() == Entry(1, 3, "")
    assert a.score == (2, 3)
    a.undo()
    assert a.score == (2, 0)
    a.reset()
    a.add(1, 1)  # a change after the new game: undo takes that back, not the old game
    a.undo()
    assert a.undo() is None and a.score == (0, 0)

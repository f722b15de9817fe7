"""Golden hand histories: every ``tests/golden/*.toml`` is one hand and what must come of it.

Each file is a hand history in the notation of docs/notation.md ("Hand histories: the notation,
version 1") followed by an ``[expect]`` table (described there too). Only the keys present in
``[expect]`` are checked:

- ``points = [a, b]``: this hand's points per team (per player in pata de gallo and destantado,
  where a destantado giver's are negative);
- ``score = [a, b]``: the team scores after the last action (per player likewise; destantado:
  the porotos left in each pile);
- ``winner = N``: the team that won the match, or the player where scores are per player
  (absent: nobody has won, checked too);
- ``finished = true|false``: whether the hand (or the match) is over after the last action;
- ``hand_winner = N``: the team that took the truco part (HandEnded; -1: the match ended first);
- ``declared = ["0 27", "1 son-buenas"]``: the envido/flor declarations, in order;
- ``legal_after = ["play 1e", "truco", ...]``: exactly the legal actions after the last action;
- ``porotos = ["0>1 2 envido", "1>pot 1 truco-no-quiero"]``: destantado's PorotosPassed events,
  in order, as ``GIVER>TAKER POINTS REASON`` (``pot`` for the pot);
- ``next_sizes = [4, 3, 3]``: after a finished hand, the cards each seat gets in the next deal;
- ``next_mano = N``: after a finished hand, the mano of the next one;
- ``error = "substring"``: the file must be refused (reading or replaying raises a TrucoError
  whose message contains the substring, ignoring case); nothing else is checked then.

The ``[expect]`` table is read on its own (from its header line to the end of the file), so a
golden whose history is not even valid TOML can still say which error it expects.
Every golden that replays is also written back with ``dumps`` and read again: the history must
come back equal and replay to the same score.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from truco import notation
from truco.actions import Deal
from truco.cards import DECK
from truco.engine import apply, hand_sizes, legal_actions
from truco.errors import TrucoError
from truco.events import HandEnded, PointsDeclared, PorotosPassed
from truco.state import DEAL, State

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.toml"))
KEYS = {
    "points",
    "score",
    "winner",
    "finished",
    "hand_winner",
    "declared",
    "error",
    "legal_after",
    "porotos",
    "next_sizes",
    "next_mano",
}
# Goldens where the engine disagrees with the rules as written: strict xfails, so that the
# day the engine is fixed the test says so and the entry must go.
ENGINE_DISAGREES: dict[str, str] = {}
_EXPECT_HEADER = re.compile(r"^\[expect\][ \t]*(#.*)?$", re.MULTILINE)


def read_expect(text: str) -> dict[str, Any]:
    """The ``[expect]`` table, parsed apart from the rest of the file."""
    headers = list(_EXPECT_HEADER.finditer(text))
    assert len(headers) == 1, "a golden file needs exactly one [expect] table, at its end"
    expect: dict[str, Any] = tomllib.loads(text[headers[0].start() :])["expect"]
    unknown = set(expect) - KEYS
    assert not unknown, f"unknown [expect] key(s): {sorted(unknown)}"
    assert expect, "[expect] checks nothing"
    return expect


def declared_strings(events: tuple[Any, ...]) -> list[str]:
    return [
        f"{e.seat} {'son-buenas' if e.points is None else e.points}"
        for e in events
        if type(e) is PointsDeclared
    ]


def porotos_strings(events: tuple[Any, ...]) -> list[str]:
    return [
        f"{e.seat}>{'pot' if e.to < 0 else e.to} {e.points} {e.reason}"
        for e in events
        if type(e) is PorotosPassed
    ]


def next_mano(state: State) -> int:
    """The mano of the next hand: deal it (the deck in order, in the sizes it takes, and in
    Truco Paulista the next card as the vira) and look."""
    cards = iter(range(len(DECK)))
    hands = tuple(tuple(DECK[next(cards)] for _ in range(n)) for n in hand_sizes(state))
    rules = state.rules
    vira = DECK[next(cards)] if rules.game == "paulista" and rules.manilhas == "vira" else None
    return apply(state, Deal(hands, vira)).state.mano


def check_error(text: str, wanted: str) -> None:
    with pytest.raises(TrucoError) as info:
        notation.replay(notation.loads(text))
    message = str(info.value)
    assert wanted.lower() in message.lower(), f"error {message!r} does not say {wanted!r}"


def _cases() -> list[Any]:
    return [
        pytest.param(
            path,
            id=path.name,
            marks=[pytest.mark.xfail(strict=True, reason=ENGINE_DISAGREES[path.name])]
            if path.name in ENGINE_DISAGREES
            else [],
        )
        for path in FILES
    ]


@pytest.mark.parametrize("path", _cases())
def test_golden(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    expect = read_expect(text)
    if "error" in expect:
        check_error(text, expect["error"])
        return

    history = notation.loads(text)
    result = notation.replay(history)

    if "points" in expect:
        assert list(result.points) == expect["points"], "points of this hand"
    if "score" in expect:
        assert list(result.score) == expect["score"], "score after the last action"
    assert result.winner == expect.get("winner"), "winner of the match"
    if "finished" in expect:
        assert result.finished is expect["finished"], "whether the hand is over"
    if "hand_winner" in expect:
        ended = [e for e in result.events if type(e) is HandEnded]
        assert ended, "the hand did not end, so it has no hand_winner"
        assert ended[-1].winner == expect["hand_winner"], "team that took the truco part"
    if "declared" in expect:
        assert declared_strings(result.events) == expect["declared"], "declarations"
    if "legal_after" in expect:
        legal = Counter(str(a) for a in legal_actions(result.state))
        assert legal == Counter(expect["legal_after"]), "legal actions after the last action"
    if "porotos" in expect:
        assert porotos_strings(result.events) == expect["porotos"], "porotos passed"
    if "next_sizes" in expect or "next_mano" in expect:
        assert result.state.phase == DEAL, "no next hand: the hand is not over, or the match is"
    if "next_sizes" in expect:
        assert list(hand_sizes(result.state)) == expect["next_sizes"], "next deal's hand sizes"
    if "next_mano" in expect:
        assert next_mano(result.state) == expect["next_mano"], "mano of the next hand"

    again = notation.loads(notation.dumps(history))
    assert again == history, "dumps then loads changes the history"
    assert notation.replay(again).score == result.score, "the written history replays otherwise"


def test_there_are_goldens() -> None:
    assert FILES, f"no golden files in {GOLDEN}"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_golden_names_its_rule_and_source(path: Path) -> None:
    head = path.read_text(encoding="utf-8").split("\n[expect]")[0]
    assert head.startswith("# Rule:"), "a golden starts with '# Rule: ...'"
    assert "Source" in head, "a golden names the source of its rule"


def test_engine_disagreements_name_existing_goldens() -> None:
    names = {p.name for p in FILES}
    assert set(ENGINE_DISAGREES) <= names

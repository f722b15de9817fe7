"""Perft-style counts: how many distinct action sequences a fixed deal allows.

Each file in ``tests/perft/`` pins, for one deal, the number of action sequences of exactly N
actions from the deal (``depthN``; lines that end sooner are not counted), and, where it is cheap
enough, the number of sequences from the deal to the end of the hand (``sequences``) and how
many of those end with each hand score (``[outcomes]``, keyed ``"points of team 0-points of
team 1"``). Any change to what is legal, or to what an action scores, changes these numbers.

The counts are a depth-first search memoized on the state without its ``log`` (and without
``rules``, which is the same everywhere in one search): many orders of play reach the same
state, and the log does not change what can follow. ``test_memo_matches_plain_count`` checks
that on a small subtree.

To print fresh counts after an intended change of the rules:
``.venv/bin/python tests/test_perft.py tests/perft/1v1-default.txt``.
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from truco.actions import Action, Deal
from truco.cards import Card, parse_cards
from truco.engine import apply, legal_actions
from truco.rules import OPTION_NAMES, Rules, from_options
from truco.state import PLAY, State, new_match

PERFT_DIR = Path(__file__).parent / "perft"
FAST_DEPTH = 6
"""Depth counts up to this run by default; deeper ones are marked slow."""
FAST_SEQUENCES = 250_000
"""Whole-hand counts up to this many sequences run by default; bigger ones are marked slow."""

# --- counting -------------------------------------------------------------------------------

_DROP = frozenset(("rules", "log"))
_KEEP = tuple(i for i, name in enumerate(State._fields) if name not in _DROP)


def state_key(state: State) -> tuple[Any, ...]:
    """The state without its log (and rules, fixed within a search): equal keys, equal futures."""
    return tuple(state[i] for i in _KEEP)


def children(state: State) -> Iterator[State]:
    for action in legal_actions(state):
        yield apply(state, action).state


def hand_outcomes(
    state: State, memo: dict[Any, Counter[tuple[int, ...]]]
) -> Counter[tuple[int, ...]]:
    """Sequences from ``state`` to the end of the hand, counted by the hand's points."""
    if state.phase != PLAY:
        return Counter({state.hand_points: 1})
    key = state_key(state)
    found = memo.get(key)
    if found is not None:
        return found
    total: Counter[tuple[int, ...]] = Counter()
    for child in children(state):
        total.update(hand_outcomes(child, memo))
    memo[key] = total
    return total


def perft(state: State, depth: int, memo: dict[Any, int]) -> int:
    """Action sequences of exactly ``depth`` actions from ``state`` within the hand."""
    if depth == 0:
        return 1
    if state.phase != PLAY:
        return 0
    key = (state_key(state), depth)
    found = memo.get(key)
    if found is not None:
        return found
    total = sum(perft(child, depth - 1, memo) for child in children(state))
    memo[key] = total
    return total


def plain_count(state: State) -> int:
    """Sequences to the end of the hand, without memo (for small subtrees only)."""
    if state.phase != PLAY:
        return 1
    return sum(plain_count(child) for child in children(state))


# --- the data files ---------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    rules: Rules
    mano: int
    score: tuple[int, ...]
    hands: tuple[str, ...]
    vira: str | None
    """Truco Paulista: the card turned up (``vira`` key); None elsewhere."""
    depths: dict[int, int]
    sequences: int | None
    outcomes: dict[tuple[int, ...], int] | None
    raw: dict[str, Any] = field(repr=False)

    def start(self) -> State:
        match = new_match(self.rules, mano=self.mano, score=self.score)
        vira = None if self.vira is None else Card.parse(self.vira)
        return apply(match, Deal(tuple(parse_cards(h) for h in self.hands), vira)).state


def _points_key(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("-"))


def load_case(path: Path) -> Case:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    options = {k: v for k, v in data.items() if k in OPTION_NAMES}
    depths = {int(k[5:]): v for k, v in data.items() if k.startswith("depth")}
    known = {"mano", "score", "hands", "vira", "sequences", "outcomes"}
    unknown = set(data) - set(options) - known - {f"depth{n}" for n in depths}
    assert not unknown, f"{path.name}: unknown keys {sorted(unknown)}"
    assert sorted(depths) == list(range(1, len(depths) + 1)), f"{path.name}: depths 1..N"
    outcomes = data.get("outcomes")
    return Case(
        name=path.stem,
        rules=from_options(None, options),
        mano=data.get("mano", 0),
        score=tuple(data.get("score", [0, 0])),
        hands=tuple(data["hands"]),
        vira=data.get("vira"),
        depths=depths,
        sequences=data.get("sequences"),
        outcomes=None if outcomes is None else {_points_key(k): v for k, v in outcomes.items()},
        raw=data,
    )


CASES = [load_case(p) for p in sorted(PERFT_DIR.glob("*.txt"))]


def _depth_params() -> list[Any]:
    params = []
    for case in CASES:
        for depth, expected in case.depths.items():
            marks = [pytest.mark.slow] if depth > FAST_DEPTH else []
            params.append(
                pytest.param(case, depth, expected, id=f"{case.name}-d{depth}", marks=marks)
            )
    return params


def _hand_params() -> list[Any]:
    return [
        pytest.param(
            case,
            id=case.name,
            marks=[pytest.mark.slow] if case.sequences > FAST_SEQUENCES else [],
        )
        for case in CASES
        if case.sequences is not None
    ]


def test_the_cases_are_there() -> None:
    names = {case.name for case in CASES}
    assert len(names) >= 5
    players = {case.rules.players for case in CASES}
    assert {2, 4} <= players
    assert any(case.rules.flor for case in CASES)
    assert any(case.rules.tapada == "always" for case in CASES)
    assert any(max(case.score) >= case.rules.target - 3 for case in CASES)


_DEPTH_MEMOS: dict[str, dict[Any, int]] = {}


@pytest.mark.parametrize(("case", "depth", "expected"), _depth_params())
def test_perft_depth(case: Case, depth: int, expected: int) -> None:
    memo = _DEPTH_MEMOS.setdefault(case.name, {})
    assert perft(case.start(), depth, memo) == expected


@pytest.mark.parametrize("case", _hand_params())
def test_sequences_to_the_end_of_the_hand(case: Case) -> None:
    found = hand_outcomes(case.start(), {})
    assert sum(found.values()) == case.sequences
    if case.outcomes is not None:
        assert sum(case.outcomes.values()) == case.sequences, "the file's outcomes add up"
        assert dict(found) == case.outcomes


# --- counts checked by hand -------------------------------------------------------------------

MANO_HAND, PIE_HAND = "1e 4c 5o", "7o 6c 12b"


def _start(rules: Rules, *hands: str, score: tuple[int, int] | None = None) -> State:
    match = new_match(rules, score=score)
    return apply(match, Deal(tuple(parse_cards(h) for h in hands))).state


def _names(state: State) -> list[str]:
    return [str(a) for a in legal_actions(state)]


def _after(state: State, *actions: str) -> State:
    for text in actions:
        state = apply(state, Action.parse(text)).state
    return state


def test_depth1_1v1_by_hand() -> None:
    # The mano may play one of 3 cards, call truco, or any of the 3 envidos, or go to the mazo.
    state = _start(Rules(), MANO_HAND, PIE_HAND)
    assert sorted(_names(state)) == sorted(
        ["play 1e", "play 4c", "play 5o", "truco", "envido", "real-envido", "falta-envido", "mazo"]
    )
    assert perft(state, 1, {}) == 8


def test_depth2_1v1_by_hand() -> None:
    # After a card (3 ways) the pie has the same 8 choices as the mano had (he has not played
    # yet, so he may still call envido): 24. After truco: quiero, no-quiero, retruco, mazo
    # and the 3 envidos of "el envido esta primero": 7. After envido: quiero, no-quiero,
    # envido, real-envido, falta-envido: 5. After real-envido: quiero, no-quiero, falta: 3.
    # After falta-envido: quiero, no-quiero: 2. After mazo the hand is over: 0.
    state = _start(Rules(), MANO_HAND, PIE_HAND)
    assert [len(legal_actions(_after(state, a))) for a in ("truco", "envido")] == [7, 5]
    assert perft(state, 2, {}) == 24 + 7 + 5 + 3 + 2 == 41


def test_envido_until_first_card_by_hand() -> None:
    # With envido only before the hand's first card, the pie who follows a card loses his
    # 3 envidos: 3 * 5 + 7 + 5 + 3 + 2.
    state = _start(Rules(envido_until="first_card"), MANO_HAND, PIE_HAND)
    assert perft(state, 1, {}) == 8
    assert perft(state, 2, {}) == 15 + 7 + 5 + 3 + 2 == 32


def test_tapada_always_by_hand() -> None:
    # Depth 1: 3 cards face up, 3 face down, truco, 3 envidos, mazo = 11.
    # Depth 2: after any of the 6 cards the pie has 11 choices (66), then 7 + 5 + 3 + 2 as above.
    state = _start(Rules(tapada="always"), MANO_HAND, PIE_HAND)
    assert perft(state, 1, {}) == 11
    assert perft(state, 2, {}) == 66 + 7 + 5 + 3 + 2 == 83


def test_tapada_from_second_by_hand() -> None:
    # Default tapada: not in the first trick, but in the second: after "play 1e", "play 7o"
    # (1e wins) the mano has 2 cards up, 2 down, truco and mazo: 6.
    state = _after(_start(Rules(), MANO_HAND, PIE_HAND), "play 1e", "play 7o")
    assert sorted(_names(state)) == sorted(
        ["play 4c", "play 5o", "tapada 4c", "tapada 5o", "truco", "mazo"]
    )


def test_flor_by_hand() -> None:
    flor = Rules(flor=True)
    # The mano holds flor: his one action is to sing it. Unopposed, it scores at once and he
    # acts again: 3 cards, truco, mazo (no envido after a flor) = 5.
    mano_flor = _start(flor, "1e 4e 5e", PIE_HAND)
    assert _names(mano_flor) == ["flor"]
    assert perft(mano_flor, 2, {}) == 5
    assert _after(mano_flor, "flor").hand_points == (3, 0)
    # Both hold flor: the pie answers the flor with one of 4 answers.
    both = _start(flor, "1e 4e 5e", "7o 6o 12o")
    assert perft(both, 1, {}) == 1
    assert sorted(_names(_after(both, "flor"))) == sorted(
        ["con-flor-quiero", "con-flor-me-achico", "contraflor", "contraflor-al-resto"]
    )
    assert perft(both, 2, {}) == 4
    # Only the pie holds flor: the mano has his usual 8; whatever he does but the mazo, the
    # pie's one answer is to sing his flor (an envido call is cancelled by it): 7.
    pie_flor = _start(flor, MANO_HAND, "7o 6o 12o")
    assert perft(pie_flor, 1, {}) == 8
    assert perft(pie_flor, 2, {}) == 7


def test_2v2_by_hand() -> None:
    # As in 1v1 (8, then 24 + 7 + 5 + 3 + 2), plus: after the mano goes to the mazo his
    # partner is still in, and seat 1 plays with all 8 choices: 49.
    state = _start(Rules(players=4), MANO_HAND, PIE_HAND, "3e 2b 11c", "1o 7b 10e")
    assert perft(state, 1, {}) == 8
    assert perft(state, 2, {}) == 24 + 7 + 5 + 3 + 2 + 8 == 49


def test_envido_at_29_29_by_hand() -> None:
    # At 29-29 (target 30, match ends at reach) any envido point ends the match, so every
    # sequence that starts with an envido call ends when the call is settled. With f(chain) the
    # number of ways to settle a chain (quiero, no-quiero, or any allowed raise):
    # f(E E R F) = 2, f(E E R) = 2 + 2, f(E E F) = 2, f(E E) = 2 + 4 + 2 = 8,
    # f(E R F) = 2, f(E R) = 4, f(E F) = 2, f(E) = 2 + 8 + 4 + 2 = 16; f(R) = 4; f(F) = 2.
    state = _start(Rules(), MANO_HAND, PIE_HAND, score=(29, 29))
    counts = {
        call: sum(hand_outcomes(_after(state, call), {}).values())
        for call in ("envido", "real-envido", "falta-envido")
    }
    assert counts == {"envido": 16, "real-envido": 4, "falta-envido": 2}
    # The mano has 5 envido points (no pair), the pie 7: an accepted envido ends the match for
    # the pie, whatever the truco would have given.
    over = _after(state, "envido", "quiero")
    assert (over.hand_points, over.score, over.winner) == ((0, 2), (29, 31), 1)
    # Every outcome of an envido call is one team scoring, and the match ends there.
    outcomes = hand_outcomes(_after(state, "envido"), {})
    assert all(min(points) == 0 for points in outcomes)


def test_paulista_by_hand() -> None:
    # Truco Paulista: the mano has his 3 cards and truco (no envido, flor or mazo): 4. After a
    # card the pie has the same 4 (12); after truco: desce, corre, seis (3): 15.
    paulista = Rules(game="paulista")
    hands = tuple(parse_cards(h) for h in (MANO_HAND, PIE_HAND))
    state = apply(new_match(paulista), Deal(hands, Card.parse("3b"))).state
    assert perft(state, 1, {}) == 4
    assert perft(state, 2, {}) == 3 * 4 + 3 == 15
    # A mão de onze: joga or corre first (2); corre ends the hand, and after joga nobody may
    # call truco: the mano's 3 cards (depth 2: 3), then the pie's 3 for each (depth 3: 9).
    onze = apply(new_match(paulista, score=(11, 3)), Deal(hands, Card.parse("3b"))).state
    assert perft(onze, 1, {}) == 2
    assert perft(onze, 2, {}) == 3
    assert perft(onze, 3, {}) == 9
    # A blind mão de ferro has one sequence: every card is forced.
    ferro = apply(new_match(paulista, score=(11, 11)), Deal(hands, Card.parse("3b"))).state
    assert plain_count(ferro) == 1


def test_memo_matches_plain_count() -> None:
    # The memoized count (state without its log) agrees with a plain walk of every path.
    state = _start(Rules(), MANO_HAND, PIE_HAND, score=(20, 20))
    state = _after(state, "play 4c", "play 6c")  # 6c wins: the pie leads the second trick
    plain = plain_count(state)
    assert sum(hand_outcomes(state, {}).values()) == plain
    assert 100 < plain < 20_000


# --- regenerating -----------------------------------------------------------------------------


def _print_counts(path: Path, max_depth: int) -> None:
    case = load_case(path)
    start = case.start()
    memo: dict[Any, int] = {}
    for depth in range(1, max_depth + 1):
        print(f"depth{depth} = {perft(start, depth, memo)}")
    if case.sequences is not None:
        found = hand_outcomes(start, {})
        print(f"sequences = {sum(found.values())}\n\n[outcomes]")
        for points, n in sorted(found.items()):
            print(f'"{"-".join(map(str, points))}" = {n}')


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(f"# {arg}")
        _print_counts(Path(arg), max(load_case(Path(arg)).depths, default=4))

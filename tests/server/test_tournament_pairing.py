"""The pairing of a tournament's round (``tournaments/pairing.py``): properties over random
fields of players, each checked against a brute force where one is cheap."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from truco.server.tournaments.pairing import Entrant, pair, ranked, rematches, snake


@st.composite
def fields(draw: st.DrawFn, most: int = 12) -> list[Entrant]:
    n = draw(st.integers(0, most))
    names = [f"p{i}" for i in range(n)]
    pairs = list(itertools.combinations(names, 2))
    met_pairs = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    met: dict[str, set[str]] = {x: set() for x in names}
    for a, b in met_pairs:
        met[a].add(b)
        met[b].add(a)
    return [
        Entrant(
            x,
            score=draw(st.integers(0, 4)) / 1,
            rating=draw(st.integers(1000, 2000)),
            met=frozenset(met[x]),
        )
        for x in names
    ]


def _met(entrants: list[Entrant]) -> dict[str, frozenset[str]]:
    return {e.player: e.met for e in entrants}


@given(fields(), st.sampled_from([1, 2, 3]), st.booleans())
def test_nobody_is_seated_twice_and_everyone_is_placed(
    entrants: list[Entrant], per_side: int, swiss: bool
) -> None:
    tables, left = pair(entrants, per_side, avoid_rematches=swiss)
    seated = [x for t in tables for x in t.players]
    assert len(seated) == len(set(seated))
    assert sorted(seated + left) == sorted(e.player for e in entrants)
    assert len(left) < 2 * per_side
    for t in tables:
        assert len(t.sides[0]) == len(t.sides[1]) == per_side
        assert sorted(t.seats()) == list(range(2 * per_side))


@given(fields(), st.sampled_from([1, 2, 3]))
def test_arena_seats_neighbours_in_the_standings(entrants: list[Entrant], per_side: int) -> None:
    """Without rematches to avoid, each table is the next block of the ranking (score, then
    rating), and those left over are the lowest ranked."""
    tables, left = pair(entrants, per_side, avoid_rematches=False)
    order = [e.player for e in ranked(entrants)]
    size = 2 * per_side
    for i, t in enumerate(tables):
        assert sorted(t.players) == sorted(order[i * size : (i + 1) * size])
    assert left == order[len(tables) * size :]


def _clean_matching_exists(players: list[str], met: dict[str, frozenset[str]], k: int) -> bool:
    """Brute force: can ``k`` disjoint pairs be formed of players who never met?"""
    if k == 0:
        return True
    if len(players) < 2 * k:
        return False
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        if other not in met[first] and _clean_matching_exists(rest[:i] + rest[i + 1 :], met, k - 1):
            return True
    return _clean_matching_exists(rest, met, k)


@settings(max_examples=300)
@given(fields(most=10))
def test_swiss_has_no_rematch_while_one_can_be_avoided(entrants: list[Entrant]) -> None:
    tables, _ = pair(entrants, 1, avoid_rematches=True)
    met = _met(entrants)
    names = [e.player for e in entrants]
    if _clean_matching_exists(names, met, len(entrants) // 2):
        assert rematches(tables, met) == 0
    assert len(tables) == len(entrants) // 2  # a rematch is allowed rather than a table lost


@given(fields(most=9))
def test_swiss_of_teams_has_no_rematch_while_one_can_be_avoided(entrants: list[Entrant]) -> None:
    tables, _ = pair(entrants, 2, avoid_rematches=True)
    met = _met(entrants)
    names = [e.player for e in entrants]
    k = len(names) // 4

    def clean(group: tuple[str, ...]) -> bool:
        return all(b not in met[a] for a, b in itertools.combinations(group, 2))

    def exists(free: list[str], k: int) -> bool:
        if k == 0:
            return True
        return any(
            clean(g) and exists([x for x in free if x not in g], k - 1)
            for g in itertools.combinations(free, 4)
        )

    if exists(names, k):
        assert rematches(tables, met) == 0


def test_the_top_of_a_swiss_round_meets_the_next_one_it_did_not_meet() -> None:
    field = [
        Entrant("a", 2, 1500, frozenset({"b"})),
        Entrant("b", 2, 1400, frozenset({"a"})),
        Entrant("c", 1, 1600),
        Entrant("d", 0, 1000),
    ]
    tables, left = pair(field, 1, avoid_rematches=True)
    assert [t.sides for t in tables] == [(("a",), ("c",)), (("b",), ("d",))]
    assert left == []
    # The arena does not look back: a and b meet again at once.
    tables, _ = pair(field, 1, avoid_rematches=False)
    assert [t.sides for t in tables] == [(("a",), ("b",)), (("c",), ("d",))]


def test_sides_are_dealt_in_a_snake() -> None:
    assert snake(["1", "2", "3", "4"]) == (("1", "4"), ("2", "3"))
    assert snake(["1", "2", "3", "4", "5", "6"]) == (("1", "4", "5"), ("2", "3", "6"))
    tables, _ = pair([Entrant(str(i), 0, 2000 - i) for i in range(4)], 2, avoid_rematches=False)
    assert tables[0].seats() == {0: "0", 2: "3", 1: "1", 3: "2"}

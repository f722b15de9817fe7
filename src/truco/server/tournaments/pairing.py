"""The pairing of a tournament's round: pure, no clock, no database (docs/players.md, "Torneos").

Players are ranked by score, then rating, then id (a fixed order for equal ones), and taken in
that order into tables of ``2 * per_side`` seats: each table holds neighbours in the standings.
Swiss avoids rematches: a table is formed, when it can be, of players none of whom met another
before (an exact search, bounded; past its bound the first fit is taken). The players left over
(fewer than a table) are returned as they are: the service gives them bots, a bye or a wait.

Sides are dealt in a snake (1st and 4th against 2nd and 3rd, ...), so that the strongest of a
table do not all play together; at the table, seat ``2i`` is side 0's ``i``-th player and seat
``2i + 1`` side 1's (truco's seats alternate between the teams).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

SEARCH_BUDGET = 20_000
"""Steps of the search for a round without rematches before it settles for the first fit."""


@dataclass(frozen=True, slots=True)
class Entrant:
    player: str
    score: float
    rating: float
    met: frozenset[str] = field(default_factory=frozenset)
    """Whom the player met before in this tournament (as partner or opponent)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    sides: tuple[tuple[str, ...], tuple[str, ...]]

    @property
    def players(self) -> tuple[str, ...]:
        return self.sides[0] + self.sides[1]

    def seats(self) -> dict[int, str]:
        """Seat -> player: side 0 on the even seats, side 1 on the odd ones."""
        out: dict[int, str] = {}
        for i, player in enumerate(self.sides[0]):
            out[2 * i] = player
        for i, player in enumerate(self.sides[1]):
            out[2 * i + 1] = player
        return out


def ranked(entrants: Iterable[Entrant]) -> list[Entrant]:
    """By score, then rating, highest first; then by id."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.player))


def snake(group: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Two sides of a group in strength order: 0, 3, 4, 7, ... against 1, 2, 5, 6, ..."""
    a: list[str] = []
    b: list[str] = []
    for i, player in enumerate(group):
        (a if i % 4 in (0, 3) else b).append(player)
    return tuple(a), tuple(b)


def pair(
    entrants: Iterable[Entrant], per_side: int, *, avoid_rematches: bool
) -> tuple[list[Pairing], list[str]]:
    """Tables for the players, best first, and the players left over (the lowest ranked)."""
    size = 2 * per_side
    order = ranked(entrants)
    tables = len(order) // size
    if tables == 0:
        return [], [e.player for e in order]
    groups: list[list[Entrant]] | None = None
    if avoid_rematches:
        groups = _without_rematches(order, size, tables)
    if groups is None:
        groups = [order[i * size : (i + 1) * size] for i in range(tables)]
    seated = {e.player for g in groups for e in g}
    left = [e.player for e in order if e.player not in seated]
    return [Pairing(snake([e.player for e in g])) for g in groups], left


def _without_rematches(order: list[Entrant], size: int, tables: int) -> list[list[Entrant]] | None:
    """``tables`` groups of ``size`` in which nobody met anybody, the top ranked first; the ones
    left over are the lowest ranked that allow it. None: none found within the budget."""
    met = {e.player: e.met for e in order}
    budget = [SEARCH_BUDGET]
    spare = len(order) - tables * size

    def fits(group: list[Entrant], e: Entrant) -> bool:
        return all(g.player not in met[e.player] and e.player not in met[g.player] for g in group)

    def search(free: list[Entrant], skipped: int, done: list[list[Entrant]]) -> bool:
        if len(done) == tables:
            return True
        budget[0] -= 1
        if budget[0] < 0 or not free:
            return False
        first, rest = free[0], free[1:]
        # ``first`` heads the next table, or (while players may be left over) sits out.
        for group in _groups(first, rest, size, fits, budget):
            others = [e for e in rest if e not in group]
            done.append(group)
            if search(others, skipped, done):
                return True
            done.pop()
            if budget[0] < 0:
                return False
        if skipped < spare:
            return search(rest, skipped + 1, done)
        return False

    done: list[list[Entrant]] = []
    return done if search(order, 0, done) else None


def _groups(
    first: Entrant,
    rest: list[Entrant],
    size: int,
    fits: Callable[[list[Entrant], Entrant], bool],
    budget: list[int],
) -> Iterable[list[Entrant]]:
    """The groups of ``size`` headed by ``first`` with nobody who met, nearest in rank first."""

    def grow(group: list[Entrant], start: int) -> Iterable[list[Entrant]]:
        if len(group) == size:
            yield list(group)
            return
        for i in range(start, len(rest)):
            budget[0] -= 1
            if budget[0] < 0:
                return
            e = rest[i]
            if fits(group, e):
                group.append(e)
                yield from grow(group, i + 1)
                group.pop()

    yield from grow([first], 0)


def rematches(pairings: Iterable[Pairing], met: dict[str, frozenset[str]]) -> int:
    """How many pairs of players at the same table met before."""
    count = 0
    for p in pairings:
        players = p.players
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                if b in met.get(a, frozenset()) or a in met.get(b, frozenset()):
                    count += 1
    return count


__all__ = ["Entrant", "Pairing", "pair", "ranked", "rematches", "snake"]

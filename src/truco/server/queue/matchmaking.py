"""Jugar ahora: who plays whom. Pure (no I/O, no clock): the queues call it with ``now``.

Docs: docs/players.md, "Jugar ahora".

**The window.** A player who has waited ``w`` seconds accepts rivals and partners whose rating
is within ``Curve.gap(w) = min(most, base + per_second * w)`` of hers: narrow at first (a fair
match is worth a few seconds), wider every second (a match at all is worth more than a perfect
one), and never wider than ``most`` (a beginner is never thrown to the best, however long either
waited; after ``bots_after`` seconds the bots are offered instead).

**A group.** The longest waiter who can be served is served first: taking the waiting players
from the oldest, each one (the *anchor*) gathers the players still free whose rating is within
the anchor's window of the anchor's rating, nearest rating first. With enough of them for the
mode (1, 3 or 5 besides the anchor) they form a table; otherwise the anchor keeps waiting and
the next oldest tries. So every member of a group is within the anchor's window of the anchor,
and nobody is left waiting who could have anchored a group of the players left free.

**Apart.** Two players one of whom blocks the other (``players/blocks.py``) are never in one
group: the anchor passes over a player who is apart from it or from one already gathered, and
takes the next nearest.

**Teams.** Of every way to split the group into two teams of equal size, the one whose rating
sums differ least (ties: the first in ticket order). Team 0 sits in the even seats, team 1 in
the odd ones (a seat's team is ``seat % 2``); within a team and in 1v1 the seats go by ticket
order, and tickets are random, so nobody is always mano.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

MODES: Final[dict[str, int]] = {"1v1": 2, "2v2": 4, "3v3": 6}
"""Each mode and its number of seats."""


@dataclass(frozen=True, slots=True)
class Curve:
    """How far from her own rating a player accepts others, by how long she has waited."""

    base: float = 3.0
    """The gap at once."""
    per_second: float = 0.5
    """How much it widens each second."""
    most: float = 25.0
    """The widest it gets."""

    def gap(self, waited: float) -> float:
        return min(self.most, self.base + self.per_second * max(0.0, waited))


@dataclass(frozen=True, slots=True)
class Waiting:
    """One waiting ticket as the pairing sees it."""

    ticket: str
    rating: float
    since: float
    """When it joined the queue (seconds; the same clock as ``now``)."""


@dataclass(frozen=True, slots=True)
class Match:
    """A table's worth of tickets."""

    mode: str
    anchor: str
    """The ticket whose window holds every member (the longest waiter who gathered them)."""
    seats: tuple[str, ...]
    """The tickets by seat: seat ``s`` plays for team ``s % 2``."""


def pair(
    mode: str,
    waiting: Sequence[Waiting],
    now: float,
    curve: Curve,
    apart: Collection[frozenset[str]] = frozenset(),
) -> list[Match]:
    """The tables that can be formed now from ``waiting`` (all of one mode); ``apart``: pairs of
    tickets never seated together."""
    size = MODES[mode]
    # The free players by rating, for the nearest-first search around each anchor.
    free = sorted(waiting, key=_by_rating)
    keys = [_by_rating(w) for w in free]
    matches = []
    for anchor in sorted(waiting, key=lambda w: (w.since, w.ticket)):
        at = bisect.bisect_left(keys, _by_rating(anchor))
        if at >= len(keys) or keys[at] != _by_rating(anchor):
            continue  # taken by an earlier group
        gap = curve.gap(now - anchor.since)
        chosen = _nearest(free, at, size - 1, gap, apart)
        if chosen is None:
            continue
        group = [free[i] for i in (at, *chosen)]
        for i in sorted((at, *chosen), reverse=True):
            del free[i]
            del keys[i]
        matches.append(Match(mode, anchor.ticket, seat_order(group)))
    return matches


def _by_rating(w: Waiting) -> tuple[float, float, str]:
    return (w.rating, w.since, w.ticket)


def _nearest(
    free: list[Waiting],
    at: int,
    wanted: int,
    gap: float,
    apart: Collection[frozenset[str]] = frozenset(),
) -> list[int] | None:
    """The indices of the ``wanted`` players nearest in rating to ``free[at]`` within ``gap``
    of it, none apart from another of the group (None: not enough of them). ``free`` is sorted
    by rating, so they lie on both sides."""
    rating = free[at].rating
    left, right = at - 1, at + 1
    found: list[int] = []
    group = [free[at].ticket]

    def fits(i: int) -> bool:
        return not apart or all(frozenset((free[i].ticket, t)) not in apart for t in group)

    while len(found) < wanted:
        dl = rating - free[left].rating if left >= 0 else None
        dr = free[right].rating - rating if right < len(free) else None
        if dl is not None and dl <= gap and (dr is None or dr > gap or dl <= dr):
            pick, left = left, left - 1
        elif dr is not None and dr <= gap:
            pick, right = right, right + 1
        else:
            return None
        if fits(pick):
            found.append(pick)
            group.append(free[pick].ticket)
    return found


def seat_order(group: Sequence[Waiting]) -> tuple[str, ...]:
    """The group's tickets by seat, in the two most even teams (see the module's docstring)."""
    members = sorted(group, key=lambda w: w.ticket)
    if len(members) == 2:
        return (members[0].ticket, members[1].ticket)
    team0, team1 = balanced(members)
    seats: list[str] = []
    for a, b in zip(team0, team1, strict=True):
        seats += [a.ticket, b.ticket]
    return tuple(seats)


def balanced(members: Sequence[Waiting]) -> tuple[list[Waiting], list[Waiting]]:
    """The split of ``members`` (in ticket order) into two halves whose rating sums differ
    least; the first half holds the first member. Exhaustive: at most 10 splits (3v3)."""
    half = len(members) // 2
    total = sum(w.rating for w in members)
    best: tuple[int, ...] | None = None
    best_diff = 0.0
    # Team 0 always holds member 0: each split is counted once.
    for rest in itertools.combinations(range(1, len(members)), half - 1):
        picks = (0, *rest)
        diff = abs(total - 2 * sum(members[i].rating for i in picks))
        if best is None or diff < best_diff:
            best, best_diff = picks, diff
    assert best is not None
    team0 = [members[i] for i in best]
    team1 = [w for i, w in enumerate(members) if i not in best]
    return team0, team1


__all__ = ["MODES", "Curve", "Match", "Waiting", "balanced", "pair", "seat_order"]

"""Match equity: the chance to win the match from a score, for weighing what a bet puts at stake.

Two teams read a table built by a small dynamic programme over typical hands; players who
score on their own (pata de gallo, destantado) race each other to the goal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from truco.bots.context import Ctx
from truco.rules import Rules
from truco.state import DEAL, OVER, State
from truco.variants import variant_of

# Points a team scores in a hand (envido and truco together), roughly, for the equity model.
_HAND_POINTS = ((1, 0.30), (2, 0.30), (3, 0.18), (4, 0.12), (5, 0.06), (7, 0.04))
# The same in Truco Paulista (no envido; a hand is worth 1, 3, 6, 9 or 12).
_PAULISTA_POINTS = ((1, 0.62), (3, 0.28), (6, 0.07), (9, 0.02), (12, 0.01))


@lru_cache(maxsize=16)
def equity_table(target: int, paulista: bool = False) -> tuple[tuple[float, ...], ...]:
    """P(win the match) for my score a and the rivals' b (0 .. target-1): a small DP where each
    hand gives one side (50/50) a number of points drawn from ``_HAND_POINTS`` (Truco
    Paulista's: ``_PAULISTA_POINTS``)."""
    points = _PAULISTA_POINTS if paulista else _HAND_POINTS
    me = [[0.0] * target for _ in range(target)]
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            value = 0.0
            for pts, p in points:
                mine = 1.0 if a + pts >= target else me[a + pts][b]
                theirs = 0.0 if b + pts >= target else me[a][b + pts]
                value += 0.5 * p * (mine + theirs)
            me[a][b] = value
    return tuple(tuple(row) for row in me)


def equity(target: int, mine: int, theirs: int, paulista: bool = False) -> float:
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return equity_table(target, paulista)[mine][theirs]


RACE_MAX = 128
"""The longest distance to the goal the race table covers (a destantado pile can grow)."""


def race(mine: int, theirs: int) -> float:
    """P(I get there first) when I still need ``mine`` points and a rival ``theirs``: the same DP
    as ``equity_table``, indexed by the distances to the goal (capped at ``RACE_MAX``)."""
    if mine <= 0:
        return 1.0
    if theirs <= 0:
        return 0.0
    table = equity_table(RACE_MAX)
    return table[RACE_MAX - min(mine, RACE_MAX)][RACE_MAX - min(theirs, RACE_MAX)]


def race_equity(needs: Sequence[int], me: int) -> float:
    """P(player ``me`` wins a race of several players who need ``needs`` points each: a
    heuristic. Each player's strength is the product of his two-player race chances against
    every other player, normalized over the players (so equal needs give 1/n)."""
    if needs[me] <= 0:
        return 1.0
    if any(n <= 0 for n in needs):
        return 0.0
    strength = [
        math.prod(race(a, b) for j, b in enumerate(needs) if j != i) for i, a in enumerate(needs)
    ]
    total = sum(strength)
    return strength[me] / total if total > 0.0 else 1.0 / len(needs)


def match_equity(rules: Rules, score: Sequence[int], seat: int, teams: Sequence[int]) -> float:
    """P(``seat`` wins the match) from ``score`` between hands.

    Teams (standard, pica-pica): the two-team table. Pata de gallo: a race of the three players
    to the target (each needs target - score). Destantado: a race to empty one's pile (each
    needs the porotos he has left; a pile that grew needs more). Both use ``race_equity``.
    """
    if not rules.individual:
        team = teams[seat]
        return equity(rules.target, score[team], score[1 - team], rules.game == "paulista")
    if variant_of(rules).piles:
        return race_equity(score, seat)
    return race_equity([rules.target - p for p in score], seat)


def equity_after(state: State, seat: int) -> float:
    """``seat``'s chance to win the match once the hand of ``state`` is over: 1 or 0 when the
    match is over too, else the equity of the score (his team's, in team play)."""
    if state.phase == OVER:
        mine = seat if state.rules.individual else state.teams[seat]
        return 1.0 if state.winner == mine else 0.0
    assert state.phase == DEAL
    return match_equity(state.rules, state.score, seat, state.teams)


def equity_if(ctx: Ctx, team: int, points: int) -> float:
    """My match equity if side ``team`` scores ``points`` now (each of its players, where
    players score on their own)."""
    score = list(ctx.score)
    if ctx.rules.individual:
        for s, t in enumerate(ctx.teams):
            if t == team:
                score[s] += points
    else:
        score[team] += points
    return match_equity(ctx.rules, score, ctx.seat, ctx.teams)

"""Envido knowledge: the chance to win an envido, what a falta is worth, pot odds."""

from __future__ import annotations

from truco.actions import Verb
from truco.bots.context import Ctx, sides
from truco.envido import chain_value, falta_value, side_scores
from truco.variants import variant_of

# P(win the envido against a random hand) by points, as mano (ties go to mano) and as pie
# (research notes 3.1; values in between interpolated).
_ENVIDO_MANO = {
    0: 0.05, 1: 0.06, 2: 0.07, 3: 0.08, 4: 0.1, 5: 0.2, 6: 0.29, 7: 0.41,
    20: 0.43, 21: 0.47, 22: 0.51, 23: 0.56, 24: 0.62, 25: 0.68, 26: 0.75, 27: 0.83,
    28: 0.88, 29: 0.92, 30: 0.95, 31: 0.98, 32: 0.99, 33: 1.0,
}  # fmt: skip
_ENVIDO_PIE = {
    0: 0.03, 1: 0.04, 2: 0.05, 3: 0.06, 4: 0.08, 5: 0.14, 6: 0.22, 7: 0.32,
    20: 0.40, 21: 0.44, 22: 0.47, 23: 0.51, 24: 0.57, 25: 0.62, 26: 0.68, 27: 0.75,
    28: 0.83, 29: 0.87, 30: 0.92, 31: 0.95, 32: 0.97, 33: 0.99,
}  # fmt: skip


def envido_win(points: int, mano_side: bool, caller_strength: float = 0.0) -> float:
    """P(win the envido) for ``points``; ``caller_strength`` (0..1) shifts against a caller's
    range, which is stronger than a random hand."""
    table = _ENVIDO_MANO if mano_side else _ENVIDO_PIE
    p = table.get(points, 0.1)
    return max(0.0, min(1.0, p - caller_strength * (1.0 - p) * 0.6 - caller_strength * 0.1))


def scores_mine_theirs(ctx: Ctx) -> tuple[int, int]:
    """(my side's score, the rivals' best score): per team, or, where players score on their own
    (pata de gallo), my own score and the best score of a player on the other side."""
    team = ctx.teams[ctx.seat]
    if not ctx.rules.individual:
        return ctx.score[team], ctx.score[1 - team]
    rival = max(p for s, p in enumerate(ctx.score) if ctx.teams[s] != team)
    return ctx.score[ctx.seat], rival


def falta_points(ctx: Ctx) -> int:
    """What a falta envido would be worth to my side now, as the engine will count it."""
    rules = ctx.rules
    if variant_of(rules).own_side:
        return rules.destantado_falta
    team = ctx.teams[ctx.seat]
    before = chain_value([v for v in ctx.chain if v is not Verb.FALTA_ENVIDO])
    sides = side_scores(rules.individual, ctx.score, ctx.teams)
    return falta_value(rules, sides, team, 1 - team, before)


def accept_threshold(win: int, lose: int) -> float:
    """Pot odds: accept when P(win) > (W - D) / (2W)."""
    return (win - lose) / (2 * win) if win > 0 else 0.0


def envido_shift(ctx: Ctx) -> int:
    """At a table of three, the envido points to call go up for a player alone against two
    (he must beat both) and down for a player with a partner (either may win it)."""
    if ctx.rules.players != 3:
        return 0
    rivals, partners = sides(ctx)
    return 2 * (rivals - 1) - partners


def side_envido_win(ctx: Ctx, caller_strength: float) -> float:
    """P(my side wins the envido): ``envido_win``; at a table of three, my points must beat
    each rival still in, and a partner's unknown points win it about 40% of the time when mine
    do not."""
    mano_side = ctx.teams[ctx.mano] == ctx.teams[ctx.seat]
    p = envido_win(ctx.tantos, mano_side, caller_strength)
    if ctx.rules.players != 3:
        return p
    rivals, partners = sides(ctx)
    p = p ** max(1, rivals)
    if partners:
        p = 1.0 - (1.0 - p) * (1.0 - 0.4 * (1.0 - 0.5 * caller_strength))
    return p

"""No bot throws a match in one answer: a falta envido whose stake is the match is accepted, or
raised to, only with the odds for it.

Every bot's choice passes through ``guarded`` (``driver.decide``), whatever its level or style:
a level that plays loose elsewhere may still not hand the match over on one envido. The rule
stands outside the levels so that it holds for all of them, those written later included.

A falta decides the match when one of its outcomes ends it (the side that wins it reaches the
target, or in destantado empties its pile). Then it is weighed as what it is, the match:

- accepting it (``quiero``) is allowed when ``p * E(won) + (1 - p) * E(lost)`` is at least the
  equity after declining (the rivals score the chain declined);
- calling or raising to it is allowed when that is at least the equity of the score now.

``p``, the chance that the seat's side wins the envido, comes from the bots' own odds
(``tantos.envido_win``) against a falta's range: a rival who calls or accepts a falta holds,
three times in four, what a bot sings it with (``policy.FALTA_MIN`` or more), and anything the
fourth (a bluff); every other rival still in holds any hand. The partners' unknown points are not
counted (a guard errs on the side of keeping the match). The equities are ``equity.equity_if``
and ``equity.match_equity``. A vetoed choice is taken out of the legal actions and the bot asked
again, so the bot still decides among what is left (``no quiero`` is never vetoed).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from truco.actions import Action, Verb
from truco.bots.base import Situation
from truco.bots.context import Ctx, ctx_of_view, sides
from truco.bots.equity import equity_if, match_equity
from truco.bots.policy import FALTA_MIN
from truco.bots.tantos import envido_win, falta_points
from truco.envido import chain_value, declined_value, falta_value, side_scores
from truco.variants import variant_of

BLUFF = 0.25
"""How often a rival who calls or accepts a falta is taken to hold any hand rather than a
falta's points (``FALTA_MIN`` or more)."""


def guarded(choose: Callable[[Situation, Random], Action], told: Situation, rng: Random) -> Action:
    """The bot's choice (``choose``), unless it throws the match on a falta: then its choice
    among the legal actions without it."""
    action = choose(told, rng)
    while throws(told, action):
        legal = tuple(a for a in told.legal if a != action)
        view = told.view._replace(legal=legal)
        told = told._replace(view=view, legal=legal)
        action = choose(told, rng)
    return action


def throws(told: Situation, action: Action) -> bool:
    """Whether ``action`` accepts or raises to a falta envido that decides the match, against
    the odds."""
    view = told.view
    verb = action.verb
    if view.seat is None or view.game != "argentino":
        return False
    answering = view.envido_call is not None and view.chain[-1:] == (Verb.FALTA_ENVIDO,)
    if not (verb is Verb.FALTA_ENVIDO or (verb is Verb.QUIERO and answering)):
        return False
    ctx = ctx_of_view(view)
    rival = _rival(ctx, view.envido_call[0] if view.envido_call is not None else None)
    won, lost = _outcomes(ctx, rival)
    if won < 1.0 and lost > 0.0:
        return False  # the falta does not decide the match: the level's own judgement stands
    p = falta_odds(ctx)
    stake = p * won + (1.0 - p) * lost
    if verb is Verb.QUIERO:
        declined = declined_value(ctx.chain)
        if variant_of(ctx.rules).piles:
            # Destantado: declined by all, the caller passes the chain declined to the pot.
            return stake < _passed(ctx, rival, declined)
        return stake < equity_if(ctx, ctx.teams[rival], declined)
    return stake < match_equity(ctx.rules, ctx.score, ctx.seat, ctx.teams)


def falta_odds(ctx: Ctx) -> float:
    """P(the seat's side wins a falta envido) against a falta's range (the module's doc)."""
    mano_side = ctx.teams[ctx.mano] == ctx.teams[ctx.seat]
    points = max(ctx.tantos, ctx.partner_tantos)
    anything = envido_win(points, mano_side)
    below = envido_win(FALTA_MIN - 1, mano_side)  # a random hand's share below a falta's points
    strong = max(0.0, anything - below) / (1.0 - below) if below < 1.0 else 0.0
    caller = BLUFF * anything + (1.0 - BLUFF) * strong
    rivals, _partners = sides(ctx)
    return caller * anything ** max(0, rivals - 1)


def _rival(ctx: Ctx, caller: int | None) -> int:
    """The rival the falta is played against: its caller, else the nearest rival still in (in
    destantado, the one nearest to emptying his pile)."""
    if caller is not None and ctx.teams[caller] != ctx.teams[ctx.seat]:
        return caller
    team = ctx.teams[ctx.seat]
    rivals = [s for s, t in enumerate(ctx.teams) if t != team and not (ctx.retired >> s) & 1] or [
        s for s, t in enumerate(ctx.teams) if t != team
    ]
    if variant_of(ctx.rules).piles:
        return min(rivals, key=lambda s: ctx.score[s])
    return rivals[0]


def _outcomes(ctx: Ctx, rival: int) -> tuple[float, float]:
    """The seat's match equity if its side wins the falta, and if ``rival``'s side does."""
    rules = ctx.rules
    team = ctx.teams[ctx.seat]
    if variant_of(rules).piles:
        # Destantado: the winner passes the falta's porotos to each other player in it.
        points = rules.destantado_falta
        others = len(ctx.teams) - 1
        return _passed(ctx, ctx.seat, points * others), _passed(ctx, rival, points * others)
    other = ctx.teams[rival]
    before = chain_value([v for v in ctx.chain if v is not Verb.FALTA_ENVIDO])
    theirs = falta_value(
        rules, side_scores(rules.individual, ctx.score, ctx.teams), other, team, before
    )
    return equity_if(ctx, team, falta_points(ctx)), equity_if(ctx, other, theirs)


def _passed(ctx: Ctx, winner: int, porotos: int) -> float:
    """Destantado: the seat's match equity once ``winner`` passed ``porotos`` from his pile."""
    score = list(ctx.score)
    score[winner] = max(0, score[winner] - porotos)
    if score[winner] == 0:
        return 1.0 if winner == ctx.seat else 0.0
    return match_equity(ctx.rules, score, ctx.seat, ctx.teams)


__all__ = ["BLUFF", "falta_odds", "guarded", "throws"]

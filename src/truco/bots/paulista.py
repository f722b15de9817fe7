"""Truco Paulista's rules of thumb: the mão de onze, the truco ladder (1, 3, 6, 9, 12), the cards.

``decide`` is the Paulista half of ``policy.decide`` (which sends Paulista hands here): the same
knobs (``Style``), the same hand-strength estimate (``strength.win_prob``, read with this hand's
manilhas through ``Ctx.ranks``) and the same match equity (``equity``, with Paulista's points).
"""

from __future__ import annotations

from truco.actions import CORRE, DESCE, JOGA, PLAY, Action, Verb
from truco.bots.context import Ctx
from truco.bots.equity import equity_if
from truco.bots.knobs import Style
from truco.bots.strength import choose_card, misread_win, win_prob
from truco.bots.tantos import accept_threshold, scores_mine_theirs
from truco.paulista import ONZE_RUN, ONZE_VALUE, RAISE, VALUE_OF


def decide(
    ctx: Ctx, legal: tuple[Action, ...], rng_random: float, style: Style, error: float
) -> Action:
    """A rule-of-thumb choice among ``legal`` in a Paulista hand. A sane player (the beginner,
    the personas) never runs where ``senseless`` says no one would, however he misreads his
    hand: he plays the mão de onze, or accepts the call, instead."""
    choice = _decide(ctx, legal, rng_random, style, error)
    if style.sane and choice is CORRE and senseless(ctx, CORRE):
        return JOGA if JOGA in legal else DESCE
    return choice


def _decide(
    ctx: Ctx, legal: tuple[Action, ...], rng_random: float, style: Style, error: float
) -> Action:
    if len(legal) == 1:
        return legal[0]
    if style.always_raise:
        for action in legal:
            if action.verb in _RAISES or action is JOGA:
                return action
    if style.always_quiero and (DESCE in legal or JOGA in legal):
        return DESCE if DESCE in legal else JOGA
    p = misread_win(win_prob(ctx), error)
    if JOGA in legal:
        return _onze(ctx, p)
    if ctx.truco_call is not None:
        return _answer(ctx, legal, p, rng_random, style)
    raise_call = RAISE.get(ctx.truco)
    if raise_call is not None and raise_call in legal:
        step = _STEP.get(ctx.truco, 0)
        if p >= style.truco_call + 0.05 * step:
            return raise_call
        # A sane player never bluffs a hand lost for certain: the rival sees it too.
        bluffable = p > 0.0 or not style.sane
        if p < 0.3 and bluffable and ctx.trick >= 1 and rng_random > 1.0 - style.bluff:
            return raise_call
    card = choose_card(ctx)
    return PLAY[card] if PLAY[card] in legal else next(a for a in legal if a.verb is Verb.PLAY)


_RAISES = frozenset((Verb.TRUCO, Verb.SEIS, Verb.NOVE, Verb.DOZE))


def senseless(ctx: Ctx, action: Action) -> bool:
    """``policy.senseless`` in a Paulista hand (docs/bots.md, "absurd"): running from a call
    with the hand won for certain, or from a truco holding two manilhas; running from a mão de
    onze holding the zap and a 3 (or another manilha); raising with the hand lost for
    certain."""
    if action.verb in _RAISES:
        return win_prob(ctx) == 0.0
    if action is not CORRE:
        return False
    ranks = sorted((ctx.ranks[c] for c in ctx.hand), reverse=True)
    if ctx.truco_call is None:  # the mão de onze's decision
        return len(ranks) > 1 and ranks[0] == ZAP_RANK and ranks[1] >= THREE_RANK
    if ctx.truco_call[0] == VALUE_OF[Verb.TRUCO] and sum(r > THREE_RANK for r in ranks) >= 2:
        return True  # a truco run from with two manilhas
    return win_prob(ctx) == 1.0


ZAP_RANK = 14
"""The zap's rank (``truco.manilhas``: the manilhas rank 11 to 14)..."""
THREE_RANK = 10
"""...and a 3's, the best common card."""


_STEP = {1: 0, 3: 1, 6: 2, 9: 3}
"""How many calls a hand worth this much has had (the Argentine policy's ``truco - 1``)."""


def _onze(ctx: Ctx, p: float) -> Action:
    """Play the mão de onze (worth 3) or run (the rivals score 1), by match equity."""
    team = ctx.teams[ctx.seat]
    rival = 1 - team
    play = p * equity_if(ctx, team, ONZE_VALUE) + (1 - p) * equity_if(ctx, rival, ONZE_VALUE)
    run = equity_if(ctx, rival, ONZE_RUN)
    return JOGA if play >= run else CORRE


def _answer(
    ctx: Ctx, legal: tuple[Action, ...], p: float, rng_random: float, style: Style
) -> Action:
    """Desce, corre or raise a call: pot odds, and the match when running would lose it."""
    assert ctx.truco_call is not None
    value = ctx.truco_call[0]
    before = ctx.truco
    p_adj = p * (1.0 - 0.35 * style.caution)
    _mine, theirs = scores_mine_theirs(ctx)
    if theirs + before >= ctx.rules.target:
        return DESCE  # running loses the match anyway
    raise_call = RAISE.get(value)
    if raise_call is not None and raise_call in legal and p_adj > 0.72:
        return raise_call
    if p_adj > accept_threshold(value, before) + 0.1:
        return DESCE
    if rng_random < 0.12 * (1.0 - style.caution) * 2:
        return DESCE
    return CORRE

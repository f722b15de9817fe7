"""One decision by rules of thumb: the policy of the ``simple`` bots and of the expert's rollouts.

``decide(ctx, legal, draw, style)`` picks among the legal actions from what the seat knows
(``Ctx``), the hand's strength (``strength``), the envido odds (``tantos``) and, when a falta
can end the match, the match equity (``equity``). ``Style`` holds its knobs.
"""

from __future__ import annotations

from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CON_FLOR_QUIERO,
    CONTRAFLOR,
    ENVIDO,
    ENVIDO_CALLS,
    FALTA_ENVIDO,
    FLOR,
    MAZO,
    NO_QUIERO,
    PLAY,
    QUIERO,
    REAL_ENVIDO,
    TRUCO_RAISE,
    Action,
    Verb,
)
from truco.bots import paulista
from truco.bots.context import Ctx
from truco.bots.equity import equity_if
from truco.bots.knobs import DEFAULT as DEFAULT
from truco.bots.knobs import Style as Style
from truco.bots.strength import choose_card, misread_win, win_prob
from truco.bots.tantos import (
    accept_threshold,
    envido_shift,
    envido_win,
    falta_points,
    scores_mine_theirs,
    side_envido_win,
)
from truco.cards import Card, envido_points, flor_points
from truco.envido import chain_value, declined_value
from truco.variants import variant_of

TRUCO_BETS = frozenset(
    (Verb.TRUCO, Verb.RETRUCO, Verb.VALE_CUATRO, Verb.SEIS, Verb.NOVE, Verb.DOZE)
)
"""The verbs that call or raise the truco (and Paulista's truco, seis, nove and doze)."""


FALTA_MIN = 28
"""Fewest envido points to sing or raise to falta envido (``simple`` sings it with 31)."""


def senseless(ctx: Ctx, legal: tuple[Action, ...], action: Action) -> bool:
    """Whether ``action`` is one no sane player takes (docs/bots.md, "absurd"): the mazo or a
    declined truco with the hand won for certain, a falta envido with under ``FALTA_MIN``
    points, a truco raised with the hand lost for certain."""
    if action is FALTA_ENVIDO:
        return ctx.tantos < FALTA_MIN
    if ctx.rules.game == "paulista":
        return paulista.senseless(ctx, action)
    if action is MAZO or action is NO_QUIERO or action in TRUCO_RAISE.values():
        p = win_prob(ctx)
        if action in TRUCO_RAISE.values():
            return p == 0.0
        answering_truco = ctx.truco_call is not None and not ctx.tanto_pending
        return p == 1.0 and (action is MAZO or (answering_truco and QUIERO in legal))
    return False


def envido_call_from(ctx: Ctx, style: Style) -> int:
    """The envido points a player of ``style`` calls envido with (one less on the pie's side;
    at a table of three, ``envido_shift``)."""
    mano_side = ctx.teams[ctx.mano] == ctx.teams[ctx.seat]
    return style.envido_call - (0 if mano_side else 1) + envido_shift(ctx)


def truco_call_from(ctx: Ctx, style: Style) -> float:
    """The hand-win estimate a player of ``style`` calls or raises the truco with (each raise
    asks a little more)."""
    return style.truco_call + 0.05 * (ctx.truco - 1)


def holds_truco(p_adj: float, level: int) -> bool:
    """Whether a truco of ``level`` is worth accepting with ``p_adj`` (the hand-win estimate
    against the caller's range): the pot odds with a margin."""
    return p_adj > accept_threshold(level, level - 1) + 0.1


def holds_envido(p: float, win: int, lose: int) -> bool:
    """Whether an envido worth ``win`` (``lose`` declined) is worth accepting with ``p``."""
    return p > accept_threshold(win, lose) + 0.05


def bluffs(ctx: Ctx, action: Action, style: Style) -> bool:
    """Whether calling or raising with ``action`` here is a bluff for a player of ``style``:
    an envido call with fewer points than the style calls envido with, a truco call or raise
    with a weaker hand than it calls truco with (the thresholds of ``decide``)."""
    if action in ENVIDO_CALLS:
        return max(ctx.tantos, ctx.partner_tantos) < envido_call_from(ctx, style)
    if action.verb in TRUCO_BETS:
        return win_prob(ctx) < truco_call_from(ctx, style)
    return False


def accepts_beyond(ctx: Ctx, action: Action, style: Style) -> bool:
    """Whether accepting a call with ``action`` here is more than a player of ``style`` accepts
    with: a truco or an envido (not a falta) held with a weaker hand than the thresholds of
    ``_answer_truco`` and ``_answer_envido`` (which assume a caller as strong as ``caution``
    says). Never when declining would lose the match."""
    if action is not QUIERO or ctx.flor_chain:
        return False
    _mine, theirs = scores_mine_theirs(ctx)
    if ctx.tanto_pending:
        if Verb.FALTA_ENVIDO in ctx.chain:
            return False
        lose = declined_value(ctx.chain)
        if theirs + lose >= ctx.rules.target:
            return False
        p = side_envido_win(ctx._replace(tantos=max(ctx.tantos, ctx.partner_tantos)), style.caution)
        return not holds_envido(p, chain_value(ctx.chain), lose)
    if ctx.truco_call is None:
        return False
    level = ctx.truco_call[0]
    if theirs + level - 1 >= ctx.rules.target:
        return False
    return not holds_truco(win_prob(ctx) * (1.0 - 0.35 * style.caution), level)


def decide(
    ctx: Ctx,
    legal: tuple[Action, ...],
    rng_random: float,
    style: Style = DEFAULT,
    error: float = 0.0,
) -> Action:
    """A rule-of-thumb choice among ``legal``; ``rng_random`` is one uniform draw in [0, 1);
    ``error`` is a beginner's misreading of his strength (``misread_win``; his envido points
    are off by ten times it, but never past a falta)."""
    own = ctx.tantos
    if ctx.partner_tantos > ctx.tantos:
        # A partner promised a high envido: the side's envido is the best of its seats. (A
        # falta still needs the seat's own points: ``tantos`` below.)
        ctx = ctx._replace(tantos=ctx.partner_tantos)
    if error != 0.0:
        seen = max(0, min(33, ctx.tantos + round(10 * error)))
        return _decide(ctx._replace(tantos=seen), legal, rng_random, style, error, own)
    return _decide(ctx, legal, rng_random, style, 0.0, own)


def _decide(
    ctx: Ctx,
    legal: tuple[Action, ...],
    rng_random: float,
    style: Style,
    error: float,
    tantos: int,
) -> Action:
    """``decide`` with ``ctx.tantos`` as the seat reads them and ``tantos`` as they are."""
    if len(legal) == 1:
        return legal[0]
    if ctx.rules.game == "paulista":
        return paulista.decide(ctx, legal, rng_random, style, error)
    if legal[0].verb is Verb.DISCARD:
        return choose_discard(ctx, legal)
    my_team = ctx.teams[ctx.seat]
    mano_side = ctx.teams[ctx.mano] == my_team
    if style.always_raise:
        for call in (CONTRAFLOR, FALTA_ENVIDO, TRUCO_RAISE[3], TRUCO_RAISE[2], TRUCO_RAISE[1]):
            if call in legal:
                return call
        if FLOR in legal:
            return FLOR
        if REAL_ENVIDO in legal:
            return REAL_ENVIDO
    if style.always_quiero:
        for answer in (QUIERO, CON_FLOR_QUIERO):
            if answer in legal:
                return answer
    if variant_of(ctx.rules).own_side:
        return _destantado(ctx, legal, rng_random, style, tantos)
    if FLOR in legal:
        return FLOR
    if CON_FLOR_QUIERO in legal:  # answering a flor with a flor
        if ctx.flor >= 33 and CONTRAFLOR in legal:
            return CONTRAFLOR
        return CON_FLOR_QUIERO if ctx.flor >= 29 else CON_FLOR_ME_ACHICO
    if ctx.flor_chain and ctx.tanto_pending and QUIERO in legal:
        return QUIERO if ctx.flor >= 31 else NO_QUIERO
    if ctx.tanto_pending and QUIERO in legal:
        return _answer_envido(ctx, legal, mano_side, style, tantos)
    if ctx.truco_call is not None:
        return _answer_truco(ctx, legal, mano_side, rng_random, style, error)
    # My turn to play: calls first.
    if ENVIDO in legal:
        pts = ctx.tantos
        threshold = envido_call_from(ctx, style)
        if pts >= 31 and tantos >= FALTA_MIN and _falta_good(ctx) and FALTA_ENVIDO in legal:
            return FALTA_ENVIDO
        if pts >= 31 and REAL_ENVIDO in legal:
            return REAL_ENVIDO
        if pts >= threshold or (pts < 20 and rng_random < style.bluff):
            return ENVIDO
    p = misread_win(win_prob(ctx), error)
    raise_call = TRUCO_RAISE.get(ctx.truco)
    if raise_call is not None and raise_call in legal:
        # Called at the last trick only when sure enough; bluffs mostly early.
        if p >= truco_call_from(ctx, style):
            return raise_call
        # A sane player never bluffs a hand lost for certain: the rival sees it too.
        bluffable = p > 0.0 or not style.sane
        if p < 0.3 and bluffable and ctx.trick >= 1 and rng_random > 1.0 - style.bluff:
            return raise_call
    return _play(ctx, legal, p)


def _play(ctx: Ctx, legal: tuple[Action, ...], p: float) -> Action:
    if p == 0.0 and ctx.truco > 1 and MAZO in legal:
        return MAZO
    card = choose_card(ctx)
    return PLAY[card] if PLAY[card] in legal else next(a for a in legal if a.verb is Verb.PLAY)


def kept_value(ctx: Ctx, kept: tuple[Card, ...]) -> float:
    """How good three kept cards are for the hand: the chance to win its tricks, plus a share
    for the envido (and the flor, at a table with flor)."""
    tantos = envido_points(kept)
    flor = flor_points(kept) if ctx.rules.flor else None
    trial = ctx._replace(hand=kept, tantos=tantos, flor=-1 if flor is None else flor)
    value = win_prob(trial) + 0.3 * side_envido_win(trial, 0.0)
    if flor is not None:
        value += 0.4 + 0.01 * flor
    return value


def choose_discard(ctx: Ctx, legal: tuple[Action, ...]) -> Action:
    """Pata de gallo: the pie puts away the card whose loss leaves the best three."""
    best = legal[0]
    best_value = -1.0
    for action in legal:
        kept = tuple([c for c in ctx.hand if c != action.card])
        value = kept_value(ctx, kept)
        if value > best_value:
            best, best_value = action, value
    return best


def ranked_discards(ctx: Ctx, legal: tuple[Action, ...]) -> list[Action]:
    """The discards, best first by ``kept_value``."""
    return sorted(
        legal, key=lambda a: -kept_value(ctx, tuple([c for c in ctx.hand if c != a.card]))
    )


def _falta_good(ctx: Ctx) -> bool:
    mine, theirs = scores_mine_theirs(ctx)
    target = ctx.rules.target
    return theirs >= target - 6 or mine + falta_points(ctx) >= target


def _answer_envido(
    ctx: Ctx, legal: tuple[Action, ...], mano_side: bool, style: Style, tantos: int
) -> Action:
    chain = ctx.chain
    p = side_envido_win(ctx, style.caution)
    if Verb.FALTA_ENVIDO in chain:
        win = falta_points(ctx)
    else:
        win = chain_value(chain)
    lose = declined_value(chain)
    team = ctx.teams[ctx.seat]
    target = ctx.rules.target
    _mine, theirs = scores_mine_theirs(ctx)
    if theirs + lose >= target:
        return QUIERO  # declining loses the match anyway
    if p > 0.85:
        for call in (REAL_ENVIDO, ENVIDO):
            if call in legal and Verb.FALTA_ENVIDO not in chain:
                return call
        if FALTA_ENVIDO in legal and tantos >= FALTA_MIN and _falta_good(ctx):
            return FALTA_ENVIDO
    if Verb.FALTA_ENVIDO in chain:
        # Match equity: the falta can end the match; weigh it by what is at stake.
        rival = 1 - team
        up = equity_if(ctx, team, win)
        down = equity_if(ctx, rival, win)
        decline = equity_if(ctx, rival, lose)
        return QUIERO if p * up + (1 - p) * down > decline else NO_QUIERO
    return QUIERO if holds_envido(p, win, lose) else NO_QUIERO


def _answer_truco(
    ctx: Ctx,
    legal: tuple[Action, ...],
    mano_side: bool,
    rng_random: float,
    style: Style,
    error: float = 0.0,
) -> Action:
    assert ctx.truco_call is not None
    level = ctx.truco_call[0]
    if ENVIDO in legal and ctx.tantos >= style.envido_call + envido_shift(ctx):
        # El envido está primero.
        return REAL_ENVIDO if ctx.tantos >= 31 and REAL_ENVIDO in legal else ENVIDO
    p = misread_win(win_prob(ctx), error)
    # The caller's range is stronger than a random hand.
    p_adj = p * (1.0 - 0.35 * style.caution)
    _mine, theirs = scores_mine_theirs(ctx)
    if theirs + level - 1 >= ctx.rules.target and QUIERO in legal:
        return QUIERO
    raise_call = TRUCO_RAISE.get(level)
    if raise_call is not None and raise_call in legal and p_adj > 0.72:
        return raise_call
    if holds_truco(p_adj, level):
        return QUIERO
    if rng_random < 0.12 * (1.0 - style.caution) * 2 and QUIERO in legal:
        return QUIERO
    return NO_QUIERO if NO_QUIERO in legal else legal[0]


# --- destantado ---


def _destantado(
    ctx: Ctx, legal: tuple[Action, ...], rng_random: float, style: Style, tantos: int
) -> Action:
    """Destantado: a player wants his pile of porotos to go down. Winning a bet passes its value
    from his pile to each loser who was in it; losing one fills his pile; declining costs
    nothing (he is out of that bet, and of the hand for a truco); a call nobody accepts empties
    the caller's pile by its value into the pot."""
    seat = ctx.seat
    others_in = sum(1 for s in range(len(ctx.teams)) if s != seat and not (ctx.retired >> s) & 1)
    if ctx.tanto_pending and QUIERO in legal:
        # Win: I pass the value to each player in the bet; lose: I get it. Decline: nothing.
        in_bet = max(1, bin(ctx.bettors & ~(1 << seat)).count("1"))
        p = envido_win(ctx.tantos, ctx.mano == seat, style.caution) ** in_bet
        return QUIERO if p > 1.0 / (1 + in_bet) + 0.1 else NO_QUIERO
    if ctx.truco_call is not None and QUIERO in legal:
        p = win_prob(ctx) * (1.0 - 0.35 * style.caution)
        # Win: each other player still in passes me his stake (about the level); lose: I get
        # the level from the winner. Declining leaves the hand with nothing lost.
        if p > 1.0 / (1 + max(1, others_in)) + 0.1:
            return QUIERO
        if rng_random < 0.05 * (1.0 - style.caution) * 2:
            return QUIERO
        return NO_QUIERO
    if ENVIDO in legal:
        pts = ctx.tantos
        threshold = style.envido_call - (0 if ctx.mano == seat else 1)
        if pts >= 31 and tantos >= FALTA_MIN and FALTA_ENVIDO in legal:
            return FALTA_ENVIDO
        if pts >= 29 and REAL_ENVIDO in legal:
            return REAL_ENVIDO
        # A call nobody accepts takes a poroto out of my pile: bluffing is cheap.
        if pts >= threshold or (pts < 20 and rng_random < 2 * style.bluff):
            return ENVIDO
    p = win_prob(ctx)
    raise_call = TRUCO_RAISE.get(ctx.truco)
    if raise_call is not None and raise_call in legal:
        # A strong hand wins more when the others stay in: call only when very strong.
        if p >= style.truco_call + 0.12 + 0.05 * (ctx.truco - 1):
            return raise_call
        # A sane player never bluffs a hand lost for certain: the rival sees it too.
        bluffable = p > 0.0 or not style.sane
        if p < 0.3 and bluffable and ctx.trick >= 1 and rng_random > 1.0 - 2 * style.bluff:
            return raise_call
    return _play(ctx, legal, p)

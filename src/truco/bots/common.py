"""Shared bot knowledge: hand strength, envido odds, card order, match equity.

Everything here works on a ``Ctx``: the few facts one seat may know, built either from its
``SeatView`` (the real bots) or from a full ``State`` for that seat (the expert's rollouts in a
sampled world, where the seat's own cards are the sampled ones). Nothing here looks at another
seat's hidden cards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CON_FLOR_QUIERO,
    CONTRAFLOR,
    ENVIDO,
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
from truco.cards import DECK, TRUCO_RANK, Card, envido_points, flor_points
from truco.envido import chain_value, declined_value, falta_value
from truco.rules import Rules
from truco.state import State
from truco.view import SeatView

PlayView = tuple[int, Card | None, bool]


class Ctx(NamedTuple):
    """What one seat knows that the heuristics use."""

    seat: int
    rules: Rules
    score: tuple[int, ...]
    mano: int
    teams: tuple[int, ...]
    hand: tuple[Card, ...]
    tantos: int
    flor: int
    plays: tuple[PlayView, ...]
    results: tuple[int, ...]
    trick: int
    truco: int
    truco_call: tuple[int, int, int] | None
    tanto_pending: bool
    chain: tuple[Verb, ...]
    flor_chain: tuple[Verb, ...]
    retired: int = 0
    """Bit set of the seats out of the hand (mazo, a declined destantado truco, sitting out)."""
    stakes: tuple[int, ...] = ()
    """Destantado: what each seat stands to lose in the truco (0: out of it)."""
    bettors: int = 0
    """Destantado: bit set of the seats in the call waiting for answers (caller, accepters)."""


def table_bests(ctx: Ctx, my_team: int) -> tuple[int, int]:
    """The best truco rank on the table of my team and of the rivals (-1 if none; a face-down
    card ranks 0)."""
    best_mine = best_opp = -1
    for s, card, face_down in ctx.plays:
        rank = 0 if face_down or card is None else TRUCO_RANK[card]
        if ctx.teams[s] == my_team:
            best_mine = max(best_mine, rank)
        else:
            best_opp = max(best_opp, rank)
    return best_mine, best_opp


def ctx_of_view(view: SeatView) -> Ctx:
    assert view.seat is not None
    return Ctx(
        view.seat,
        view.rules,
        view.score,
        view.mano,
        view.teams,
        view.hand,
        view.tantos or 0,
        -1 if view.flor is None else view.flor,
        view.plays,
        view.results,
        view.trick,
        view.truco,
        view.truco_call,
        view.envido_call is not None or view.flor_call is not None,
        view.chain,
        view.flor_chain,
        sum(1 << s for s in view.retired),
        view.stakes,
        _view_bettors(view),
    )


def _view_bettors(view: SeatView) -> int:
    """Destantado: the caller of the pending call and who has accepted it so far (from the
    public history: the answers after the last call)."""
    if view.rules.variant != "destantado":
        return 0
    if view.envido_call is not None:
        caller = view.envido_call[0]
    elif view.truco_call is not None:
        caller = view.truco_call[1]
    else:
        return 0
    bettors = 1 << caller
    for who, text in reversed(view.history):
        if who == caller:
            break
        if text == "quiero":
            bettors |= 1 << who
    return bettors


def ctx_of_state(state: State, seat: int) -> Ctx:
    """The seat's own knowledge in a (sampled) world: only public fields and its own cards."""
    return Ctx(
        seat,
        state.rules,
        state.score,
        state.mano,
        state.teams,
        state.hands[seat],
        state.tantos[seat],
        state.flores[seat],
        state.plays,
        state.results,
        state.trick,
        state.truco,
        state.truco_call,
        state.tanto_call is not None,
        state.chain,
        state.flor_chain,
        state.retired,
        state.stakes,
        state.bettors,
    )


# --- card strength -----------------------------------------------------------------------------

# P(a random other card ranks below this one), counting ties as half.
BEAT: tuple[float, ...] = tuple(
    (
        sum(1 for o in DECK if o != c and TRUCO_RANK[o] < TRUCO_RANK[c])
        + 0.5 * sum(1 for o in DECK if o != c and TRUCO_RANK[o] == TRUCO_RANK[c])
    )
    / 39
    for c in DECK
)


# The same by truco rank (0 is a face-down card, below every card).
BEAT_RANK: tuple[float, ...] = tuple(
    (sum(1 for o in DECK if TRUCO_RANK[o] < r) + 0.5 * sum(1 for o in DECK if TRUCO_RANK[o] == r))
    / 40
    for r in range(15)
)


def _outcome(results: Sequence[int], mano_side: bool) -> int | None:
    """+1 / -1 once the hand is decided from my side's results (+1 won, -1 lost, 0 parda)."""
    n = len(results)
    if n < 2:
        return None
    first, second = results[0], results[1]
    if n == 2:
        if first == 0:
            return None if second == 0 else second
        return first if second in (0, first) else None
    third = results[2]
    if third != 0:
        return third
    return first if first != 0 else (1 if mano_side else -1)


def win_prob(ctx: Ctx) -> float:
    """A quick estimate of the chance that the seat's side wins the hand's tricks."""
    if ctx.rules.players == 3:
        return _win_prob_three(ctx)
    my_team = ctx.teams[ctx.seat]
    mano_side = ctx.teams[ctx.mano] == my_team
    results = [0 if r < 0 else (1 if r == my_team else -1) for r in ctx.results]
    decided = _outcome(results, mano_side)
    if decided is not None:
        return 1.0 if decided > 0 else 0.0
    hand = sorted(ctx.hand, key=TRUCO_RANK.__getitem__, reverse=True)
    probs = [BEAT[c] for c in hand]
    if ctx.plays and hand:
        best_mine, best_opp = table_bests(ctx, my_team)
        top = max(TRUCO_RANK[hand[0]], best_mine)
        if best_opp < 0:
            current = probs[0]
        elif top > best_opp:
            current = 1.0
        elif top == best_opp:
            current = 0.5
        else:
            current = 0.0
        if best_opp >= 0 and TRUCO_RANK[hand[0]] > best_opp:
            # Win the trick with the cheapest card that does; keep the others.
            beaters = [c for c in hand if TRUCO_RANK[c] > best_opp]
            used = beaters[-1]
            rest = [BEAT[c] for c in hand if c != used]
        else:
            rest = probs[1:]
            if best_opp >= 0 and top <= best_opp:
                rest = probs[:-1] if len(probs) > 1 else []
        probs = [current, *rest]
    return _enumerate(results, probs, mano_side)


def _win_prob_three(ctx: Ctx) -> float:
    """``win_prob`` at a table of three (pata de gallo, destantado): a card must beat every rival
    still in the hand, and a partner (the pair against the pie) wins the trick half the time
    when mine does not. Tricks are counted as mine or not mine (a trick won by someone who left
    the hand counts as a parda, as in destantado)."""
    seat, teams, retired = ctx.seat, ctx.teams, ctx.retired
    my_team = teams[seat]
    n = len(teams)
    rivals = [s for s in range(n) if teams[s] != my_team and not (retired >> s) & 1]
    partners = [s for s in range(n) if s != seat and teams[s] == my_team and not (retired >> s) & 1]
    if not rivals:
        return 1.0
    mano_side = teams[ctx.mano] == my_team
    own = ctx.rules.variant == "destantado"  # a trick's result is then a seat
    results = [
        0 if r < 0 or (own and (retired >> r) & 1) else (1 if r == my_team else -1)
        for r in ctx.results
    ]
    decided = _outcome(results, mano_side)
    if decided is not None:
        return 1.0 if decided > 0 else 0.0
    k = len(rivals)
    helper = 0.5 if partners else 0.0

    def trick_p(rank: int, rivals_left: int, partner_left: bool) -> float:
        q: float = BEAT_RANK[rank] ** rivals_left
        return 1.0 - (1.0 - q) * (1.0 - (helper if partner_left else 0.0))

    hand = sorted(ctx.hand, key=TRUCO_RANK.__getitem__, reverse=True)
    probs = [trick_p(TRUCO_RANK[c], k, bool(partners)) for c in hand]
    if ctx.plays and hand:
        played = {s for s, _, _ in ctx.plays}
        k_rem = sum(1 for s in rivals if s not in played)
        partner_left = any(s not in played for s in partners)
        best_mine, best_opp = table_bests(ctx, my_team)
        top = max(TRUCO_RANK[hand[0]], best_mine)
        if top > best_opp:
            current = trick_p(top, k_rem, partner_left) if k_rem else 1.0
        elif top == best_opp:
            current = 0.5 * trick_p(top, k_rem, partner_left) if k_rem else 0.5
        else:
            current = 1.0 - BEAT_RANK[best_opp] if partner_left else 0.0
        if best_opp >= 0 and not k_rem and TRUCO_RANK[hand[0]] > best_opp:
            beaters = [c for c in hand if TRUCO_RANK[c] > best_opp]
            used = beaters[-1]
        elif top <= best_opp:
            used = hand[-1]
        else:
            used = hand[0]
        rest = [trick_p(TRUCO_RANK[c], k, bool(partners)) for c in hand if c != used]
        probs = [current, *rest]
    return _enumerate(results, probs, mano_side)


def _enumerate(results: list[int], probs: list[float], mano_side: bool) -> float:
    """P(the hand is won) when each remaining trick is won with its probability in ``probs``."""
    remaining = 3 - len(results)
    probs = (probs + [0.0] * remaining)[:remaining]
    total = 0.0
    for mask in range(1 << remaining):
        p = 1.0
        seq = list(results)
        for i in range(remaining):
            if (mask >> i) & 1:
                p *= probs[i]
                seq.append(1)
            else:
                p *= 1.0 - probs[i]
                seq.append(-1)
        if p == 0.0:
            continue
        for j in range(len(results) + 1, 4):
            out = _outcome(seq[:j], mano_side)
            if out is not None:
                if out > 0:
                    total += p
                break
    return total


def choose_card(ctx: Ctx) -> Card:
    """Win cheap, keep the best, hacer primera; throw the lowest when the trick is lost."""
    hand = sorted(ctx.hand, key=TRUCO_RANK.__getitem__)
    my_team = ctx.teams[ctx.seat]
    if len(hand) == 1:
        return hand[0]
    if ctx.plays:
        best_mine, best_opp = table_bests(ctx, my_team)
        if best_mine > best_opp:
            return hand[0]
        beaters = [c for c in hand if TRUCO_RANK[c] > best_opp]
        if beaters:
            return beaters[0]
        tie = [c for c in hand if TRUCO_RANK[c] == best_opp]
        if tie and ctx.trick == 0 and TRUCO_RANK[hand[-1]] >= 9:
            return tie[0]  # parda and keep a good card for the second trick
        return hand[0]
    # Leading.
    if ctx.trick == 0:
        middle = hand[-2]
        if TRUCO_RANK[middle] >= 9 or TRUCO_RANK[hand[-1]] < 10:
            return middle if TRUCO_RANK[middle] >= 9 else hand[-1]
        return hand[-1]
    won_first = bool(ctx.results) and ctx.results[0] == my_team
    if won_first and TRUCO_RANK[hand[-1]] < 9:
        return hand[0]
    return hand[-1]


# --- envido -----------------------------------------------------------------------------------

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


def side_scores(ctx: Ctx) -> tuple[int, int]:
    """(my side's score, the rivals' best score): per team, or, where players score on their own
    (pata de gallo), my own score and the best score of a player on the other side."""
    team = ctx.teams[ctx.seat]
    if not ctx.rules.individual:
        return ctx.score[team], ctx.score[1 - team]
    rival = max(p for s, p in enumerate(ctx.score) if ctx.teams[s] != team)
    return ctx.score[ctx.seat], rival


def falta_points(ctx: Ctx) -> int:
    if ctx.rules.variant == "destantado":
        return ctx.rules.destantado_falta
    team = ctx.teams[ctx.seat]
    before = chain_value([v for v in ctx.chain if v is not Verb.FALTA_ENVIDO])
    if not ctx.rules.individual:
        return falta_value(ctx.rules, ctx.score, team, 1 - team, before)
    # Pata de gallo: each side counts as far as its best player has got (as the engine does).
    best = [0, 0]
    for s, p in enumerate(ctx.score):
        best[ctx.teams[s]] = max(best[ctx.teams[s]], p)
    return falta_value(ctx.rules, best, team, 1 - team, before)


def accept_threshold(win: int, lose: int) -> float:
    """Pot odds: accept when P(win) > (W - D) / (2W)."""
    return (win - lose) / (2 * win) if win > 0 else 0.0


# --- match equity ------------------------------------------------------------------------------

# Points a team scores in a hand (envido and truco together), roughly, for the equity model.
_HAND_POINTS = ((1, 0.30), (2, 0.30), (3, 0.18), (4, 0.12), (5, 0.06), (7, 0.04))


@lru_cache(maxsize=16)
def equity_table(target: int) -> tuple[tuple[float, ...], ...]:
    """P(win the match) for my score a and the rivals' b (0 .. target-1): a small DP where each
    hand gives one side (50/50) a number of points drawn from ``_HAND_POINTS``."""
    me = [[0.0] * target for _ in range(target)]
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            value = 0.0
            for pts, p in _HAND_POINTS:
                mine = 1.0 if a + pts >= target else me[a + pts][b]
                theirs = 0.0 if b + pts >= target else me[a][b + pts]
                value += 0.5 * p * (mine + theirs)
            me[a][b] = value
    return tuple(tuple(row) for row in me)


def equity(target: int, mine: int, theirs: int) -> float:
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return equity_table(target)[mine][theirs]


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
        return equity(rules.target, score[team], score[1 - team])
    if rules.variant == "destantado":
        return race_equity(score, seat)
    return race_equity([rules.target - p for p in score], seat)


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


# --- one decision by rules of thumb ------------------------------------------------------------


class Style(NamedTuple):
    """Knobs of the rule-based player."""

    bluff: float = 0.08
    """Chance to call truco or envido with a weak hand."""
    envido_call: int = 27
    """Envido points to call envido as mano (one less as pie)."""
    truco_call: float = 0.68
    """Hand-win estimate to call truco."""
    caution: float = 0.5
    """How strong a caller's range is assumed (0 random .. 1 very strong)."""
    always_quiero: bool = False
    always_raise: bool = False


DEFAULT = Style()


def decide(
    ctx: Ctx, legal: tuple[Action, ...], rng_random: float, style: Style = DEFAULT
) -> Action:
    """A rule-of-thumb choice among ``legal``; ``rng_random`` is one uniform draw in [0, 1)."""
    if len(legal) == 1:
        return legal[0]
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
    if ctx.rules.variant == "destantado":
        return _destantado(ctx, legal, rng_random, style)
    if FLOR in legal:
        return FLOR
    if CON_FLOR_QUIERO in legal:  # answering a flor with a flor
        if ctx.flor >= 33 and CONTRAFLOR in legal:
            return CONTRAFLOR
        return CON_FLOR_QUIERO if ctx.flor >= 29 else CON_FLOR_ME_ACHICO
    if ctx.flor_chain and ctx.tanto_pending and QUIERO in legal:
        return QUIERO if ctx.flor >= 31 else NO_QUIERO
    if ctx.tanto_pending and QUIERO in legal:
        return _answer_envido(ctx, legal, mano_side, style)
    if ctx.truco_call is not None:
        return _answer_truco(ctx, legal, mano_side, rng_random, style)
    # My turn to play: calls first.
    if ENVIDO in legal:
        pts = ctx.tantos
        threshold = style.envido_call - (0 if mano_side else 1) + _envido_shift(ctx)
        if pts >= 31 and _falta_good(ctx) and FALTA_ENVIDO in legal:
            return FALTA_ENVIDO
        if pts >= 31 and REAL_ENVIDO in legal:
            return REAL_ENVIDO
        if pts >= threshold or (pts < 20 and rng_random < style.bluff):
            return ENVIDO
    p = win_prob(ctx)
    raise_call = TRUCO_RAISE.get(ctx.truco)
    if raise_call is not None and raise_call in legal:
        # Called at the last trick only when sure enough; bluffs mostly early.
        if p >= style.truco_call + 0.05 * (ctx.truco - 1):
            return raise_call
        if p < 0.3 and ctx.trick >= 1 and rng_random > 1.0 - style.bluff:
            return raise_call
    return _play(ctx, legal, p)


def _play(ctx: Ctx, legal: tuple[Action, ...], p: float) -> Action:
    if p == 0.0 and ctx.truco > 1 and MAZO in legal:
        return MAZO
    card = choose_card(ctx)
    return PLAY[card] if PLAY[card] in legal else next(a for a in legal if a.verb is Verb.PLAY)


def _sides(ctx: Ctx) -> tuple[int, int]:
    """(rivals, partners) still in the hand."""
    team = ctx.teams[ctx.seat]
    rivals = partners = 0
    for s, t in enumerate(ctx.teams):
        if s != ctx.seat and not (ctx.retired >> s) & 1:
            if t == team:
                partners += 1
            else:
                rivals += 1
    return rivals, partners


def _envido_shift(ctx: Ctx) -> int:
    """At a table of three, the envido points to call go up for a player alone against two
    (he must beat both) and down for a player with a partner (either may win it)."""
    if ctx.rules.players != 3:
        return 0
    rivals, partners = _sides(ctx)
    return 2 * (rivals - 1) - partners


def side_envido_win(ctx: Ctx, caller_strength: float) -> float:
    """P(my side wins the envido): ``envido_win``; at a table of three, my points must beat
    each rival still in, and a partner's unknown points win it about 40% of the time when mine
    do not."""
    mano_side = ctx.teams[ctx.mano] == ctx.teams[ctx.seat]
    p = envido_win(ctx.tantos, mano_side, caller_strength)
    if ctx.rules.players != 3:
        return p
    rivals, partners = _sides(ctx)
    p = p ** max(1, rivals)
    if partners:
        p = 1.0 - (1.0 - p) * (1.0 - 0.4 * (1.0 - 0.5 * caller_strength))
    return p


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
    mine, theirs = side_scores(ctx)
    target = ctx.rules.target
    return theirs >= target - 6 or mine + falta_points(ctx) >= target


def _answer_envido(ctx: Ctx, legal: tuple[Action, ...], mano_side: bool, style: Style) -> Action:
    chain = ctx.chain
    p = side_envido_win(ctx, style.caution)
    if Verb.FALTA_ENVIDO in chain:
        win = falta_points(ctx)
    else:
        win = chain_value(chain)
    lose = declined_value(chain)
    team = ctx.teams[ctx.seat]
    target = ctx.rules.target
    _mine, theirs = side_scores(ctx)
    if theirs + lose >= target:
        return QUIERO  # declining loses the match anyway
    if p > 0.85:
        for call in (REAL_ENVIDO, ENVIDO):
            if call in legal and Verb.FALTA_ENVIDO not in chain:
                return call
        if FALTA_ENVIDO in legal and _falta_good(ctx):
            return FALTA_ENVIDO
    if Verb.FALTA_ENVIDO in chain:
        # Match equity: the falta can end the match; weigh it by what is at stake.
        rival = 1 - team
        up = equity_if(ctx, team, win)
        down = equity_if(ctx, rival, win)
        decline = equity_if(ctx, rival, lose)
        return QUIERO if p * up + (1 - p) * down > decline else NO_QUIERO
    return QUIERO if p > accept_threshold(win, lose) + 0.05 else NO_QUIERO


def _answer_truco(
    ctx: Ctx, legal: tuple[Action, ...], mano_side: bool, rng_random: float, style: Style
) -> Action:
    assert ctx.truco_call is not None
    level = ctx.truco_call[0]
    if ENVIDO in legal and ctx.tantos >= style.envido_call + _envido_shift(ctx):
        # El envido está primero.
        return REAL_ENVIDO if ctx.tantos >= 31 and REAL_ENVIDO in legal else ENVIDO
    p = win_prob(ctx)
    # The caller's range is stronger than a random hand.
    p_adj = p * (1.0 - 0.35 * style.caution)
    _mine, theirs = side_scores(ctx)
    if theirs + level - 1 >= ctx.rules.target and QUIERO in legal:
        return QUIERO
    raise_call = TRUCO_RAISE.get(level)
    if raise_call is not None and raise_call in legal and p_adj > 0.72:
        return raise_call
    if p_adj > accept_threshold(level, level - 1) + 0.1:
        return QUIERO
    if rng_random < 0.12 * (1.0 - style.caution) * 2 and QUIERO in legal:
        return QUIERO
    return NO_QUIERO if NO_QUIERO in legal else legal[0]


# --- destantado -------------------------------------------------------------------------------


def _destantado(ctx: Ctx, legal: tuple[Action, ...], rng_random: float, style: Style) -> Action:
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
        if pts >= 31 and FALTA_ENVIDO in legal:
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
        if p < 0.3 and ctx.trick >= 1 and rng_random > 1.0 - 2 * style.bluff:
            return raise_call
    return _play(ctx, legal, p)

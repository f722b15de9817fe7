"""How strong a hand is for its tricks: card odds, the chance to win the hand, which card to play.

Tricks are counted from the seat's side: each finished or imagined trick is ``MINE``,
``THEIRS`` or a ``PARDA``, and who takes the hand from them is the core's
``tricks.hand_winner`` with my side as a team of its own.
"""

from __future__ import annotations

from truco.bots.context import Ctx, table_bests
from truco.cards import DECK, TRUCO_RANK, Card
from truco.tricks import PARDA, hand_winner
from truco.variants import variant_of

MINE = 1
"""My side, as a team for ``tricks.hand_winner``."""
THEIRS = 0
"""The rivals (every other side), as one team."""


def _beat(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """P(a random other card ranks below each card), counting ties as half."""
    return tuple(
        (
            sum(1 for o in DECK if o != c and ranks[o] < ranks[c])
            + 0.5 * sum(1 for o in DECK if o != c and ranks[o] == ranks[c])
        )
        / 39
        for c in DECK
    )


def _beat_rank(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """The same by rank (0 is a face-down card, below every card)."""
    return tuple(
        (sum(1 for o in DECK if ranks[o] < r) + 0.5 * sum(1 for o in DECK if ranks[o] == r)) / 40
        for r in range(15)
    )


BEAT: tuple[float, ...] = _beat(TRUCO_RANK)
"""``_beat`` of the Argentine hierarchy."""
BEAT_RANK: tuple[float, ...] = _beat_rank(TRUCO_RANK)
_TABLES: dict[int, tuple[tuple[int, ...], tuple[float, ...], tuple[float, ...]]] = {
    id(TRUCO_RANK): (TRUCO_RANK, BEAT, BEAT_RANK)
}
"""The odds of each rank table by its identity (the tables are the core's module-level
constants: the Argentine hierarchy, and Truco Paulista's one per vira rank)."""


def odds(ranks: tuple[int, ...]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(P(beat) by card, P(beat) by rank) for a rank table, computed once per table."""
    found = _TABLES.get(id(ranks))
    if found is None:
        found = (ranks, _beat(ranks), _beat_rank(ranks))
        _TABLES[id(ranks)] = found
    return found[1], found[2]


def misread_win(p: float, error: float) -> float:
    """The hand-win estimate as a beginner reads it: a certain hand (won or lost) is read right,
    any other is off by ``error`` (kept inside (0, 1))."""
    if error == 0.0 or p in (0.0, 1.0):
        return p
    return min(0.99, max(0.01, p + error))


def win_prob(ctx: Ctx) -> float:
    """A quick estimate of the chance that the seat's side wins the hand's tricks."""
    if ctx.rules.players == 3:
        return _win_prob_three(ctx)
    my_team = ctx.teams[ctx.seat]
    mano_side = ctx.teams[ctx.mano] == my_team
    results = [PARDA if r < 0 else (MINE if r == my_team else THEIRS) for r in ctx.results]
    decided = hand_winner(results, MINE if mano_side else THEIRS)
    if decided is not None:
        return 1.0 if decided == MINE else 0.0
    ranks = ctx.ranks
    beat, _ = odds(ranks)
    hand = sorted(ctx.hand, key=ranks.__getitem__, reverse=True)
    if ctx.partner_cards and hand and not ctx.plays:
        # A partner's señas: his best cards are the side's too, one trick each (at the start of
        # a trick, before anybody shows what the trick holds).
        hand = sorted((*hand, *ctx.partner_cards), key=ranks.__getitem__, reverse=True)
        hand = hand[: len(ctx.hand)]
    probs = [beat[c] for c in hand]
    if ctx.partners:  # mão de onze: my side's best cards, mine and my partners' seen ones
        best = sorted(ctx.partners, key=ranks.__getitem__, reverse=True)[: len(hand)]
        probs = [max(a, beat[b]) for a, b in zip(probs, best, strict=False)]
    if ctx.plays and hand:
        best_mine, best_opp = table_bests(ctx, my_team)
        top = max(ranks[hand[0]], best_mine)
        if best_opp < 0:
            current = probs[0]
        elif top > best_opp:
            current = 1.0
        elif top == best_opp:
            current = 0.5
        else:
            current = 0.0
        if best_opp >= 0 and ranks[hand[0]] > best_opp:
            # Win the trick with the cheapest card that does; keep the others.
            beaters = [c for c in hand if ranks[c] > best_opp]
            used = beaters[-1]
            rest = [beat[c] for c in hand if c != used]
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
    own = variant_of(ctx.rules).own_side  # a trick's result is then a seat
    results = [
        PARDA if r < 0 or (own and (retired >> r) & 1) else (MINE if r == my_team else THEIRS)
        for r in ctx.results
    ]
    decided = hand_winner(results, MINE if mano_side else THEIRS)
    if decided is not None:
        return 1.0 if decided == MINE else 0.0
    k = len(rivals)
    helper = 0.5 if partners else 0.0
    ranks = ctx.ranks
    _, beat_rank = odds(ranks)

    def trick_p(rank: int, rivals_left: int, partner_left: bool) -> float:
        q: float = beat_rank[rank] ** rivals_left
        return 1.0 - (1.0 - q) * (1.0 - (helper if partner_left else 0.0))

    hand = sorted(ctx.hand, key=ranks.__getitem__, reverse=True)
    probs = [trick_p(ranks[c], k, bool(partners)) for c in hand]
    if ctx.plays and hand:
        played = {s for s, _, _ in ctx.plays}
        k_rem = sum(1 for s in rivals if s not in played)
        partner_left = any(s not in played for s in partners)
        best_mine, best_opp = table_bests(ctx, my_team)
        top = max(ranks[hand[0]], best_mine)
        if top > best_opp:
            current = trick_p(top, k_rem, partner_left) if k_rem else 1.0
        elif top == best_opp:
            current = 0.5 * trick_p(top, k_rem, partner_left) if k_rem else 0.5
        else:
            current = 1.0 - beat_rank[best_opp] if partner_left else 0.0
        if best_opp >= 0 and not k_rem and ranks[hand[0]] > best_opp:
            beaters = [c for c in hand if ranks[c] > best_opp]
            used = beaters[-1]
        elif top <= best_opp:
            used = hand[-1]
        else:
            used = hand[0]
        rest = [trick_p(ranks[c], k, bool(partners)) for c in hand if c != used]
        probs = [current, *rest]
    return _enumerate(results, probs, mano_side)


def _enumerate(results: list[int], probs: list[float], mano_side: bool) -> float:
    """P(the hand is won) when each remaining trick is won with its probability in ``probs``
    (``results`` in MINE / THEIRS / PARDA, decided by the core's ``tricks.hand_winner``)."""
    mano_team = MINE if mano_side else THEIRS
    remaining = 3 - len(results)
    probs = (probs + [0.0] * remaining)[:remaining]
    total = 0.0
    for mask in range(1 << remaining):
        p = 1.0
        seq = list(results)
        for i in range(remaining):
            if (mask >> i) & 1:
                p *= probs[i]
                seq.append(MINE)
            else:
                p *= 1.0 - probs[i]
                seq.append(THEIRS)
        if p == 0.0:
            continue
        for j in range(len(results) + 1, 4):
            out = hand_winner(seq[:j], mano_team)
            if out is not None:
                if out == MINE:
                    total += p
                break
    return total


def choose_card(ctx: Ctx) -> Card:
    """Win cheap, keep the best, hacer primera; throw the lowest when the trick is lost.

    The thresholds hold in both games: a 2 ranks 9 and a 3 ranks 10 in each (the Argentine
    game's four top cards, and Paulista's manilhas, rank above)."""
    ranks = ctx.ranks
    hand = sorted(ctx.hand, key=ranks.__getitem__)
    my_team = ctx.teams[ctx.seat]
    if len(hand) == 1:
        return hand[0]
    if ctx.plays:
        best_mine, best_opp = table_bests(ctx, my_team)
        if best_mine > best_opp:
            return hand[0]
        beaters = [c for c in hand if ranks[c] > best_opp]
        if beaters:
            return beaters[0]
        tie = [c for c in hand if ranks[c] == best_opp]
        if tie and ctx.trick == 0 and ranks[hand[-1]] >= 9:
            return tie[0]  # parda and keep a good card for the second trick
        return hand[0]
    # Leading.
    if ctx.trick == 0:
        middle = hand[-2]
        if ranks[middle] >= 9 or ranks[hand[-1]] < 10:
            return middle if ranks[middle] >= 9 else hand[-1]
        return hand[-1]
    won_first = bool(ctx.results) and ctx.results[0] == my_team
    if won_first and ranks[hand[-1]] < 9:
        return hand[0]
    return hand[-1]

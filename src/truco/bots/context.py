"""What one seat knows, as the bots' heuristics use it: ``Ctx``, built from a ``SeatView``.

Everything the bots compute works on a ``Ctx``: the few facts one seat may know, built either
from its ``SeatView`` (the real bots) or from a full ``State`` for that seat (the expert's
rollouts in a sampled world, where the seat's own cards are the sampled ones). Nothing here
looks at another seat's hidden cards.
"""

from __future__ import annotations

from typing import NamedTuple

from truco.actions import Verb
from truco.cards import TRUCO_RANK, Card
from truco.manilhas import rank_table
from truco.rules import Rules
from truco.state import State
from truco.view import PlayView, SeatView


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
    ranks: tuple[int, ...] = TRUCO_RANK
    """Every card's rank in this hand (higher wins): the Argentine hierarchy, or Truco
    Paulista's with this hand's manilhas (``card_ranks``)."""
    partners: tuple[Card, ...] = ()
    """Truco Paulista, mão de onze: the cards the seat's partners hold (he has seen them)."""

    partner_cards: tuple[Card, ...] = ()
    """Cards the partners' señas said they hold and have not played yet (one card standing
    for each kind: a "tres" is some three); empty without señas (``bots/senas.py``)."""
    partner_tantos: int = 0
    """The envido a partner's señas promised ("envido alto": 29 stands for 28 or more); 0
    without."""


def card_ranks(rules: Rules, vira: int) -> tuple[int, ...]:
    """The rank of every card in a hand of ``rules`` whose vira is ``vira`` (-1: none)."""
    return rank_table(vira, rules.baralho == "limpo") if rules.game == "paulista" else TRUCO_RANK


def table_bests(ctx: Ctx, my_team: int) -> tuple[int, int]:
    """The best truco rank on the table of my team and of the rivals (-1 if none; a face-down
    card ranks 0)."""
    best_mine = best_opp = -1
    for s, card, face_down in ctx.plays:
        rank = 0 if face_down or card is None else ctx.ranks[card]
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
        sum(1 << s for s in view.bettors),
        card_ranks(view.rules, -1 if view.vira is None else view.vira),
        tuple(c for _, cards in view.partners for c in cards),
    )


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
        card_ranks(state.rules, state.vira),
        _partners_cards(state, seat),
    )


def _partners_cards(state: State, seat: int) -> tuple[Card, ...]:
    """Truco Paulista: in a mão de onze, the cards of the partners of a seat of the side at 11
    (as its view shows them)."""
    if state.rules.game != "paulista" or len(state.teams) < 4:
        return ()
    from truco.paulista import onze_team  # a late import: only Paulista hands need it

    team = state.teams[seat]
    if onze_team(state.rules.target, state.score) != team:
        return ()
    out: list[Card] = []
    for s, t in enumerate(state.teams):
        if t == team and s != seat:
            out.extend(state.hands[s])
    return tuple(out)


def sides(ctx: Ctx) -> tuple[int, int]:
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

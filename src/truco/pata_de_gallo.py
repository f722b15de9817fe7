"""Pata de gallo: three players, the pie alone against the other two, with four cards.

The pie (the seat before the mano, who deals and plays last) is dealt four cards and puts one
away before anything else is played; his tantos count from the three he keeps. Otherwise the
hand is the Argentine game's (``truco.argentino``), with scores kept per player.
"""

from __future__ import annotations

from typing import Final

from truco.actions import DISCARD, Action
from truco.argentino import Argentino
from truco.cards import Card, envido_points, flor_points
from truco.events import Discarded, Event
from truco.hand import HAND_SIZE
from truco.state import (
    DISCARD_KIND,
    F_FLORES,
    F_HANDS,
    F_MANO,
    F_RULES,
    F_TANTO_CALL,
    F_TANTOS,
    F_TEAMS,
    State,
    StateLike,
    TantoCall,
    Work,
    hand_teams,
)
from truco.variants import pie_of

_new = tuple.__new__


class PataDeGallo(Argentino):
    """The Argentine room, with the pie's fourth card and his discard."""

    def __init__(self) -> None:
        super().__init__()
        self.sized_deal = True

    def hand_sizes(self, state: State) -> tuple[int, ...]:
        players = state.rules.players
        pie = pie_of(players, state.next_mano)
        return tuple([HAND_SIZE + 1 if s == pie else HAND_SIZE for s in range(players)])

    def start_hand(self, s: Work) -> None:
        """The sides of this hand (the pie against the others), and his discard waits first."""
        rules = s[F_RULES]
        mano = s[F_MANO]
        pie = pie_of(rules.players, mano)
        s[F_TEAMS] = hand_teams(rules, mano)
        s[F_TANTO_CALL] = _new(TantoCall, (DISCARD_KIND, pie, pie))

    def legal_of(self, s: StateLike) -> tuple[Action, ...]:
        call = s[F_TANTO_CALL]
        if call is not None and call[0] == DISCARD_KIND:
            return tuple([DISCARD[c] for c in s[F_HANDS][call[2]]])
        return Argentino.legal_of(self, s)

    def act(self, s: Work, seat: int, action: Action, ev: list[Event]) -> None:
        call = s[F_TANTO_CALL]
        if call is not None and call[0] == DISCARD_KIND:
            discard(s, seat, action.card, ev)  # type: ignore[arg-type]
        else:
            Argentino.act(self, s, seat, action, ev)


ROOM: Final[PataDeGallo] = PataDeGallo()


def discard(s: Work, seat: int, card: Card, ev: list[Event]) -> None:
    """The pie keeps three of his four cards; his tantos count from those."""
    hands = s[F_HANDS]
    kept = tuple([c for c in hands[seat] if c != card])
    s[F_HANDS] = (*hands[:seat], kept, *hands[seat + 1 :])
    tantos_, flores = s[F_TANTOS], s[F_FLORES]
    s[F_TANTOS] = (*tantos_[:seat], envido_points(kept), *tantos_[seat + 1 :])
    if s[F_RULES].flor:
        flor = flor_points(kept)
        s[F_FLORES] = (*flores[:seat], -1 if flor is None else flor, *flores[seat + 1 :])
    s[F_TANTO_CALL] = None
    ev.append(_new(Discarded, (seat,)))

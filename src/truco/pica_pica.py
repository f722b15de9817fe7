"""Pica-pica: six players, and rounds of three 1v1 hands while the score is mid-match.

After a hand of everyone, while the leading team is between ``pica_from`` and the target less
``pica_margin``, a round of three 1v1 hands follows: each seat against the one facing him, the
others sitting out, the round keeping its place in the turn of the mano until its last hand.
Otherwise the hand is the Argentine game's (``truco.argentino``).
"""

from __future__ import annotations

from typing import Final

from truco.argentino import Argentino
from truco.hand import HAND_SIZE
from truco.state import (
    F_MANO,
    F_NEXT_MANO,
    F_PICA,
    F_RETIRED,
    F_RULES,
    F_SCORE,
    F_TURN,
    State,
    Work,
)
from truco.variants import facing


class PicaPica(Argentino):
    """The Argentine room, with the rounds of 1v1 hands."""

    def __init__(self) -> None:
        super().__init__()
        self.sized_deal = True

    def hand_sizes(self, state: State) -> tuple[int, ...]:
        players = state.rules.players
        pica = state.next_pica
        if pica < 0:
            return (HAND_SIZE,) * players
        mano = (state.next_mano + pica) % players if pica > 0 else state.next_mano
        opposite = facing(players, mano)
        return tuple([HAND_SIZE if s in (mano, opposite) else 0 for s in range(players)])

    def start_hand(self, s: Work) -> None:
        """A 1v1 hand of a round: its mano (the round's, moved on by the hand's number) and his
        rival facing him; the others sit it out."""
        pica = s[F_PICA]
        if pica < 0:
            return
        players = s[F_RULES].players
        base = s[F_MANO]  # the mano in turn, which the whole round keeps
        mano = (base + pica) % players if pica > 0 else base
        s[F_MANO] = s[F_TURN] = mano
        # A round keeps its place in the turn of the mano until its last hand.
        s[F_NEXT_MANO] = base if pica < 2 else (base + 1) % players
        opposite = facing(players, mano)
        s[F_RETIRED] = ((1 << players) - 1) & ~(1 << mano | 1 << opposite)

    def next_pica(self, s: Work) -> int:
        """After a hand of everyone, a round while the leading team is between ``pica_from``
        and the target less ``pica_margin``; after a round, everyone."""
        pica = s[F_PICA]
        if pica >= 0:
            return pica + 1 if pica < 2 else -1
        rules = s[F_RULES]
        lead = max(s[F_SCORE])
        return 0 if rules.pica_from <= lead <= rules.target - rules.pica_margin else -1


ROOM: Final[PicaPica] = PicaPica()

"""Who wins a trick, and who wins the hand from the tricks (pardas included)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from truco.cards import TAPADA_RANK, TRUCO_RANK
from truco.state import Play

PARDA: Final = -1


def trick_result(
    plays: Sequence[Play], teams: Sequence[int], ranks: Sequence[int] = TRUCO_RANK
) -> tuple[int, int]:
    """(team, seat) that won a trick, or (PARDA, PARDA) when the teams' best cards tie.

    Partners that tie each other do not make a parda; the first of them to play holds the trick.
    A face-down card ranks below every card; two face-down cards tie. ``ranks`` is the rank of
    every card: the Argentine hierarchy, or a Truco Paulista hand's (``manilhas.rank_table``).
    """
    best = -1
    team = seat = PARDA
    tied = False
    for s, card, face_down in plays:
        rank = TAPADA_RANK if face_down else ranks[card]
        if rank > best:
            best, team, seat, tied = rank, teams[s], s, False
        elif rank == best and teams[s] != team:
            tied = True
    return (PARDA, PARDA) if tied else (team, seat)


def hand_winner(results: Sequence[int], mano_team: int) -> int | None:
    """The team that won the hand from the trick results so far, or None while undecided.

    Parda in the first: the second decides (then the third; three pardas: the mano's team).
    Parda in the second or third: the winner of the first. With three sides (destantado) each
    may win one trick: then too the winner of the first takes the hand.
    """
    n = len(results)
    if n < 2:
        return None
    first, second = results[0], results[1]
    if n == 2:
        if first == PARDA:
            return None if second == PARDA else second
        return first if second in (PARDA, first) else None
    third = results[2]
    if third != PARDA:
        return third if third in (second, first) or first == PARDA else first
    return first if first != PARDA else mano_team

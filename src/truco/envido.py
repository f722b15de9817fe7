"""Envido and flor: what a chain of calls is worth, the falta, and who wins the declarations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from truco.actions import Verb
from truco.rules import Rules
from truco.variants import half as half_of

_CALL_VALUE: Final = {Verb.ENVIDO: 2, Verb.REAL_ENVIDO: 3}


def chain_calls_allowed(chain: Sequence[Verb]) -> tuple[Verb, ...]:
    """The envido calls that may follow ``chain``: envido, envido, real envido, falta envido."""
    if not chain:
        return (Verb.ENVIDO, Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO)
    last = chain[-1]
    if last is Verb.ENVIDO:
        if chain.count(Verb.ENVIDO) == 1:
            return (Verb.ENVIDO, Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO)
        return (Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO)
    if last is Verb.REAL_ENVIDO:
        return (Verb.FALTA_ENVIDO,)
    return ()


def chain_value(chain: Sequence[Verb]) -> int:
    """The sum of a chain without falta (envido 2, real envido 3)."""
    # A loop, not sum(map(...)): the compiled code runs it natively, where the map is a bound
    # method looked up and called through the interpreter's machinery for every call.
    total = 0
    for verb in chain:
        total += _CALL_VALUE[verb]
    return total


def declined_value(chain: Sequence[Verb]) -> int:
    """A declined envido: what was accepted before the last call, or 1 if nothing was."""
    return chain_value(chain[:-1]) or 1


def in_malas(rules: Rules, points: int) -> bool:
    """A team is in the malas while its score is at most half the target (``Rules.halves``)."""
    half = half_of(rules)
    return half is not None and points <= half


def side_scores(individual: bool, score: Sequence[int], teams: Sequence[int]) -> Sequence[int]:
    """The score of each side, for the falta: the team scores; where players score on their own
    (pata de gallo), a side counts as far as its best player has got."""
    if not individual:
        return score
    best = [0, 0]
    for seat, points in enumerate(score):
        best[teams[seat]] = max(best[teams[seat]], points)
    return tuple(best)


def falta_value(rules: Rules, score: Sequence[int], winner: int, loser: int, before: int) -> int:
    """What an accepted falta envido (or contraflor al resto) gives ``winner``.

    ``before`` is what the chain was worth before the falta (used by the ``diferencia`` formula).
    """
    target, half = rules.target, half_of(rules)
    won, lost, leader = score[winner], score[loser], max(score)
    both_malas = in_malas(rules, won) and in_malas(rules, lost)
    mode = rules.falta
    if mode == "match_if_malas":
        value = target - won if both_malas else target - leader
    elif mode == "leader":
        value = target - leader
    elif mode == "litoral":
        value = half + 1 - leader if both_malas and half is not None else target - leader
    elif mode == "doble":
        value = half + 1 - won if half is not None and won <= half else target - won
    elif mode == "loser":
        value = target - lost
    else:  # diferencia
        if both_malas:
            value = lost - won + 1
        elif in_malas(rules, won):
            value = lost - won
        elif in_malas(rules, lost):
            value = before
        else:
            value = target - lost
    return max(1, value)


def declare(
    order: Sequence[int], points: Sequence[int], teams: Sequence[int]
) -> tuple[int, list[tuple[int, int | None]]]:
    """Declarations in the traditional order; returns the winning seat and what each one said.

    ``order`` starts at the mano. The mano declares first; then, going round, each player whose
    side is losing either declares points that beat the best so far or says "son buenas" (None)
    and is done. A player whose side holds the best keeps quiet, and speaks later only if the
    other side beats it. Ties go to the player nearer the mano, so the true best always wins.
    """
    if len(order) == 2:  # mano a mano, the common case: no need for the general round
        mano, pie = order
        if teams[mano] != teams[pie]:
            if points[pie] > points[mano]:
                return pie, [(mano, points[mano]), (pie, points[pie])]
            return mano, [(mano, points[mano]), (pie, None)]
    position = {seat: i for i, seat in enumerate(order)}
    best = order[0]
    said: list[tuple[int, int | None]] = [(best, points[best])]
    spoken = {best}
    changed = True
    while changed:
        changed = False
        for seat in order:
            if seat in spoken or teams[seat] == teams[best]:
                continue
            spoken.add(seat)
            changed = True
            if points[seat] > points[best] or (
                points[seat] == points[best] and position[seat] < position[best]
            ):
                best = seat
                said.append((seat, points[seat]))
            else:
                said.append((seat, None))
    return best, said

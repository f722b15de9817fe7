"""Why a finished hand ended as it did, from its final state: the hand's story, told once.

``story(state)`` is what a table says when a hand is over: who went to the mazo, who declined
which call, which side took the tricks it won and the pardas, or that it won by being mano. It
is computed here, from the state after the hand's last action (its log, its tricks' results and
its sides), so that every client (the browser, the terminal, the replay) only says it and none
reads the history for it: a client that read the history from before the last action named the
wrong seat. ``SeatView.story`` carries it (docs/design.md, "The hand's story").
"""

from __future__ import annotations

from typing import NamedTuple

from truco.actions import Verb
from truco.destantado import hand_winner as destantado_winner
from truco.events import Reason
from truco.paulista import NOBODY, hand_result
from truco.state import PLAY, State
from truco.tricks import PARDA, hand_winner
from truco.variants import BY_NAME


class HandStory(NamedTuple):
    """The story of a finished hand (``SeatView.story``; None while a hand is played)."""

    reason: Reason
    """Why the hand ended (``SeatView.end_reason``): its tricks (``TRUCO``), a call declined,
    a side at the mazo, a mão de onze run from, or the envido or flor points that ended the
    match before the hand did."""
    side: int
    """The side that took the hand's truco part (a team, as in ``SeatView.teams`` and
    ``results``; in destantado a player), or -1: nobody (the match ended on the envido or the
    flor first; Truco Paulista's three cangadas)."""
    seats: tuple[int, ...]
    """The seats of ``side`` in this hand (empty when ``side`` is -1)."""
    seat: int | None
    """Who did the thing that ended the hand: went to the mazo, declined the call (no quiero,
    corre), ran from the mão de onze; None when the tricks or the points ended it."""
    call: Verb | None
    """The call that ``seat`` declined (``retruco``, ``real-envido``, ``contraflor``,
    ``seis``...), or the envido that ended the match (``ENVIDO``); None otherwise."""
    won: tuple[int, ...]
    """The tricks (from 0) that ``side`` won."""
    pardas: tuple[int, ...]
    """The tricks that were pardas (Truco Paulista: cangadas)."""
    mano: bool
    """``side`` took the tricks by being mano (it won none of them: all pardas)."""


_TRUCO_VERBS = (Verb.TRUCO, Verb.RETRUCO, Verb.VALE_CUATRO)
_ENVIDO_VERBS = (Verb.ENVIDO, Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO)
_CALLS: dict[Verb, tuple[Reason, Reason]] = {
    **{v: (Reason.TRUCO, Reason.TRUCO_NO_QUIERO) for v in _TRUCO_VERBS},
    **{v: (Reason.ENVIDO, Reason.ENVIDO_NO_QUIERO) for v in _ENVIDO_VERBS},
    Verb.CONTRAFLOR: (Reason.FLOR, Reason.FLOR_NO_QUIERO),
    Verb.CONTRAFLOR_AL_RESTO: (Reason.FLOR, Reason.FLOR_NO_QUIERO),
}
"""The calls answered with quiero or no quiero: what the hand ends for when it is accepted, and
when it is declined."""
_FLOR_VERBS = frozenset(
    (
        Verb.FLOR,
        Verb.CONTRAFLOR,
        Verb.CONTRAFLOR_AL_RESTO,
        Verb.CON_FLOR_QUIERO,
        Verb.CON_FLOR_ME_ACHICO,
    )
)
_BY_TRICKS = (Verb.PLAY, Verb.TAPADA, Verb.CEGA)
_NO_SIDE = frozenset((Reason.ENVIDO, Reason.ENVIDO_NO_QUIERO, Reason.FLOR, Reason.FLOR_NO_QUIERO))
"""Reasons that end a hand only by ending the match: its truco part went to nobody."""


class _Call:
    """A call waiting for answers, while ``_ending`` follows a hand's log."""

    __slots__ = ("accepted", "caller", "declined", "verb", "won")

    def __init__(self, won: Reason, declined: Reason, caller: int, verb: Verb) -> None:
        self.won, self.declined, self.caller, self.verb = won, declined, caller, verb
        self.accepted = False


def end_reason(state: State) -> Reason | None:
    """Why the hand ended, once it has (None while it is played and before the first)."""
    ending = _ending(state)
    return None if ending is None else ending[0]


def story(state: State) -> HandStory | None:
    """The story of the hand that just ended; None while a hand is played, before the first
    hand, and once the next one is dealt."""
    ending = _ending(state)
    if ending is None:
        return None
    reason, seat, call = ending
    results = state.results
    side = _side(state, reason, seat)
    teams = state.teams
    seats = tuple(s for s in range(len(teams)) if side >= 0 and teams[s] == side and state.dealt[s])
    won = tuple(i for i, r in enumerate(results) if side >= 0 and r == side)
    pardas = tuple(i for i, r in enumerate(results) if r == PARDA)
    mano = reason is Reason.TRUCO and side >= 0 and not won
    return HandStory(reason, side, seats, seat, call, won, pardas, mano)


def _ending(state: State) -> tuple[Reason, int | None, Verb | None] | None:
    """(why, who did it, the call) for the action that ended the hand (the last one logged):
    a card that decided the tricks, the mazo, a flor, or the answer to a call. The log is
    followed to know which call that answer closed (an envido may wait on top of a truco).
    Where each player answers for himself (destantado) a call waits until every other player
    still in it has answered, in playing order (one who declines a truco leaves the hand, one
    who declines an envido is out of its raises), and counts as accepted once anybody accepted
    it."""
    if state.phase == PLAY or not state.log:
        return None
    last_seat, last = state.log[-1]
    verb = last.verb
    if verb is Verb.MAZO:
        teams = state.teams
        side = teams[last_seat]
        partner_in = any(
            teams[s] == side and s != last_seat and not (state.retired >> s) & 1
            for s in range(len(teams))
        )
        if not partner_in:
            return Reason.MAZO, last_seat, None
        # His partner is still in: leaving completed the trick, and the tricks decided.
        return Reason.TRUCO, None, None
    if verb in _BY_TRICKS:
        return Reason.TRUCO, None, None
    if verb is Verb.CORRE:  # running from the mão de onze is the hand's first action
        if len(state.log) == 1:
            return Reason.MAO_DE_ONZE, last_seat, None
        called = [a.verb for _, a in state.log if a.verb.paulista_value is not None]
        return Reason.TRUCO_NO_QUIERO, last_seat, called[-1] if called else Verb.TRUCO
    if verb in _FLOR_VERBS:
        return Reason.FLOR, None, None
    n = state.rules.players
    each = BY_NAME[state.rules.variant].own_side
    out = 0  # the seats out of the hand, as the log goes (destantado's answers depend on it)
    out_of_envido = 0  # and those who declined the envido
    pending: list[_Call] = []  # the calls waiting, the last one on top
    ended: tuple[Reason, int | None, Verb | None] | None = None
    for who, action in state.log:
        v = action.verb
        if v is Verb.MAZO:
            out |= 1 << who
        elif v is Verb.QUIERO or v is Verb.NO_QUIERO:
            call = pending[-1]
            call.accepted = (call.accepted and each) or v is Verb.QUIERO
            envido = call.won is Reason.ENVIDO
            if call.accepted:
                ended = call.won, None, call.verb if envido else None
            else:
                ended = call.declined, who, call.verb
            if each and v is Verb.NO_QUIERO:
                if envido:
                    out_of_envido |= 1 << who
                else:
                    out |= 1 << who
            skip = out | out_of_envido if envido else out
            if not each or _answered_by_all(who, call.caller, skip, n):
                pending.pop()
        elif v in _CALLS:
            won, declined = _CALLS[v]
            if pending and pending[-1].won is won:
                pending.pop()  # a raise replaces the call it raises
            pending.append(_Call(won, declined, who, v))
        elif v is Verb.FLOR and pending and pending[-1].won is Reason.ENVIDO:
            pending.pop()  # a flor cancels the envido
    if ended is not None and ended[0] is Reason.TRUCO_NO_QUIERO and each:
        # In destantado the decliner leaves; the last of them ended the hand.
        ended = ended[0], last_seat, ended[2]
    return ended


def _answered_by_all(who: int, caller: int, out: int, n: int) -> bool:
    """Whether no player still in sits after ``who`` and before the ``caller``, in playing
    order: then ``who`` was the last to answer the call."""
    seat = (who + 1) % n
    while seat != caller:
        if not (out >> seat) & 1:
            return False
        seat = (seat + 1) % n
    return True


def _side(state: State, reason: Reason, seat: int | None) -> int:
    """The side that took the truco part, as the room that ended the hand decided it."""
    if reason in _NO_SIDE:
        return -1
    info = BY_NAME[state.rules.variant]
    teams = state.teams
    if info.own_side:  # destantado: the one player left, else the tricks as they stand
        n = len(teams)
        left = [s for s in range(n) if not (state.retired >> s) & 1]
        if len(left) == 1:
            return teams[left[0]]
        winner = destantado_winner(list(state))
        return -1 if winner is None else teams[winner]
    if reason is Reason.TRUCO:
        mano_team = teams[state.mano]
        if info.game == "paulista":
            result = hand_result(state.results, mano_team)
            return -1 if result is None or result == NOBODY else result
        decided = hand_winner(state.results, mano_team)
        return -1 if decided is None else decided
    if seat is None:
        return -1
    # The mazo, a call declined, a mão de onze run from: the hand goes to the other side.
    return next((t for t in teams if t != teams[seat]), -1)

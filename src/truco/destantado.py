"""Destantado: three players, each on his own, who win by passing their porotos to the others.

Source: ``shared/seeds/000_*.txt`` (and ``003_*.txt``). Everyone starts with ``porotos`` (10).
"El resto de puntos es igual al truco común": the calls are those of team play (envido chains,
raises given as answers, el envido está primero), but a call is answered by each other player
still in it, in playing order, each for himself. The winner of a bet passes its value from his
own pile to each loser who was in it; a call nobody accepted is won by its caller, and its points
go to a pot that is worth nothing (they leave the caller's pile). The first with an empty pile
wins.

Decisions the seeds leave open (docs/rules.md, "Destantado"): the hand itself is a bet that
everyone is in at 1; a player who declines a call (an envido, a truco or a raise of either)
is out of that bet and nothing passes to him (for a truco he leaves the hand), while one who goes
to the mazo loses what he was in for; a raise, given as an answer, accepts the call so far and is
answered in turn by every other player still in the bet, its caller and earlier accepters too;
the mazo is not an answer (no quiero leaves for nothing); el envido está primero only before
anybody has accepted the truco; a falta envido is worth ``destantado_falta`` and, as in team
play, replaces the sum of the chain; a trick won by a player who has left the hand counts as a
parda; a winner with too few porotos passes all he has (to the losers in playing order from the
mano), and his empty pile ends the match at once (``match_end`` does not apply).

Its room builds on the Argentine one (``truco.argentino``): the same calls, answered by each
player for himself. Like the shared mechanics, every function edits the engine's working list
``s`` and appends events.
"""

from __future__ import annotations

from typing import Final

from truco import envido as tantos
from truco.actions import Action, Verb
from truco.argentino import (
    ENVIDO_VERBS,
    TRUCO_ANSWERS_NO_MAZO,
    TRUCO_LEVEL_OF,
    Argentino,
    declare,
)
from truco.cards import envido_cards
from truco.events import Answered, Called, Event, PorotosPassed, WentToMazo
from truco.hand import active_from, kept_cards
from truco.legal import Refusal, envido_primero_allowed, refusal
from truco.state import (
    ENVIDO_KIND,
    F_BETTORS,
    F_CHAIN,
    F_ENVIDO_OPEN,
    F_HAND_POINTS,
    F_LOG,
    F_MANO,
    F_OWNER,
    F_PHASE,
    F_PLAYS,
    F_REACHED,
    F_RESULTS,
    F_RETIRED,
    F_RULES,
    F_SCORE,
    F_SHOWN,
    F_STAKES,
    F_TANTO_CALL,
    F_TANTOS,
    F_TRUCO,
    F_TRUCO_CALL,
    F_TURN,
    PLAY,
    StateLike,
    TantoCall,
    TrucoCall,
    Work,
)
from truco.tricks import PARDA
from truco.tricks import hand_winner as tricks_winner

_new = tuple.__new__


def next_responder(s: Work, caller: int, after: int, out: int = 0) -> int:
    """The next seat after ``after`` that still owes an answer to ``caller``'s call: going round
    in playing order, still in the hand and not in the bit set ``out``, before coming back to
    the caller; -1 when none."""
    n = len(s[F_STAKES])
    skip = s[F_RETIRED] | out
    seat = (after + 1) % n
    while seat != caller:
        if not (skip >> seat) & 1:
            return seat
        seat = (seat + 1) % n
    return -1


def _pass_on(s: Work, field: int, head: int, caller: int, seat: int, out: int = 0) -> bool:
    """After ``seat``'s answer, the call (kept in ``field`` as ``(head, caller, responder)``)
    goes to the next player who owes one; False, with the call closed, once all have answered."""
    nxt = next_responder(s, caller, seat, out)
    if nxt >= 0:
        # One class per statement: the compiled code would box a join of the two as a plain tuple.
        if field == F_TRUCO_CALL:
            s[field] = _new(TrucoCall, (head, caller, nxt))
        else:
            s[field] = _new(TantoCall, (head, caller, nxt))
        return True
    s[field] = None
    s[F_BETTORS] = 0
    return False


def envido_out(s: Work) -> int:
    """The seats that declined this hand's envido (still in the hand, out of the envido): those
    who said no quiero since its first call. Nothing else is played while an envido waits, so
    every answer after that call in the log belongs to it."""
    out = 0
    started = False
    for seat, action in s[F_LOG]:
        verb = action.verb
        if started:
            if verb is Verb.NO_QUIERO:
                out |= 1 << seat
        elif verb in ENVIDO_VERBS:
            started = True
    return out


def hand_winner(s: Work) -> int | None:
    """The player who won the hand from its tricks, or None while undecided. A trick won by a
    player who has left the hand counts as a parda; three pardas go to the first player still
    in the hand from the mano."""
    retired = s[F_RETIRED]
    results = tuple([PARDA if r >= 0 and (retired >> r) & 1 else r for r in s[F_RESULTS]])
    return tricks_winner(results, active_from(s, s[F_MANO])[0])


class Destantado(Argentino):
    """The Argentine room, each player on his own, betting porotos from his pile."""

    def __init__(self) -> None:
        super().__init__()
        self.truco_answers = TRUCO_ANSWERS_NO_MAZO

    def refusal(self, s: StateLike, action: Action) -> Refusal | None:
        return refusal(s, action, own_side=True)

    def primero_allowed(self, s: StateLike, seat: int) -> bool:
        # Once a player accepted the truco, the envido is no longer first.
        return envido_primero_allowed(s, seat) and s[F_BETTORS] == 1 << s[F_TRUCO_CALL][1]

    def start_hand(self, s: Work) -> None:
        """Everyone is in the hand's bet at 1."""
        s[F_STAKES] = (1,) * s[F_RULES].players

    def hand_winner(self, s: Work, results: tuple[int, ...]) -> int | None:
        return hand_winner(s)

    def end_hand(self, s: Work, team: int, points: int, reason: str, ev: list[Event]) -> None:
        self.settle(s, team, ev)

    def pass_porotos(
        self,
        s: Work,
        seat: int,
        to: int,
        points: int,
        reason: str,
        ev: list[Event],
        truco_winner: int = -1,
    ) -> None:
        """``seat`` passes ``points`` to ``to`` (-1: the pot), or all he has if that is less:
        the porotos are never made up. An empty pile wins the match."""
        score = list(s[F_SCORE])
        hand_points = list(s[F_HAND_POINTS])
        paid = min(points, score[seat])
        score[seat] -= paid
        hand_points[seat] -= paid
        if to >= 0:
            score[to] += paid
            hand_points[to] += paid
        s[F_SCORE] = tuple(score)
        s[F_HAND_POINTS] = tuple(hand_points)
        ev.append(_new(PorotosPassed, (seat, to, paid, reason)))
        if s[F_REACHED] < 0 and score[seat] == 0:
            # At once, whatever ``match_end`` says: his pile could fill again later in the hand.
            s[F_REACHED] = seat
            self.finish_hand(s, truco_winner, ev)

    def _hand_decided(self, s: Work, ev: list[Event]) -> bool:
        """After a player left: the hand ends if one player is left, or the tricks now decide
        it."""
        left = active_from(s, s[F_MANO])
        winner: int | None = left[0] if len(left) == 1 else hand_winner(s)
        if winner is None:
            return False
        self.settle(s, winner, ev)
        return True

    def settle(self, s: Work, winner: int, ev: list[Event]) -> None:
        """The hand's truco part: ``winner`` passes each other player what he was in for, in
        playing order from the mano (which matters only when his pile runs out)."""
        stakes = s[F_STAKES]
        n = len(stakes)
        for i in range(n):
            seat = (s[F_MANO] + i) % n
            if seat != winner and stakes[seat] > 0:
                self.pass_porotos(s, winner, seat, stakes[seat], "truco", ev, truco_winner=winner)
                if s[F_PHASE] != PLAY:
                    return
        self.finish_hand(s, winner, ev)

    def mazo(self, s: Work, seat: int, ev: list[Event]) -> None:
        """He leaves the hand, and loses (at its end) what he was in for."""
        ev.append(_new(WentToMazo, (seat,)))
        s[F_RETIRED] |= 1 << seat
        if self._hand_decided(s, ev):
            return
        if s[F_TURN] == seat:
            self.advance(s, seat, s[F_PLAYS], ev)

    def act(self, s: Work, seat: int, action: Action, ev: list[Event]) -> None:
        """Any action but a card played."""
        verb = action.verb
        if verb is Verb.MAZO:
            self.mazo(s, seat, ev)
        elif verb in TRUCO_LEVEL_OF:  # on one's turn, or a raise given as an answer
            self.call_truco(s, seat, verb, ev)
        elif verb in ENVIDO_VERBS:  # on one's turn, a raise, or el envido está primero
            self.call_envido(s, seat, verb, ev)
        elif s[F_TANTO_CALL] is not None:
            self.answer_envido(s, seat, verb, ev)
        else:
            self.answer_truco(s, seat, verb, ev)

    # --- truco --------------------------------------------------------------------------------

    def call_truco(self, s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
        pending = s[F_TRUCO_CALL]
        if pending is not None:
            # A raise given as an answer accepts the pending level; everyone still in the hand,
            # the last caller and those who had accepted included, answers the raise in turn.
            s[F_TRUCO] = pending[0]
        ev.append(_new(Called, (seat, verb)))
        s[F_BETTORS] = 1 << seat
        answers = next_responder(s, seat, seat)
        s[F_TRUCO_CALL] = _new(TrucoCall, (TRUCO_LEVEL_OF[verb], seat, answers))

    def answer_truco(self, s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
        level, caller, _ = s[F_TRUCO_CALL]
        ev.append(_new(Answered, (seat, verb)))
        bettors = s[F_BETTORS]
        stakes = s[F_STAKES]
        if verb is Verb.QUIERO:
            if bettors == 1 << caller:  # the first to accept is the one who may raise it next
                s[F_OWNER] = seat
            s[F_BETTORS] = bettors = bettors | 1 << seat
        else:  # out of the bet and out of the hand, with nothing to lose
            s[F_RETIRED] |= 1 << seat
            s[F_STAKES] = stakes = (*stakes[:seat], 0, *stakes[seat + 1 :])
        if _pass_on(s, F_TRUCO_CALL, level, caller, seat):
            return
        if bettors == 1 << caller:
            # Nobody accepted: the declined value goes to the pot, and the caller takes the hand
            # from whoever is still in it for something (those who went to the mazo).
            self.pass_porotos(s, caller, -1, s[F_TRUCO], "truco-no-quiero", ev, truco_winner=caller)
            if s[F_PHASE] == PLAY:
                self.settle(s, caller, ev)
            return
        s[F_TRUCO] = level
        s[F_STAKES] = tuple(
            [level if (bettors >> x) & 1 else stakes[x] for x in range(len(stakes))]
        )
        if not self._hand_decided(s, ev) and (s[F_RETIRED] >> s[F_TURN]) & 1:
            # He whose turn it was called the truco and then declined a raise given as its
            # answer: he has left the hand, and the turn goes on to the next player still in it.
            self.advance(s, s[F_TURN], s[F_PLAYS], ev)

    # --- envido -------------------------------------------------------------------------------

    def call_envido(self, s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
        """An envido call: on one's turn, as a raise given as the answer to an envido (it
        accepts the chain so far), or as el envido está primero (the truco waits until it is
        settled). Every other player still in the envido answers it in turn."""
        ev.append(_new(Called, (seat, verb)))
        s[F_CHAIN] = s[F_CHAIN] + (verb,)
        s[F_BETTORS] = 1 << seat
        answers = next_responder(s, seat, seat, envido_out(s))
        s[F_TANTO_CALL] = _new(TantoCall, (ENVIDO_KIND, seat, answers))

    def answer_envido(self, s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
        caller = s[F_TANTO_CALL][1]
        ev.append(_new(Answered, (seat, verb)))
        bettors = s[F_BETTORS]
        if verb is Verb.QUIERO:
            s[F_BETTORS] = bettors = bettors | 1 << seat
        if _pass_on(s, F_TANTO_CALL, ENVIDO_KIND, caller, seat, envido_out(s)):
            return
        s[F_ENVIDO_OPEN] = False
        truco_call = s[F_TRUCO_CALL]
        if truco_call is not None:
            # El envido estaba primero: the truco it interrupted waits again, and nobody had
            # accepted it (Destantado.primero_allowed), so its caller alone is in it.
            s[F_BETTORS] = 1 << truco_call[1]
        chain = s[F_CHAIN]
        if bettors == 1 << caller:
            points = tantos.declined_value(chain)
            self.pass_porotos(s, caller, -1, points, "envido-no-quiero", ev)
            return
        winner = declare(s, s[F_TANTOS], ev, flor=False, among=bettors)
        if chain[-1] is Verb.FALTA_ENVIDO:
            points = s[F_RULES].destantado_falta
        else:
            points = tantos.chain_value(chain)
        s[F_SHOWN] = s[F_SHOWN] + ((winner, envido_cards(kept_cards(s, winner))),)
        n = len(s[F_STAKES])
        for i in range(n):
            x = (s[F_MANO] + i) % n
            if x != winner and (bettors >> x) & 1:
                self.pass_porotos(s, winner, x, points, "envido", ev)
                if s[F_PHASE] != PLAY:
                    return


ROOM: Final[Destantado] = Destantado()
"""Destantado's room (``VariantInfo.room`` ``destantado``)."""

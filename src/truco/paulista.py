"""Truco Paulista: what its hand does differently, on the same state, engine and view.

Sources and defaults: docs/rules.md, "Truco Paulista". The cards' order and the manilhas are in
``truco.manilhas``. Here: what a seat may do (``legal_of``), the calls and answers
(``Paulista.act``), the end of a trick (``Paulista.end_trick``) and the facts of a hand at 11
(``onze_team``, ``ferro``).

- A hand is worth 1; truco makes it 3, then seis 6, nove 9, doze 12. A call is answered with
  desce (accepted), corre (run: the callers score what the hand was worth before it) or the next
  raise (which accepts the call first). Only the side that accepted the last call may raise.
  There is no envido, no flor, and no mazo.
- Mão de onze: when one side has 11, its first seat from the mano decides, having seen his
  partners' cards, to play (joga: the hand is worth 3, and nobody may call truco) or run
  (corre: the rivals score 1). Mão de ferro: both sides at 11; no truco, and with
  ``mao_de_ferro="cega"`` nobody sees his cards: each plays them in the order dealt.
- Ties (cangar): the first trick's winner takes a later tie; a tie in the first goes to the next
  decisive trick; three ties and nobody scores.

Its room (``Paulista``) builds on the shared hand (``truco.hand``) and on nothing of the
Argentine game. Like the shared mechanics, the functions that change a hand edit the engine's
working list ``s`` (indexed by the ``F_*`` field numbers) and append the events they cause to
``ev``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from truco import tricks
from truco.actions import (
    CEGA,
    CORRE,
    DESCE,
    JOGA,
    PAULISTA_HAND_VALUE,
    PLAY,
    SIMPLE,
    TAPADA,
    Action,
    Verb,
)
from truco.cards import TAPADA_RANK, Card
from truco.events import Answered, Called, Event, Reason, TrickEnded
from truco.hand import Room, responder, rival_team
from truco.legal import Refusal, tapada_allowed
from truco.manilhas import rank_table
from truco.rules import Rules
from truco.state import (
    F_HANDS,
    F_MANO,
    F_OWNER,
    F_PLAYS,
    F_RESULTS,
    F_RULES,
    F_SCORE,
    F_TANTO_CALL,
    F_TEAMS,
    F_TRICK,
    F_TRICKS,
    F_TRUCO,
    F_TRUCO_CALL,
    F_TURN,
    F_VIRA,
    ONZE_KIND,
    StateLike,
    TantoCall,
    TrucoCall,
    Work,
    seat_to_act,
)
from truco.tricks import PARDA, hand_winner

VALUE_OF: Final[dict[Verb, int]] = {
    verb: value for verb in Verb if (value := verb.paulista_value) is not None
}
"""What each call makes the hand worth once accepted (``Verb.paulista_value``)."""
VALUES: tuple[int, ...] = (PAULISTA_HAND_VALUE, *VALUE_OF.values())
"""What a hand may be worth: 1, then truco, seis, nove, doze."""
RAISE: dict[int, Action] = {VALUES[i]: SIMPLE[verb] for i, verb in enumerate(VALUE_OF)}
"""The call that raises a hand worth this much (the next value's)."""
TOP_VALUE: Final = VALUES[-1]
"""Doze: nothing raises it."""
ONZE_VALUE = 3
"""A mão de onze played is worth 3."""
ONZE_RUN = 1
"""What the rivals score when the side at 11 runs."""
NOBODY = -2
"""``hand_result``: three tied tricks, nobody scores."""


# --- the facts of a hand at 11 -----------------------------------------------------------------


def at_eleven(target: int, score: Sequence[int]) -> int:
    """How many sides are one point from the target (Paulista scores are per team: two)."""
    count = 0
    for points in score:
        if points == target - 1:
            count += 1
    return count


def onze_team(target: int, score: Sequence[int]) -> int:
    """The side playing a mão de onze (one side one point from the target, the other not), or
    -1."""
    if at_eleven(target, score) != 1:
        return -1
    return 0 if score[0] == target - 1 else 1


def ferro(target: int, score: Sequence[int]) -> bool:
    """Mão de ferro: every side one point from the target."""
    return at_eleven(target, score) == len(score)


def no_truco(s: StateLike) -> bool:
    """No truco may be called: a mão de onze or a mão de ferro (the score does not change
    during a Paulista hand until it ends)."""
    return at_eleven(s[F_RULES].target, s[F_SCORE]) > 0


def blind(s: StateLike) -> bool:
    """A mão de ferro played blind: nobody sees his own cards."""
    rules = s[F_RULES]
    return rules.mao_de_ferro == "cega" and ferro(rules.target, s[F_SCORE])


def onze_decider(teams: Sequence[int], mano: int, team: int) -> int:
    """The seat that decides the mão de onze: the side's first from the mano."""
    n = len(teams)
    for i in range(n):
        seat = (mano + i) % n
        if teams[seat] == team:
            return seat
    raise AssertionError("a side with no seat")


def partners_of(teams: Sequence[int], seat: int) -> tuple[int, ...]:
    """The other seats of ``seat``'s side."""
    return tuple(s for s in range(len(teams)) if s != seat and teams[s] == teams[seat])


# --- legality ---------------------------------------------------------------------------------

_ONZE_ANSWERS = (JOGA, CORRE)
_BLIND = (CEGA,)
_ANSWERS: dict[int, tuple[Action, ...]] = {
    value: (DESCE, CORRE, RAISE[value]) if value in RAISE else (DESCE, CORRE)
    for value in VALUES[1:]
}
_ANSWERS_ONLY: dict[int, tuple[Action, ...]] = {value: (DESCE, CORRE) for value in VALUES[1:]}


def wins_by_accepting(s: StateLike, seat: int, value: int) -> bool:
    """``no_raise_to_win`` (pagat): whether ``seat``'s side would reach the target by winning a
    hand worth ``value`` (the call it answers, or the value it accepted): it may not raise."""
    return bool(s[F_SCORE][s[F_TEAMS][seat]] + value >= s[F_RULES].target)


def legal_of(s: StateLike) -> tuple[Action, ...]:
    """The legal actions of the seat to act, during a Paulista hand."""
    call = s[F_TANTO_CALL]
    if call is not None:  # only the mão de onze waits there
        return _ONZE_ANSWERS
    truco_call = s[F_TRUCO_CALL]
    rules = s[F_RULES]
    if truco_call is not None:
        value = truco_call[0]
        if rules.no_raise_to_win and wins_by_accepting(s, truco_call[2], value):
            return _ANSWERS_ONLY[value]
        return _ANSWERS[value]
    seat = s[F_TURN]
    hand: tuple[Card, ...] = s[F_HANDS][seat]
    eleven = at_eleven(rules.target, s[F_SCORE])
    if eleven == 2 and rules.mao_de_ferro == "cega":
        # A blind mão de ferro: the cards go in the order dealt, and the action names none (the
        # engine plays ``hand[0]``), so ``legal`` does not tell the player what he holds.
        return _BLIND
    tapada = rules.tapada
    tapadas = (s[F_TRICK] and tapada != "off") or tapada == "always"
    value = s[F_TRUCO]
    owner = s[F_OWNER]
    call_next = value != TOP_VALUE and not eleven and (owner < 0 or owner == s[F_TEAMS][seat])
    if call_next and rules.no_raise_to_win and wins_by_accepting(s, seat, value):
        call_next = False
    key = (hand, tapadas, value if call_next else 0)
    found = _LEGAL.get(key)
    if found is None:
        plays = [PLAY[c] for c in hand]
        if tapadas:
            plays.extend([TAPADA[c] for c in hand])
        if call_next:
            plays.append(RAISE[value])
        found = _LEGAL[key] = tuple(plays)
    return found


def refusal(s: StateLike, action: Action) -> Refusal | None:
    """None when Truco Paulista allows ``action`` for the seat to act now, else why not (the
    rule that ``legal_of`` is the fast form of)."""
    seat = seat_to_act(s)
    verb = action.verb
    if s[F_TANTO_CALL] is not None:
        return None if verb is Verb.JOGA or verb is Verb.CORRE else Refusal.ONZE_DECIDE
    if verb is Verb.JOGA:
        return Refusal.NO_ONZE
    pending = s[F_TRUCO_CALL]
    rules = s[F_RULES]
    blind = ferro(rules.target, s[F_SCORE]) and rules.mao_de_ferro == "cega"
    if verb is Verb.CEGA:
        if pending is not None:
            return Refusal.CALL_WAITS
        return None if blind else Refusal.NOT_BLIND
    if verb is Verb.PLAY or verb is Verb.TAPADA:
        if pending is not None:
            return Refusal.CALL_WAITS
        if blind:  # before naming the cards held: nobody sees them
            return Refusal.BLIND
        if action.card not in s[F_HANDS][seat]:
            return Refusal.NOT_HELD
        if verb is Verb.TAPADA and not tapada_allowed(s):
            return Refusal.FACE_DOWN_OFF if rules.tapada == "off" else Refusal.TAPADA_FROM_SECOND
        return None
    value = VALUE_OF.get(verb)
    if value is not None:
        if no_truco(s):
            return Refusal.NO_TRUCO_AT_ELEVEN
        current = pending[0] if pending is not None else s[F_TRUCO]
        if current == TOP_VALUE:
            return Refusal.AT_DOZE
        owner = s[F_OWNER]
        if pending is None and owner >= 0 and owner != s[F_TEAMS][seat]:
            return Refusal.NOT_CALL_OWNER
        if rules.no_raise_to_win and wins_by_accepting(s, seat, current):
            return Refusal.NO_RAISE_TO_WIN
        return None if RAISE[current].verb is verb else Refusal.NEXT_CALL
    if verb is Verb.DESCE or verb is Verb.CORRE:
        return None if pending is not None else Refusal.NOTHING_TO_ANSWER
    return Refusal.NOT_IN_PAULISTA


_LEGAL: dict[tuple[tuple[Card, ...], bool, int], tuple[Action, ...]] = {}
"""Memo of ``legal_of`` on one's turn: by the cards held, whether face-down cards are allowed,
and the value the next call raises (0: none may be called)."""


# --- tricks -----------------------------------------------------------------------------------


def trick_result(
    plays: Sequence[tuple[int, Card, bool]],
    teams: Sequence[int],
    vira: int,
    tie_lead: str,
    limpo: bool = False,
) -> tuple[int, int]:
    """(team, seat) that won a trick (``tricks.trick_result`` with this hand's ranks), or
    (PARDA, seat to lead the next) when the sides' best cards tie (cangada): the player of the
    first tied card, or with ``tie_lead="opener"`` the one who led the tied trick."""
    ranks = rank_table(vira, limpo)
    team, seat = tricks.trick_result(plays, teams, ranks)
    if team != PARDA:
        return team, seat
    if tie_lead == "opener":
        return PARDA, plays[0][0]
    played = [TAPADA_RANK if face_down else ranks[card] for _, card, face_down in plays]
    return PARDA, plays[played.index(max(played))][0]


def hand_result(results: Sequence[int], mano_team: int) -> int | None:
    """The side that won the hand from its tricks so far, ``NOBODY`` after three ties, or None
    while undecided. As in the Argentine game (``tricks.hand_winner``) but for three ties."""
    if len(results) == 3 and results[0] == results[1] == results[2] == PARDA:
        return NOBODY
    return hand_winner(results, mano_team)


_new = tuple.__new__  # builds the NamedTuples without their slower keyword constructor


class Paulista(Room):
    """The room of Truco Paulista, on the shared hand."""

    def legal_of(self, s: StateLike) -> tuple[Action, ...]:
        return legal_of(s)

    def refusal(self, s: StateLike, action: Action) -> Refusal | None:
        return refusal(s, action)

    def turns_vira(self, rules: Rules) -> bool:
        return rules.manilhas == "vira"

    def start_hand(self, s: Work) -> None:
        """At the deal: a mão de onze waits for its side's decision before anything else."""
        rules = s[F_RULES]
        team = onze_team(rules.target, s[F_SCORE])
        if team >= 0:
            decider = onze_decider(s[F_TEAMS], s[F_MANO], team)
            s[F_TANTO_CALL] = _new(TantoCall, (ONZE_KIND, decider, decider))

    def act(self, s: Work, seat: int, action: Action, ev: list[Event]) -> None:
        """A call or an answer (every action but a card) by ``seat``."""
        verb = action.verb
        if s[F_TANTO_CALL] is not None:
            self._decide_onze(s, seat, verb, ev)
        elif verb in VALUE_OF:
            pending = s[F_TRUCO_CALL]
            if pending is not None:  # a raise given as an answer accepts the call first
                s[F_TRUCO] = pending[0]
                s[F_OWNER] = s[F_TEAMS][seat]
            ev.append(Called(seat, verb))
            s[F_TRUCO_CALL] = _new(TrucoCall, (VALUE_OF[verb], seat, responder(s, seat)))
        else:
            value, caller, _ = s[F_TRUCO_CALL]
            ev.append(Answered(seat, verb))
            s[F_TRUCO_CALL] = None
            if verb is Verb.DESCE:
                s[F_TRUCO] = value
                s[F_OWNER] = s[F_TEAMS][seat]
            else:  # corre: the callers take what the hand was worth before the call
                self.end_hand(s, s[F_TEAMS][caller], s[F_TRUCO], Reason.TRUCO_NO_QUIERO, ev)

    def _decide_onze(self, s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
        ev.append(Answered(seat, verb))
        s[F_TANTO_CALL] = None
        if verb is Verb.JOGA:
            s[F_TRUCO] = ONZE_VALUE
            return
        team = s[F_TEAMS][seat]
        self.end_hand(s, rival_team(s, team), ONZE_RUN, Reason.MAO_DE_ONZE, ev)

    def end_trick(self, s: Work, ev: list[Event]) -> None:
        """Every seat has played the trick: who won it, and the hand if it is decided."""
        plays = s[F_PLAYS]
        teams = s[F_TEAMS]
        rules = s[F_RULES]
        limpo = rules.baralho == "limpo"
        team, seat = trick_result(plays, teams, s[F_VIRA], rules.tie_lead, limpo)
        ev.append(TrickEnded(s[F_TRICK], team, seat if team != PARDA else PARDA))
        results = s[F_RESULTS] + (team,)
        s[F_RESULTS] = results
        s[F_TRICKS] = s[F_TRICKS] + (plays,)
        s[F_PLAYS] = ()
        winner = hand_result(results, teams[s[F_MANO]])
        if winner == NOBODY:
            self.finish_hand(s, -1, ev)
        elif winner is not None:
            self.end_hand(s, winner, s[F_TRUCO], Reason.TRUCO, ev)
        else:
            s[F_TRICK] += 1
            s[F_TURN] = seat


ROOM: Final[Paulista] = Paulista()
"""Truco Paulista's room (``VariantInfo.room`` ``paulista``)."""

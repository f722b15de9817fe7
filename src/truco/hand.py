"""The hand's shared mechanics, for every game: turns, tricks, the hand's end and the scoring.

``Room`` is what every game's room (``argentino``, ``pata_de_gallo``, ``pica_pica``,
``destantado``, ``paulista``) builds on: the hooks the engine calls (``legal_of``, ``act``,
``end_trick``, ``hand_sizes``, ``start_hand``...) and the mechanics they share, written once and
for no game in particular. A room overrides the hooks where its game differs; the shared
mechanics call the hooks through ``self``, so a trick ended here is settled by the room's own
``end_hand``. Nothing here knows a variant: it reads the rules' facts (``individual``,
``match_end``) and the state.

The hooks that change a hand edit ``s``, a ``list(state)`` indexed by the ``F_*`` field numbers,
and append the events they cause to ``ev``; only ``engine.apply`` and ``engine.deal`` call them,
after checking legality. ``legal_of`` and ``refusal`` only read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from truco import envido as tantos
from truco.actions import Action, Verb
from truco.cards import Card
from truco.events import (
    Answered,
    Called,
    CardsShown,
    Event,
    HandEnded,
    MatchEnded,
    Scored,
    TrickEnded,
    WentToMazo,
)
from truco.legal import Refusal
from truco.rules import Rules
from truco.state import (
    DEAL,
    F_DEALT,
    F_HAND_POINTS,
    F_LOG,
    F_MANO,
    F_NEXT_PICA,
    F_PHASE,
    F_PLAYS,
    F_REACHED,
    F_RESULTS,
    F_RETIRED,
    F_RULES,
    F_SCORE,
    F_SHOWN,
    F_TANTO_CALL,
    F_TEAMS,
    F_TRICK,
    F_TRICKS,
    F_TRUCO,
    F_TRUCO_CALL,
    F_TURN,
    F_WINNER,
    OVER,
    Play,
    State,
    StateLike,
    TantoCall,
    TrucoCall,
    Work,
    first_to_reach,
)
from truco.state import (
    PLAY as PLAYING,
)
from truco.tricks import PARDA, hand_winner, trick_result
from truco.variants import VARIANTS

# Final, so that the compiled code keeps them in C variables instead of reading the module's
# globals dict at every use (imported names too).
_new: Final = tuple.__new__  # builds NamedTuple events without their slower keyword constructor
_TRICK_ENDED: Final = TrickEnded
_SCORED: Final = Scored
_CARDS_SHOWN: Final = CardsShown
_HAND_ENDED: Final = HandEnded
_MATCH_ENDED: Final = MatchEnded
_DISCARD: Final = Verb.DISCARD

HAND_SIZE: Final = 3
"""The cards each seat is dealt, unless a room says otherwise (``Room.hand_sizes``)."""

# --- shared values ------------------------------------------------------------------------------
# The events and calls a hand makes most often, built once: a NamedTuple built by tuple.__new__
# costs an allocation and three argument tuples, and the values are immutable, so one serves
# every hand (they compare and hash as before).

SEATS: Final = max(n for info in VARIANTS for n in info.players)
"""The most seats any variant plays with."""
_TRICKS: Final = 3
_LEVELS: Final = 13
"""Calls' levels and kinds below this are shared: the Argentine truco levels (2-4) and Truco
Paulista's values (3-12), the tanto call kinds (0-3)."""

_TRICK_ENDED_OF: Final = tuple(
    [
        tuple(
            [
                tuple([TrickEnded(trick, team, seat) for seat in range(-1, SEATS)])
                for team in range(-1, SEATS)
            ]
        )
        for trick in range(_TRICKS)
    ]
)
_CALLED_OF: Final = tuple([{verb: Called(seat, verb) for verb in Verb} for seat in range(SEATS)])
_ANSWERED_OF: Final = tuple(
    [{verb: Answered(seat, verb) for verb in Verb} for seat in range(SEATS)]
)
_WENT_TO_MAZO_OF: Final = tuple([WentToMazo(seat) for seat in range(SEATS)])
_TRUCO_CALL_OF: Final = tuple(
    [
        tuple([tuple([TrucoCall(level, a, b) for b in range(SEATS)]) for a in range(SEATS)])
        for level in range(_LEVELS)
    ]
)
_TANTO_CALL_OF: Final = tuple(
    [
        tuple([tuple([TantoCall(kind, a, b) for b in range(SEATS)]) for a in range(SEATS)])
        for kind in range(_LEVELS)
    ]
)


def trick_ended(trick: int, team: int, seat: int) -> TrickEnded:
    if 0 <= trick < _TRICKS and -1 <= team < SEATS and -1 <= seat < SEATS:
        return _TRICK_ENDED_OF[trick][team + 1][seat + 1]
    return _new(_TRICK_ENDED, (trick, team, seat))


def called(seat: int, verb: Verb) -> Called:
    return _CALLED_OF[seat][verb]


def answered(seat: int, verb: Verb) -> Answered:
    return _ANSWERED_OF[seat][verb]


def went_to_mazo(seat: int) -> WentToMazo:
    return _WENT_TO_MAZO_OF[seat]


def truco_call(level: int, caller: int, responder: int) -> TrucoCall:
    if 0 <= level < _LEVELS:
        return _TRUCO_CALL_OF[level][caller][responder]
    return _new(TrucoCall, (level, caller, responder))


def tanto_call(kind: int, caller: int, responder: int) -> TantoCall:
    if 0 <= kind < _LEVELS:
        return _TANTO_CALL_OF[kind][caller][responder]
    return _new(TantoCall, (kind, caller, responder))


_INDIVIDUAL: Final[dict[str, bool]] = {v.name: v.individual for v in VARIANTS}
"""``Rules.individual`` by variant: a dict read here instead of the property (interpreted
code, as ``Rules`` is not compiled) for every point scored."""


class Room:
    """One game's hooks, and the hand mechanics every game shares.

    The engine looks a state's room up once per action (``rooms.room_of``) and calls only
    these methods on it. ``sized_deal`` says whether ``hand_sizes`` may give a seat other than
    three cards (the engine then deals card by card).
    """

    sized_deal: bool

    def __init__(self) -> None:
        self.sized_deal = False

    # --- the hooks each game gives ------------------------------------------------------------

    def legal_of(self, s: StateLike) -> tuple[Action, ...]:
        """The legal actions of the seat to act, during a hand, in a fixed order."""
        raise NotImplementedError

    def refusal(self, s: StateLike, action: Action) -> Refusal | None:
        """None when ``action`` is legal for the seat to act, else the rule that forbids it:
        the rule that ``legal_of`` is the fast form of."""
        raise NotImplementedError

    def act(self, s: Work, seat: int, action: Action, ev: list[Event]) -> None:
        """A legal action other than a card played (cards are the engine's fast path)."""
        raise NotImplementedError

    def hand_sizes(self, state: State) -> tuple[int, ...]:
        """How many cards each seat gets in the next deal."""
        return (HAND_SIZE,) * state.rules.players

    def turns_vira(self, rules: Rules) -> bool:
        """Whether a card is turned up after the deal (the vira)."""
        return False

    def start_hand(self, s: Work) -> None:
        """At the deal, on the new hand's working list: what the game sets before anything is
        played. The engine has given the mano the turn in rotation, kept the sides and the
        stakes, and put the room's pica (``F_PICA``) in place; nothing to change by default."""

    def next_pica(self, s: Work) -> int:
        """The 1v1 hand of a round (0-2) the next hand is, or -1: a hand of everyone."""
        return -1

    def hand_winner(self, s: Work, results: tuple[int, ...]) -> int | None:
        """The side that won the hand from its tricks so far, or None while undecided."""
        return hand_winner(results, s[F_TEAMS][s[F_MANO]])

    def end_hand(self, s: Work, team: int, points: int, reason: str, ev: list[Event]) -> None:
        """The hand's truco part went to ``team`` for ``points``."""
        self.add_points(s, team, points, reason, ev, truco_winner=team)
        if s[F_PHASE] == PLAYING:
            self.finish_hand(s, team, ev)

    # --- the shared mechanics -----------------------------------------------------------------

    def end_trick(self, s: Work, ev: list[Event]) -> None:
        """Every seat in the hand has played the trick: who won it, and the hand if decided."""
        plays: tuple[Play, ...] = s[F_PLAYS]
        teams: tuple[int, ...] = s[F_TEAMS]
        team, seat = trick_result(plays, teams)
        ev.append(trick_ended(s[F_TRICK], team, seat))
        results: tuple[int, ...] = s[F_RESULTS] + (team,)
        s[F_RESULTS] = results
        s[F_TRICKS] = s[F_TRICKS] + (plays,)
        s[F_PLAYS] = ()
        winner = self.hand_winner(s, results)
        if winner is not None:
            self.end_hand(s, winner, s[F_TRUCO], "truco", ev)
            return
        s[F_TRICK] += 1
        if team == PARDA:
            s[F_TURN] = active_from(s, s[F_MANO])[0]
        else:
            # The trick's winner leads; if he has left the hand, his next partner still in it.
            order = active_from(s, seat)
            lead = order[0]
            for x in order:
                if teams[x] == team:
                    lead = x
                    break
            s[F_TURN] = lead

    def advance(self, s: Work, seat: int, plays: tuple[Play, ...], ev: list[Event]) -> None:
        """Give the turn to the next seat that still has to play this trick, or end the trick."""
        done: int = s[F_RETIRED]
        for p in plays:
            done |= 1 << p[0]
        n = len(s[F_TEAMS])
        if done != (1 << n) - 1:
            nxt = (seat + 1) % n
            while (done >> nxt) & 1:
                nxt = (nxt + 1) % n
            s[F_TURN] = nxt
        else:
            self.end_trick(s, ev)

    def add_points(
        self,
        s: Work,
        team: int,
        points: int,
        reason: str,
        ev: list[Event],
        *,
        truco_winner: int = -1,
    ) -> None:
        """Add points to a team; the match may end here, in the middle of a hand (then the
        hand's truco part has no winner unless these points are the ones that decided it)."""
        if _INDIVIDUAL[s[F_RULES].variant]:
            self._add_individual(s, team, points, reason, ev, truco_winner)
            return
        # One list each to change one entry: cheaper than slices joined by star-unpacking.
        score: list[int] = list(s[F_SCORE])
        total = score[team] + points
        score[team] = total
        s[F_SCORE] = tuple(score)
        hand_points: list[int] = list(s[F_HAND_POINTS])
        hand_points[team] += points
        s[F_HAND_POINTS] = tuple(hand_points)
        ev.append(_new(_SCORED, (team, points, reason)))
        if s[F_REACHED] < 0:
            rules: Rules = s[F_RULES]
            if total >= rules.target:
                s[F_REACHED] = team
                if rules.match_end == "at_reach":
                    self.finish_hand(s, truco_winner, ev)

    def _add_individual(
        self, s: Work, team: int, points: int, reason: str, ev: list[Event], truco_winner: int
    ) -> None:
        """Scores kept per player: what a side wins is scored by each of its players."""
        score = list(s[F_SCORE])
        hand_points = list(s[F_HAND_POINTS])
        teams = s[F_TEAMS]
        for seat in range(len(teams)):
            if teams[seat] == team:
                score[seat] += points
                hand_points[seat] += points
                ev.append(_new(_SCORED, (seat, points, reason)))
        s[F_SCORE] = tuple(score)
        s[F_HAND_POINTS] = tuple(hand_points)
        if s[F_REACHED] < 0:
            reached = first_to_reach(s[F_RULES], s[F_SCORE], s[F_MANO])
            if reached >= 0:
                s[F_REACHED] = reached
                if s[F_RULES].match_end == "at_reach":
                    self.finish_hand(s, truco_winner, ev)

    def finish_hand(self, s: Work, truco_winner: int, ev: list[Event]) -> None:
        """The hand is over: the cards that proved a tanto are shown, and the match ends or
        waits for the next deal."""
        s[F_TRUCO_CALL] = s[F_TANTO_CALL] = None
        for shown in s[F_SHOWN]:
            ev.append(_new(_CARDS_SHOWN, shown))
        ev.append(_new(_HAND_ENDED, (s[F_HAND_POINTS], truco_winner)))
        reached: int = s[F_REACHED]
        if reached >= 0:
            s[F_PHASE] = OVER
            s[F_WINNER] = reached
            ev.append(_new(_MATCH_ENDED, (reached, s[F_SCORE])))
        else:
            s[F_PHASE] = DEAL
            s[F_NEXT_PICA] = self.next_pica(s)


# --- who is where -------------------------------------------------------------------------------


def responder(s: Work, caller: int) -> int:
    """The next seat after ``caller``, in playing order, of another team and still in the hand."""
    teams: tuple[int, ...] = s[F_TEAMS]
    retired: int = s[F_RETIRED]
    n = len(teams)
    team = teams[caller]
    seat = caller
    for _ in range(n):
        seat = (seat + 1) % n
        if teams[seat] != team and not (retired >> seat) & 1:
            return seat
    raise AssertionError("no rival left in the hand")  # the hand ends before this


def active_from(s: Work, start: int) -> list[int]:
    """The seats still in the hand, in playing order from ``start``."""
    # Loops rather than comprehensions in this module: in CPython 3.11 every comprehension
    # builds a function object, which costs more than these short loops.
    n = len(s[F_TEAMS])
    retired: int = s[F_RETIRED]
    order = []
    for i in range(n):
        seat = (start + i) % n
        if not (retired >> seat) & 1:
            order.append(seat)
    return order


def rival_team(s: Work, team: int) -> int:
    teams: tuple[int, ...] = s[F_TEAMS]
    for t in teams:
        if t != team:
            return t
    raise AssertionError("a table has two sides")


def side_scores(s: Work) -> Sequence[int]:
    """The score of each side, for the falta (``envido.side_scores``)."""
    return tantos.side_scores(_INDIVIDUAL[s[F_RULES].variant], s[F_SCORE], s[F_TEAMS])


def kept_cards(s: Work, seat: int) -> tuple[Card, ...]:
    """The cards a seat was dealt and kept: a hand of four (the pie's) less the one he put
    away."""
    dealt: tuple[Card, ...] = s[F_DEALT][seat]
    if len(dealt) > HAND_SIZE:
        for who, action in s[F_LOG]:
            if who == seat and action.verb is _DISCARD:
                return tuple([c for c in dealt if c != action.card])
    return dealt

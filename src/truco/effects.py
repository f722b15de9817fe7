"""What each action does to a hand: the effects the engine applies to its working copy.

Destantado's calls, answers and mazo work differently and live in ``destantado`` (the engine
sends them there); the end of a trick and of a hand, shared by all, turn to it where they must.

Every function edits ``s``, a ``list(state)`` indexed by the ``F_*`` field numbers, and appends
the events it causes to ``ev``. Only ``engine.apply`` calls them, after checking legality.
"""

from __future__ import annotations

from collections.abc import Sequence

from truco import envido as tantos
from truco.actions import Verb
from truco.cards import Card, envido_cards, envido_points, flor_points
from truco.events import (
    Answered,
    Called,
    CardsShown,
    Discarded,
    Event,
    HandEnded,
    MatchEnded,
    PointsDeclared,
    Scored,
    TrickEnded,
    WentToMazo,
)
from truco.state import (
    DEAL,
    ENVIDO_KIND,
    F_CHAIN,
    F_DEALT,
    F_DECLARED,
    F_ENVIDO_OPEN,
    F_FLOR_CHAIN,
    F_FLOR_DONE,
    F_FLORES,
    F_HAND_POINTS,
    F_HANDS,
    F_LOG,
    F_MANO,
    F_NEXT_PICA,
    F_OWNER,
    F_PHASE,
    F_PICA,
    F_PLAYS,
    F_REACHED,
    F_RESULTS,
    F_RETIRED,
    F_RULES,
    F_SCORE,
    F_SHOWN,
    F_TANTO_CALL,
    F_TANTOS,
    F_TEAMS,
    F_TRICK,
    F_TRICKS,
    F_TRUCO,
    F_TRUCO_CALL,
    F_TURN,
    F_WINNER,
    FLOR_KIND,
    OVER,
    Play,
    Work,
    first_to_reach,
)
from truco.state import (
    PLAY as PLAYING,
)
from truco.tricks import PARDA, hand_winner, trick_result
from truco.variants import OWN_SIDE, PAULISTA, PICA

_new = tuple.__new__  # builds NamedTuple events without their slower keyword constructor

TRUCO_LEVEL_OF = {Verb.TRUCO: 2, Verb.RETRUCO: 3, Verb.VALE_CUATRO: 4}
ENVIDO_VERBS = frozenset((Verb.ENVIDO, Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO))


def responder(s: Work, caller: int) -> int:
    """The next seat after ``caller``, in playing order, of another team and still in the hand."""
    teams = s[F_TEAMS]
    retired = s[F_RETIRED]
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
    retired = s[F_RETIRED]
    order = []
    for i in range(n):
        seat = (start + i) % n
        if not (retired >> seat) & 1:
            order.append(seat)
    return order


def advance(s: Work, seat: int, plays: tuple[Play, ...], ev: list[Event]) -> None:
    """Give the turn to the next seat that still has to play this trick, or end the trick."""
    done = s[F_RETIRED]
    for p in plays:
        done |= 1 << p[0]
    n = len(s[F_TEAMS])
    if done != (1 << n) - 1:
        nxt = (seat + 1) % n
        while (done >> nxt) & 1:
            nxt = (nxt + 1) % n
        s[F_TURN] = nxt
    else:
        end_trick(s, ev)


def end_trick(s: Work, ev: list[Event]) -> None:
    if s[F_RULES].variant in PAULISTA:
        from truco import paulista  # a late import: it builds on this module

        paulista.end_trick(s, ev)
        return
    plays = s[F_PLAYS]
    teams = s[F_TEAMS]
    team, seat = trick_result(plays, teams)
    ev.append(_new(TrickEnded, (s[F_TRICK], team, seat)))
    results = s[F_RESULTS] + (team,)
    s[F_RESULTS] = results
    s[F_TRICKS] = s[F_TRICKS] + (plays,)
    s[F_PLAYS] = ()
    if s[F_RULES].variant in OWN_SIDE:
        from truco import destantado  # a late import: it builds on this module

        winner = destantado.hand_winner(s)
    else:
        winner = hand_winner(results, teams[s[F_MANO]])
    if winner is not None:
        end_hand(s, winner, s[F_TRUCO], "truco", ev)
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


def add_points(
    s: Work, team: int, points: int, reason: str, ev: list[Event], *, truco_winner: int = -1
) -> None:
    """Add points to a team; the match may end here, in the middle of a hand (then the hand's
    truco part has no winner unless these points are the ones that decided it)."""
    if s[F_RULES].individual:
        _add_individual(s, team, points, reason, ev, truco_winner)
        return
    score = s[F_SCORE]
    score = (*score[:team], score[team] + points, *score[team + 1 :])
    s[F_SCORE] = score
    hand_points = s[F_HAND_POINTS]
    s[F_HAND_POINTS] = (*hand_points[:team], hand_points[team] + points, *hand_points[team + 1 :])
    ev.append(_new(Scored, (team, points, reason)))
    if s[F_REACHED] < 0 and score[team] >= s[F_RULES].target:
        s[F_REACHED] = team
        if s[F_RULES].match_end == "at_reach":
            finish_hand(s, truco_winner, ev)


def _add_individual(
    s: Work, team: int, points: int, reason: str, ev: list[Event], truco_winner: int
) -> None:
    """Pata de gallo: what a side wins is scored by each of its players."""
    score = list(s[F_SCORE])
    hand_points = list(s[F_HAND_POINTS])
    teams = s[F_TEAMS]
    for seat in range(len(teams)):
        if teams[seat] == team:
            score[seat] += points
            hand_points[seat] += points
            ev.append(_new(Scored, (seat, points, reason)))
    s[F_SCORE] = tuple(score)
    s[F_HAND_POINTS] = tuple(hand_points)
    if s[F_REACHED] < 0:
        reached = first_to_reach(s[F_RULES], s[F_SCORE], s[F_MANO])
        if reached >= 0:
            s[F_REACHED] = reached
            if s[F_RULES].match_end == "at_reach":
                finish_hand(s, truco_winner, ev)


def side_scores(s: Work) -> Sequence[int]:
    """The score of each side, for the falta (``envido.side_scores``)."""
    return tantos.side_scores(s[F_RULES].individual, s[F_SCORE], s[F_TEAMS])


def kept_cards(s: Work, seat: int) -> tuple[Card, ...]:
    """The cards a seat was dealt and kept: the pie's four less the one he put away."""
    dealt: tuple[Card, ...] = s[F_DEALT][seat]
    if len(dealt) > 3:
        for who, action in s[F_LOG]:
            if who == seat and action.verb is Verb.DISCARD:
                return tuple([c for c in dealt if c != action.card])
    return dealt


def discard(s: Work, seat: int, card: Card, ev: list[Event]) -> None:
    """Pata de gallo: the pie keeps three of his four cards; his tantos count from those."""
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


def end_hand(s: Work, team: int, points: int, reason: str, ev: list[Event]) -> None:
    """The hand's truco part went to ``team`` for ``points``."""
    if s[F_RULES].variant in OWN_SIDE:
        from truco import destantado  # a late import: it builds on this module

        destantado.settle(s, team, ev)
        return
    if not s[F_FLOR_DONE] and not s[F_TRICK] and s[F_RULES].flor_unsung_scores:
        _score_unsung_flores(s, ev)
        if s[F_PHASE] != PLAYING:  # the flor ended the match
            return
    add_points(s, team, points, reason, ev, truco_winner=team)
    if s[F_PHASE] == PLAYING:
        finish_hand(s, team, ev)


def _score_unsung_flores(s: Work, ev: list[Event]) -> None:
    """With ``flor_unsung_scores``: a flor whose holder had no turn to sing it before the hand
    ended in the first trick (the rivals went to the mazo or declined a truco) still scores,
    unopposed, before the truco. By default it does not: a tanto counts only if it was proposed
    before the hand was over (``000_*``)."""
    teams, flores, retired = s[F_TEAMS], s[F_FLORES], s[F_RETIRED]
    scored: list[int] = []
    for seat in range(len(teams)):
        team = teams[seat]
        if flores[seat] >= 0 and not (retired >> seat) & 1 and team not in scored:
            scored.append(team)
            s[F_FLOR_DONE] = True
            s[F_SHOWN] = s[F_SHOWN] + ((seat, kept_cards(s, seat)),)
            add_points(s, team, s[F_RULES].flor_value, "flor", ev)
            if s[F_PHASE] != PLAYING:
                return


def finish_hand(s: Work, truco_winner: int, ev: list[Event]) -> None:
    s[F_TRUCO_CALL] = s[F_TANTO_CALL] = None
    for shown in s[F_SHOWN]:
        ev.append(_new(CardsShown, shown))
    ev.append(_new(HandEnded, (s[F_HAND_POINTS], truco_winner)))
    if s[F_REACHED] >= 0:
        s[F_PHASE] = OVER
        s[F_WINNER] = s[F_REACHED]
        ev.append(_new(MatchEnded, (s[F_REACHED], s[F_SCORE])))
    else:
        s[F_PHASE] = DEAL
        s[F_NEXT_PICA] = _next_pica(s)


def _next_pica(s: Work) -> int:
    """Pica-pica: after a hand of everyone, a round of three 1v1 hands while the leading team
    is between ``pica_from`` and the target less ``pica_margin``; after a round, everyone."""
    pica = s[F_PICA]
    if pica >= 0:
        return pica + 1 if pica < 2 else -1
    rules = s[F_RULES]
    if rules.variant not in PICA:
        return -1
    lead = max(s[F_SCORE])
    return 0 if rules.pica_from <= lead <= rules.target - rules.pica_margin else -1


# --- truco ------------------------------------------------------------------------------------


def call_truco(s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
    pending = s[F_TRUCO_CALL]
    if pending is not None:  # a raise given as an answer accepts the pending bet first
        s[F_TRUCO] = pending[0]
        s[F_OWNER] = s[F_TEAMS][seat]
    ev.append(_new(Called, (seat, verb)))
    s[F_TRUCO_CALL] = (TRUCO_LEVEL_OF[verb], seat, responder(s, seat))


def answer_truco(s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
    level, caller, _ = s[F_TRUCO_CALL]
    ev.append(_new(Answered, (seat, verb)))
    s[F_TRUCO_CALL] = None
    if verb is Verb.QUIERO:
        s[F_TRUCO] = level
        s[F_OWNER] = s[F_TEAMS][seat]
    else:
        end_hand(s, s[F_TEAMS][caller], s[F_TRUCO], "truco-no-quiero", ev)


def mazo(s: Work, seat: int, ev: list[Event]) -> None:
    ev.append(_new(WentToMazo, (seat,)))
    retired = s[F_RETIRED] | 1 << seat
    s[F_RETIRED] = retired
    teams = s[F_TEAMS]
    team = teams[seat]
    for x, t in enumerate(teams):
        if t == team and not (retired >> x) & 1:
            break
    else:  # the whole team has retired: the hand goes to the rivals
        points = s[F_TRUCO]
        # The optional extra point stands for the envido that could still have been played.
        if (
            s[F_RULES].mazo_envido_penalty
            and s[F_TRICK] == 0
            and s[F_TRUCO] == 1
            and s[F_ENVIDO_OPEN]
            and not s[F_CHAIN]
            and not s[F_FLOR_CHAIN]
        ):
            points += 1
        end_hand(s, rival_team(s, team), points, "mazo", ev)
        return
    call = s[F_TRUCO_CALL]
    if call is not None and call[2] == seat:
        # The answer passes to his next partner still in the hand.
        s[F_TRUCO_CALL] = (call[0], call[1], responder(s, call[1]))
    if s[F_TURN] == seat:
        advance(s, seat, s[F_PLAYS], ev)


# --- envido -----------------------------------------------------------------------------------


def call_envido(s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
    ev.append(_new(Called, (seat, verb)))
    s[F_CHAIN] = s[F_CHAIN] + (verb,)
    # A flor still to be sung goes before any envido: its holder (of either side) answers
    # first, and his only answer is to sing it, which cancels the envido.
    holder = -1 if s[F_FLOR_DONE] else next_flor_holder(s, seat, any_team=True)
    s[F_TANTO_CALL] = (ENVIDO_KIND, seat, holder if holder >= 0 else responder(s, seat))


def next_flor_holder(s: Work, seat: int, *, any_team: bool) -> int:
    """The first seat after ``seat`` still in the hand that holds a flor (of the other team
    unless ``any_team``), or -1."""
    teams, flores, retired = s[F_TEAMS], s[F_FLORES], s[F_RETIRED]
    n = len(teams)
    for i in range(1, n):
        x = (seat + i) % n
        if flores[x] >= 0 and not (retired >> x) & 1 and (any_team or teams[x] != teams[seat]):
            return x
    return -1


def answer_envido(s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
    if verb in ENVIDO_VERBS:  # a raise accepts and raises
        call_envido(s, seat, verb, ev)
        return
    caller = s[F_TANTO_CALL][1]
    chain = s[F_CHAIN]
    ev.append(_new(Answered, (seat, verb)))
    s[F_TANTO_CALL] = None
    s[F_ENVIDO_OPEN] = False
    teams = s[F_TEAMS]
    if verb is Verb.NO_QUIERO:
        add_points(s, teams[caller], tantos.declined_value(chain), "envido-no-quiero", ev)
        return
    winner = declare(s, s[F_TANTOS], ev, flor=False)
    team = teams[winner]
    if chain[-1] is Verb.FALTA_ENVIDO:
        before = tantos.chain_value(chain[:-1])
        points = tantos.falta_value(s[F_RULES], side_scores(s), team, rival_team(s, team), before)
    else:
        points = tantos.chain_value(chain)
    s[F_SHOWN] = s[F_SHOWN] + ((winner, envido_cards(kept_cards(s, winner))),)
    add_points(s, team, points, "envido", ev)


def rival_team(s: Work, team: int) -> int:
    teams: tuple[int, ...] = s[F_TEAMS]
    for t in teams:
        if t != team:
            return t
    raise AssertionError("a table has two sides")


def declare(
    s: Work, points: tuple[int, ...], ev: list[Event], *, flor: bool, among: int = -1
) -> int:
    """Declarations in order from the mano among the seats still in (with flor, its holders;
    with ``among``, a bit set, only those seats)."""
    order = active_from(s, s[F_MANO])
    if flor:
        order = [x for x in order if points[x] >= 0]
    if among >= 0:
        order = [x for x in order if (among >> x) & 1]
    winner, said = tantos.declare(order, points, s[F_TEAMS])
    declared = s[F_DECLARED]
    for seat, value in said:
        declared += ((seat, value, flor),)
        ev.append(_new(PointsDeclared, (seat, value, flor)))
    s[F_DECLARED] = declared
    return winner


# --- flor -------------------------------------------------------------------------------------


def sing_flor(s: Work, seat: int, ev: list[Event]) -> None:
    ev.append(_new(Called, (seat, Verb.FLOR)))
    # A flor cancels any envido, called or still to be called.
    s[F_TANTO_CALL] = None
    s[F_ENVIDO_OPEN] = False
    s[F_FLOR_CHAIN] = (Verb.FLOR,)
    teams = s[F_TEAMS]
    rival = next_flor_holder(s, seat, any_team=False)
    if rival < 0:
        s[F_FLOR_DONE] = True
        s[F_SHOWN] = s[F_SHOWN] + ((seat, kept_cards(s, seat)),)
        add_points(s, teams[seat], s[F_RULES].flor_value, "flor", ev)
    else:
        s[F_TANTO_CALL] = (FLOR_KIND, seat, rival)


def answer_flor(s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
    rules = s[F_RULES]
    caller = s[F_TANTO_CALL][1]
    teams = s[F_TEAMS]
    chain = s[F_FLOR_CHAIN]
    if verb is Verb.CONTRAFLOR or verb is Verb.CONTRAFLOR_AL_RESTO:
        ev.append(_new(Called, (seat, verb)))
        s[F_FLOR_CHAIN] = chain + (verb,)
        s[F_TANTO_CALL] = (FLOR_KIND, seat, responder(s, seat))
        return
    ev.append(_new(Answered, (seat, verb)))
    s[F_TANTO_CALL] = None
    s[F_FLOR_DONE] = True
    if verb is Verb.CON_FLOR_ME_ACHICO:
        s[F_SHOWN] = s[F_SHOWN] + ((caller, kept_cards(s, caller)),)
        add_points(s, teams[caller], rules.flor_achico_value, "flor", ev)
        return
    if verb is Verb.NO_QUIERO:
        if chain[-1] is Verb.CONTRAFLOR:
            points = rules.contraflor_decline_value
        elif Verb.CONTRAFLOR in chain:
            points = rules.contraflor_resto_decline_after_contraflor
        else:
            points = rules.contraflor_resto_decline_value
        add_points(s, teams[caller], points, "flor-no-quiero", ev)
        return
    winner = declare(s, s[F_FLORES], ev, flor=True)
    team = teams[winner]
    if verb is Verb.CON_FLOR_QUIERO:
        points = rules.flor_quiero_value
    elif chain[-1] is Verb.CONTRAFLOR:
        points = rules.contraflor_value
    else:
        before = rules.contraflor_value if Verb.CONTRAFLOR in chain else rules.flor_quiero_value
        points = tantos.falta_value(rules, side_scores(s), team, rival_team(s, team), before)
    s[F_SHOWN] = s[F_SHOWN] + ((winner, kept_cards(s, winner)),)
    add_points(s, team, points, "flor", ev)

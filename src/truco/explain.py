"""Why an action is not legal: the rule that forbids it, in words a player understands.

Only used on the slow path of ``engine.check``, after the action was found not to be among
the legal actions; legality itself is decided in ``legal.py`` and nowhere else.
"""

from __future__ import annotations

from truco import envido as tantos
from truco.actions import Action, Verb
from truco.legal import (
    can_raise_truco,
    envido_allowed,
    envido_primero_allowed,
    falta_counts,
    must_sing_flor,
    tapada_allowed,
)
from truco.paulista import ferro, no_truco, wins_by_accepting
from truco.state import DEAL, DISCARD_KIND, FLOR_KIND, OVER, State, seat_to_act
from truco.variants import variant_of

_TRUCO_NAMES = {2: "truco", 3: "retruco", 4: "vale-cuatro"}
_PAULISTA_VERBS = frozenset(
    (Verb.SEIS, Verb.NOVE, Verb.DOZE, Verb.DESCE, Verb.CORRE, Verb.JOGA, Verb.CEGA)
)
_PAULISTA_CALLS = {Verb.TRUCO: 3, Verb.SEIS: 6, Verb.NOVE: 9, Verb.DOZE: 12}
_PAULISTA_NAMES = {3: "truco", 6: "seis", 9: "nove", 12: "doze"}
_CARD_VERBS = (Verb.PLAY, Verb.TAPADA)
_FLOR_ANSWERS = (Verb.CON_FLOR_QUIERO, Verb.CON_FLOR_ME_ACHICO)


def why_not(state: State, action: Action) -> str:
    legal = state.legal
    listed = ", ".join(str(a) for a in legal)
    reason = _reason(state, action)
    return f"{reason} (legal now: {listed})" if legal else reason


def _reason(state: State, action: Action) -> str:
    if state.phase == OVER:
        return "the match is over"
    if state.phase == DEAL:
        return "the next hand has not been dealt yet"
    if state.rules.game == "paulista":
        return _paulista_reason(state, action)
    seat = seat_to_act(state)
    verb = action.verb
    if verb in _PAULISTA_VERBS:
        return f"{verb.value} is said in Truco Paulista, not at this table"
    call = state.tanto_call
    destantado = variant_of(state.rules).own_side
    if call is not None and call[0] == DISCARD_KIND:
        if verb is Verb.DISCARD:
            return f"seat {seat} does not hold {action.card}"
        return f"seat {seat}, the pie, must first put away one of his four cards"
    if verb is Verb.DISCARD:
        return "only the pie of pata de gallo discards, once, before the hand is played"
    if verb is Verb.FALTA_ENVIDO and not falta_counts(state):
        return "at this table the falta envido does not count in the match's first hand"
    if call is not None and verb is not Verb.FLOR:
        if call[0] == FLOR_KIND:
            return "a flor waits for an answer: answer it first"
        if destantado:
            return "an envido waits for each player's answer in turn: quiero, no-quiero or a raise"
        return "an envido waits for an answer: quiero, no-quiero or a raise first"
    if must_sing_flor(state, seat):
        return f"seat {seat} holds a flor and must sing it before anything else"
    pending = state.truco_call
    if verb in (Verb.PLAY, Verb.TAPADA):
        if pending is not None:
            return f"the {_TRUCO_NAMES[pending[0]]} waits for an answer: answer it first"
        if action.card not in state.hands[seat]:
            return f"seat {seat} does not hold {action.card}"
        if verb is Verb.TAPADA and not tapada_allowed(state):
            if state.rules.tapada == "off":
                return "carta tapada is not played at this table"
            return "a card may be played face down only from the second trick on"
    if verb in (Verb.TRUCO, Verb.RETRUCO, Verb.VALE_CUATRO):
        level = {Verb.TRUCO: 2, Verb.RETRUCO: 3, Verb.VALE_CUATRO: 4}[verb]
        if pending is not None:
            if level != pending[0] + 1:
                return (
                    f"the answer to a {_TRUCO_NAMES[pending[0]]} can only raise to the next level"
                )
        elif state.truco == 4:
            return "the truco is already at vale cuatro"
        elif not can_raise_truco(state, seat):
            return "only the side that accepted the last bet can raise the truco"
        elif level != state.truco + 1:
            following = _TRUCO_NAMES[state.truco + 1]
            return f"the truco stands at level {state.truco}: the next call is {following}"
    if verb in (Verb.ENVIDO, Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO):
        if destantado and pending is not None and state.bettors != 1 << pending[1]:
            return "'el envido está primero' only before anybody has accepted the truco"
        if call is not None and call[0] != FLOR_KIND:
            allowed = (
                ", ".join(v.value for v in tantos.chain_calls_allowed(state.chain)) or "nothing"
            )
            return f"after {' '.join(v.value for v in state.chain)} only {allowed} may follow"
        if state.flor_chain:
            return "a flor was sung: there is no envido in this hand"
        if not state.envido_open:
            return "the envido of this hand was already played"
        if state.trick:
            return "envido can only be called in the first trick"
        if state.truco > 1:
            return "envido cannot be called once the truco was accepted"
        if pending is not None and not envido_primero_allowed(state, seat):
            if state.rules.envido_primero == "off":
                return "this table does not play 'el envido está primero'"
            if pending[0] != 2:
                return "'el envido está primero' answers only the first truco, not a raise"
            return "'el envido está primero' is allowed here only before one's own first card"
        if pending is None and not envido_allowed(state, seat, verb):
            if state.rules.envido_until == "first_card":
                return "at this table envido can be called only before the hand's first card"
            if state.rules.envido_until == "second_card":
                return (
                    "at this table envido can be called only before the first trick's second card"
                )
            return f"seat {seat} already played its first card: envido must come before it"
    if verb in (Verb.QUIERO, Verb.NO_QUIERO) and pending is None:
        return "there is no call to answer"
    if verb is Verb.MAZO and pending is not None and destantado:
        return "in destantado the mazo is no answer: no-quiero leaves the hand for nothing"
    if verb is Verb.FLOR:
        if not state.rules.flor:
            return "flor is not played at this table"
        if state.flores[seat] < 0:
            return f"seat {seat} has no flor"
        return "the flor was already settled or its time has passed"
    if verb in (Verb.CONTRAFLOR, Verb.CONTRAFLOR_AL_RESTO) or verb in _FLOR_ANSWERS:
        return "there is no flor to answer"
    return "not allowed at this point of the hand"


def _paulista_reason(state: State, action: Action) -> str:
    """Why not, in a Truco Paulista hand (docs/rules.md, "Truco Paulista")."""
    seat = seat_to_act(state)
    verb = action.verb
    pending = state.truco_call
    if state.tanto_call is not None:
        return f"seat {seat} must first decide the mão de onze: joga or corre"
    if verb is Verb.JOGA:
        return "joga decides a mão de onze, and there is none to decide"
    blind = ferro(state.rules.target, state.score) and state.rules.mao_de_ferro == "cega"
    if verb is Verb.CEGA:
        if pending is not None:
            return f"the {_PAULISTA_NAMES[pending[0]]} waits for an answer: desce, corre or raise"
        return "cega plays a card unseen, only in a blind mão de ferro"
    if verb in (Verb.PLAY, Verb.TAPADA):
        if pending is not None:
            return f"the {_PAULISTA_NAMES[pending[0]]} waits for an answer: desce, corre or raise"
        if blind:  # before naming the cards held: nobody sees them
            return "in the mão de ferro the cards are played blind (cega), in the order dealt"
        if action.card not in state.hands[seat]:
            return f"seat {seat} does not hold {action.card}"
        if verb is Verb.TAPADA:
            if state.rules.tapada == "off":
                return "a card face down is not played at this table"
            return "a card may be played face down only from the second trick on"
    if verb in _PAULISTA_CALLS:
        value = _PAULISTA_CALLS[verb]
        if no_truco(state):
            return "nobody may call truco in a mão de onze or a mão de ferro"
        current = pending[0] if pending is not None else state.truco
        if current == 12:
            return "the hand is already worth doze (12)"
        owner = state.truco_owner
        if pending is None and owner >= 0 and owner != state.teams[seat]:
            return "only the side that accepted the last call can raise it"
        if state.rules.no_raise_to_win and wins_by_accepting(state, seat, current):
            return (
                f"the hand worth {current} already takes this side to {state.rules.target}: "
                "at this table (no_raise_to_win) it may not raise"
            )
        following = next(v for v, points in _PAULISTA_CALLS.items() if points > current)
        if value != _PAULISTA_CALLS[following]:
            return f"the hand is worth {current}: the next call is {following.value}"
    if verb in (Verb.DESCE, Verb.CORRE) and pending is None:
        return "there is no call to answer"
    if verb not in _PAULISTA_CALLS and verb not in _PAULISTA_VERBS and verb not in _CARD_VERBS:
        return f"there is no {verb.value} in Truco Paulista (no envido, flor or mazo)"
    return "not allowed at this point of the hand"

"""Why an action is not legal: the rule that forbids it, in words a player understands.

Only used on the slow path of ``engine.check``, after the action was found not to be among
the legal actions. Which rule forbids it is decided where legality is, by the state's room
(``rooms.refusal``: ``legal.refusal``, ``paulista.refusal``); here each ``Refusal`` code only
becomes words, with the seat, the card or the call it concerns.
"""

from __future__ import annotations

from truco.actions import Action
from truco.legal import Refusal
from truco.paulista import RAISE, VALUE_OF
from truco.rooms import refusal
from truco.state import TRUCO_NAMES, State, seat_to_act

_PAULISTA_NAMES = {value: verb.value for verb, value in VALUE_OF.items()}
"""Truco Paulista's calls by the value they make the hand worth."""

_WORDS: dict[Refusal, str] = {
    Refusal.MATCH_OVER: "the match is over",
    Refusal.NOT_DEALT: "the next hand has not been dealt yet",
    Refusal.PAULISTA_VERB: "{verb} is said in Truco Paulista, not at this table",
    Refusal.NOT_HELD: "seat {seat} does not hold {card}",
    Refusal.PIE_MUST_DISCARD: "seat {seat}, the pie, must first put away one of his four cards",
    Refusal.ONLY_PIE_DISCARDS: (
        "only the pie of pata de gallo discards, once, before the hand is played"
    ),
    Refusal.NO_FALTA_FIRST_HAND: (
        "at this table the falta envido does not count in the match's first hand"
    ),
    Refusal.FLOR_WAITS: "a flor waits for an answer: answer it first",
    Refusal.ENVIDO_WAITS: "an envido waits for an answer: quiero, no-quiero or a raise first",
    Refusal.ENVIDO_WAITS_EACH: (
        "an envido waits for each player's answer in turn: quiero, no-quiero or a raise"
    ),
    Refusal.MUST_SING_FLOR: "seat {seat} holds a flor and must sing it before anything else",
    Refusal.TRUCO_WAITS: "the {pending} waits for an answer: answer it first",
    Refusal.TAPADA_OFF: "carta tapada is not played at this table",
    Refusal.TAPADA_FROM_SECOND: "a card may be played face down only from the second trick on",
    Refusal.RAISE_ONE_LEVEL: "the answer to a {pending} can only raise to the next level",
    Refusal.AT_VALE_CUATRO: "the truco is already at vale cuatro",
    Refusal.NOT_TRUCO_OWNER: "only the side that accepted the last bet can raise the truco",
    Refusal.NEXT_LEVEL: "the truco stands at level {truco}: the next call is {following}",
    Refusal.PRIMERO_ACCEPTED: "'el envido está primero' only before anybody has accepted the truco",
    Refusal.FLOR_SUNG: "a flor was sung: there is no envido in this hand",
    Refusal.ENVIDO_PLAYED: "the envido of this hand was already played",
    Refusal.ENVIDO_FIRST_TRICK: "envido can only be called in the first trick",
    Refusal.ENVIDO_AFTER_TRUCO: "envido cannot be called once the truco was accepted",
    Refusal.PRIMERO_OFF: "this table does not play 'el envido está primero'",
    Refusal.PRIMERO_RAISE: "'el envido está primero' answers only the first truco, not a raise",
    Refusal.PRIMERO_OWN_CARD: (
        "'el envido está primero' is allowed here only before one's own first card"
    ),
    Refusal.ENVIDO_FIRST_CARD: (
        "at this table envido can be called only before the hand's first card"
    ),
    Refusal.ENVIDO_SECOND_CARD: (
        "at this table envido can be called only before the first trick's second card"
    ),
    Refusal.ENVIDO_OWN_CARD: (
        "seat {seat} already played its first card: envido must come before it"
    ),
    Refusal.NOTHING_TO_ANSWER: "there is no call to answer",
    Refusal.NO_MAZO_ANSWER: (
        "in destantado the mazo is no answer: no-quiero leaves the hand for nothing"
    ),
    Refusal.NO_FLOR_TABLE: "flor is not played at this table",
    Refusal.NO_FLOR_HELD: "seat {seat} has no flor",
    Refusal.FLOR_PASSED: "the flor was already settled or its time has passed",
    Refusal.NO_FLOR_TO_ANSWER: "there is no flor to answer",
    Refusal.NOT_NOW: "not allowed at this point of the hand",
    Refusal.ONZE_DECIDE: "seat {seat} must first decide the mão de onze: joga or corre",
    Refusal.NO_ONZE: "joga decides a mão de onze, and there is none to decide",
    Refusal.CALL_WAITS: "the {call} waits for an answer: desce, corre or raise",
    Refusal.NOT_BLIND: "cega plays a card unseen, only in a blind mão de ferro",
    Refusal.BLIND: "in the mão de ferro the cards are played blind (cega), in the order dealt",
    Refusal.FACE_DOWN_OFF: "a card face down is not played at this table",
    Refusal.NO_TRUCO_AT_ELEVEN: "nobody may call truco in a mão de onze or a mão de ferro",
    Refusal.AT_DOZE: "the hand is already worth doze (12)",
    Refusal.NOT_CALL_OWNER: "only the side that accepted the last call can raise it",
    Refusal.NO_RAISE_TO_WIN: (
        "the hand worth {current} already takes this side to {target}: "
        "at this table (no_raise_to_win) it may not raise"
    ),
    Refusal.NEXT_CALL: "the hand is worth {current}: the next call is {next_call}",
    Refusal.NOT_IN_PAULISTA: ("there is no {verb} in Truco Paulista (no envido, flor or mazo)"),
}
"""The words of each refusal; the fields in braces are filled in by ``_fields``."""


def why_not(state: State, action: Action) -> str:
    legal = state.legal
    listed = ", ".join(str(a) for a in legal)
    reason = words(state, action)
    return f"{reason} (legal now: {listed})" if legal else reason


def words(state: State, action: Action) -> str:
    """Why ``action`` is refused now, in words (for an action the rules allow: not now)."""
    code = refusal(state, action) or Refusal.NOT_NOW
    text = _WORDS[code]
    return text.format(**_fields(state, action, code)) if "{" in text else text


def _fields(state: State, action: Action, code: Refusal) -> dict[str, object]:
    """What the words of ``code`` name: the seat to act, the card, the call waiting..."""
    fields: dict[str, object] = {"verb": action.verb.value, "card": action.card}
    if code in (Refusal.MATCH_OVER, Refusal.NOT_DEALT):
        return fields
    fields["seat"] = seat_to_act(state)
    pending = state.truco_call
    truco = state.truco
    if code in (Refusal.TRUCO_WAITS, Refusal.RAISE_ONE_LEVEL) and pending is not None:
        fields["pending"] = TRUCO_NAMES[pending.level]
    elif code is Refusal.NEXT_LEVEL:
        fields["truco"] = truco
        fields["following"] = TRUCO_NAMES[truco + 1]
    elif code is Refusal.CALL_WAITS and pending is not None:
        fields["call"] = _PAULISTA_NAMES[pending.level]
    elif code in (Refusal.NO_RAISE_TO_WIN, Refusal.NEXT_CALL):
        current = pending.level if pending is not None else truco
        fields["current"] = current
        fields["target"] = state.rules.target
        fields["next_call"] = RAISE[current].verb.value
    return fields

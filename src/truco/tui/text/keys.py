"""The keys of the terminal client: one per legal action, and what each one says."""

from __future__ import annotations

from truco.actions import Action, Verb
from truco.tui.text.words import LABELS, card
from truco.view import SeatView

CALL_KEYS: dict[Verb, str] = {
    Verb.TRUCO: "t",
    Verb.RETRUCO: "r",
    Verb.VALE_CUATRO: "v",
    Verb.ENVIDO: "e",
    Verb.REAL_ENVIDO: "d",
    Verb.FALTA_ENVIDO: "f",
    Verb.QUIERO: "q",
    Verb.NO_QUIERO: "n",
    Verb.MAZO: "m",
    Verb.FLOR: "l",
    Verb.CONTRAFLOR: "c",
    Verb.CONTRAFLOR_AL_RESTO: "x",
    Verb.CON_FLOR_QUIERO: "k",
    Verb.CON_FLOR_ME_ACHICO: "a",
    # Truco Paulista: the raises, the answers (desce: accepted; corre: run) and the mão de onze.
    Verb.SEIS: "i",
    Verb.NOVE: "o",
    Verb.DOZE: "z",
    Verb.DESCE: "b",
    Verb.CORRE: "u",
    Verb.JOGA: "j",
}
"""The key of each call; cards are 1, 2, 3 (face up) and 4, 5, 6 (face down, tapada); the pie of
pata de gallo discards with 1-4, before any card is played."""


def action_keys(view: SeatView) -> dict[str, Action]:
    """The key for each of the viewer's legal actions."""
    keys: dict[str, Action] = {}
    for action in view.legal:
        if action.verb is Verb.CEGA:
            keys["1"] = action  # a blind mão de ferro: the next card dealt, unseen
        elif action.card is not None and action.card in view.hand:
            i = view.hand.index(action.card)
            keys[str(i + 4 if action.verb is Verb.TAPADA else i + 1)] = action
        elif action.verb in CALL_KEYS:
            keys[CALL_KEYS[action.verb]] = action
    return keys


def action_label(action: Action) -> str:
    if action.card is not None:
        verb = {Verb.TAPADA: "tapada ", Verb.DISCARD: "descartar "}.get(action.verb, "")
        return verb + card(action.card, long=True)
    return LABELS[action.verb]

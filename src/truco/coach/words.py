"""The coach's judgement of one decision in words, Spanish first and English second.

``explain(view, values)`` says which action the coach ranks first, how much of the match it is
worth against the next best, and why in a sentence of the table's own terms (what the call is
worth, the seat's envido, the card played). It reads only the seat's own view and the coach's
numbers, so it can say nothing of a card the seat could not see. Pure: plain text out, which a
client shows as text (never markup).
"""

from __future__ import annotations

from typing import NamedTuple

from truco.actions import Action, Verb
from truco.cards import Card
from truco.coach.evaluate import ActionValue
from truco.view import SeatView

_SUITS_ES = {0: "espada", 1: "basto", 2: "oro", 3: "copa"}
_SUITS_EN = {0: "swords", 1: "clubs", 2: "coins", 3: "cups"}
_RANKS_ES = {10: "sota", 11: "caballo", 12: "rey"}
_RANKS_EN = {10: "jack (sota)", 11: "knight (caballo)", 12: "king (rey)"}

_VERBS_ES = {
    Verb.TRUCO: "cantar truco",
    Verb.RETRUCO: "cantar retruco",
    Verb.VALE_CUATRO: "cantar vale cuatro",
    Verb.ENVIDO: "cantar envido",
    Verb.REAL_ENVIDO: "cantar real envido",
    Verb.FALTA_ENVIDO: "cantar falta envido",
    Verb.QUIERO: "decir quiero",
    Verb.NO_QUIERO: "decir no quiero",
    Verb.MAZO: "irse al mazo",
    Verb.FLOR: "cantar flor",
    Verb.CONTRAFLOR: "cantar contraflor",
    Verb.CONTRAFLOR_AL_RESTO: "cantar contraflor al resto",
    Verb.CON_FLOR_QUIERO: "decir con flor quiero",
    Verb.CON_FLOR_ME_ACHICO: "decir con flor me achico",
}
_VERBS_EN = {
    Verb.TRUCO: "calling truco",
    Verb.RETRUCO: "calling retruco",
    Verb.VALE_CUATRO: "calling vale cuatro",
    Verb.ENVIDO: "calling envido",
    Verb.REAL_ENVIDO: "calling real envido",
    Verb.FALTA_ENVIDO: "calling falta envido",
    Verb.QUIERO: "accepting (quiero)",
    Verb.NO_QUIERO: "declining (no quiero)",
    Verb.MAZO: "going to the mazo",
    Verb.FLOR: "singing flor",
    Verb.CONTRAFLOR: "calling contraflor",
    Verb.CONTRAFLOR_AL_RESTO: "calling contraflor al resto",
    Verb.CON_FLOR_QUIERO: "accepting the flor (con flor quiero)",
    Verb.CON_FLOR_ME_ACHICO: "backing down (con flor me achico)",
}
BLUFF_BELOW = 25
"""An envido called with fewer points than this is told as a bluff."""
_TRUCO_CALLS = (Verb.TRUCO, Verb.RETRUCO, Verb.VALE_CUATRO)
_ENVIDO_CALLS = (Verb.ENVIDO, Verb.REAL_ENVIDO, Verb.FALTA_ENVIDO)


class Words(NamedTuple):
    """The same explanation in two languages."""

    es: str
    en: str


def card_es(card: Card) -> str:
    """``el ancho de espada``, ``el 7 de oro``, ``el rey de copa``."""
    if card.rank == 1 and card.suit in (0, 1):
        return f"el ancho de {_SUITS_ES[card.suit]}"
    rank = _RANKS_ES.get(card.rank, str(card.rank))
    return f"el {rank} de {_SUITS_ES[card.suit]}"


def card_en(card: Card) -> str:
    """``the ace of swords``, ``the 7 of coins``."""
    rank = "ace" if card.rank == 1 else _RANKS_EN.get(card.rank, str(card.rank))
    return f"the {rank} of {_SUITS_EN[card.suit]}"


def action_es(text: str) -> str:
    """An action of the notation in Spanish words: ``jugar el 7 de oro``, ``cantar truco``."""
    action = Action.parse(text)
    if action.verb is Verb.PLAY and action.card is not None:
        return f"jugar {card_es(action.card)}"
    if action.verb is Verb.TAPADA and action.card is not None:
        return f"jugar {card_es(action.card)} tapada"
    return _VERBS_ES.get(action.verb, text)


def action_en(text: str) -> str:
    action = Action.parse(text)
    if action.verb is Verb.PLAY and action.card is not None:
        return f"playing {card_en(action.card)}"
    if action.verb is Verb.TAPADA and action.card is not None:
        return f"playing {card_en(action.card)} face down"
    return _VERBS_EN.get(action.verb, text)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _why(view: SeatView, best: Action, waiting: bool) -> Words:
    """One sentence on the kind of decision, from the seat's own view only."""
    verb = best.verb
    tantos = view.tantos
    if verb in _ENVIDO_CALLS:
        if tantos is not None and tantos < BLUFF_BELOW:
            return Words(
                f"Con {tantos} de envido es un farol, y paga: el rival no puede saberlo, y lo que "
                "suma cuando no quiere pesa más que lo que cuesta cuando quiere.",
                f"With {tantos} of envido it is a bluff, and it pays: the rival cannot know it, "
                "and what it scores when he declines outweighs what it costs when he accepts.",
            )
        points = f" con {tantos} de envido" if tantos is not None else ""
        points_en = f" with {tantos} of envido" if tantos is not None else ""
        return Words(
            f"Vale la pena apostar al envido{points}: lo que se gana si el rival quiere, o lo que "
            "suma si no quiere, pesa más que el riesgo.",
            f"The envido is worth the bet{points_en}: what it wins if the rival accepts, or scores "
            "if he declines, outweighs the risk.",
        )
    if verb in _TRUCO_CALLS:
        return Words(
            "Con estas cartas y lo que ya se jugó, subir la apuesta gana más de lo que arriesga: "
            "si el rival no quiere, la mano ya es tuya.",
            "With these cards and what has been played, raising wins more than it risks: if the "
            "rival declines, the hand is already yours.",
        )
    if verb is Verb.QUIERO:
        return Words(
            "Aceptar paga: con estas cartas, contra un rival que canta como canta un buen "
            "jugador, jugar la apuesta deja el partido mejor que no querer.",
            "Accepting pays: with these cards, against a rival who calls as a sound player does, "
            "playing the bet leaves the match better than declining.",
        )
    if verb is Verb.NO_QUIERO:
        return Words(
            "Rechazar cuesta menos: aceptar perdería más de lo que se paga por no querer.",
            "Declining costs less: accepting would lose more than declining pays.",
        )
    if verb is Verb.MAZO:
        return Words(
            "Irse al mazo cede lo que ya está en juego y no más: seguir costaría más.",
            "Going to the mazo gives up what is already at stake and no more: playing on would "
            "cost more.",
        )
    if verb in (Verb.PLAY, Verb.TAPADA) and best.card is not None:
        pending = " antes de contestar, sin cantar nada" if waiting else " sin cantar nada todavía"
        pending_en = " before answering, calling nothing" if waiting else ", calling nothing yet"
        return Words(
            f"Conviene jugar {card_es(best.card)}{pending}: es la carta que mejor cuida las bazas "
            "que quedan.",
            f"Playing {card_en(best.card)}{pending_en} is best: it is the card that best keeps "
            "the tricks to come.",
        )
    return Words("", "")


def explain(view: SeatView, values: tuple[ActionValue, ...], played: str | None = None) -> Words:
    """Why the coach's best action of ``view``'s decision is best, against the rest.

    ``values`` are the coach's equities (``evaluate``); ``played`` the action taken at the table,
    if the explanation should name it.
    """
    ranked = sorted(values, key=lambda v: -v.equity)
    best, rest = ranked[0], ranked[1:]
    lead_es = (
        f"Lo mejor es {action_es(best.action)}: gana el partido el {_pct(best.equity)} de las veces"
    )
    lead_en = (
        f"The best is {action_en(best.action)}: it wins the match {_pct(best.equity)} of the time"
    )
    if rest:
        nxt = rest[0]
        gap = best.equity - nxt.equity
        lead_es += (
            f", {100 * gap:.1f} puntos porcentuales más que la siguiente, {action_es(nxt.action)}"
            f" ({_pct(nxt.equity)})."
        )
        lead_en += (
            f", {100 * gap:.1f} percentage points more than the next, {action_en(nxt.action)}"
            f" ({_pct(nxt.equity)})."
        )
    else:
        lead_es += "."
        lead_en += "."
    why = _why(view, Action.parse(best.action), view.awaited is not None)
    parts_es, parts_en = [lead_es, why.es], [lead_en, why.en]
    if played is not None:
        if played == best.action:
            parts_es.append("En la mesa se jugó eso mismo.")
            parts_en.append("That is what was played at the table.")
        else:
            parts_es.append(f"En la mesa se eligió {action_es(played)}.")
            parts_en.append(f"At the table the choice was {action_en(played)}.")
    return Words(
        " ".join(p for p in parts_es if p),
        " ".join(p for p in parts_en if p),
    )


__all__ = ["Words", "action_en", "action_es", "card_en", "card_es", "explain"]

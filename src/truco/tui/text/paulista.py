"""What the terminal writes at a Truco Paulista table: French-suited cards (``A♣``, ``7♥``), the
vira and its manilhas, the score as 12 tentos, and the Brazilian words of its calls and answers
(``Truco!``, ``Seis!``, ``Desce``, ``Corre``, ``Mão de onze``). The facts are the view's
(``vira``, ``manilhas``, ``onze``, ``ferro``, ``hand_value``); the cards' French names are the
core's (``truco.manilhas``).
"""

from __future__ import annotations

from collections.abc import Callable

from truco.actions import PAULISTA_HAND_VALUE, Verb
from truco.cards import Card, Suit
from truco.manilhas import MANILHA_NAMES, french_name, french_short
from truco.state import Phase
from truco.view import SeatView

RED = frozenset({Suit.COPA, Suit.ORO})
"""Copas and ouros are red; paus and espadas black."""
SAY: dict[Verb, str] = {
    Verb.TRUCO: "Truco!",
    Verb.SEIS: "Seis!",
    Verb.NOVE: "Nove!",
    Verb.DOZE: "Doze!",
    Verb.DESCE: "Desce",
    Verb.CORRE: "Corre",
    Verb.JOGA: "Jogo a mão de onze",
    Verb.CEGA: "Jogo no escuro",
}
"""What a player shouts at a Paulista table."""
LABELS: dict[Verb, str] = {
    Verb.TRUCO: "truco",
    Verb.SEIS: "seis",
    Verb.NOVE: "nove",
    Verb.DOZE: "doze",
    Verb.DESCE: "desce",
    Verb.CORRE: "corre",
    Verb.JOGA: "joga (mão de onze)",
    Verb.CEGA: "jogar no escuro (a próxima carta)",
}
"""The keys' words at a Paulista table."""
CARD_VERBS: dict[Verb, str] = {Verb.PLAY: "jogar", Verb.TAPADA: "cobrir"}
"""What doing something with a card is called at a Paulista table (the line-based menu)."""
REASONS: dict[str, str] = {
    "truco": "a mão",
    "truco-no-quiero": "correu",
    "mao-de-onze": "correu da mão de onze",
}


def paulista(view: SeatView) -> bool:
    """Whether the view is of a Truco Paulista table."""
    return view.game == "paulista"


def card(c: Card | None) -> str:
    """A French card as markup, red or black on white: `` A♥ ``; None is a face-down card."""
    if c is None:
        return "[reverse] ?? [/]"
    ink = "#c3202a" if c.suit in RED else "#000000"
    return f"[bold {ink} on #ffffff] {french_short(c)} [/]"


def card_words(c: Card | None) -> str:
    """A French card in words, for the line-based game: ``7 de copas``."""
    return "uma carta coberta" if c is None else french_name(c)


def manilha_name(view: SeatView, c: Card) -> str | None:
    """Zap, copeta, espadilha or pica-fumo, when ``c`` is one of this hand's manilhas."""
    if c not in view.manilhas:
        return None
    return MANILHA_NAMES[view.manilhas.index(c)]


def vira_line(view: SeatView, card: Callable[[Card], str]) -> str | None:
    """``Vira: 4♥ · manilha: 5 (zap 5♣)``, or the manilha velha's four; ``card`` draws the vira
    (``Names.card``: markup, or words in the line-based game)."""
    if not view.manilhas:
        return None
    if view.vira is None:
        pairs = zip(MANILHA_NAMES, view.manilhas, strict=True)
        fixed = ", ".join(f"{n} {french_short(c)}" for n, c in pairs)
        return f"Manilhas fixas: {fixed}"
    rank = french_short(view.manilhas[0])[:-1]
    zap = french_short(view.manilhas[0])
    return f"Vira: {card(view.vira)} · manilha: [b]{rank}[/] (zap {zap})"


def worth_line(view: SeatView) -> str | None:
    """What the hand is worth, the mão de onze and the mão de ferro."""
    if view.phase != Phase.PLAY:
        return None
    said = []
    if view.ferro:
        said.append("[b]mão de ferro[/]" + (" (no escuro)" if view.blind else ""))
    elif view.onze >= 0:
        said.append("[b]mão de onze[/]")
    if view.hand_value > PAULISTA_HAND_VALUE:
        said.append(f"valendo [b]{view.hand_value}[/]")
    return " · ".join(said) or None


def tentos(points: int, target: int) -> str:
    """The tentos of a side in fours: ● won, ○ to win (``●●●● ●●○○ ○○○○``)."""
    marks = "●" * min(points, target) + "○" * max(0, target - points)
    return " ".join(marks[i : i + 4] for i in range(0, len(marks), 4))

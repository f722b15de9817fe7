"""The readable table of ``truco analizar``: a rich renderable (the command prints it)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from truco.coach.analysis import (
    BEST,
    BLUNDER,
    ERROR,
    IMPRECISION,
    LABELS_EN,
    LABELS_ES,
    THRESHOLDS,
    Decision,
)
from truco.notation import HandHistory

_STYLE = {BEST: "green", IMPRECISION: "yellow", ERROR: "dark_orange", BLUNDER: "bold red"}
_SHOWN_OPTIONS = 4
"""Alternatives listed per decision (the rest are worse)."""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _hand_title(number: int, history: HandHistory) -> Text:
    cards = "  ".join(
        f"{seat}: {' '.join('??' if c is None else str(c) for c in hand)}"
        for seat, hand in enumerate(history.hands)
    )
    score = "-".join(str(p) for p in history.score)
    return Text(f"Mano {number} · tanteador {score} · es mano el {history.mano} · {cards}", "bold")


def render(histories: tuple[HandHistory, ...], decisions: tuple[Decision, ...]) -> Group:
    """One table per hand: each decision, its label, the best action and the alternatives; a
    second line with the best action with every card face up."""
    parts: list[Text | Table] = []
    for number, history in enumerate(histories, 1):
        mine = [d for d in decisions if d.hand == number]
        parts.append(_hand_title(number, history))
        if not mine:
            parts.append(Text("  (ninguna decisión que analizar / no decisions)", "dim"))
            continue
        table = Table(show_edge=False, pad_edge=False, header_style="bold")
        table.add_column("#", justify="right")
        table.add_column("Asiento")
        table.add_column("Jugó")
        table.add_column("Juicio")
        table.add_column("Pierde", justify="right")
        table.add_column("Mejor / a la vista")
        table.add_column("Opciones (equidad del partido)")
        for d in mine:
            options = "  ".join(f"{o.action} {_pct(o.equity)}" for o in d.options[:_SHOWN_OPTIONS])
            table.add_row(
                str(d.index + 1),
                str(d.seat),
                d.played,
                Text(LABELS_ES[d.label], _STYLE[d.label]),
                _pct(d.loss),
                d.best,
                options,
            )
            face = d.face_up
            if face is None:
                seen = "a la vista: (demasiadas posiciones para calcularlo)"
            elif face.action == d.played:
                seen = f"a la vista: {face.action} también ({_pct(face.equity)})"
            else:
                seen = (
                    f"a la vista: {face.action} ({_pct(face.equity)};"
                    f" lo jugado {_pct(face.played_equity)})"
                )
            table.add_row("", "", "", "", "", Text(seen, "dim italic"), "")
        parts.append(table)
    legend = ", ".join(
        f"{LABELS_ES[name]} ({LABELS_EN[name]}) ≥ {_pct(t)}" for t, name in reversed(THRESHOLDS)
    )
    parts.append(Text(f"Pierde: equidad del partido cedida ante la mejor. {legend}.", "dim"))
    return Group(*parts)

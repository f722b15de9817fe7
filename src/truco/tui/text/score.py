"""The score as lines: fósforos for teams, each player's points or porotos, the match's end."""

from __future__ import annotations

from collections.abc import Sequence

import truco.tui.text.paulista as paulista
from truco.anotador import fosforos
from truco.tui.text.names import Names
from truco.tui.text.table import stake
from truco.view import SeatView


def score_label(points: int, half: int | None) -> str:
    """A score with its malas or buenas (``17 (2 buenas)``) where the match has a ``half``."""
    if half is None:
        return f"{points}"
    if points <= half:
        return f"{points} (malas)"
    buenas = points - half
    return f"{points} ({buenas} buena{'s' * (buenas > 1)})"


def _tally(points: int, target: int) -> str:
    """A one-line bar of the target in groups of five: ■ for each point made, □ to go."""
    marks = "■" * min(points, target) + "□" * max(0, target - points)
    if target > 30:  # 40 marks and their gaps would not fit the score panel
        return marks
    return " ".join(marks[i : i + 5] for i in range(0, len(marks), 5))


def score_lines(view: SeatView, names: Names) -> list[str]:
    """The score, eight lines at most: both teams as fósforos, ours first; each player's points
    (pata de gallo) or porotos left (destantado), mine first."""
    target = view.rules.target
    lines = []
    if names.french:  # Truco Paulista: each side's 12 tentos, the mão de onze at 11
        for team in names.order(len(view.score)):
            points = view.score[team]
            onze = " · [b red]mão de onze[/]" if view.at_onze[team] else ""
            lines.append(f"[b]{names.team(team)}[/] {points} de {target} tentos{onze}")
            lines.append(f"  [yellow]{paulista.tentos(points, target)}[/]")
        return lines
    if names.piles:
        lines.append("[b]Porotos[/] · gana el que se queda sin")
        for s in names.order(len(view.score)):
            left = view.score[s]
            what = stake(view, s)
            lines.append(f"[b]{names.seat(s)}[/] {left}" + (f" · [i]{what}[/]" if what else ""))
            lines.append("  [yellow]" + "●" * min(left, 30) + "[/]")
        lines.append(f"Pozo: {view.pot}")
        return lines
    if names.individual:
        lines.append(f"[b]A {target}[/]: cada uno suma lo que gana su lado")
        for s in names.order(len(view.score)):
            mark = " [i](pie)[/]" if s == view.pie else ""
            lines.append(f"[b]{names.seat(s)}[/]{mark} {score_label(view.score[s], view.half)}")
            lines.append(f"  [yellow]{_tally(view.score[s], target)}[/]")
        return lines
    for team in names.order(len(view.score)):
        points = view.score[team]
        lines.append(f"[b]{names.team(team)}[/] {score_label(points, view.half)}")
        lines.extend(f"[yellow]{row}[/]" if row else "" for row in fosforos(points, target))
    return lines


def score_line(view: SeatView, names: Names) -> str:
    """The score on one line: ``Tanteador: Nosotros 3 · Ellos 5`` (porotos in destantado)."""
    order = names.order(len(view.score))
    if names.piles:
        piles = " · ".join(f"{names.seat(s)} {view.score[s]}" for s in order)
        return f"Porotos: {piles} · pozo {view.pot}"
    return names.say("score_line") + " · ".join(
        f"{names.scorer(i)} {score_label(view.score[i], view.half)}" for i in order
    )


def scores_text(score: Sequence[int], names: Names) -> str:
    """Final scores: ``15 a 9`` for two teams (ours first), else each player's."""
    order = names.order(len(score))
    if not names.individual:
        return " a ".join(str(score[i]) for i in order)
    return " · ".join(f"{names.seat(i)} {score[i]}" for i in order)


def match_summary(view: SeatView, names: Names, hands: int) -> list[str]:
    winner = view.winner
    if names.me is None:
        verb = names.say("wins") if names.individual else names.say("win")
        head = f"{verb.capitalize()} {names.scorer(winner)}"
    elif names.won(winner):
        head = names.say("you_won")
    else:
        head = (
            f"Perdiste: gana {names.seat(winner)}." if names.individual else names.say("you_lost")
        )
    in_hands = names.say("in_hands", n=hands, s="s" * (hands != 1))
    if names.individual:
        what = "Porotos" if names.piles else "Puntos"
        second = f"{what}: {scores_text(view.score, names)}, {in_hands}."
    else:
        us, them = names.order(2)
        second = (
            f"{names.team(us)} {view.score[us]} a {view.score[them]} {names.team(them)}, "
            f"{in_hands}."
        )
    return [f"[b reverse] {names.say('match_end')}{head} [/]", second]

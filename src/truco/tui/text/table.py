"""The hand on the table as lines: tricks, tantos said, who left, the call that waits, and what
the variant adds (the pie, the 1v1 hand of pica-pica, destantado's stakes)."""

from __future__ import annotations

import truco.tui.text.paulista as paulista
from truco.actions import Verb
from truco.cards import Card
from truco.paulista import ONZE_RUN, ONZE_VALUE
from truco.state import Phase
from truco.tui.text.names import Names, discarded, pica_seats, sitting_out
from truco.tui.text.words import LABELS, TRUCO_NAMES
from truco.variants import variant_of
from truco.view import PlayView, SeatView


def _play(names: Names, p: PlayView) -> str:
    who, c, face_down = p
    if face_down:
        shown = ("coberta" if names.french else "tapada") + (
            f" {names.card(c)}" if c is not None else ""
        )
        return f"{names.seat(who)} [dim]{shown}[/]"
    # a coloured card is padded and stands apart from the name by itself
    return f"{names.seat(who)}{' ' * names.plain}{names.card(c)}"


def variant_lines(view: SeatView, names: Names) -> list[str]:
    """What the variant adds to the hand: the pie and his discard, the 1v1 hand of pica-pica.
    (Destantado's stakes go with the piles: ``stake``, ``stakes_line``.)"""
    lines = []
    pie = view.pie
    if pie is not None:
        done = discarded(view)
        if pie == names.me:
            mine = done.split()[-1] if done else ""
            if names.plain and mine:  # the line-based game says the card in words
                mine = names.card(Card.parse(mine))
            said = f"descartaste {mine}" if done else "descartá 1 de tus 4 cartas"
            lines.append(f"[b]Sos el pie[/]: {said}")
        else:
            said = "ya descartó" if done else "descarta 1 de sus 4 cartas"
            lines.append(f"Pie: [b]{names.seat(pie)}[/] · {said}")
    seats = pica_seats(view)
    if seats is not None:
        pair = " contra ".join(names.seat(s) for s in seats)
        line = f"[b]Mano de pica {view.pica + 1} de 3[/]: {pair}"
        lines.append(line + (" · mirás" if sitting_out(view) else ""))
    return lines


def stake(view: SeatView, seat: int) -> str | None:
    """Destantado, during a hand: what ``seat`` stands to lose in the truco, or that he left it
    (``afuera``: he did not want the truco; ``al mazo``: he still loses what he was in for)."""
    if not variant_of(view.rules).own_side or view.phase != Phase.PLAY or seat >= len(view.stakes):
        return None
    points = view.stakes[seat]
    if not points:
        return "afuera"
    if any(s == seat and a == Verb.MAZO.value for s, a in view.history):
        return f"al mazo, pierde {points}"
    return f"en juego {points}"


def stakes_line(view: SeatView, names: Names) -> str | None:
    """Destantado: every player's stake in the hand, on one line."""
    said = [(s, stake(view, s)) for s in names.order(view.rules.players)]
    if any(what is None for _, what in said):
        return None
    return "Apuestas: " + " · ".join(f"{names.seat(s)} {what}" for s, what in said)


def table_lines(view: SeatView, names: Names, *, notes: bool = True) -> list[str]:
    """The hand on the table: the variant's notes (unless ``notes`` is False), each trick with
    its winner, the tantos said, who left the hand."""
    lines = [f"[b]Mano {view.hand_no}[/] · es mano: {names.seat(view.mano)}"]
    if paulista.paulista(view):
        # Truco Paulista: the vira and its manilhas, what the hand is worth, the mão de onze.
        worth = paulista.worth_line(view)
        lines[0] = f"[b]Mão {view.hand_no}[/] · é mão: {names.seat(view.mano)}"
        lines.extend(x for x in (paulista.vira_line(view, names.card), worth) if x)
    elif view.truco > 1:
        lines[0] += f" · en juego: [b]{TRUCO_NAMES[view.truco]}[/]"
    if notes:
        lines.extend(variant_lines(view, names))
    tricks = (
        [*view.tricks, view.plays] if view.plays or view.phase == Phase.PLAY else list(view.tricks)
    )
    for i, plays in enumerate(tricks):
        if not plays and i >= len(view.tricks):
            if i < 3:
                lines.append(f"{names.trick(i)}: …")
            continue
        result = ""
        if i < len(view.results):
            won = view.results[i]
            parda = "cangou" if names.french else "parda"
            result = f" → [i]{parda}[/]" if won < 0 else f" → [b]{names.team(won)}[/]"
        # coloured cards stand apart by themselves; a tight line fits three players' cards
        sep = " · " if names.plain else " "
        lines.append(f"{names.trick(i)}: " + sep.join(_play(names, p) for p in plays) + result)
    if view.declared:
        said = ", ".join(
            f"{names.seat(s)} {'son buenas' if p is None else p}{' (flor)' * f}"
            for s, p, f in view.declared
        )
        lines.append(f"Tantos: {said}")
    seats = pica_seats(view)
    out = [s for s in view.retired if seats is None or s in seats]
    if out:
        mazo = {s for s, a in view.history if a == Verb.MAZO.value}
        gone = [s for s in out if s in mazo or not variant_of(view.rules).own_side]
        declined = [s for s in out if s not in gone]
        if gone:
            lines.append("Al mazo: " + ", ".join(names.seat(s) for s in gone))
        if declined:
            lines.append("No quisieron y se fueron: " + ", ".join(names.seat(s) for s in declined))
    return lines


def pending_call(view: SeatView, names: Names) -> str | None:
    """Who called what and who owes the answer, while a call waits; the pie's discard."""
    pie = view.pie
    if pie is not None and view.phase == Phase.PLAY and discarded(view) is None:
        if any(a.verb is Verb.DISCARD for a in view.legal):
            return "Sos el pie: elegí la carta que descartás (1-4)"
        return f"{names.seat(pie)}, el pie, está descartando…"
    awaited = view.awaited
    if awaited is None:
        if paulista.paulista(view) and view.onze_call is not None:
            who = names.seat(view.onze_call)
            return (
                f"Mão de onze: {who} decide se joga (vale {ONZE_VALUE}) ou corre "
                f"(eles marcam {ONZE_RUN})"
            )
        return None
    caller, responder = awaited.caller, awaited.responder
    what = LABELS[awaited.verb]
    line = names.say("called", who=names.seat(caller), what=what, answer=names.seat(responder))
    # Destantado: who accepted the call so far (each answers for himself, in turn after him).
    n = len(view.hand_sizes)
    accepted = sorted((s for s in view.bettors if s != caller), key=lambda s: (s - caller) % n)
    if accepted:
        line += " · quiso " + ", ".join(names.seat(s) for s in accepted)
    return line

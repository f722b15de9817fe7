"""The log: a line for each event the viewer saw, and the summary of a finished hand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import truco.tui.text.paulista as paulista
from truco.cards import Card
from truco.errors import NotationError
from truco.events import (
    Answered,
    Called,
    CardPlayed,
    CardsDealt,
    CardsShown,
    Discarded,
    Event,
    HandEnded,
    HandStarted,
    PointsDeclared,
    PorotosPassed,
    Reason,
    Scored,
    TrickEnded,
    ViraTurned,
    WentToMazo,
)
from truco.story import HandStory
from truco.tui.text.names import Names, discarded, pica_seats, sitting_out
from truco.tui.text.score import scores_text
from truco.tui.text.words import REASONS, SAY, TRUCO_NAMES, call_label
from truco.view import SeatView


def _hand_started(ev: HandStarted, names: Names, view: SeatView | None) -> str:
    said = names.say("hand_head", n=ev.hand, who=names.seat(ev.mano))
    if view is not None and view.hand_no == ev.hand:
        seats = pica_seats(view)
        if seats is not None:
            said += " · mano de pica: " + " contra ".join(names.seat(s) for s in seats)
            if sitting_out(view):
                said += " (mirás)"
        elif view.pie is not None:
            said += f" · pie: {names.seat(view.pie)}"
    return f"=== {said} ===" if names.plain else f"[b]── {said}[/]"


def _own_discard(view: SeatView | None, names: Names) -> str:
    said = discarded(view) if view is not None else None
    try:
        return names.card(Card.parse(said.split()[-1])) if said else "una carta"
    except NotationError:
        return "una carta"


def _passed(ev: PorotosPassed, names: Names) -> str:
    n = f"{ev.points} poroto{'s' * (ev.points != 1)}"
    where = "al pozo" if ev.to < 0 else f"a {names.seat(ev.to)}"
    return f"{names.seat(ev.seat)} pasa {n} {where}"


def event_line(ev: Event, names: Names, view: SeatView | None = None) -> str | None:
    """One line for an event the viewer saw (None: nothing worth a line). ``view``, the view
    right after the event, adds the 1v1 hand of pica-pica or the pie to a new hand's line."""
    if isinstance(ev, HandStarted):
        return _hand_started(ev, names, view)
    if isinstance(ev, CardsDealt):
        return names.say("dealt") + names.cards(ev.cards)
    if isinstance(ev, ViraTurned):
        return "Vira: " + names.card(ev.card)
    if isinstance(ev, CardPlayed):
        what = names.say("face_down") if ev.face_down else names.card(ev.card)
        return names.say("plays", who=names.seat(ev.seat), what=what)
    if isinstance(ev, Discarded):
        if ev.seat == names.me:
            return f"Vos (pie): descartás {_own_discard(view, names)}"
        return f"{names.seat(ev.seat)} (pie): descarta una carta"
    if isinstance(ev, Called | Answered):
        say = paulista.SAY if names.french else SAY
        return f"{names.seat(ev.seat)}: [b]{say.get(ev.verb, str(ev.verb))}[/]"
    if isinstance(ev, WentToMazo):
        return f"{names.seat(ev.seat)}: me voy al mazo"
    if isinstance(ev, TrickEnded):
        trick = names.trick(ev.trick)
        if ev.team < 0:
            return f"{trick}: {'cangou' if names.french else 'parda'}"
        who, side = names.seat(ev.seat), names.team(ev.team)
        won = names.say("trick_won", trick=trick, who=who)
        return won + (names.say("for_side", side=side) if side != who else "")
    if isinstance(ev, PointsDeclared):
        said = "son buenas" if ev.points is None else f"{ev.points}{' de flor' * ev.flor}"
        return f"{names.seat(ev.seat)}: [b]{said}[/]"
    if isinstance(ev, Scored):
        reason = reason_words(ev.reason, view, names)
        return f"[green]{names.say('scored', n=ev.points, who=names.scorer(ev.team))}[/] ({reason})"
    if isinstance(ev, PorotosPassed):
        reason = reason_words(ev.reason, view, names)
        colour = "green" if ev.seat == names.me else "yellow"
        return f"[{colour}]{_passed(ev, names)}[/] ({reason})"
    if isinstance(ev, CardsShown):
        return names.say("shows", who=names.seat(ev.seat)) + names.cards(ev.cards)
    if isinstance(ev, HandEnded):
        said = names.say("hand_end") + hand_points_text(ev.points, names)
        why = hand_why(view.story, names) if view is not None else None
        return f"{said} · {why}" if why else said
    winner = names.scorer(ev.winner)
    verb = names.say("wins") if names.individual else names.say("win")
    if names.piles:
        return f"[b]Fin del partido: {verb} {winner}[/], que se quedó sin porotos"
    end = names.say("match_end")
    return f"[b]{end}{verb} {winner}[/] ({scores_text(ev.score, names)})"


def reason_words(reason: str, view: SeatView | None, names: Names) -> str:
    """Why points were scored, naming the call that won them, as the browser does: ``real
    envido``, ``falta envido no querido``, ``retruco``, ``retruco no querido``; ``view``, the
    hand's (its envido chain, its truco and its story), else the reason's plain words."""
    said = (paulista.REASONS if names.french else REASONS).get(reason, reason)
    if view is None or names.french:
        return said
    chain = view.chain
    if reason in (Reason.ENVIDO, Reason.ENVIDO_NO_QUIERO) and chain:
        label = call_label(chain[-1])
        return label if reason == Reason.ENVIDO else f"{label} no querido"
    if reason == Reason.TRUCO and view.truco > 1:
        return TRUCO_NAMES.get(view.truco, said)
    story = view.story
    if reason == Reason.TRUCO_NO_QUIERO and story is not None and story.call is not None:
        return f"{call_label(story.call)} no querido"
    return said


def _tricks(tricks: Sequence[int], names: Names) -> str:
    said = [names.trick(i).lower() for i in tricks]
    return names.say("and").join([", ".join(said[:-1]), said[-1]]) if len(said) > 1 else said[0]


def hand_why(story: HandStory | None, names: Names) -> str | None:
    """Why the hand ended, as the core's story tells it (``SeatView.story``, from the hand's
    final state; only said here): ``Bot1 no quiso el retruco``, ``Ganaste primera y segunda``,
    ``Ellos ganaron la segunda, parda en primera``. None when it says nothing of the truco part
    (the match ended on the envido first)."""
    if story is None:
        return None
    text = _why(story, names)
    return text[:1].upper() + text[1:] if text else None


def _why(story: HandStory, names: Names) -> str | None:
    seat = story.seat
    mine = seat is not None and seat == names.me
    who = names.seat(seat) if seat is not None else ""
    if story.reason is Reason.MAZO:
        return names.say("why_mazo_you") if mine else names.say("why_mazo", who=who)
    if story.reason is Reason.MAO_DE_ONZE:
        return names.say("why_ran_onze_you") if mine else names.say("why_ran_onze", who=who)
    if story.reason in _DECLINED and story.call is not None:
        call = call_label(story.call, french=names.french)
        key = "why_declined_you" if mine else "why_declined"
        return names.say(key, who=who, call=call)
    if story.reason is not Reason.TRUCO:
        return None
    if story.side < 0:
        return names.say("why_nobody")
    seats = story.seats
    if names.me in seats:
        won = names.say("won_you" if len(seats) == 1 else "won_us")
    elif len(seats) == 1:
        won = names.say("won_one", who=names.seat(seats[0]))
    else:
        won = names.say("won_team", who=names.team(story.side))
    if not story.won:
        mano = names.say("why_mano", won=won)
        if not story.pardas:
            return mano
        return names.say("why_pardas", tricks=_tricks(story.pardas, names)) + ", " + mano
    if not story.pardas:
        return names.say("why_tricks", won=won, tricks=_tricks(story.won, names))
    won_the = names.say("why_won_the", won=won, tricks=_tricks(story.won, names))
    pardas = names.say("why_pardas", tricks=_tricks(story.pardas, names))
    return f"{pardas}, {won_the}" if story.pardas[0] < story.won[0] else f"{won_the}, {pardas}"


_DECLINED = (Reason.TRUCO_NO_QUIERO, Reason.ENVIDO_NO_QUIERO, Reason.FLOR_NO_QUIERO)


def hand_points_text(points: Sequence[int], names: Names) -> str:
    """What a hand gave each team or player (``Nosotros +2``; porotos -2/+2 in destantado)."""
    got = [f"{names.scorer(i)} {points[i]:+d}" for i in names.order(len(points)) if points[i]]
    if names.piles:
        return "porotos " + ", ".join(got) if got else "nadie pasa porotos"
    return ", ".join(got) or names.say("nobody_scores")


def hand_summary(hand_events: Iterable[Event], view: SeatView, names: Names) -> list[str]:
    """What the hand gave each team (or player) and why, and the cards shown: short lines. The
    same points to each player of a side (pata de gallo), or one winner's porotos to each loser
    (destantado), make one entry: ``+2 Vos y Bot1+``, ``Bot1 pasa 2 a Vos y 2 a Bot2``."""
    groups: list[tuple[str, list[str], str]] = []  # (who, items, reason)
    shown = []
    key: tuple[object, ...] | None = None
    for ev in hand_events:
        if isinstance(ev, Scored):
            new_key: tuple[object, ...] | None = (
                ("+", ev.points, ev.reason) if names.individual else None
            )
            who, item = f"+{ev.points}", names.scorer(ev.team)
        elif isinstance(ev, PorotosPassed):
            new_key = ("pasa", ev.seat, ev.reason)
            to = "al pozo" if ev.to < 0 else f"a {names.seat(ev.to)}"
            who, item = f"{names.seat(ev.seat)} pasa", f"{ev.points} {to}"
        else:
            key = None
            if isinstance(ev, CardsShown):
                shown.append(names.say("shows", who=names.seat(ev.seat)) + names.cards(ev.cards))
            continue
        if new_key is not None and new_key == key:
            groups[-1][1].append(item)
        else:
            groups.append((who, [item], reason_words(ev.reason, view, names)))
        key = new_key
    both = names.say("and")
    said = [f"[b]{who} {both.join(items)}[/] ({reason})" for who, items, reason in groups]
    head = f"[b reverse] {names.say('hand_end_n', n=view.hand_no)} [/] "
    why = hand_why(view.story, names)
    lines = [head + (", ".join(said) or names.say("nobody_scores"))]
    return [*lines, why, *shown] if why else [*lines, *shown]

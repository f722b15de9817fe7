"""What the terminal clients write: cards, seats, events, the table and the score, as Rich markup.

Pure functions of a ``SeatView`` (and events), shared by the Textual client (local and online)
and by the line-based game (``truco.textgame``, which prints them through ``plain``). Sides are
read from the view's per-hand ``teams`` (in pata de gallo they change every hand), and scores
are per team or, in the individual variants, per player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.markup import escape
from rich.text import Text

from truco.actions import Action, Verb
from truco.anotador import fosforos
from truco.cards import Card, Suit
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
    Scored,
    TrickEnded,
    WentToMazo,
)
from truco.rules import INDIVIDUAL
from truco.view import PlayView, SeatView

SUIT_NAME = {Suit.ESPADA: "espada", Suit.BASTO: "basto", Suit.ORO: "oro", Suit.COPA: "copa"}
SUIT_STYLE = {
    Suit.ESPADA: "bold #ffffff on #1f4e9c",
    Suit.BASTO: "bold #ffffff on #2e7d32",
    Suit.ORO: "bold #000000 on #f2b705",
    Suit.COPA: "bold #ffffff on #c62828",
}
SAY = {
    Verb.TRUCO: "¡Truco!",
    Verb.RETRUCO: "¡Quiero retruco!",
    Verb.VALE_CUATRO: "¡Quiero vale cuatro!",
    Verb.ENVIDO: "Envido",
    Verb.REAL_ENVIDO: "Real envido",
    Verb.FALTA_ENVIDO: "Falta envido",
    Verb.QUIERO: "Quiero",
    Verb.NO_QUIERO: "No quiero",
    Verb.MAZO: "Me voy al mazo",
    Verb.FLOR: "¡Flor!",
    Verb.CONTRAFLOR: "Contraflor",
    Verb.CONTRAFLOR_AL_RESTO: "Contraflor al resto",
    Verb.CON_FLOR_QUIERO: "Con flor quiero",
    Verb.CON_FLOR_ME_ACHICO: "Con flor me achico",
}
REASONS = {
    "envido": "envido",
    "envido-no-quiero": "envido no querido",
    "truco": "la mano",
    "truco-no-quiero": "truco no querido",
    "mazo": "mazo",
    "flor": "flor",
    "flor-no-quiero": "flor no querida",
}
TRUCO_NAMES = {2: "truco", 3: "retruco", 4: "vale cuatro"}
VARIANT_NAMES = {
    "standard": "",
    "pata_de_gallo": "pata de gallo",
    "destantado": "destantado",
    "pica_pica": "pica-pica",
}
_CALLS = frozenset(
    v.value
    for v in (
        Verb.TRUCO,
        Verb.RETRUCO,
        Verb.VALE_CUATRO,
        Verb.ENVIDO,
        Verb.REAL_ENVIDO,
        Verb.FALTA_ENVIDO,
    )
)

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
}
"""The key of each call; cards are 1, 2, 3 (face up) and 4, 5, 6 (face down, tapada); the pie of
pata de gallo discards with 1-4, before any card is played."""
LABELS = {
    Verb.TRUCO: "truco",
    Verb.RETRUCO: "retruco",
    Verb.VALE_CUATRO: "vale cuatro",
    Verb.ENVIDO: "envido",
    Verb.REAL_ENVIDO: "real envido",
    Verb.FALTA_ENVIDO: "falta envido",
    Verb.QUIERO: "quiero",
    Verb.NO_QUIERO: "no quiero",
    Verb.MAZO: "mazo",
    Verb.FLOR: "flor",
    Verb.CONTRAFLOR: "contraflor",
    Verb.CONTRAFLOR_AL_RESTO: "contraflor al resto",
    Verb.CON_FLOR_QUIERO: "con flor quiero",
    Verb.CON_FLOR_ME_ACHICO: "con flor me achico",
}


def plain(markup: str) -> str:
    """The text of a line of markup, without its styles (for the line-based game)."""
    return Text.from_markup(markup).plain


def card(c: Card | None, *, long: bool = False) -> str:
    """A card as coloured markup: `` 7 oro `` (``long``) or `` 7o ``; None is a face-down card."""
    if c is None:
        return "[reverse] ?? [/]"
    name = f"{c.rank} {SUIT_NAME[c.suit]}" if long else str(c)
    return f"[{SUIT_STYLE[c.suit]}] {name} [/]"


def action_keys(view: SeatView) -> dict[str, Action]:
    """The key for each of the viewer's legal actions."""
    keys: dict[str, Action] = {}
    for action in view.legal:
        if action.card is not None and action.card in view.hand:
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


# --- who is who -------------------------------------------------------------------------------


def pie_seat(view: SeatView) -> int | None:
    """Pata de gallo: the pie of this hand (the side of one, who deals and plays last)."""
    if view.rules.variant != "pata_de_gallo" or not view.hand_no:
        return None
    alone = [s for s, t in enumerate(view.teams) if view.teams.count(t) == 1]
    return alone[0] if len(alone) == 1 else None


def discarded(view: SeatView) -> str | None:
    """What the pie's discard looks like in the history (``discard 4c``, or ``discard ??`` to
    the others), or None while he has not discarded."""
    return next((a for _, a in view.history if a.startswith(Verb.DISCARD.value)), None)


def pica_seats(view: SeatView) -> tuple[int, int] | None:
    """Pica-pica: the two seats that play a 1v1 hand (the mano and the seat facing him)."""
    if view.pica < 0:
        return None
    n = view.rules.players
    return view.mano, (view.mano + n // 2) % n


def sitting_out(view: SeatView) -> bool:
    """Whether the viewer sits out this hand (a 1v1 hand of pica-pica he is not in)."""
    seats = pica_seats(view)
    return seats is not None and view.seat is not None and view.seat not in seats


class Names:
    """How the viewer calls the seats, the sides of a hand and the scores.

    ``teams`` are the sides of the current hand (``view.teams``); ``variant`` says whether scores
    are kept per team or per player. ``plain`` is for the line-based game: cards without colours.
    A partner in this hand is marked ``+`` (``Bot2+``).
    """

    def __init__(
        self,
        seat: int | None,
        teams: Sequence[int],
        names: Sequence[str] = (),
        *,
        variant: str = "standard",
        plain: bool = False,
    ) -> None:
        self.me = seat
        self.teams = tuple(teams)
        self.us = self.teams[seat] if seat is not None else 0
        self.names = tuple(names)
        self.variant = variant
        self.individual = variant in INDIVIDUAL
        self.plain = plain

    @classmethod
    def of(cls, view: SeatView, names: Sequence[str] = (), *, plain: bool = False) -> Names:
        return cls(view.seat, view.teams, names, variant=view.rules.variant, plain=plain)

    def seat(self, seat: int) -> str:
        if seat == self.me:
            return "Vos"
        partner = "+" * (self.me is not None and self.teams[seat] == self.us)
        if seat < len(self.names) and self.names[seat]:
            return escape(self.names[seat]) + partner
        return f"Bot{seat}{partner}"

    def team(self, team: int) -> str:
        """A side of this hand: Nosotros / Ellos; in the three-player variants, its players."""
        if not self.individual:
            if self.me is None:
                return f"Equipo {team}"
            return "Nosotros" if team == self.us else "Ellos"
        members = [s for s, t in enumerate(self.teams) if t == team]
        if self.me in members and len(members) > 1:
            return "Nosotros"
        return " y ".join(self.seat(s) for s in members)

    def scorer(self, index: int) -> str:
        """Whose score ``index`` is: a team's, or in the individual variants a player's."""
        return self.seat(index) if self.individual else self.team(index)

    def order(self, count: int) -> list[int]:
        """The scores in the order they are shown: ours (or mine) first."""
        first = self.me if self.individual and self.me is not None else self.us
        first = first if first < count else 0
        return [(first + k) % count for k in range(count)]

    def won(self, winner: int) -> bool:
        """Whether the match winner (a team, or a player) is the viewer's."""
        return winner == (self.me if self.individual else self.us)

    def card(self, c: Card | None, *, long: bool = False) -> str:
        if not self.plain:
            return card(c, long=long)
        if c is None:
            return "??"
        return f"{c.rank} {SUIT_NAME[c.suit]}" if long else str(c)


# --- the table --------------------------------------------------------------------------------


def _play(names: Names, p: PlayView) -> str:
    who, c, face_down = p
    if face_down:
        shown = "tapada" + (f" {names.card(c)}" if c is not None else "")
        return f"{names.seat(who)} [dim]{shown}[/]"
    # a coloured card is padded and stands apart from the name by itself
    return f"{names.seat(who)}{' ' * names.plain}{names.card(c)}"


def variant_lines(view: SeatView, names: Names) -> list[str]:
    """What the variant adds to the hand: the pie and his discard, the 1v1 hand of pica-pica.
    (Destantado's stakes go with the piles: ``stake``, ``stakes_line``.)"""
    lines = []
    pie = pie_seat(view)
    if pie is not None:
        done = discarded(view)
        if pie == names.me:
            mine = done.split()[-1] if done else ""
            said = f"descartaste {mine}" if done else "descartá 1 de tus 4 cartas"
            lines.append(f"[b]Sos el pie[/]: {said}")
        else:
            said = "ya descartó" if done else "descarta 1 de sus 4 cartas"
            lines.append(f"Pie: [b]{names.seat(pie)}[/] · {said}")
    seats = pica_seats(view)
    if seats is not None:
        a, b = seats
        line = f"[b]Mano de pica {view.pica + 1} de 3[/]: {names.seat(a)} contra {names.seat(b)}"
        lines.append(line + (" · mirás" if sitting_out(view) else ""))
    return lines


def stake(view: SeatView, seat: int) -> str | None:
    """Destantado, during a hand: what ``seat`` stands to lose in the truco, or that he left it
    (``afuera``: he did not want the truco; ``al mazo``: he still loses what he was in for)."""
    if view.rules.variant != "destantado" or view.phase != 1 or seat >= len(view.stakes):
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
    if view.truco > 1:
        lines[0] += f" · en juego: [b]{TRUCO_NAMES[view.truco]}[/]"
    if notes:
        lines.extend(variant_lines(view, names))
    tricks = [*view.tricks, view.plays] if view.plays or view.phase == 1 else list(view.tricks)
    for i, plays in enumerate(tricks):
        if not plays and i >= len(view.tricks):
            if i < 3:
                lines.append(f"Baza {i + 1}: …")
            continue
        result = ""
        if i < len(view.results):
            won = view.results[i]
            result = " → [i]parda[/]" if won < 0 else f" → [b]{names.team(won)}[/]"
        # coloured cards stand apart by themselves; a tight line fits three players' cards
        sep = " · " if names.plain else " "
        lines.append(f"Baza {i + 1}: " + sep.join(_play(names, p) for p in plays) + result)
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
        gone = [s for s in out if s in mazo or view.rules.variant != "destantado"]
        declined = [s for s in out if s not in gone]
        if gone:
            lines.append("Al mazo: " + ", ".join(names.seat(s) for s in gone))
        if declined:
            lines.append("No quisieron y se fueron: " + ", ".join(names.seat(s) for s in declined))
    return lines


def _accepted(view: SeatView) -> list[int]:
    """Destantado: who said quiero to the call that waits (the seats in the bet so far)."""
    seats: list[int] = []
    for seat, action in reversed(view.history):
        if action in _CALLS:
            break
        if action == Verb.QUIERO.value:
            seats.append(seat)
    return seats[::-1]


def pending_call(view: SeatView, names: Names) -> str | None:
    """Who called what and who owes the answer, while a call waits; the pie's discard."""
    pie = pie_seat(view)
    if pie is not None and view.phase == 1 and discarded(view) is None:
        if any(a.verb is Verb.DISCARD for a in view.legal):
            return "Sos el pie: elegí la carta que descartás (1-4)"
        return f"{names.seat(pie)}, el pie, está descartando…"
    said: tuple[int, int, str] | None = None
    if view.flor_call is not None and view.flor_chain:
        said = (*view.flor_call, LABELS[view.flor_chain[-1]])
    elif view.envido_call is not None and view.chain:
        said = (*view.envido_call, LABELS[view.chain[-1]])
    elif view.truco_call is not None:
        level, caller, responder = view.truco_call
        said = (caller, responder, TRUCO_NAMES[level])
    if said is None:
        return None
    caller, responder, what = said
    line = f"{names.seat(caller)} cantó {what}: responde {names.seat(responder)}"
    if view.rules.variant == "destantado":
        accepted = _accepted(view)
        if accepted:
            line += " · quiso " + ", ".join(names.seat(s) for s in accepted)
    return line


# --- the score --------------------------------------------------------------------------------


def score_label(points: int, target: int) -> str:
    half = target // 2 if target >= 20 else None
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


def pot(view: SeatView) -> int:
    """Destantado: the porotos thrown to the pot (gone from every pile; worth nothing)."""
    return max(0, view.rules.porotos * view.rules.players - sum(view.score))


def score_lines(view: SeatView, names: Names) -> list[str]:
    """The score, eight lines at most: both teams as fósforos, ours first; each player's points
    (pata de gallo) or porotos left (destantado), mine first."""
    target = view.rules.target
    lines = []
    variant = view.rules.variant
    if variant == "destantado":
        lines.append("[b]Porotos[/] · gana el que se queda sin")
        for s in names.order(len(view.score)):
            left = view.score[s]
            what = stake(view, s)
            lines.append(f"[b]{names.seat(s)}[/] {left}" + (f" · [i]{what}[/]" if what else ""))
            lines.append("  [yellow]" + "●" * min(left, 30) + "[/]")
        lines.append(f"Pozo: {pot(view)}")
        return lines
    if variant == "pata_de_gallo":
        lines.append(f"[b]A {target}[/]: cada uno suma lo que gana su lado")
        pie = pie_seat(view)
        for s in names.order(len(view.score)):
            mark = " [i](pie)[/]" if s == pie else ""
            lines.append(f"[b]{names.seat(s)}[/]{mark} {score_label(view.score[s], target)}")
            lines.append(f"  [yellow]{_tally(view.score[s], target)}[/]")
        return lines
    for team in names.order(len(view.score)):
        points = view.score[team]
        lines.append(f"[b]{names.team(team)}[/] {score_label(points, target)}")
        lines.extend(f"[yellow]{row}[/]" if row else "" for row in fosforos(points, target))
    return lines


def score_line(view: SeatView, names: Names) -> str:
    """The score on one line: ``Tanteador: Nosotros 3 · Ellos 5`` (porotos in destantado)."""
    target = view.rules.target
    order = names.order(len(view.score))
    if view.rules.variant == "destantado":
        piles = " · ".join(f"{names.seat(s)} {view.score[s]}" for s in order)
        return f"Porotos: {piles} · pozo {pot(view)}"
    return "Tanteador: " + " · ".join(
        f"{names.scorer(i)} {score_label(view.score[i], target)}" for i in order
    )


def _scores(score: Sequence[int], names: Names) -> str:
    """Final scores: ``15 a 9`` for two teams (ours first), else each player's."""
    order = names.order(len(score))
    if not names.individual:
        return " a ".join(str(score[i]) for i in order)
    return " · ".join(f"{names.seat(i)} {score[i]}" for i in order)


def match_summary(view: SeatView, names: Names, hands: int) -> list[str]:
    winner = view.winner
    if names.me is None:
        head = f"Gana{'n' * (not names.individual)} {names.scorer(winner)}"
    elif names.won(winner):
        head = "¡Ganaste!"
    else:
        head = f"Perdiste: gana {names.seat(winner)}." if names.individual else "Perdiste."
    in_hands = f"en {hands} mano{'s' * (hands != 1)}"
    if names.individual:
        what = "Porotos" if view.rules.variant == "destantado" else "Puntos"
        second = f"{what}: {_scores(view.score, names)}, {in_hands}."
    else:
        us, them = names.order(2)
        second = (
            f"{names.team(us)} {view.score[us]} a {view.score[them]} {names.team(them)}, "
            f"{in_hands}."
        )
    return [f"[b reverse] Fin del partido: {head} [/]", second]


# --- events -----------------------------------------------------------------------------------


def _hand_started(ev: HandStarted, names: Names, view: SeatView | None) -> str:
    said = f"Mano {ev.hand} · es mano: {names.seat(ev.mano)}"
    if view is not None and view.hand_no == ev.hand:
        seats = pica_seats(view)
        pie = pie_seat(view)
        if seats is not None:
            a, b = seats
            said += f" · mano de pica: {names.seat(a)} contra {names.seat(b)}"
            if sitting_out(view):
                said += " (mirás)"
        elif pie is not None:
            said += f" · pie: {names.seat(pie)}"
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
        return "Te tocaron: " + " ".join(names.card(c) for c in ev.cards)
    if isinstance(ev, CardPlayed):
        what = "una carta tapada" if ev.face_down else names.card(ev.card)
        return f"{names.seat(ev.seat)}: juega {what}"
    if isinstance(ev, Discarded):
        if ev.seat == names.me:
            return f"Vos (pie): descartás {_own_discard(view, names)}"
        return f"{names.seat(ev.seat)} (pie): descarta una carta"
    if isinstance(ev, Called | Answered):
        return f"{names.seat(ev.seat)}: [b]{SAY.get(ev.verb, str(ev.verb))}[/]"
    if isinstance(ev, WentToMazo):
        return f"{names.seat(ev.seat)}: me voy al mazo"
    if isinstance(ev, TrickEnded):
        if ev.team < 0:
            return f"Baza {ev.trick + 1}: parda"
        who, side = names.seat(ev.seat), names.team(ev.team)
        return f"Baza {ev.trick + 1}: la gana {who}" + (f", para {side}" if side != who else "")
    if isinstance(ev, PointsDeclared):
        said = "son buenas" if ev.points is None else f"{ev.points}{' de flor' * ev.flor}"
        return f"{names.seat(ev.seat)}: [b]{said}[/]"
    if isinstance(ev, Scored):
        reason = REASONS.get(ev.reason, ev.reason)
        return f"[green]+{ev.points} para {names.scorer(ev.team)}[/] ({reason})"
    if isinstance(ev, PorotosPassed):
        reason = REASONS.get(ev.reason, ev.reason)
        colour = "green" if ev.seat == names.me else "yellow"
        return f"[{colour}]{_passed(ev, names)}[/] ({reason})"
    if isinstance(ev, CardsShown):
        return f"{names.seat(ev.seat)} muestra " + " ".join(names.card(c) for c in ev.cards)
    if isinstance(ev, HandEnded):
        return f"Fin de la mano: {hand_points_text(ev.points, names)}"
    winner = names.scorer(ev.winner)
    verb = "gana" if names.individual else "ganan"
    if names.variant == "destantado":
        return f"[b]Fin del partido: {verb} {winner}[/], que se quedó sin porotos"
    return f"[b]Fin del partido: {verb} {winner}[/] ({_scores(ev.score, names)})"


def hand_points_text(points: Sequence[int], names: Names) -> str:
    """What a hand gave each team or player (``Nosotros +2``; porotos -2/+2 in destantado)."""
    got = [f"{names.scorer(i)} {points[i]:+d}" for i in names.order(len(points)) if points[i]]
    if names.variant == "destantado":
        return "porotos " + ", ".join(got) if got else "nadie pasa porotos"
    return ", ".join(got) or "nadie suma"


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
                cards = " ".join(names.card(c) for c in ev.cards)
                shown.append(f"{names.seat(ev.seat)} muestra {cards}")
            continue
        if new_key is not None and new_key == key:
            groups[-1][1].append(item)
        else:
            groups.append((who, [item], REASONS.get(ev.reason, ev.reason)))
        key = new_key
    said = [f"[b]{who} {' y '.join(items)}[/] ({reason})" for who, items, reason in groups]
    head = f"[b reverse] Fin de la mano {view.hand_no} [/] "
    return [head + (", ".join(said) or "nadie suma"), *shown]

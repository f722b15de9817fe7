"""Who is who: how the viewer calls the seats, the sides of a hand and the scores; the seats a
variant singles out (the two of a pica-pica 1v1 hand).

Every fact is the view's: sides are its per-hand ``teams`` (in pata de gallo they change every
hand), the seats in the hand its ``playing``, and scores are per team or, where the view says
``individual``, per player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.markup import escape

import truco.tui.text.paulista as paulista
from truco.actions import Verb
from truco.cards import Card
from truco.tui.text.lang import say
from truco.tui.text.words import card, card_words, cards_words, trick_name
from truco.variants import variant_of
from truco.view import SeatView


def discarded(view: SeatView) -> str | None:
    """What the pie's discard looks like in the history (``discard 4c``, or ``discard ??`` to
    the others), or None while he has not discarded."""
    return next((a for _, a in view.history if a.startswith(Verb.DISCARD.value)), None)


def pica_seats(view: SeatView) -> tuple[int, ...] | None:
    """The seats of a hand that not everyone plays (pica-pica's 1v1 hands), the mano first; None
    when everyone plays."""
    if len(view.playing) == len(view.hand_sizes):
        return None
    return tuple(sorted(view.playing, key=lambda s: s != view.mano))


def sitting_out(view: SeatView) -> bool:
    """Whether the viewer sits out this hand (a 1v1 hand of pica-pica he is not in)."""
    return view.seat is not None and view.seat not in view.playing


class Names:
    """How the viewer calls the seats, the sides of a hand and the scores.

    ``teams`` are the sides of the current hand (``view.teams``); ``individual`` says whether
    scores are kept per player rather than per team, ``piles`` whether they are piles of porotos
    (destantado). ``plain`` is for the line-based game: cards without colours. ``french``: the
    French-suited cards of Truco Paulista (``A♣``). A partner in this hand is marked ``+``
    (``Bot2+``).
    """

    def __init__(
        self,
        seat: int | None,
        teams: Sequence[int],
        names: Sequence[str] = (),
        *,
        individual: bool = False,
        piles: bool = False,
        plain: bool = False,
        french: bool = False,
    ) -> None:
        self.me = seat
        self.teams = tuple(teams)
        self.us = self.teams[seat] if seat is not None else 0
        self.names = tuple(names)
        self.individual = individual
        self.piles = piles
        self.plain = plain
        self.french = french

    @classmethod
    def of(cls, view: SeatView, names: Sequence[str] = (), *, plain: bool = False) -> Names:
        piles = variant_of(view.rules).piles
        return cls(
            view.seat,
            view.teams,
            names,
            individual=view.individual,
            piles=piles,
            plain=plain,
            french=paulista.paulista(view),
        )

    def say(self, key: str, **values: object) -> str:
        """The screen's words (``lang``): pt-BR at a Truco Paulista table, else Spanish."""
        return say(key, pt=self.french, **values)

    def trick(self, trick: int) -> str:
        """A trick by its table name, capitalised: ``Primera`` (``Primeira`` at a Paulista
        table)."""
        if self.french and trick < 3:
            return self.say(f"trick_{trick}").capitalize()
        return trick_name(trick).capitalize()

    def seat(self, seat: int) -> str:
        if seat == self.me:
            return self.say("you")
        partner = "+" * (self.me is not None and self.teams[seat] == self.us)
        if seat < len(self.names) and self.names[seat]:
            return escape(self.names[seat]) + partner
        return f"Bot{seat}{partner}"

    def team(self, team: int) -> str:
        """A side of this hand: Nosotros / Ellos; in the three-player variants, its players."""
        if not self.individual:
            if self.me is None:
                return self.say("team", n=team)
            return self.say("we") if team == self.us else self.say("they")
        members = [s for s, t in enumerate(self.teams) if t == team]
        if self.me in members and len(members) > 1:
            return self.say("we")
        return self.say("and").join(self.seat(s) for s in members)

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
        """A card: coloured markup, or in the line-based game, in words (``el 7 de oro``)."""
        if self.french:
            return paulista.card_words(c) if self.plain else paulista.card(c)
        if not self.plain:
            return card(c, long=long)
        return "??" if c is None else card_words(c)

    def cards(self, cards: Iterable[Card]) -> str:
        """Some cards: side by side, or in the line-based game, in words as a list is said."""
        if self.plain and not self.french:
            return cards_words(list(cards))
        return (", " if self.plain else " ").join(self.card(c) for c in cards)

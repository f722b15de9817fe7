"""The beginner (level ``facil``): ``simple``'s policy with a misread strength and loose calls."""

from __future__ import annotations

from random import Random

from truco.actions import Action
from truco.bots.base import Situation
from truco.bots.context import ctx_of_view
from truco.bots.knobs import Style
from truco.bots.policy import decide
from truco.bots.senas import with_senas

BEGINNER = Style(bluff=0.25, envido_call=30, truco_call=0.75, caution=0.0, misread=0.5, sane=True)
"""A beginner's knobs (tuned so that ``simple`` beats him in about two of three matches,
docs/bots.md): his hand-win estimate is off by a normal error of spread 0.5 (his envido points
by ten times it) at every decision; he calls with nothing three times as often as ``simple``,
yet waits for a sure envido (30) and truco (0.75) to call with reason, and takes a rival's call
as coming from any hand (caution 0). ``sane``: a hand lost for certain is never bluffed."""


class BeginnerBot:
    """Plays sensibly but misreads his strength: the policy of ``simple`` with ``style.misread``
    drawn anew at each decision. Never absurd (docs/bots.md): the misreading spares what is
    certain (a won or lost hand) and a falta needs real points."""

    name = "beginner"
    signals = True
    """Makes señas to its partners: a beginner knows his cards, if not what they are worth."""

    def __init__(self, style: Style = BEGINNER, name: str = "beginner") -> None:
        self.style = style
        self.name = name

    def choose(self, told: Situation, rng: Random) -> Action:
        """His choice, with his partners' señas read as ``simple`` reads them."""
        draw = rng.random()
        error = rng.gauss(0.0, self.style.misread) if self.style.misread > 0.0 else 0.0
        view, legal = told.view, told.legal
        if len(legal) == 1:
            return legal[0]
        ctx = with_senas(ctx_of_view(view), view, told.heard)
        return decide(ctx, legal, draw, self.style, error)

"""Rule-of-thumb bots: ``simple`` and the exploiters used to test robustness."""

from __future__ import annotations

from random import Random

from truco.actions import Action
from truco.bots.base import Situation
from truco.bots.context import ctx_of_view
from truco.bots.knobs import DEFAULT, Style
from truco.bots.policy import decide
from truco.bots.senas import with_senas


class SimpleBot:
    """Envido by points and position, truco by hand strength, answers by pot odds."""

    name = "simple"
    style: Style = DEFAULT
    signals = True
    """Makes señas to its partners (``bots/senas.py``)."""

    reads = True
    """Reads its partners' señas (``Situation.heard``): their cards count as the side's
    strength, their envido alto as the side's envido."""

    def choose(self, told: Situation, rng: Random) -> Action:
        draw = rng.random()
        legal = told.legal
        if len(legal) == 1:
            return legal[0]
        ctx = ctx_of_view(told.view)
        if self.reads:
            ctx = with_senas(ctx, told.view, told.heard)
        return decide(ctx, legal, draw, self.style)


class MuteSimpleBot(SimpleBot):
    """``simple`` that neither makes nor reads señas (to measure them)."""

    name = "simple-sin-senas"
    signals = False
    reads = False


class AlwaysQuieroBot(SimpleBot):
    """Accepts every call (a calling station); otherwise plays like ``simple``."""

    name = "always-quiero"
    style = Style(always_quiero=True)


class AlwaysRaiseBot(SimpleBot):
    """Raises whenever it may (a maniac); otherwise plays like ``simple``."""

    name = "always-raise"
    style = Style(always_raise=True)


class NeverBluffBot(SimpleBot):
    """Calls only with strong hands and never bluffs (a nit)."""

    name = "never-bluff"
    style = Style(bluff=0.0, envido_call=29, truco_call=0.8, caution=1.0)

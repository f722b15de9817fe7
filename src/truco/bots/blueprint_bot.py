"""Bots that play the blueprint (``bots/blueprint``) with no search: difícil plays it as it is,
normal and fácil with noise (docs/bots.md, "The ladder"). Where it has no entry (a key training
never reached, a mode it was not trained for) they play by the rules of thumb, with the
style of their level (a persona's, at a table).
"""

from __future__ import annotations

from random import Random

from truco.actions import Action
from truco.bots.base import Situation
from truco.bots.blueprint.policy import blueprint_for, choose_view
from truco.bots.context import ctx_of_view
from truco.bots.knobs import DEFAULT, Style
from truco.bots.policy import decide, senseless
from truco.bots.senas import with_senas

NOISE: dict[str, float] = {"blueprint": 0.0, "blueprint-normal": 0.3, "blueprint-facil": 0.6}
"""How often each level's bets are a uniform choice among the abstract actions instead of the
blueprint's: the ladder's steps (docs/bots.md, measured in docs/bots-measured.md)."""


class BlueprintBot:
    """The blueprint's choice, ``noise`` of the time mixed with any abstract action alike."""

    signals = True
    """Makes señas to its partners (``bots/senas.py``), as ``simple`` does."""

    def __init__(
        self,
        noise: float = 0.0,
        name: str = "blueprint",
        style: Style = DEFAULT,
        carry: bool = True,
    ) -> None:
        self.noise = noise
        self.name = name
        self.style = style
        """The rules of thumb's knobs where the blueprint has nothing to say."""
        self.carry = carry
        """Plays team tables by the 1v1 blueprint too (docs/bots.md, "Teams")."""

    def choose(self, told: Situation, rng: Random) -> Action:
        draw = rng.random()
        view, legal = told.view, told.legal
        if len(legal) == 1:
            return legal[0]
        bp = blueprint_for(view.rules, self.carry)
        if bp is not None:
            action = choose_view(bp, view, draw, self.noise)
            if (
                action is not None
                and self.noise > 0.0
                and senseless(ctx_of_view(view), legal, action)
            ):
                # The noise makes a weaker player, never an absurd one (a falta with 0).
                action = choose_view(bp, view, draw)
            if action is not None:
                return action
        ctx = ctx_of_view(view)
        if told.heard:
            ctx = with_senas(ctx, view, told.heard)
        return decide(ctx, legal, draw, self.style)


__all__ = ["NOISE", "BlueprintBot"]

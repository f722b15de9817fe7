"""Bots that play the blueprint (``bots/blueprint``) with no search: the ladder's lower levels
(docs/bots.md, "The ladder"). Difícil plays it as it is; normal mixes its bets with a uniform
choice; fácil chooses its bets uniformly among the sane ones and plays half its cards
carelessly. No level makes an absurd move (``policy.senseless``): where the blueprint's choice
would be one, the rules of thumb decide.

A persona plays its style (``styles``) a share of its decisions (``PERSONA_LEAN``), and its noise
bets as often as its style bets (``bet_weight``), so that a cautious or a bluffing persona
shows. Where no blueprint covers the table (the three-player
variants) a level plays as its program did before the blueprint (``fallback``), reading no
rival: a reading is kept for a whole match, and keeping it costs more than the blueprint's
levels spend on their decisions.
"""

from __future__ import annotations

from random import Random

from truco.actions import Action, Verb
from truco.bots.base import Bot, Situation
from truco.bots.blueprint.policy import blueprint_for, choose_view
from truco.bots.context import ctx_of_view
from truco.bots.knobs import DEFAULT, Style
from truco.bots.policy import decide, senseless
from truco.bots.senas import with_senas

NOISE: dict[str, float] = {"blueprint": 0.0, "blueprint-normal": 0.5, "blueprint-facil": 1.0}
"""How often each level's bets are a uniform choice among the abstract actions instead of the
blueprint's: the ladder's steps (docs/bots.md, "The ladder", measured there)."""
CARELESS: dict[str, float] = {"blueprint-facil": 0.5}
"""The share of its cards a level plays at random rather than by the card rule."""
PERSONA_LEAN = 0.35
"""The share of a persona's decisions taken by its style's rules of thumb (``policy.decide``)."""
PLAIN_BET_SHARE = 0.25
"""The plain expert's share of bets among near-equal actions: a persona's ``bet_share`` over it
is how much likelier its noise bets (``bet_weight``)."""


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
        careless: float = 0.0,
        lean: float = 0.0,
        fallback: Bot | None = None,
        bet_weight: float = 1.0,
    ) -> None:
        self.noise = noise
        self.name = name
        self.style = style._replace(sane=True)
        """The rules of thumb's knobs, sane (``policy.senseless``): a persona's style, and where
        the blueprint has nothing to say or would be absurd."""
        self.carry = carry
        """Plays team tables by the 1v1 blueprint too (docs/bots.md, "Teams")."""
        self.careless = careless
        """The share of its cards played at random (fácil)."""
        self.lean = lean
        """The share of its decisions taken by ``style``'s rules of thumb (a persona's)."""
        self.fallback = fallback
        """Who decides where no blueprint covers the table (None: the rules of thumb)."""
        self.bet_weight = bet_weight
        """How much likelier a bet is than another action when the noise chooses."""

    def choose(self, told: Situation, rng: Random) -> Action:
        draw = rng.random()
        view, legal = told.view, told.legal
        if len(legal) == 1:
            return legal[0]
        bp = blueprint_for(view.rules, self.carry)
        if bp is None and self.fallback is not None:
            return self.fallback.choose(told, rng)
        ctx = ctx_of_view(view)
        if told.heard:
            ctx = with_senas(ctx, view, told.heard)
        if bp is None or (self.lean > 0.0 and rng.random() < self.lean):
            return decide(ctx, legal, draw, self.style)
        action = choose_view(bp, view, draw, self.noise, self.bet_weight)
        if action is not None and self.noise > 0.0 and senseless(ctx, legal, action):
            # The noise makes a weaker player, never an absurd one (a falta with 0).
            action = choose_view(bp, view, draw)
        if action is None or senseless(ctx, legal, action):
            return decide(ctx, legal, draw, self.style)
        if self.careless > 0.0 and action.verb is Verb.PLAY and rng.random() < self.careless:
            plays = [a for a in legal if a.verb is Verb.PLAY]
            return plays[rng.randrange(len(plays))]
        return action


__all__ = ["CARELESS", "NOISE", "PERSONA_LEAN", "PLAIN_BET_SHARE", "BlueprintBot"]

"""OpenSpiel's bots seated as ours, and ours as OpenSpiel's (issue 28, docs/bots.md).

``openspiel_bot("openspiel:ismcts:400")`` is one of our bots (``bots.base.Bot``) that asks
OpenSpiel's information-set MCTS (``ismcts``) or its perfect-information MCTS (``mcts``) for
each decision; the arena seats it by that name (``truco arena experto openspiel:ismcts``).
It is told what any bot is told, the seat's view: from it a ``python_truco`` state is built
that the seat cannot tell from the real one (the hand's start from the view's score, mano and
pica-pica hand; a deal drawn to agree with all the seat saw, ``worlds.sample_worlds``; the
hand's actions replayed), so the search never sees a hidden card. The search plays the game
of the current hand (``returns="hand"``: the hand's points as its value), so its rollouts are
one hand long, not the match's rest. ISMCTS draws its worlds itself
(``TrucoState.resample_from_infostate``); MCTS, made for perfect information, searches the one
drawn world of each decision as if its cards were known (a determinization).

``OurBot`` is the reverse: one of our bots as a ``pyspiel.Bot`` for OpenSpiel's own loops.
"""

from __future__ import annotations

from random import Random
from typing import Final

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from truco.actions import Action
from truco.bots.base import Bot, Situation
from truco.bots.driver import decide
from truco.bots.worlds import sample_worlds, start_state
from truco.errors import TrucoError
from truco.research.actions import ACTION_ID, ACTIONS
from truco.research.openspiel import TrucoState, pyspiel_game
from truco.view import SeatView

KINDS: Final = ("ismcts", "mcts")
"""The OpenSpiel searches seated as bots."""
SIMULATIONS: Final = 100
"""Simulations per decision when the name gives none."""
UCT_C: Final = 2.0
"""The exploration constant, OpenSpiel's examples' (the values are a hand's points, mostly 1
to 4)."""
TRIES: Final = 4000
"""Draws of a deal that agrees with the view before giving up."""


def _uniform(*_: object) -> float:
    return 1.0


def world_state(view: SeatView, rng: Random, returns: str = "hand") -> TrucoState:
    """A ``python_truco`` state of the current hand that the view's seat cannot tell from the
    real one: the hand from its start, a deal agreeing with everything the seat saw (uniform
    over those deals), and the hand's actions so far."""
    worlds = sample_worlds(view, rng, 1, TRIES, likelihood=_uniform)
    if not worlds:  # the guard took a falta away from the view's legal actions
        worlds = sample_worlds(view, rng, 1, TRIES, likelihood=_uniform, narrowed=True)
    if not worlds:
        raise TrucoError("no deal agrees with the seat's view")
    world = worlds[0][0]
    game = pyspiel_game(view.rules, returns)
    state = TrucoState(game, start_state(view))
    for cards in world.dealt:
        for card in sorted(cards):
            state.apply_action(int(card))
    if state.match.with_vira:
        state.apply_action(int(world.vira))
    for _seat, action in world.log:
        state.apply_action(ACTION_ID[action])
    return state


class OpenSpielBot:
    """OpenSpiel's ISMCTS or MCTS deciding for one of our seats from its view only."""

    def __init__(self, kind: str = "ismcts", simulations: int = SIMULATIONS) -> None:
        if kind not in KINDS:
            raise TrucoError(f"openspiel:{kind}: the searches are {', '.join(KINDS)}")
        if simulations < 1:
            raise TrucoError("the simulations must be at least 1")
        self.kind = kind
        self.simulations = simulations
        self.name = f"openspiel:{kind}:{simulations}"

    def choose(self, told: Situation, rng: Random) -> Action:
        if len(told.legal) == 1:
            return told.legal[0]
        state = world_state(told.view, rng)
        seat = told.view.seat
        assert seat is not None and state.current_player() == seat
        np_rng = np.random.RandomState(rng.getrandbits(32))
        visits = self._visits(state, np_rng)
        # The most visited of the seat's legal actions (the guard may have taken some away),
        # ties drawn at random: OpenSpiel's own final choice where nothing was taken away.
        counts = {a: visits.get(ACTION_ID[a], 0.0) for a in told.legal}
        best = max(counts.values())
        tied = [a for a in told.legal if counts[a] == best]
        return tied[int(np_rng.randint(len(tied)))]

    def _visits(self, state: TrucoState, np_rng: np.random.RandomState) -> dict[int, float]:
        """How often the search visited each action at the root."""
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
        game = state.get_game()
        if self.kind == "ismcts":
            search = ismcts.ISMCTSBot(
                game,
                evaluator,
                UCT_C,
                self.simulations,
                random_state=np_rng,
                final_policy_type=ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT,
            )
            # Its worlds drawn with this decision's RNG (OpenSpiel's default sampler has its own).
            search.set_resampler(
                lambda st, player: st.resample_from_infostate(player, np_rng.uniform)
            )
            return {int(a): float(p) for a, p in search.get_policy(state)}
        tree = mcts.MCTSBot(
            game, UCT_C, self.simulations, evaluator, solve=False, random_state=np_rng
        )
        root = tree.mcts_search(state)
        return {int(c.action): float(c.explore_count) for c in root.children}


def openspiel_bot(name: str) -> Bot:
    """``openspiel:ismcts[:SIMS]`` or ``openspiel:mcts[:SIMS]`` as one of our bots."""
    parts = name.strip().lower().split(":")
    if parts[0] != "openspiel" or not 2 <= len(parts) <= 3:
        raise TrucoError(f"{name!r}: OpenSpiel's bots are openspiel:KIND[:SIMULATIONS]")
    simulations = SIMULATIONS
    if len(parts) == 3:
        try:
            simulations = int(parts[2])
        except ValueError:
            raise TrucoError(f"{name!r}: the simulations must be a whole number") from None
    return OpenSpielBot(parts[1], simulations)


class OurBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots (``make_bot``'s) as a ``pyspiel.Bot`` of ``python_truco``: at each of
    its turns it is told its seat's view and legal actions, and answers an action number."""

    def __init__(self, bot: Bot, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.rng = Random(seed)

    def step(self, state: TrucoState) -> int:
        seat = state.current_player()
        legal = tuple(ACTIONS[a] for a in state.legal_actions())
        told = Situation(view=state.match.view(seat), legal=legal)
        return ACTION_ID[decide(self.bot, told, self.rng)]

    def restart_at(self, state: TrucoState) -> None:
        pass

    def inform_action(self, state: TrucoState, player: int, action: int) -> None:
        pass


__all__ = ["KINDS", "OpenSpielBot", "OurBot", "openspiel_bot", "world_state"]

"""With every card face up: an exact search of the rest of the hand over the true state.

Each seat knows every card, so the hand is a game of perfect information and has an exact value:
two sides (1v1, teams) by alpha-beta on the first side's match-win equity; players on their own
(pata de gallo, destantado) by max-n, each player taking what is best for himself. A
transposition table keyed by the state less its history (two orders of the same calls and cards
reach the same position) is kept for the whole hand, so the decisions after the first cost
little. A node budget bounds the search (four and six players can be far too many positions):
past it the answer is "unknown", never a guess.
"""

from __future__ import annotations

from random import Random

from truco.actions import Action
from truco.bots.expert import rollout
from truco.engine import apply, to_act
from truco.state import PLAY, State, position_key

NODES = 200_000
"""Positions searched per decision at most (a whole 1v1 hand needs a few thousand)."""
HAND_NODES = 600_000
"""Positions searched per hand at most, all its decisions together: a bound on the time a hand
of three, four or six can take (about 7 s as plain Python)."""

_EXACT, _LOWER, _UPPER = 0, 1, 2
# The expert's rollout on a finished hand plays nothing: it returns the match equity from the
# score the hand left (1 or 0 when the match ended), which is what a leaf is worth. Its draws
# are never used there.
_NO_DRAWS = Random(0)


class BudgetExceeded(Exception):
    """The search needed more positions than its budget."""


def _key(state: State) -> tuple[object, ...]:
    # The key leaves the log out (history, not position): the log matters to the engine only for
    # the pie's discard in pata de gallo, which precedes every searched position of a hand.
    return position_key(state)


class FaceUp:
    """The exact search for one hand; ``values`` may be asked for each decision in turn."""

    def __init__(self, nodes: int = NODES, hand_nodes: int = HAND_NODES) -> None:
        self.nodes = nodes
        self.hand_left = hand_nodes
        self._left = 0
        self._table: dict[tuple[object, ...], tuple[float, int]] = {}
        self._vectors: dict[tuple[object, ...], tuple[float, ...]] = {}

    def values(self, state: State) -> tuple[float, ...] | None:
        """The exact match-win equity for the seat to act after each legal action (in the order
        of ``state.legal``), or None when the budget runs out."""
        seat = to_act(state)
        assert seat is not None and seat >= 0
        self._left = budget = min(self.nodes, self.hand_left)
        try:
            if state.rules.individual:
                return tuple(self._maxn(apply(state, a).state)[seat] for a in state.legal)
            first = state.teams[0]
            out = []
            for action in state.legal:
                v = self._ab(apply(state, action).state, -1.0, 2.0)
                out.append(v if state.teams[seat] == first else 1.0 - v)
            return tuple(out)
        except BudgetExceeded:
            return None
        finally:
            self.hand_left -= budget - max(self._left, 0)

    def _spend(self) -> None:
        self._left -= 1
        if self._left < 0:
            raise BudgetExceeded

    def _ab(self, state: State, alpha: float, beta: float) -> float:
        """Alpha-beta on the equity of the side of seat 0 (the two sides' equities add to 1)."""
        key = _key(state)
        entry = self._table.get(key)
        if entry is not None:
            value, flag = entry
            if (
                flag == _EXACT
                or (flag == _LOWER and value >= beta)
                or (flag == _UPPER and value <= alpha)
            ):
                return value
        self._spend()
        if state.phase != PLAY:
            value = rollout(state, 0, _NO_DRAWS)
            self._table[key] = (value, _EXACT)
            return value
        actor = to_act(state)
        assert actor is not None
        low, high = alpha, beta
        if state.teams[actor] == state.teams[0]:
            best = -1.0
            for action in state.legal:
                v = self._ab(apply(state, action).state, alpha, beta)
                if v > best:
                    best = v
                    alpha = max(alpha, v)
                    if alpha >= beta:
                        break
        else:
            best = 2.0
            for action in state.legal:
                v = self._ab(apply(state, action).state, alpha, beta)
                if v < best:
                    best = v
                    beta = min(beta, v)
                    if alpha >= beta:
                        break
        flag = _LOWER if best >= high else _UPPER if best <= low else _EXACT
        self._table[key] = (best, flag)
        return best

    def _maxn(self, state: State) -> tuple[float, ...]:
        """Each player's equity when each player picks what is best for himself (the first such
        action, in legal order, between equal ones)."""
        key = _key(state)
        found = self._vectors.get(key)
        if found is not None:
            return found
        self._spend()
        if state.phase != PLAY:
            vector = tuple(rollout(state, s, _NO_DRAWS) for s in range(state.rules.players))
        else:
            actor = to_act(state)
            assert actor is not None
            best: tuple[float, ...] | None = None
            for action in state.legal:
                v = self._maxn(apply(state, action).state)
                if best is None or v[actor] > best[actor]:
                    best = v
            assert best is not None
            vector = best
        self._vectors[key] = vector
        return vector


def face_up_best(
    legal: tuple[Action, ...], values: tuple[float, ...], played: Action
) -> tuple[Action, float]:
    """The best action face up and its equity; the one played when it is as good."""
    top = max(values)
    if values[legal.index(played)] >= top - 1e-9:
        return played, top
    return legal[values.index(top)], top

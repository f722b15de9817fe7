"""The analysis of a hand history: each decision, its alternatives, a label, the face-up best.

Pure: a hand history in, plain values out (strings, numbers, tuples), so that a process pool
can run it and a client can draw it. Deterministic for a seed: each decision draws from its own
generator, seeded by the seed, the hand and the action's index, so analysing one seat or all of
them gives the same numbers for a decision.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from truco.cards import Card
from truco.coach.evaluate import WORLDS, ActionValue, best_of, evaluate
from truco.coach.faceup import NODES, FaceUp, face_up_best
from truco.notation import HandHistory, states
from truco.state import State
from truco.view import observe

BEST = "best"
IMPRECISION = "imprecisión"
ERROR = "error"
BLUNDER = "error grave"

THRESHOLDS: tuple[tuple[float, str], ...] = ((0.08, BLUNDER), (0.04, ERROR), (0.015, IMPRECISION))
"""Equity given up (match-win probability, 0..1) from which each label applies, worst first.
Early in a match to 30 at an even score a point is worth about 2.8% of the match: an imprecisión
gives up about half a point, an error a truco's worth, an error grave three points or more
(docs/coach.md says why)."""

LABELS_ES = {BEST: "la mejor", IMPRECISION: "imprecisión", ERROR: "error", BLUNDER: "error grave"}
LABELS_EN = {BEST: "best", IMPRECISION: "inaccuracy", ERROR: "mistake", BLUNDER: "blunder"}


def _order(card: Card | None) -> int:
    return -1 if card is None else card


def in_card_order(history: HandHistory) -> HandHistory:
    """The same hand with each seat's cards in the order the engine deals them."""
    return replace(history, hands=tuple(tuple(sorted(h, key=_order)) for h in history.hands))


def label(loss: float) -> str:
    """The label of a decision that gave up ``loss`` of match-win equity."""
    for threshold, name in THRESHOLDS:
        if loss >= threshold:
            return name
    return BEST


@dataclass(frozen=True, slots=True)
class FaceUpBest:
    """With every card face up: the best action, its exact equity, and the played one's."""

    action: str
    equity: float
    played_equity: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one seat (an action of the history that had an alternative)."""

    hand: int
    """The hand's number in the file, from 1."""
    index: int
    """The action's index in the hand's ``actions``, from 0."""
    seat: int
    played: str
    best: str
    label: str
    loss: float
    """Equity the played action gave up against the best (0 when it was the best)."""
    options: tuple[ActionValue, ...]
    """Every legal action with its equity, best first."""
    face_up: FaceUpBest | None
    """None when the exact search ran out of budget (big tables)."""

    def to_json(self) -> dict[str, Any]:
        face = self.face_up
        return {
            "hand": self.hand,
            "index": self.index,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "label": self.label,
            "loss": round(self.loss, 4),
            "options": [{"action": o.action, "equity": round(o.equity, 4)} for o in self.options],
            "face_up": None
            if face is None
            else {
                "best": face.action,
                "equity": round(face.equity, 4),
                "played_equity": round(face.played_equity, 4),
            },
        }


def analyse_hand(
    history: HandHistory,
    *,
    seat: int | None = None,
    worlds: int = WORLDS,
    seed: int = 0,
    hand: int = 1,
    face_up_nodes: int = NODES,
) -> tuple[Decision, ...]:
    """Every decision of ``seat`` (of every seat when None) in the hand, in order.

    Raises the notation's errors (``NotationError``, ``IllegalActionError``) for a history that
    cannot be replayed. Forced actions (the only legal one) are not decisions and are skipped.
    """
    exact = FaceUp(face_up_nodes)
    out: list[Decision] = []
    # The engine deals every hand in card order, and the expert's sampler rebuilds the seat's
    # hand that way and asks each world for the same legal actions in the same order: a hand
    # written in another order would match no world. The order of a hand changes nothing else.
    history = in_card_order(history)
    # Replay the whole hand first: a bad action is refused before anything is analysed.
    before = [state for state, _ in states(history)]
    for index, (who, action) in enumerate(history.actions):
        state = before[index]
        if (seat is None or who == seat) and len(state.legal) > 1:
            view = observe(state, who)
            values = evaluate(view, worlds=worlds, seed=f"{seed}/{hand}/{index}")
            if values:
                out.append(_decision(hand, index, who, str(action), values, exact, state))
    return tuple(out)


def _decision(
    hand: int,
    index: int,
    seat: int,
    played: str,
    values: tuple[ActionValue, ...],
    exact: FaceUp,
    state: State,
) -> Decision:
    best = best_of(values)
    mine = next(v for v in values if v.action == played)
    loss = max(0.0, best.equity - mine.equity)
    face: FaceUpBest | None = None
    face_values = exact.values(state)
    if face_values is not None:
        legal = state.legal
        action = legal[[str(a) for a in legal].index(played)]
        top, equity = face_up_best(legal, face_values, action)
        face = FaceUpBest(str(top), equity, face_values[legal.index(action)])
    ranked = tuple(sorted(values, key=lambda v: -v.equity))
    return Decision(hand, index, seat, played, best.action, label(loss), loss, ranked, face)


def analyse_match(
    histories: tuple[HandHistory, ...],
    *,
    seat: int | None = None,
    worlds: int = WORLDS,
    seed: int = 0,
    face_up_nodes: int = NODES,
) -> tuple[Decision, ...]:
    """Every hand of a match file (or the one hand of a hand history), in order."""
    out: list[Decision] = []
    for number, history in enumerate(histories, 1):
        out.extend(
            analyse_hand(
                history,
                seat=seat,
                worlds=worlds,
                seed=seed,
                hand=number,
                face_up_nodes=face_up_nodes,
            )
        )
    return tuple(out)


def to_json(decisions: tuple[Decision, ...]) -> dict[str, Any]:
    """The object ``truco analizar --json`` prints."""
    return {"decisions": [d.to_json() for d in decisions]}

"""The coach: how good each decision of a hand was, and what the expert would do.

``analyse_hand`` / ``analyse_match`` judge every decision of a hand history from what the seat
knew (the expert's sampled worlds) and with every card face up; ``hint`` is the expert's choice
for a seat's current decision. Pure (no I/O) and deterministic for a seed; inputs and outputs
are plain values a process pool can pass. docs/coach.md describes it.
"""

from truco.coach.analysis import (
    BEST,
    BLUNDER,
    ERROR,
    IMPRECISION,
    LABELS_EN,
    LABELS_ES,
    THRESHOLDS,
    Decision,
    FaceUpBest,
    analyse_hand,
    analyse_match,
    in_card_order,
    label,
    to_json,
)
from truco.coach.evaluate import WORLDS, ActionValue, evaluate, hint

__all__ = [
    "BEST",
    "BLUNDER",
    "ERROR",
    "IMPRECISION",
    "LABELS_EN",
    "LABELS_ES",
    "THRESHOLDS",
    "WORLDS",
    "ActionValue",
    "Decision",
    "FaceUpBest",
    "analyse_hand",
    "analyse_match",
    "evaluate",
    "hint",
    "in_card_order",
    "label",
    "to_json",
]

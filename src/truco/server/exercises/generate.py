"""Exercises from a finished table: its log replayed, each decision judged by the coach.

Pure (no I/O, no clock): plain values in (the table's options and log entries), plain values out,
so that a worker process can run it. What makes a position an exercise:

- it comes from a match that is over: the log is replayed on the engine, and only the hands of a
  match whose replayed state has a winner are read (a match still in play, or cut by a rematch
  before its end, gives none), whatever the table's status said;
- it is the deciding seat's own view (``observe(state, seat)``), so the position holds nothing
  that seat could not see, and the coach judges it from that view alone (its worlds are sampled
  from it);
- the table is one the coach's blueprint covers, 1v1 of the standard game (with or without flor),
  and the judgement is the blueprint's: the best holds against a rival close to unexploitable;
- the coach's best action beats every other by ``MARGIN`` of match-win equity, with two
  independent seeds of ``worlds`` each, both naming the same best (so that sampling noise makes
  no exercise).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from truco import protocol as p
from truco.actions import Action, Deal
from truco.bots.blueprint.policy import blueprint_for
from truco.cards import Card, parse_cards
from truco.coach.analysis import in_card_order
from truco.coach.evaluate import ActionValue, evaluate
from truco.coach.words import explain
from truco.engine import apply, to_act
from truco.notation import HandHistory, from_state, states
from truco.rules import Rules, from_options
from truco.state import PLAY, State, new_match
from truco.view import SeatView, observe

MARGIN = 0.04
"""The match-win equity by which the best action must beat every other: the coach's "error"
threshold (docs/coach.md), a truco's worth early in a match to 30. So every other answer would
have been at least an ``error``: the exercise has one answer, clearly."""
WORLDS = 320
"""Sampled worlds per seed and decision (the coach's own default)."""


@dataclass(frozen=True, slots=True)
class Found:
    """One exercise: where it came from, the position as its seat saw it, and the answer."""

    id: str
    match: int
    hand: int
    index: int
    """The action's index in the hand's actions (from 0)."""
    seat: int
    position: dict[str, Any]
    """The seat's view (the table protocol's codec), nothing else."""
    best: str
    margin: float
    options: tuple[tuple[str, float], ...]
    """Every legal action with its equity (the mean of the two seeds), best first."""
    words_es: str
    words_en: str


def covered(rules: Rules) -> bool:
    """Whether exercises are made from a table with these rules: 1v1 of the standard game, which
    the blueprint covers (the coach's judgement against a sound rival)."""
    return (
        rules.players == 2
        and rules.variant == "standard"
        and rules.game != "paulista"
        and blueprint_for(rules) is not None
    )


def finished_hands(
    options: dict[str, Any], log: list[tuple[str, dict[str, Any]]]
) -> list[tuple[int, int, HandHistory]]:
    """The hands of the table's matches that are over, as (match, hand, history), replayed from
    its log (the same three kinds of entry the table's own replay knows)."""
    rules = from_options(None, options)
    state: State = new_match(rules)
    match = 1
    current: list[HandHistory] = []
    out: list[tuple[int, int, HandHistory]] = []
    for kind, data in log:
        before = state
        if kind == "deal":
            vira = Card.parse(data["vira"]) if data.get("vira") else None
            hands = tuple(tuple(parse_cards(h)) for h in data["hands"])
            state = apply(state, Deal(hands, vira)).state
        elif kind == "act":
            if to_act(state) != data["seat"]:
                raise ValueError(f"seat {data['seat']} is not to act")
            state = apply(state, Action.parse(data["action"])).state
        elif kind == "rematch":
            if to_act(state) is None:
                out.extend((match, n, h) for n, h in enumerate(current, 1))
            match, current = match + 1, []  # the next match's hands
            state = new_match(rules, mano=data["mano"])
            continue
        else:
            raise ValueError(f"unknown log entry {kind!r}")
        if before.phase == PLAY and state.phase != PLAY:
            current.append(from_state(state))
    if to_act(state) is None and state.hand_no:  # the last match is over too
        out.extend((match, n, h) for n, h in enumerate(current, 1))
    return out


def exercise_id(table: str, match: int, hand: int, index: int) -> str:
    """A stable id: the same position of the same table is the same exercise, whoever finds it."""
    digest = hashlib.sha256(f"{table}/{match}/{hand}/{index}".encode()).hexdigest()
    return digest[:16]


def _top_two(values: tuple[ActionValue, ...]) -> tuple[ActionValue, float]:
    ranked = sorted(values, key=lambda v: -v.equity)
    return ranked[0], ranked[0].equity - ranked[1].equity


def judge(
    view: SeatView, seed: str, worlds: int
) -> tuple[str, float, tuple[tuple[str, float], ...], tuple[ActionValue, ...]] | None:
    """The coach on one view, twice: (best, margin, options best first, mean values) when both
    seeds name the same best by ``MARGIN`` or more; None otherwise."""
    first = evaluate(view, worlds=worlds, seed=f"{seed}/a")
    if len(first) < 2:
        return None
    best, gap = _top_two(first)
    if gap < MARGIN:
        return None
    second = evaluate(view, worlds=worlds, seed=f"{seed}/b")
    if len(second) != len(first):
        return None
    best_b, gap_b = _top_two(second)
    if best_b.action != best.action or gap_b < MARGIN:
        return None
    mean = tuple(
        ActionValue(a.action, (a.equity + b.equity) / 2) for a, b in zip(first, second, strict=True)
    )
    top, margin = _top_two(mean)
    ranked = tuple((v.action, round(v.equity, 4)) for v in sorted(mean, key=lambda v: -v.equity))
    return top.action, margin, ranked, mean


def from_table(
    table: str,
    options: dict[str, Any],
    log: list[tuple[str, dict[str, Any]]],
    *,
    worlds: int = WORLDS,
    decisions: int = 60,
    keep: int = 6,
) -> list[Found]:
    """The exercises of a finished table: at most ``decisions`` decisions judged (the last hands
    of its matches first: closer to the end a decision weighs more), at most ``keep`` kept, the
    clearest first."""
    rules = from_options(None, options)
    if not covered(rules):
        return []
    found: list[Found] = []
    judged = 0
    for match, number, history in reversed(finished_hands(options, log)):
        history = in_card_order(history)
        before = [state for state, _ in states(history)]
        for index, (seat, action) in enumerate(history.actions):
            state = before[index]
            if len(state.legal) < 2:
                continue
            if judged >= decisions:
                break
            judged += 1
            view = observe(state, seat)
            verdict = judge(view, f"{table}/{match}/{number}/{index}", worlds)
            if verdict is None:
                continue
            best, margin, ranked, mean = verdict
            words = explain(view, mean, played=str(action))
            found.append(
                Found(
                    id=exercise_id(table, match, number, index),
                    match=match,
                    hand=number,
                    index=index,
                    seat=seat,
                    position=dict(p.view_json(view)),
                    best=best,
                    margin=round(margin, 4),
                    options=ranked,
                    words_es=words.es,
                    words_en=words.en,
                )
            )
        if judged >= decisions:
            break
    found.sort(key=lambda f: -f.margin)
    return found[:keep]


__all__ = ["MARGIN", "WORLDS", "Found", "covered", "exercise_id", "finished_hands", "from_table"]

"""Hand histories: one hand of truco as TOML, read, written and replayed (like PGN for chess).

    players = 2
    target = 30
    score = [0, 0]
    mano = 0
    hands = ["1e 4c 5o", "7o 6c 12b"]
    actions = ["0 envido", "1 quiero", "0 play 1e"]

Any ``Rules`` option may appear as a key (absent ones take their defaults): a Truco Paulista hand
has ``game = "paulista"`` and its ``vira = "4b"`` (the card turned up; none with the manilha
velha); a history without ``game`` is Argentine. ``??`` stands for a card the writer did not
see. An ``[expect]`` table (used by the golden tests) is kept as data.
Reading never half-applies anything: a bad file raises NotationError, an illegal action
IllegalActionError, each naming the line and the action.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from truco.actions import Action, Deal, Verb
from truco.cards import DECK, Card
from truco.engine import apply, hand_sizes, to_act
from truco.errors import IllegalActionError, NotationError, RulesError, TrucoError
from truco.events import Event, HandEnded
from truco.rules import OPTION_NAMES, Rules, from_options
from truco.state import DEAL, PLAY, State, new_match
from truco.variants import start_score

UNSEEN = "??"
_FIELDS = ("score", "mano", "pica", "hands", "vira", "actions")
_EXTRA_TABLES = ("expect",)

SeatAction = tuple[int, Action]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandHistory:
    """One hand: the rules, the score before it, the mano, the deal and the actions in order."""

    rules: Rules = field(default_factory=Rules)
    score: tuple[int, ...] = (0, 0)
    mano: int = 0
    pica: int = -1
    """Pica-pica: which 1v1 hand of a round (0-2); -1 (no key) for a hand of everyone."""
    hands: tuple[tuple[Card | None, ...], ...] = ()
    """The cards dealt, seat by seat; None is a card the writer did not see."""
    vira: Card | None = None
    """Truco Paulista: the card turned up after the deal (None: no vira in this game)."""
    actions: tuple[SeatAction, ...] = ()
    """(seat, action); a face-down card the writer did not see has ``card=None``."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """Tables kept as data, e.g. ``expect`` in the golden tests."""
    lines: tuple[int, ...] = field(default=(), compare=False)
    """The line of each action in the text it was read from (0 when unknown)."""


@dataclass(frozen=True, slots=True)
class Replay:
    """The result of replaying a history."""

    state: State
    events: tuple[Event, ...]
    finished: bool
    """Whether the hand (or the match) ended with the last action."""
    points: tuple[int, ...]
    """Points each team scored in this hand."""
    score: tuple[int, ...]
    winner: int | None
    """The team that won the match, if it ended."""

    def to_json(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "score": list(self.score),
            "winner": self.winner,
            "finished": self.finished,
            "hand_winner": next((e.winner for e in self.events if type(e) is HandEnded), None),
        }


# --- reading --------------------------------------------------------------------------------


def parse_action_line(text: str, *, players: int) -> SeatAction:
    """Read ``"SEAT VERB [ARG]"``, e.g. ``"0 play 1e"``; ``??`` is an unseen card."""
    words = text.split()
    if len(words) < 2 or not words[0].isdigit():
        raise NotationError(f"an action is 'SEAT VERB [CARD]', e.g. '0 play 1e', not {text!r}")
    seat = int(words[0])
    if seat >= players:
        raise NotationError(f"seat {seat} in {text!r}: the table has seats 0 to {players - 1}")
    rest = " ".join(words[1:])
    if len(words) == 3 and words[2] == UNSEEN and words[1].lower() in ("play", "tapada", "discard"):
        return seat, Action(Verb(words[1].lower()), None)
    return seat, Action.parse(rest)


def _parse_hand(text: Any, seat: int) -> tuple[Card | None, ...]:
    if not isinstance(text, str):
        raise NotationError(f'hands[{seat}] must be a string of cards like "1e 4c 5o"')
    return tuple(None if tok == UNSEEN else Card.parse(tok) for tok in text.split())


def _action_lines(text: str, actions: list[str], offset: int = 0) -> tuple[int, ...]:
    """The line of each action string in the raw text, searching forward in order."""
    lines: list[int] = []
    start = text.find("actions", offset)
    for act in actions:
        match = re.compile(r"[\"']" + re.escape(act) + r"[\"']").search(text, max(start, 0))
        if match is None:
            lines.append(0)
            continue
        lines.append(text.count("\n", 0, match.start()) + 1)
        start = match.end()
    return tuple(lines)


def _parse_toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise NotationError(f"not valid TOML: {exc}") from None


def is_match(data: dict[str, Any]) -> bool:
    """A match file: only ``[[hands]]`` tables, each one hand history."""
    hands = data.get("hands")
    return (
        set(data) == {"hands"}
        and isinstance(hands, list)
        and bool(hands)
        and all(isinstance(h, dict) for h in hands)
    )


def loads(text: str) -> HandHistory:
    """Read one hand history from TOML text."""
    data = _parse_toml(text)
    if is_match(data):
        raise NotationError("this is a match file ([[hands]]): read it with loads_match")
    return _history(data, text, 0)


def loads_match(text: str) -> tuple[HandHistory, ...]:
    """Read a match file (``[[hands]]`` tables, as the server exports) or a single hand."""
    data = _parse_toml(text)
    if not is_match(data):
        return (_history(data, text, 0),)
    # Where each hand's table starts, so that action line numbers point into the right hand.
    starts = [m.start() for m in re.finditer(r"^\s*\[\[hands\]\]", text, re.MULTILINE)]
    histories = []
    for i, table in enumerate(data["hands"]):
        try:
            histories.append(_history(table, text, starts[i] if i < len(starts) else 0))
        except NotationError as exc:
            raise NotationError(f"hand {i + 1}: {exc}") from None
    return tuple(histories)


def _history(data: dict[str, Any], text: str, start: int) -> HandHistory:
    unknown = sorted(set(data) - OPTION_NAMES - set(_FIELDS) - set(_EXTRA_TABLES))
    if unknown:
        raise NotationError(f"unknown key(s): {', '.join(unknown)}")
    try:
        rules = from_options(None, {k: v for k, v in data.items() if k in OPTION_NAMES})
    except RulesError as exc:
        raise NotationError(f"bad rules: {exc}") from None
    n_scores = rules.scorers
    score = data.get("score", [start_score(rules)] * n_scores)
    if (
        not isinstance(score, list)
        or len(score) != n_scores
        or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in score)
    ):
        raise NotationError(f"score must be a list of {n_scores} whole numbers, not {score!r}")
    mano = data.get("mano", 0)
    if not isinstance(mano, int) or isinstance(mano, bool) or not 0 <= mano < rules.players:
        raise NotationError(f"mano must be a seat from 0 to {rules.players - 1}, not {mano!r}")
    pica = data.get("pica", -1)
    if not isinstance(pica, int) or isinstance(pica, bool):
        raise NotationError(f"pica must be 0, 1 or 2, not {pica!r}")
    try:
        sizes = hand_sizes(new_match(rules, mano=mano, score=tuple(score), pica=pica))
    except RulesError as exc:
        raise NotationError(str(exc)) from None
    raw_hands = data.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != rules.players:
        raise NotationError(f"hands must list the cards of each of the {rules.players} seats")
    hands = tuple(_parse_hand(h, seat) for seat, h in enumerate(raw_hands))
    for seat, hand in enumerate(hands):
        if len(hand) != sizes[seat]:
            raise NotationError(
                f"hands[{seat}] has {len(hand)} cards: seat {seat} gets {sizes[seat]} this hand"
            )
    seen: set[Card] = set()
    for seat, hand in enumerate(hands):
        for card in hand:
            if card is not None:
                if card in seen:
                    raise NotationError(f"{card} is dealt twice (again in hands[{seat}])")
                seen.add(card)
    vira = None
    if "vira" in data:
        raw_vira = data["vira"]
        if not isinstance(raw_vira, str):
            raise NotationError(f'vira must be one card like "4b", not {raw_vira!r}')
        vira = Card.parse(raw_vira)
        if vira in seen:
            raise NotationError(f"the vira {vira} is also dealt to a seat")
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list) or not all(isinstance(a, str) for a in raw_actions):
        raise NotationError('actions must be a list of strings like "0 play 1e"')
    lines = _action_lines(text, raw_actions, start)
    actions = []
    for i, (raw, line) in enumerate(zip(raw_actions, lines, strict=True)):
        try:
            actions.append(parse_action_line(raw, players=rules.players))
        except NotationError as exc:
            raise NotationError(f"{_where(i, raw, line)}: {exc}") from None
    extra = {k: data[k] for k in _EXTRA_TABLES if k in data}
    return HandHistory(
        rules=rules,
        score=tuple(score),
        mano=mano,
        pica=pica,
        hands=hands,
        vira=vira,
        actions=tuple(actions),
        extra=extra,
        lines=lines,
    )


def _where(index: int, raw: str, line: int) -> str:
    at = f", line {line}" if line else ""
    return f"action {index + 1} ({raw!r}{at})"


# --- writing --------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    raise TypeError(f"cannot write {value!r} as TOML")


def format_action(seat: int, action: Action) -> str:
    return f"{seat} {action}"


def dumps(history: HandHistory) -> str:
    """Write a hand history as TOML (reading it back gives an equal history)."""
    rules = history.rules
    out = [
        f"players = {rules.players}",
        f"target = {rules.target}",
        f"flor = {_toml_value(rules.flor)}",
    ]
    for name, value in rules.options().items():
        if name not in ("players", "target", "flor"):
            out.append(f"{name} = {_toml_value(value)}")
    out.append(f"score = [{', '.join(str(p) for p in history.score)}]")
    out.append(f"mano = {history.mano}")
    if history.pica >= 0:
        out.append(f"pica = {history.pica}")
    hands = ", ".join(
        '"' + " ".join(UNSEEN if c is None else str(c) for c in hand) + '"'
        for hand in history.hands
    )
    out.append(f"hands = [{hands}]")
    if history.vira is not None:
        out.append(f'vira = "{history.vira}"')
    out.append("actions = [")
    out.extend(f'  "{format_action(seat, action)}",' for seat, action in history.actions)
    out.append("]")
    return "\n".join(out) + "\n"


def from_state(state: State) -> HandHistory:
    """The history of the current (or last finished) hand of a match."""
    if not state.hand_no:
        raise NotationError("no hand has been dealt yet")
    before = tuple(p - h for p, h in zip(state.score, state.hand_points, strict=True))
    return HandHistory(
        rules=state.rules,
        score=before,
        mano=state.mano,
        pica=state.pica,
        hands=state.dealt,
        vira=DECK[state.vira] if state.vira >= 0 else None,
        actions=state.log,
    )


# --- replaying ------------------------------------------------------------------------------


def states(history: HandHistory) -> Iterator[tuple[State, tuple[Event, ...]]]:
    """The state after the deal and after each action, with the events that led to it."""
    if any(c is None for hand in history.hands for c in hand):
        raise NotationError("cannot replay a hand with unseen cards (??) in the deal")
    try:
        state = new_match(history.rules, mano=history.mano, score=history.score, pica=history.pica)
    except RulesError as exc:
        raise NotationError(str(exc)) from None
    if state.phase != DEAL:
        raise NotationError(f"the match is already over at score {list(history.score)}")
    hands = tuple(tuple(c for c in hand if c is not None) for hand in history.hands)
    state, events = apply(state, Deal(hands, history.vira))
    yield state, events
    for i, (seat, action) in enumerate(history.actions):
        line = history.lines[i] if i < len(history.lines) else 0
        where = _where(i, format_action(seat, action), line)
        if action.card is None and action.verb in (Verb.PLAY, Verb.TAPADA, Verb.DISCARD):
            raise NotationError(f"{where}: cannot replay an unseen card")
        actor = to_act(state)
        if state.phase != PLAY:
            raise IllegalActionError(f"{where}: the hand is already over")
        if actor != seat:
            raise IllegalActionError(f"{where}: it is seat {actor}'s turn, not seat {seat}'s")
        try:
            state, events = apply(state, action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{where}: {exc}") from None
        yield state, events


def replay(history: HandHistory) -> Replay:
    """Apply every action of a history; raise on the first one that is not legal."""
    all_events: list[Event] = []
    final: State | None = None
    for step in states(history):
        final = step[0]
        all_events.extend(step[1])
    assert final is not None
    state = final
    over = state.phase != PLAY
    return Replay(
        state=state,
        events=tuple(all_events),
        finished=over,
        points=state.hand_points,
        score=state.score,
        winner=state.winner if state.winner >= 0 else None,
    )


def replay_text(text: str) -> Replay:
    return replay(loads(text))


def replay_match(histories: tuple[HandHistory, ...]) -> tuple[Replay, ...]:
    """Replay every hand of a match file; each hand must start from the score the last left."""
    results: list[Replay] = []
    for i, history in enumerate(histories):
        if results and tuple(history.score) != results[-1].score:
            raise NotationError(
                f"hand {i + 1} starts at score {list(history.score)}, but hand {i} ended at "
                f"{list(results[-1].score)}"
            )
        try:
            results.append(replay(history))
        except TrucoError as exc:
            raise type(exc)(f"hand {i + 1}: {exc}") from None
    return tuple(results)

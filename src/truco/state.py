"""The state of a match: one immutable tuple of plain values, and its drawing in text.

``State`` is a NamedTuple so that copying it (the engine makes a new one for every action) is a
C-level tuple copy, and so that states hash and compare by value. Change it only through
``engine.apply``. Seats are numbered 0..players-1 in playing order; teams by ``teams[seat]``.

The drawing (``str(state)``, ``repr(state)``, in ``truco.drawing`` before) lives here so that
the state needs no module above it: it shows every seat's cards, the hidden ones too, and is
for a developer at a prompt or a failing test, never for a player (that is ``view.observe``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any, Final, NamedTuple

from truco.actions import Action, Verb
from truco.cards import Card
from truco.errors import RulesError
from truco.rules import Rules
from truco.variants import BY_NAME, pie_of, start_score, variant_of

DEAL: Final = 0
"""Phase: waiting for the next hand to be dealt (chance acts)."""
PLAY: Final = 1
"""Phase: a hand is being played."""
OVER: Final = 2
"""Phase: the match is over."""


class Phase(IntEnum):
    """Where a match is (``State.phase``, ``SeatView.phase``). The numbers are the state's
    (``DEAL``, ``PLAY``, ``OVER`` above, which the compiled engine reads as constants); the
    wire spells them ``deal``, ``play``, ``over`` (``Phase.wire``)."""

    DEAL = 0
    """Waiting for the next hand to be dealt (chance acts)."""
    PLAY = 1
    """A hand is being played."""
    OVER = 2
    """The match is over."""

    @property
    def wire(self) -> str:
        """The name clients read: ``deal``, ``play`` or ``over``."""
        return self.name.lower()


ENVIDO_KIND: Final = 0
FLOR_KIND: Final = 1
DISCARD_KIND: Final = 2
"""Pata de gallo: the pie must discard one of his four cards before the hand is played."""
ONZE_KIND: Final = 3
"""Truco Paulista: the side at 11 must decide to play its mão de onze or run, first thing."""

Play = tuple[int, Card, bool]
"""A card on the table: (seat, card, face_down). A plain tuple: the engine makes one for every
card played, and a NamedTuple's construction would cost the hot path."""


class TrucoCall(NamedTuple):
    """A truco call waiting for an answer (``State.truco_call``)."""

    level: int
    """What the hand is worth once it is accepted: the Argentine level (``Verb.truco_level``),
    or in Truco Paulista the value (``Verb.paulista_value``)."""
    caller: int
    responder: int
    """The seat that answers next."""


class TantoCall(NamedTuple):
    """An envido or flor call waiting for an answer, or the decision that opens a hand
    (``State.tanto_call``): the pie's discard, a mão de onze."""

    kind: int
    """``ENVIDO_KIND``, ``FLOR_KIND``, ``DISCARD_KIND`` or ``ONZE_KIND``."""
    caller: int
    responder: int
    """The seat that answers (or decides) next."""


class Declaration(NamedTuple):
    """An envido or flor declaration (``State.declared``)."""

    seat: int
    points: int | None
    """The points declared, or None for son buenas."""
    flor: bool


class State(NamedTuple):
    rules: Rules
    score: tuple[int, ...]
    """Match points per team; per player in pata de gallo; in destantado, each player's porotos
    still in his pile."""
    phase: int
    winner: int
    """The team that won the match (the player, where scores are individual), or -1."""
    hand_no: int
    """Hands dealt so far (the current hand's number, counting from 1)."""
    mano: int
    """The seat that is mano in the current (or last) hand."""
    next_mano: int
    teams: tuple[int, ...]
    """The team of each seat."""
    dealt: tuple[tuple[Card, ...], ...]
    """The cards each seat received this hand."""
    hands: tuple[tuple[Card, ...], ...]
    """The cards each seat still holds."""
    tantos: tuple[int, ...]
    """Envido points of each seat's hand."""
    flores: tuple[int, ...]
    """Flor points of each seat's hand, -1 without flor (or with flor switched off)."""
    trick: int
    """The trick being played, 0-based."""
    plays: tuple[Play, ...]
    """The cards of the trick being played, in order."""
    tricks: tuple[tuple[Play, ...], ...]
    """The finished tricks' cards."""
    results: tuple[int, ...]
    """The team that won each finished trick, -1 for a parda."""
    turn: int
    """The seat that plays the next card (when no call waits for an answer)."""
    retired: int
    """Bit set of the seats that went to the mazo."""
    truco: int
    """The accepted truco level: 1 none, 2 truco, 3 retruco, 4 vale cuatro."""
    truco_owner: int
    """The team that may raise the truco next, -1 for either."""
    truco_call: TrucoCall | None
    """A truco call waiting for an answer."""
    tanto_call: TantoCall | None
    """An envido or flor call waiting for an answer (or the pie's discard, a mão de onze)."""
    envido_open: bool
    """False once the envido was played, declined or cancelled by a flor."""
    chain: tuple[Verb, ...]
    """The envido calls of this hand, in order."""
    flor_chain: tuple[Verb, ...]
    """The flor calls of this hand, in order (flor, contraflor, contraflor-al-resto)."""
    flor_done: bool
    """True once a flor was sung and settled."""
    hand_points: tuple[int, ...]
    """What each score (team, or player) gained in this hand so far (destantado: lost porotos
    are negative)."""
    shown: tuple[tuple[int, tuple[Card, ...]], ...]
    """The cards that prove the winning envido/flor; shown when the hand ends."""
    declared: tuple[Declaration, ...]
    """Envido and flor declarations of this hand, in order."""
    log: tuple[tuple[int, Action], ...]
    """The actions of this hand, with their seats."""
    reached: int
    """The first team (or player) to reach the target, or -1."""
    pica: int
    """Pica-pica: which 1v1 hand of a round this is (0, 1, 2), or -1 for a hand of everyone."""
    next_pica: int
    """The same for the next hand to deal."""
    stakes: tuple[int, ...]
    """Destantado: what each seat stands to lose in the hand's truco (0: out of it)."""
    bettors: int
    """Destantado: bit set of the seats in the envido or truco call waiting for answers."""
    vira: int
    """Truco Paulista: the card turned up after the deal (its manilhas are the rank above), or
    -1 (the Argentine game, the manilha velha, before the first deal)."""
    legal: tuple[Action, ...]
    """The legal actions of the seat to act (derived: computed by the engine with each state)."""

    # Drawn only when asked for: construction (the engine's hot path) stays a bare tuple copy,
    # and hashing and equality stay the tuple's. The drawing shows every seat's cards: a State
    # is omniscient (a seat's view is view.observe).
    def __repr__(self) -> str:
        """Short: ``<State hand 3, score 12-9, seat 1 to act>``."""
        return summary(self)

    def __str__(self) -> str:
        """The table in text, hidden cards included: scores, mano, whose turn, each seat's
        cards, the tricks and the calls waiting for an answer."""
        return draw(self)


# The engine edits a state as ``list(state)`` through these field numbers: a list index is
# several times cheaper than a NamedTuple attribute in CPython 3.11, and apply() is the hot path.
# They are literals (checked against State's fields by the tests) so that the compiled engine
# (setup.py) reads them as constants.
Work = list[Any]
StateLike = Sequence[Any]
"""A State, or the engine's list copy of one (``Work``): both index the same fields."""
F_RULES: Final = 0
F_SCORE: Final = 1
F_PHASE: Final = 2
F_WINNER: Final = 3
F_HAND_NO: Final = 4
F_MANO: Final = 5
F_NEXT_MANO: Final = 6
F_TEAMS: Final = 7
F_DEALT: Final = 8
F_HANDS: Final = 9
F_TANTOS: Final = 10
F_FLORES: Final = 11
F_TRICK: Final = 12
F_PLAYS: Final = 13
F_TRICKS: Final = 14
F_RESULTS: Final = 15
F_TURN: Final = 16
F_RETIRED: Final = 17
F_TRUCO: Final = 18
F_OWNER: Final = 19
F_TRUCO_CALL: Final = 20
F_TANTO_CALL: Final = 21
F_ENVIDO_OPEN: Final = 22
F_CHAIN: Final = 23
F_FLOR_CHAIN: Final = 24
F_FLOR_DONE: Final = 25
F_HAND_POINTS: Final = 26
F_SHOWN: Final = 27
F_DECLARED: Final = 28
F_LOG: Final = 29
F_REACHED: Final = 30
F_PICA: Final = 31
F_NEXT_PICA: Final = 32
F_STAKES: Final = 33
F_BETTORS: Final = 34
F_VIRA: Final = 35
F_LEGAL: Final = 36


def new_match(
    rules: Rules | None = None,
    *,
    mano: int = 0,
    score: tuple[int, ...] | None = None,
    pica: int = -1,
) -> State:
    """A match about to deal a hand with ``mano`` first to play (with ``pica`` 0-2: that 1v1
    hand of a pica-pica round, whose mano is ``mano``)."""
    if rules is None:
        rules = Rules()
    if score is None:
        key = (rules, mano, pica)
        fresh = _FRESH.get(key)
        if fresh is None:
            if len(_FRESH) >= 256:
                _FRESH.clear()
            fresh = _FRESH[key] = _new_match(rules, mano, None, pica)
        return fresh
    return _new_match(rules, mano, score, pica)


_FRESH: dict[tuple[Rules, int, int], State] = {}
"""The match ``new_match`` makes from its rules, mano and pica (a State is immutable, so one
value serves every caller): a playout starts a match every few hands."""


def _new_match(rules: Rules, mano: int, score: tuple[int, ...] | None, pica: int) -> State:
    players = rules.players
    if not 0 <= mano < players:
        raise RulesError(f"mano must be a seat from 0 to {players - 1}, not {mano}")
    if pica != -1 and (not BY_NAME[rules.variant].pica or pica not in (0, 1, 2)):
        raise RulesError(f"pica must be 0, 1 or 2 in a pica-pica match, not {pica!r}")
    n_scores = rules.scorers
    if score is None:
        score = (start_score(rules),) * n_scores
    elif len(score) != n_scores or any(not isinstance(p, int) or p < 0 for p in score):
        who = "players" if rules.individual else "teams"
        raise RulesError(
            f"score must be {n_scores} whole numbers of 0 or more (one per {who}), not {score!r}"
        )
    reached = first_to_reach(rules, score, mano)
    empty: tuple[tuple[Card, ...], ...] = ((),) * rules.players
    return State(
        rules=rules,
        score=tuple(score),
        phase=OVER if reached >= 0 else DEAL,
        winner=reached,
        hand_no=0,
        mano=mano,
        next_mano=(mano - pica) % players if pica >= 0 else mano,
        teams=hand_teams(rules, mano),
        dealt=empty,
        hands=empty,
        tantos=(0,) * rules.players,
        flores=(-1,) * rules.players,
        trick=0,
        plays=(),
        tricks=(),
        results=(),
        turn=mano,
        retired=0,
        truco=1,
        truco_owner=-1,
        truco_call=None,
        tanto_call=None,
        envido_open=True,
        chain=(),
        flor_chain=(),
        flor_done=False,
        hand_points=(0,) * n_scores,
        shown=(),
        declared=(),
        log=(),
        reached=reached,
        pica=-1,
        next_pica=pica,
        stakes=(1,) * rules.players,
        bettors=0,
        vira=-1,
        legal=(),
    )


def hand_teams(rules: Rules, mano: int) -> tuple[int, ...]:
    """The side of each seat in a hand whose mano is ``mano``.

    Team play: seat s on team s % 2. Pata de gallo: the pie (who deals, and so plays last) is
    team 1 against the other two, team 0. Destantado: everyone on his own.
    """
    players = rules.players
    info = BY_NAME[rules.variant]
    if info.pie_alone:
        pie = pie_of(players, mano)
        return tuple([1 if s == pie else 0 for s in range(players)])
    if info.own_side:
        return tuple(range(players))
    return tuple([s % 2 for s in range(players)])


def first_to_reach(rules: Rules, score: tuple[int, ...], mano: int) -> int:
    """The team or player whose score ends the match, or -1.

    In destantado the first to pass all his porotos (a pile of 0). Elsewhere the first to the
    target; where two players reach it at once (the pair in pata de gallo) the higher score, and
    between equal scores the one nearer the mano.
    """
    piles = BY_NAME[rules.variant].piles
    if piles:
        done = [p for p in range(len(score)) if score[p] <= 0]
    else:
        done = [p for p in range(len(score)) if score[p] >= rules.target]
    if not done:
        return -1
    if piles or not rules.individual:
        # A destantado pile empties only by its own owner's win, so one at a time.
        return done[0]
    n = rules.players
    return max(done, key=lambda p: (score[p], -((p - mano) % n)))


def seat_to_act(s: StateLike) -> int:
    """During a hand (a State, or the engine's list copy of one): the responder of a pending
    envido/flor, else of a truco, else the turn."""
    call: TantoCall | None = s[F_TANTO_CALL]
    if call is not None:
        return call.responder
    truco: TrucoCall | None = s[F_TRUCO_CALL]
    return truco.responder if truco is not None else int(s[F_TURN])


def position_key(state: State) -> tuple[object, ...]:
    """The position a state stands for, without its history: every field but the rules (fixed
    in a match), what was shown and declared, the log and the derived legal actions. Two orders
    of the same calls and cards reach the same key (a search's transposition table)."""
    return state[F_SCORE:F_SHOWN] + state[F_REACHED:F_LEGAL]


# --- the drawing ------------------------------------------------------------------------------

TRICK_NAMES = ("primera", "segunda", "tercera")
TRUCO_NAMES: dict[int, str] = {
    1: "not called",
    **{level: verb.value for verb in Verb if (level := verb.truco_level) is not None},
}
"""The Argentine truco by its level (``Verb.truco_level``), for the drawing."""
_PAULISTA_NAMES: dict[int, str] = {
    1: "not called",
    **{value: verb.value for verb in Verb if (value := verb.paulista_value) is not None},
}
"""Truco Paulista's calls by the hand's value (``Verb.paulista_value``), for the drawing."""


def _truco_name(state: State, level: int) -> str:
    names = _PAULISTA_NAMES if state.rules.game == "paulista" else TRUCO_NAMES
    return names.get(level, f"worth {level}")


def summary(state: State) -> str:
    """One short line: ``<State hand 3, score 12-9, seat 1 to act>``."""
    score = "-".join(str(points) for points in state.score)
    return f"<State hand {state.hand_no}, score {score}, {_who_acts(state)}>"


def _who_acts(state: State) -> str:
    if state.phase == OVER:
        return f"over, {_scorer(state)} {state.winner} won"
    if state.phase == DEAL:
        return "to deal"
    return f"seat {seat_to_act(state)} to act"


def _scorer(state: State) -> str:
    """What a score belongs to: a team, or a player where scores are individual."""
    return "player" if state.rules.individual else "team"


def draw(state: State) -> str:
    """The table: the match, each seat's cards, the tricks and what waits for an answer."""
    rules = state.rules
    flor = ", flor" if rules.flor else ""
    score = "-".join(str(points) for points in state.score)
    if variant_of(rules).piles:  # a pile of porotos each, passed on until it is empty
        unit = "porotos left per player"
    else:
        unit = f"per {_scorer(state)}, to {rules.target}"
    lines = [f"Truco {rules.variant}, {rules.players} players{flor}; score {score} ({unit})"]
    if state.phase == OVER:
        lines.append(f"Match over after hand {state.hand_no}: {_scorer(state)} {state.winner} won")
        return "\n".join(lines)
    if state.phase == DEAL:
        lines.append(f"Hand {state.hand_no + 1} to deal")
        return "\n".join(lines)
    lines.append(f"Hand {state.hand_no}, mano seat {state.mano}, {_who_acts(state)}")
    for seat in range(rules.players):
        out = "  (out of this hand)" if (state.retired >> seat) & 1 else ""
        cards = _cards(state.hands[seat]) or "-"
        lines.append(f"  seat {seat} (team {state.teams[seat]}): {cards}{out}")
    for number, trick in enumerate(state.tricks):
        result = state.results[number]
        won = "parda" if result < 0 else f"team {result}"
        lines.append(f"  {_trick_name(number)}: {_plays(trick)} -> {won}")
    if state.plays:
        lines.append(f"  {_trick_name(state.trick)}: {_plays(state.plays)} ...")
    lines.extend(f"  {line}" for line in _calls(state))
    return "\n".join(lines)


def _trick_name(number: int) -> str:
    return TRICK_NAMES[number] if number < len(TRICK_NAMES) else f"trick {number + 1}"


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(card) for card in cards)


def _plays(plays: tuple[Play, ...]) -> str:
    return ", ".join(
        f"{seat} {card}" + (" (tapada)" if face_down else "") for seat, card, face_down in plays
    )


def _calls(state: State) -> list[str]:
    """The truco as it stands, the envido and flor calls, and any call waiting for an answer."""
    lines = []
    if state.truco > 1:
        lines.append(f"truco: {_truco_name(state, state.truco)} accepted")
    if state.chain:
        lines.append("envido calls: " + ", ".join(str(verb) for verb in state.chain))
    if state.flor_chain:
        lines.append("flor calls: " + ", ".join(str(verb) for verb in state.flor_chain))
    call = state.truco_call
    if call is not None:
        name = _truco_name(state, call.level)
        lines.append(f"waiting: {name} by seat {call.caller}, seat {call.responder} answers")
    tanto = state.tanto_call
    if tanto is not None:
        if tanto.kind == DISCARD_KIND:
            lines.append(f"waiting: seat {tanto.caller}, the pie, discards one of four cards")
        else:
            what = "flor" if tanto.kind == FLOR_KIND else "envido"
            lines.append(f"waiting: {what} by seat {tanto.caller}, seat {tanto.responder} answers")
    return lines

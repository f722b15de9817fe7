"""The Argentine calls: truco, envido, flor and the mazo, on the shared hand (``truco.hand``).

``Argentino`` is the room of the standard game: what a seat may do during a hand (``legal_of``,
from the predicates of ``truco.legal`` and memo tables built once) and what each call and answer
does (``act``). Pata de gallo, pica-pica and destantado play these calls too: their rooms build
on this one and change only what their game changes.

Like the shared mechanics, the effects edit the engine's working list ``s`` (indexed by the
``F_*`` field numbers) and append the events they cause to ``ev``.
"""

from __future__ import annotations

from typing import Final

from truco import envido as tantos
from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CON_FLOR_QUIERO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    ENVIDO,
    ENVIDO_CALLS,
    FALTA_ENVIDO,
    FLOR,
    MAZO,
    NO_QUIERO,
    PLAY,
    QUIERO,
    REAL_ENVIDO,
    SIMPLE,
    TAPADA,
    TRUCO_RAISE,
    TRUCO_TOP,
    Action,
    Verb,
)
from truco.cards import Card, envido_cards
from truco.events import Event, PointsDeclared
from truco.hand import (
    Room,
    active_from,
    answered,
    called,
    kept_cards,
    responder,
    rival_team,
    side_scores,
    tanto_call,
    truco_call,
    went_to_mazo,
)
from truco.legal import (
    Refusal,
    envido_primero_allowed,
    falta_counts,
    must_sing_flor,
    refusal,
    within_window,
)
from truco.rules import Rules
from truco.state import (
    ENVIDO_KIND,
    F_CHAIN,
    F_DECLARED,
    F_ENVIDO_OPEN,
    F_FLOR_CHAIN,
    F_FLOR_DONE,
    F_FLORES,
    F_HANDS,
    F_MANO,
    F_OWNER,
    F_PHASE,
    F_PLAYS,
    F_RETIRED,
    F_RULES,
    F_SHOWN,
    F_TANTO_CALL,
    F_TANTOS,
    F_TEAMS,
    F_TRICK,
    F_TRUCO,
    F_TRUCO_CALL,
    F_TURN,
    FLOR_KIND,
    Declaration,
    StateLike,
    Work,
)
from truco.state import (
    PLAY as PLAYING,
)

# Final, so that the compiled code keeps them in C variables: any other module-level name,
# imported ones included, is a dict read of the module's globals at every use, and a member of
# ``Verb`` (an interpreted Enum) an attribute lookup on its class.
_new: Final = tuple.__new__  # builds NamedTuple events without their slower keyword constructor
_V_CONTRAFLOR: Final = Verb.CONTRAFLOR
_V_CONTRAFLOR_AL_RESTO: Final = Verb.CONTRAFLOR_AL_RESTO
_V_CON_FLOR_ME_ACHICO: Final = Verb.CON_FLOR_ME_ACHICO
_V_CON_FLOR_QUIERO: Final = Verb.CON_FLOR_QUIERO
_V_FALTA_ENVIDO: Final = Verb.FALTA_ENVIDO
_V_FLOR: Final = Verb.FLOR
_V_MAZO: Final = Verb.MAZO
_V_NO_QUIERO: Final = Verb.NO_QUIERO
_V_QUIERO: Final = Verb.QUIERO
_POINTS_DECLARED: Final = PointsDeclared
_DECLARATION: Final = Declaration
_ONLY_FLOR: Final = (FLOR,)
"""The legal actions of a seat that must sing his flor: one shared tuple."""
_FALTA_ENVIDO: Final = FALTA_ENVIDO
_TOP: Final = TRUCO_TOP
_PLAY_OF: Final = PLAY
_TAPADA_OF: Final = TAPADA

TRUCO_LEVEL_OF: Final[dict[Verb, int]] = {
    verb: level for verb in Verb if (level := verb.truco_level) is not None
}
"""The level each truco call makes the hand worth once accepted (``Verb.truco_level``)."""
ENVIDO_VERBS: Final = frozenset(action.verb for action in ENVIDO_CALLS)


class Argentino(Room):
    """The room of the Argentine game: its calls, on the shared hand."""

    truco_answers: dict[tuple[int, bool], tuple[Action, ...]]
    """The answers to a truco call, by (its level, whether el envido está primero)."""

    def __init__(self) -> None:
        super().__init__()
        self.truco_answers = _TRUCO_ANSWERS

    def refusal(self, s: StateLike, action: Action) -> Refusal | None:
        return refusal(s, action, own_side=False)

    def primero_allowed(self, s: StateLike, seat: int) -> bool:
        """'El envido está primero' for ``seat`` now (``legal.envido_primero_allowed``)."""
        return envido_primero_allowed(s, seat)

    # --- legality -----------------------------------------------------------------------------

    def legal_of(self, s: StateLike) -> tuple[Action, ...]:
        call = s[F_TANTO_CALL]
        truco_call = s[F_TRUCO_CALL]
        seat = call[2] if call is not None else (truco_call[2] if truco_call else s[F_TURN])
        if call is not None:
            if call[0] == FLOR_KIND:
                return _FLOR_ANSWERS[s[F_FLOR_CHAIN][-1]]
            if s[F_FLORES][seat] >= 0 and must_sing_flor(s, seat):
                return _ONLY_FLOR
            answers = _ENVIDO_ANSWERS[s[F_CHAIN]]
            return answers if falta_counts(s) else _without_falta(answers)
        if s[F_FLORES][seat] >= 0 and must_sing_flor(s, seat):
            return _ONLY_FLOR
        if truco_call is not None:
            primero = self.primero_allowed(s, seat)
            answers = self.truco_answers[truco_call[0], primero]
            return answers if not primero or falta_counts(s) else _without_falta(answers)
        hand: tuple[int, ...] = s[F_HANDS][seat]  # Cards, read as ints: native indexes
        trick = s[F_TRICK]
        rules: Rules = s[F_RULES]
        tapada = rules.tapada
        # The card actions are built afresh into the list that becomes the result: a memo keyed
        # by the hand cost more (a tuple hashed and a large dict's cache misses at every call).
        legal = [_PLAY_OF[c] for c in hand]
        if (trick and tapada != "off") or tapada == "always":
            for c in hand:
                legal.append(_TAPADA_OF[c])
        truco = s[F_TRUCO]
        owner = s[F_OWNER]
        can_raise = truco < _TOP and (owner < 0 or owner == s[F_TEAMS][seat])
        # The seat whose turn it is to play has not played in this trick yet.
        envido = _NO_ENVIDO
        if s[F_ENVIDO_OPEN] and not trick and truco == 1:
            until = rules.envido_until
            if until == "own_card" or within_window(until, len(s[F_PLAYS])):
                envido = _ALL_ENVIDO
            elif rules.falta_until == "first_trick":
                envido = _FALTA_ONLY
            if rules.no_falta_first_hand and envido != _NO_ENVIDO and not falta_counts(s):
                envido = _NO_FALTA if envido == _ALL_ENVIDO else _NO_ENVIDO
        legal.extend(_CALLS[truco if can_raise else 0][envido])
        return tuple(legal)

    # --- what each call and answer does -------------------------------------------------------

    def act(self, s: Work, seat: int, action: Action, ev: list[Event]) -> None:
        verb = action.verb
        tanto_call = s[F_TANTO_CALL]
        if verb is _V_MAZO:
            self.mazo(s, seat, ev)
        elif tanto_call is not None:
            if tanto_call[0] == FLOR_KIND:
                self.answer_flor(s, seat, verb, ev)
            elif verb is _V_FLOR:
                self.sing_flor(s, seat, ev)
            else:
                self.answer_envido(s, seat, verb, ev)
        elif verb is _V_FLOR:
            self.sing_flor(s, seat, ev)
        elif verb in TRUCO_LEVEL_OF:
            self.call_truco(s, seat, verb, ev)
        elif verb in ENVIDO_VERBS:
            self.call_envido(s, seat, verb, ev)
        else:  # quiero / no-quiero to a truco
            self.answer_truco(s, seat, verb, ev)

    def end_hand(self, s: Work, team: int, points: int, reason: str, ev: list[Event]) -> None:
        if not s[F_FLOR_DONE] and not s[F_TRICK] and s[F_RULES].flor_unsung_scores:
            self._score_unsung_flores(s, ev)
            if s[F_PHASE] != PLAYING:  # the flor ended the match
                return
        Room.end_hand(self, s, team, points, reason, ev)

    def _score_unsung_flores(self, s: Work, ev: list[Event]) -> None:
        """With ``flor_unsung_scores``: a flor whose holder had no turn to sing it before the
        hand ended in the first trick (the rivals went to the mazo or declined a truco) still
        scores, unopposed, before the truco. By default it does not: a tanto counts only if it
        was proposed before the hand was over (``000_*``)."""
        teams, flores, retired = s[F_TEAMS], s[F_FLORES], s[F_RETIRED]
        scored: list[int] = []
        for seat in range(len(teams)):
            team = teams[seat]
            if flores[seat] >= 0 and not (retired >> seat) & 1 and team not in scored:
                scored.append(team)
                s[F_FLOR_DONE] = True
                s[F_SHOWN] = s[F_SHOWN] + ((seat, kept_cards(s, seat)),)
                self.add_points(s, team, s[F_RULES].flor_value, "flor", ev)
                if s[F_PHASE] != PLAYING:
                    return

    # --- truco --------------------------------------------------------------------------------

    def call_truco(self, s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
        pending = s[F_TRUCO_CALL]
        if pending is not None:  # a raise given as an answer accepts the pending bet first
            s[F_TRUCO] = pending[0]
            s[F_OWNER] = s[F_TEAMS][seat]
        ev.append(called(seat, verb))
        s[F_TRUCO_CALL] = truco_call(TRUCO_LEVEL_OF[verb], seat, responder(s, seat))

    def answer_truco(self, s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
        level, caller, _ = s[F_TRUCO_CALL]
        ev.append(answered(seat, verb))
        s[F_TRUCO_CALL] = None
        if verb is _V_QUIERO:
            s[F_TRUCO] = level
            s[F_OWNER] = s[F_TEAMS][seat]
        else:
            self.end_hand(s, s[F_TEAMS][caller], s[F_TRUCO], "truco-no-quiero", ev)

    def mazo(self, s: Work, seat: int, ev: list[Event]) -> None:
        ev.append(went_to_mazo(seat))
        retired = s[F_RETIRED] | 1 << seat
        s[F_RETIRED] = retired
        teams = s[F_TEAMS]
        team = teams[seat]
        for x, t in enumerate(teams):
            if t == team and not (retired >> x) & 1:
                break
        else:  # the whole team has retired: the hand goes to the rivals
            points = s[F_TRUCO]
            # The optional extra point stands for the envido that could still have been played.
            if (
                s[F_RULES].mazo_envido_penalty
                and s[F_TRICK] == 0
                and s[F_TRUCO] == 1
                and s[F_ENVIDO_OPEN]
                and not s[F_CHAIN]
                and not s[F_FLOR_CHAIN]
            ):
                points += 1
            self.end_hand(s, rival_team(s, team), points, "mazo", ev)
            return
        call = s[F_TRUCO_CALL]
        if call is not None and call[2] == seat:
            # The answer passes to his next partner still in the hand.
            s[F_TRUCO_CALL] = truco_call(call[0], call[1], responder(s, call[1]))
        if s[F_TURN] == seat:
            self.advance(s, seat, s[F_PLAYS], ev)

    # --- envido -------------------------------------------------------------------------------

    def call_envido(self, s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
        ev.append(called(seat, verb))
        s[F_CHAIN] = s[F_CHAIN] + (verb,)
        # A flor still to be sung goes before any envido: its holder (of either side) answers
        # first, and his only answer is to sing it, which cancels the envido.
        holder = -1 if s[F_FLOR_DONE] else next_flor_holder(s, seat, any_team=True)
        answers = holder if holder >= 0 else responder(s, seat)
        s[F_TANTO_CALL] = tanto_call(ENVIDO_KIND, seat, answers)

    def answer_envido(self, s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
        if verb in ENVIDO_VERBS:  # a raise accepts and raises
            self.call_envido(s, seat, verb, ev)
            return
        caller = s[F_TANTO_CALL][1]
        chain = s[F_CHAIN]
        ev.append(answered(seat, verb))
        s[F_TANTO_CALL] = None
        s[F_ENVIDO_OPEN] = False
        teams = s[F_TEAMS]
        if verb is _V_NO_QUIERO:
            points = tantos.declined_value(chain)
            self.add_points(s, teams[caller], points, "envido-no-quiero", ev)
            return
        winner = declare(s, s[F_TANTOS], ev, flor=False)
        team = teams[winner]
        if chain[-1] is _V_FALTA_ENVIDO:
            before = tantos.chain_value(chain[:-1])
            rules = s[F_RULES]
            points = tantos.falta_value(rules, side_scores(s), team, rival_team(s, team), before)
        else:
            points = tantos.chain_value(chain)
        s[F_SHOWN] = s[F_SHOWN] + ((winner, _proof(kept_cards(s, winner))),)
        self.add_points(s, team, points, "envido", ev)

    # --- flor ---------------------------------------------------------------------------------

    def sing_flor(self, s: Work, seat: int, ev: list[Event]) -> None:
        ev.append(called(seat, _V_FLOR))
        # A flor cancels any envido, called or still to be called.
        s[F_TANTO_CALL] = None
        s[F_ENVIDO_OPEN] = False
        s[F_FLOR_CHAIN] = (_V_FLOR,)
        teams = s[F_TEAMS]
        rival = next_flor_holder(s, seat, any_team=False)
        if rival < 0:
            s[F_FLOR_DONE] = True
            s[F_SHOWN] = s[F_SHOWN] + ((seat, kept_cards(s, seat)),)
            self.add_points(s, teams[seat], s[F_RULES].flor_value, "flor", ev)
        else:
            s[F_TANTO_CALL] = tanto_call(FLOR_KIND, seat, rival)

    def answer_flor(self, s: Work, seat: int, verb: Verb, ev: list[Event]) -> None:
        rules = s[F_RULES]
        caller = s[F_TANTO_CALL][1]
        teams = s[F_TEAMS]
        chain = s[F_FLOR_CHAIN]
        if verb is _V_CONTRAFLOR or verb is _V_CONTRAFLOR_AL_RESTO:
            ev.append(called(seat, verb))
            s[F_FLOR_CHAIN] = chain + (verb,)
            s[F_TANTO_CALL] = tanto_call(FLOR_KIND, seat, responder(s, seat))
            return
        ev.append(answered(seat, verb))
        s[F_TANTO_CALL] = None
        s[F_FLOR_DONE] = True
        if verb is _V_CON_FLOR_ME_ACHICO:
            s[F_SHOWN] = s[F_SHOWN] + ((caller, kept_cards(s, caller)),)
            self.add_points(s, teams[caller], rules.flor_achico_value, "flor", ev)
            return
        if verb is _V_NO_QUIERO:
            if chain[-1] is _V_CONTRAFLOR:
                points = rules.contraflor_decline_value
            elif _V_CONTRAFLOR in chain:
                points = rules.contraflor_resto_decline_after_contraflor
            else:
                points = rules.contraflor_resto_decline_value
            self.add_points(s, teams[caller], points, "flor-no-quiero", ev)
            return
        winner = declare(s, s[F_FLORES], ev, flor=True)
        team = teams[winner]
        if verb is _V_CON_FLOR_QUIERO:
            points = rules.flor_quiero_value
        elif chain[-1] is _V_CONTRAFLOR:
            points = rules.contraflor_value
        else:
            before = rules.contraflor_value if _V_CONTRAFLOR in chain else rules.flor_quiero_value
            points = tantos.falta_value(rules, side_scores(s), team, rival_team(s, team), before)
        s[F_SHOWN] = s[F_SHOWN] + ((winner, kept_cards(s, winner)),)
        self.add_points(s, team, points, "flor", ev)


def next_flor_holder(s: Work, seat: int, *, any_team: bool) -> int:
    """The first seat after ``seat`` still in the hand that holds a flor (of the other team
    unless ``any_team``), or -1."""
    teams, flores, retired = s[F_TEAMS], s[F_FLORES], s[F_RETIRED]
    n = len(teams)
    for i in range(1, n):
        x = (seat + i) % n
        if flores[x] >= 0 and not (retired >> x) & 1 and (any_team or teams[x] != teams[seat]):
            return x
    return -1


def declare(
    s: Work, points: tuple[int, ...], ev: list[Event], *, flor: bool, among: int = -1
) -> int:
    """Declarations in order from the mano among the seats still in (with flor, its holders;
    with ``among``, a bit set, only those seats)."""
    order = active_from(s, s[F_MANO])
    if flor:
        order = [x for x in order if points[x] >= 0]
    if among >= 0:
        order = [x for x in order if (among >> x) & 1]
    winner, said = tantos.declare(order, points, s[F_TEAMS])
    declared = s[F_DECLARED]
    for seat, value in said:
        declared += (_new(_DECLARATION, (seat, value, flor)),)
        ev.append(_new(_POINTS_DECLARED, (seat, value, flor)))
    s[F_DECLARED] = declared
    return winner


def _without_falta(actions: tuple[Action, ...]) -> tuple[Action, ...]:
    return tuple([a for a in actions if a is not _FALTA_ENVIDO])


# Memo tables for legal_of: the answers to each call, and the calls a seat may make on his turn.
_FLOR_ANSWERS: Final = {
    _V_FLOR: (CON_FLOR_QUIERO, CON_FLOR_ME_ACHICO, CONTRAFLOR, CONTRAFLOR_AL_RESTO),
    _V_CONTRAFLOR: (QUIERO, NO_QUIERO, CONTRAFLOR_AL_RESTO),
    _V_CONTRAFLOR_AL_RESTO: (QUIERO, NO_QUIERO),
}
_ENVIDO_ANSWERS: Final[dict[tuple[Verb, ...], tuple[Action, ...]]] = {}
_TRUCO_ANSWERS: Final[dict[tuple[int, bool], tuple[Action, ...]]] = {}
TRUCO_ANSWERS_NO_MAZO: Final[dict[tuple[int, bool], tuple[Action, ...]]] = {}
"""The answers to a truco without the mazo (destantado's: no quiero already leaves the hand for
nothing, where the mazo would lose what one was in for)."""
# Which envido calls a seat may make on his turn (the second index of ``_CALLS``).
_NO_ENVIDO: Final = 0
_ALL_ENVIDO: Final = 1
_NO_FALTA: Final = 2
_FALTA_ONLY: Final = 3
_ENVIDO_SETS: Final[tuple[tuple[Action, ...], ...]] = (
    (),
    ENVIDO_CALLS,
    (ENVIDO, REAL_ENVIDO),
    (FALTA_ENVIDO,),
)
_CALLS: Final[list[list[tuple[Action, ...]]]] = [[(), (), (), ()] for _ in range(4)]


def _fill_tables() -> None:
    chains: list[tuple[Verb, ...]] = [()]
    for chain in chains:
        for verb in tantos.chain_calls_allowed(chain):
            chains.append((*chain, verb))
    for chain in chains[1:]:
        raises = tuple(SIMPLE[v] for v in tantos.chain_calls_allowed(chain))
        _ENVIDO_ANSWERS[chain] = (QUIERO, NO_QUIERO, *raises)
    for level in TRUCO_LEVEL_OF.values():
        for primero in (False, True):
            answers = [QUIERO, NO_QUIERO]
            if level in TRUCO_RAISE:
                answers.append(TRUCO_RAISE[level])
            if primero:
                answers.extend(ENVIDO_CALLS)
            _TRUCO_ANSWERS[level, primero] = (*answers, MAZO)
            TRUCO_ANSWERS_NO_MAZO[level, primero] = tuple(answers)
    for raise_from in (0, *TRUCO_RAISE):
        for envido, envido_calls in enumerate(_ENVIDO_SETS):
            calls = [TRUCO_RAISE[raise_from]] if raise_from else []
            calls.extend(envido_calls)
            _CALLS[raise_from][envido] = (*calls, MAZO)


_fill_tables()

ROOM: Final[Argentino] = Argentino()
"""The standard game's room (``VariantInfo.room`` ``argentino``)."""


_PROOFS: Final[dict[tuple[Card, ...], tuple[Card, ...]]] = {}
"""``envido_cards`` of each hand already asked (at most the 9,880 hands of three): the cards
module is not compiled, and every envido won shows its proof."""


def _proof(kept: tuple[Card, ...]) -> tuple[Card, ...]:
    proof = _PROOFS.get(kept)
    if proof is None:
        proof = _PROOFS[kept] = envido_cards(kept)
    return proof

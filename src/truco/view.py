"""What one seat (or a spectator) may see of a match: the only way hidden cards leave the core.

``observe(state, seat)`` shows the seat its own cards, every card played face up, its own
face-down cards, the public calls and declarations, and the cards shown at the end of a hand.
Other seats' unplayed cards, and other seats' face-down cards, never appear in it.

``observe(state, seat, reveal=True)`` is the one exception: every card face up (each seat's
cards in ``open_hands``, every tapada and discard with its card), for the replay of a match that
is over. The core cannot know whether a match a state belongs to is over (a replay steps through
its hands one by one), so the caller decides: the server reveals only the hands of a finished
match (docs/protocol.md, "Replay").

It is the one contract with clients and bots: every fact they need is computed here once (the
phase, who is pie, the seats in this hand, the pot, the malas/buenas half, why the hand ended...)
from the state and the variants' registry (``truco.variants``), so that no client restates a
rule. A client only draws.
"""

from __future__ import annotations

from typing import NamedTuple

from truco.actions import Action, Verb
from truco.cards import DECK, Card
from truco.engine import legal_actions, to_act
from truco.events import Reason
from truco.manilhas import manilhas_of
from truco.paulista import blind, ferro, onze_team, partners_of
from truco.rules import Rules
from truco.state import DISCARD_KIND, ENVIDO_KIND, FLOR_KIND, ONZE_KIND, PLAY, Phase, State
from truco.story import HandStory, story
from truco.variants import BY_NAME, half, pie_of, pot, start_score

PlayView = tuple[int, Card | None, bool]
"""A card on the table as the viewer sees it: (seat, card or None if face down, face_down)."""


class AwaitedCall(NamedTuple):
    """The call that waits for an answer, the way a table says it: the newest of its chain
    (``retruco``, ``real-envido``, ``contraflor``, ``seis``), who made it and who owes the
    answer."""

    verb: Verb
    caller: int
    responder: int
    value: int | None
    """A truco call: what the hand is worth once it is accepted (Argentine 2-4, Paulista 3, 6,
    9, 12); None for an envido or a flor, whose points depend on the answer."""


class SeatView(NamedTuple):
    """One seat's (or a spectator's, ``seat=None``) view of the match."""

    seat: int | None
    rules: Rules
    score: tuple[int, ...]
    """Points per team (per player where scoring is ``individual``); in destantado, each
    player's porotos still in his pile."""
    phase: int
    """A ``Phase`` (``Phase.DEAL``, ``PLAY``, ``OVER``; an ``IntEnum``, so equal to 0, 1, 2)."""
    winner: int
    hand_no: int
    mano: int
    teams: tuple[int, ...]
    """The side of each seat in this hand (it changes each hand in pata de gallo)."""
    pica: int
    """Pica-pica: which 1v1 hand of a round this is (0-2), or -1 for a hand of everyone."""
    stakes: tuple[int, ...]
    """Destantado: what each seat stands to lose in the hand's truco (0: out of it)."""
    to_act: int | None
    """The seat that must act (-1 while dealing, None when the match is over)."""
    hand: tuple[Card, ...]
    """The viewer's own cards still held (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat still holds."""
    tantos: int | None
    """The viewer's own envido points (None for a spectator)."""
    flor: int | None
    """The viewer's own flor points, if he has one at a table with flor."""
    tricks: tuple[tuple[PlayView, ...], ...]
    """The finished tricks of this hand."""
    plays: tuple[PlayView, ...]
    """The cards of the trick being played."""
    results: tuple[int, ...]
    """The team that won each finished trick, -1 for a parda."""
    trick: int
    retired: tuple[int, ...]
    """The seats out of this hand: gone to the mazo, declined a destantado truco, or sitting out
    a 1v1 hand of pica-pica."""
    truco: int
    truco_owner: int
    truco_call: tuple[int, int, int] | None
    envido_call: tuple[int, int] | None
    """An envido waiting for an answer: (caller, responder)."""
    flor_call: tuple[int, int] | None
    """A flor waiting for an answer: (caller, responder)."""
    envido_open: bool
    chain: tuple[Verb, ...]
    flor_chain: tuple[Verb, ...]
    hand_points: tuple[int, ...]
    history: tuple[tuple[int, str], ...]
    """This hand's actions as the viewer may know them (other seats' tapadas without the card)."""
    declared: tuple[tuple[int, int | None, bool], ...]
    """Envido and flor declarations: (seat, points or None for son buenas, flor)."""
    shown: tuple[tuple[int, tuple[Card, ...]], ...]
    """Cards shown at the end of the hand to prove the winning tantos (empty until then)."""
    legal: tuple[Action, ...]
    """The viewer's legal actions (empty unless the viewer is to act)."""
    # The facts below are derived (from the state and truco.variants), so that clients draw
    # them instead of restating the rules.
    playing: tuple[int, ...]
    """The seats playing this hand (or the last one, between hands): every seat, but in a 1v1
    hand of pica-pica only the mano and the seat facing him (the others sit it out)."""
    pie: int | None
    """Pata de gallo: the seat that plays alone this hand (dealt four cards, puts one away);
    None elsewhere and before the first hand."""
    discard: int | None
    """Pata de gallo: the pie while his discard waits (the first thing in a hand), else None."""
    bettors: tuple[int, ...]
    """Destantado: the seats in the call waiting for answers: its caller and those who have
    accepted it so far (empty when no call waits, and in the other variants)."""
    pot: int
    """Destantado: the porotos thrown to the pot (gone from every pile, worth nothing), counted
    from piles of ``start_score`` each; 0 elsewhere."""
    start_score: int
    """What each score started at: 0, or in destantado each player's porotos."""
    individual: bool
    """Whether scores are per player (pata de gallo, destantado) rather than per team."""
    half: int | None
    """Where the malas end and the buenas begin (None: no halves at this target, or no target
    as in destantado)."""
    end_reason: Reason | None
    """Why the last hand ended, once it has (None while a hand is played and before the
    first): its tricks (``TRUCO``), a truco declined, a side at the mazo, or the envido or flor
    points that ended the match before the hand did."""
    open_hands: tuple[tuple[Card, ...], ...]
    """Only in a view observed with ``reveal``: every seat's cards still held, seat by seat
    (empty otherwise; the viewer's own are in ``hand`` as always)."""
    # Truco Paulista (truco.paulista; docs/rules.md "Truco Paulista"). Cards keep their
    # notation: 1 is the A, 10 the Q, 11 the J, 12 the K; b paus, c copas, e espadas, o ouros.
    game: str
    """The game: ``argentino`` or ``paulista`` (``Rules.game``)."""
    vira: Card | None
    """Paulista: the card turned up in this hand (None with the manilha velha, before the
    first hand, and in the Argentine game)."""
    manilhas: tuple[Card, ...]
    """Paulista: this hand's four manilhas, strongest first (the zap, of paus; then copas,
    espadas, ouros); empty in the Argentine game and before the first hand."""
    hand_value: int
    """What the hand is worth now to the side that wins it: the truco accepted so far
    (Argentine 1-4; Paulista 1, 3, 6, 9, 12; a mão de onze played, 3)."""
    onze: int
    """Paulista: the side playing a mão de onze this hand (one point from the target), or -1;
    between hands, that of the next hand (``ferro`` likewise)."""
    onze_call: int | None
    """Paulista: the seat that must decide the mão de onze (joga or corre) now, else None."""
    ferro: bool
    """Paulista: a mão de ferro (both sides at 11): no truco; see ``blind``."""
    blind: bool
    """Paulista, a mão de ferro played blind (``mao_de_ferro="cega"``), while it is played:
    nobody sees his own cards (``hand`` is empty, ``hand_sizes`` counts them); each seat's one
    legal action plays the next of them in the order dealt."""
    partners: tuple[tuple[int, tuple[Card, ...]], ...]
    """Paulista, mão de onze: the cards still held by each partner of a viewer whose side is at
    11 (they look at each other's hands to decide), as (seat, cards)."""
    onze_at: int | None
    """Paulista: the score at which a side plays the mão de onze (one point from the target);
    None in the Argentine game."""
    at_onze: tuple[bool, ...]
    """Paulista: for each side (as ``score``), whether it stands at the mão de onze now (both:
    a mão de ferro); every entry False in the Argentine game."""
    awaited: AwaitedCall | None
    """The call waiting for an answer (a flor before an envido before a truco, as they are
    answered), or None; the mão de onze's decision is ``onze_call``."""
    story: HandStory | None
    """The story of the hand that just ended (``truco.story``): who went to the mazo, who
    declined which call, the tricks its side won, the pardas, ganó por ser mano; None while a
    hand is played. Clients say it; none reads the history for it."""


def _mask_play(play: tuple[int, Card, bool], seat: int | None, reveal: bool) -> PlayView:
    who, card, face_down = play
    return (who, None if face_down and who != seat and not reveal else card, face_down)


def _public_action(who: int, action: Action, seat: int | None, reveal: bool) -> str:
    if reveal or who == seat:
        return str(action)
    if action.verb is Verb.TAPADA:
        return "tapada ??"
    if action.verb is Verb.DISCARD:
        return "discard ??"
    return str(action)


def _bits(bits: int, n: int) -> tuple[int, ...]:
    return tuple(s for s in range(n) if (bits >> s) & 1)


def observe(state: State, seat: int | None, *, reveal: bool = False) -> SeatView:
    """The view of ``seat``; ``None`` is a spectator, who sees public information only.

    ``reveal``: every card face up as well (``open_hands``, tapadas and discards), for the
    replay of a match that is over; never for a match still played.
    """
    if seat is not None and not 0 <= seat < state.rules.players:
        raise ValueError(f"there is no seat {seat} at a table of {state.rules.players}")
    actor = to_act(state)
    hand_over = state.phase != PLAY
    tanto = state.tanto_call
    own_flor = state.flores[seat] if seat is not None else -1
    rules = state.rules
    n = rules.players
    info = BY_NAME[rules.variant]
    pie = pie_of(n, state.mano) if info.pie_alone and state.hand_no else None
    paulista = info.game == "paulista"
    onze = onze_team(rules.target, state.score) if paulista and state.hand_no else -1
    is_ferro = paulista and state.hand_no > 0 and ferro(rules.target, state.score)
    unseen = paulista and not hand_over and blind(state)
    partners: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    if onze >= 0 and not hand_over and seat is not None and state.teams[seat] == onze:
        partners = tuple((p, state.hands[p]) for p in partners_of(state.teams, seat))
    vira = state.vira
    sides = range(len(state.score))
    both = paulista and ferro(rules.target, state.score)
    eleven = onze_team(rules.target, state.score) if paulista else -1
    told = story(state)
    return SeatView(
        seat=seat,
        rules=rules,
        score=state.score,
        phase=Phase(state.phase),
        winner=state.winner,
        hand_no=state.hand_no,
        mano=state.mano,
        teams=state.teams,
        pica=state.pica,
        stakes=state.stakes,
        to_act=actor,
        hand=state.hands[seat] if seat is not None and not unseen else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        tantos=state.tantos[seat] if seat is not None and state.hand_no and not paulista else None,
        flor=own_flor if own_flor >= 0 else None,
        tricks=tuple(tuple(_mask_play(p, seat, reveal) for p in trick) for trick in state.tricks),
        plays=tuple(_mask_play(p, seat, reveal) for p in state.plays),
        results=state.results,
        trick=state.trick,
        retired=_bits(state.retired, n),
        truco=state.truco,
        truco_owner=state.truco_owner,
        truco_call=state.truco_call,
        envido_call=(tanto[1], tanto[2]) if tanto and tanto[0] == ENVIDO_KIND else None,
        flor_call=(tanto[1], tanto[2]) if tanto and tanto[0] == FLOR_KIND else None,
        envido_open=state.envido_open,
        chain=state.chain,
        flor_chain=state.flor_chain,
        hand_points=state.hand_points,
        history=tuple((who, _public_action(who, a, seat, reveal)) for who, a in state.log),
        declared=state.declared,
        shown=state.shown if hand_over else (),
        legal=legal_actions(state) if actor is not None and actor == seat else (),
        playing=tuple(s for s in range(n) if state.dealt[s]) if state.hand_no else tuple(range(n)),
        pie=pie,
        discard=pie if tanto is not None and tanto[0] == DISCARD_KIND else None,
        bettors=_bits(state.bettors, n) if state.truco_call or tanto else (),
        pot=pot(rules, state.score),
        start_score=start_score(rules),
        individual=info.individual,
        half=half(rules),
        end_reason=told.reason if told is not None else None,
        open_hands=state.hands if reveal else (),
        game=info.game,
        vira=DECK[vira] if vira >= 0 else None,
        manilhas=_manilhas(state, paulista),
        hand_value=state.truco,
        onze=onze,
        onze_call=tanto[1] if tanto is not None and tanto[0] == ONZE_KIND else None,
        ferro=is_ferro,
        blind=unseen,
        partners=partners,
        onze_at=rules.target - 1 if paulista else None,
        at_onze=tuple(both or side == eleven for side in sides),
        awaited=_awaited(state, paulista),
        story=told,
    )


_TRUCO_OF_LEVEL = {v.truco_level: v for v in Verb if v.truco_level is not None}
_PAULISTA_OF_VALUE = {v.paulista_value: v for v in Verb if v.paulista_value is not None}


def _awaited(state: State, paulista: bool) -> AwaitedCall | None:
    """The call waiting for an answer, in the order the answers come: a flor or an envido sung
    over a truco is answered before it."""
    tanto = state.tanto_call
    if tanto is not None and tanto[0] == FLOR_KIND:
        verb = state.flor_chain[-1] if state.flor_chain else Verb.FLOR
        return AwaitedCall(verb, tanto[1], tanto[2], None)
    if tanto is not None and tanto[0] == ENVIDO_KIND:
        verb = state.chain[-1] if state.chain else Verb.ENVIDO
        return AwaitedCall(verb, tanto[1], tanto[2], None)
    if state.truco_call is None:
        return None
    value, caller, responder = state.truco_call
    verb = (_PAULISTA_OF_VALUE if paulista else _TRUCO_OF_LEVEL).get(value, Verb.TRUCO)
    return AwaitedCall(verb, caller, responder, value)


def _manilhas(state: State, paulista: bool) -> tuple[Card, ...]:
    """Paulista: the hand's manilhas (the manilha velha's are known before the first hand)."""
    if not paulista:
        return ()
    if state.vira >= 0:
        return manilhas_of(DECK[state.vira], state.rules.baralho == "limpo")
    return manilhas_of(None) if state.rules.manilhas == "velha" else ()


def visible_cards(view: SeatView) -> set[Card]:
    """Every card identity that appears in a view (used to prove no hidden card leaks)."""
    cards: set[Card] = set(view.hand)
    if view.vira is not None:
        cards.add(view.vira)
    for _, held in view.partners:
        cards.update(held)
    for trick in (*view.tricks, view.plays):
        cards.update(c for _, c, _ in trick if c is not None)
    for _, shown in view.shown:
        cards.update(shown)
    for held in view.open_hands:
        cards.update(held)
    # A revealed discard is named only in the history.
    cards.update(
        _CARD_NAMES[w] for _, text in view.history for w in text.split()[1:2] if w in _CARD_NAMES
    )
    return cards


_CARD_NAMES = {str(c): c for c in DECK}

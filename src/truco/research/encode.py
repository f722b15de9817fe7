"""A seat's view as fixed-size tensors: the observation (what it sees now) and the information
state (that, plus the current hand's moves as it saw them and the cards it saw dealt).

Every piece is drawn from ``observe(state, seat)`` (``Match.view``), never from hidden cards.
Seats are relative to the viewer (0 is the viewer, 1 the next to play, ...), and so are sides
(0 is the viewer's own); a card is its number in ``DECK``. Each piece's name, shape and meaning
is in ``PIECES`` and docs/research.md; the sizes depend only on the number of players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from truco.actions import Verb
from truco.cards import DECK
from truco.research.actions import ACTION_ID, NUM_ACTIONS, SEEN_ACTIONS, seen_id
from truco.research.match import Match
from truco.rules import Rules
from truco.state import PLAY

CARDS: Final = len(DECK)
VERBS: Final[tuple[Verb, ...]] = tuple(Verb)
VALUES: Final = (1, 2, 3, 4, 6, 9, 12)
"""What a hand may be worth (Argentine 1-4; Paulista 1, 3, 6, 9, 12)."""
MAX_TANTO: Final = 40


def history_rows(players: int) -> int:
    """The most moves one hand can take at a table of ``players``: its cards, the truco, envido
    and flor chains with every answer, and the mazo (a bound, above any hand played)."""
    return 10 * players + 20


@dataclass(frozen=True)
class Piece:
    name: str
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


def pieces(players: int, perfect_recall: bool) -> tuple[Piece, ...]:
    """The pieces of the observation (``perfect_recall=False``) or of the information state."""
    n = players
    out = [
        Piece("seat", (n,), "the viewer's seat (one-hot, absolute)"),
        Piece("mano", (n,), "the mano, relative"),
        Piece("to_act", (n + 1,), "the seat to act, relative; last: nobody (chance or over)"),
        Piece("hand", (CARDS,), "the viewer's cards still held"),
        Piece("played", (n, CARDS), "cards each seat played face up this hand"),
        Piece("face_down", (n, 4), "how many cards each seat played face down (0-3, one-hot)"),
        Piece("table", (n, CARDS), "the cards of the trick being played, by seat"),
        Piece("hand_sizes", (n, 5), "cards each seat holds (0-4, one-hot)"),
        Piece("results", (3, 3), "each finished trick: won by the viewer's side, another, parda"),
        Piece("score", (n,), "scores, the viewer's side first, over the target (or porotos)"),
        Piece("value", (len(VALUES),), "what the hand is worth now (one-hot of VALUES)"),
        Piece("awaited", (len(VERBS),), "the call waiting for an answer, by verb"),
        Piece("caller", (n + 1,), "who made the awaited call, relative; last: none"),
        Piece("chain", (3,), "envido, real envido, falta envido called this hand (counts / 2)"),
        Piece("flor_chain", (3,), "flor, contraflor, contraflor al resto called this hand"),
        Piece("envido_open", (1,), "whether an envido may still be called"),
        Piece("tantos", (3,), "the viewer's envido / 40, flor / 40, has a flor"),
        Piece("declared", (n, 4), "each seat's declaration: points / 40, declared, flor, buenas"),
        Piece("retired", (n,), "seats out of this hand (mazo, declined, sitting out)"),
        Piece("pie", (n + 1,), "pata de gallo: the pie, relative; last: none"),
        Piece("stakes", (n,), "destantado: what each seat stands to lose in the truco / 12"),
        Piece("vira", (CARDS,), "Paulista: the vira"),
        Piece("manilhas", (CARDS,), "Paulista: this hand's manilhas"),
        Piece("onze", (3,), "Paulista: mão de onze of the viewer's side, of another, mão de ferro"),
        Piece("partners", (n, CARDS), "Paulista, mão de onze: the partners' cards seen"),
        Piece("legal", (NUM_ACTIONS,), "the viewer's legal actions"),
    ]
    if perfect_recall:
        out += [
            Piece("dealt", (CARDS,), "the viewer's cards as dealt this hand (seen)"),
            Piece(
                "moves",
                (history_rows(n), n + SEEN_ACTIONS),
                "this hand's moves in order: the seat (relative), then the action as seen "
                "(another's tapada or discard without its card)",
            ),
        ]
    return tuple(out)


class Encoder:
    """Writes a seat's view of a ``Match`` into a flat float32 tensor with named parts."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.rules = rules
        self.players = rules.players
        self.perfect_recall = perfect_recall
        self.pieces = pieces(rules.players, perfect_recall)
        self.size = sum(p.size for p in self.pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(self.size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for p in self.pieces:
            self.dict[p.name] = self.tensor[at : at + p.size].reshape(p.shape)
            at += p.size
        self._scale = float(rules.porotos * rules.players if rules.variant == "destantado" else 0)

    def set_from(self, match: Match, seat: int) -> None:
        """Fill the tensor with what ``seat`` knows of ``match``."""
        self.tensor.fill(0.0)
        d = self.dict
        n = self.players
        view = match.view(seat)

        def rel(who: int) -> int:
            return (who - seat) % n

        d["seat"][seat] = 1
        d["mano"][rel(view.mano)] = 1
        actor = match.to_act()
        d["to_act"][n if actor is None or actor < 0 else rel(actor)] = 1
        for c in view.hand:
            d["hand"][int(c)] = 1
        face_down = [0] * n
        for trick in (*view.tricks, view.plays):
            for who, card, down in trick:
                if down:
                    face_down[who] += 1
                if card is not None and not down:
                    d["played"][rel(who), int(card)] = 1
        for who, count in enumerate(face_down):
            d["face_down"][rel(who), min(count, 3)] = 1
        for who, card, _down in view.plays:
            if card is not None:
                d["table"][rel(who), int(card)] = 1
        for who, size in enumerate(view.hand_sizes):
            d["hand_sizes"][rel(who), min(size, 4)] = 1
        own = view.teams[seat] if view.teams else 0
        for i, winner in enumerate(view.results[:3]):
            d["results"][i, 2 if winner < 0 else (0 if winner == own else 1)] = 1
        scale = self._scale or float(self.rules.target)
        scores = view.score
        mine = match.scorer_of(seat)
        k = len(scores)
        for i in range(k):
            d["score"][i] = scores[(mine + i) % k] / scale
        if view.hand_value in VALUES:
            d["value"][VALUES.index(view.hand_value)] = 1
        awaited = view.awaited
        if awaited is not None:
            d["awaited"][VERBS.index(awaited.verb)] = 1
            d["caller"][rel(awaited.caller)] = 1
        else:
            d["caller"][n] = 1
        chain = view.chain
        d["chain"][0] = chain.count(Verb.ENVIDO) / 2
        d["chain"][1] = chain.count(Verb.REAL_ENVIDO) / 2
        d["chain"][2] = chain.count(Verb.FALTA_ENVIDO) / 2
        for i, verb in enumerate((Verb.FLOR, Verb.CONTRAFLOR, Verb.CONTRAFLOR_AL_RESTO)):
            d["flor_chain"][i] = float(verb in view.flor_chain)
        d["envido_open"][0] = float(view.envido_open)
        if view.tantos is not None and not view.blind:
            d["tantos"][0] = view.tantos / MAX_TANTO
        if view.flor is not None:
            d["tantos"][1] = view.flor / MAX_TANTO
            d["tantos"][2] = 1
        for who, points, flor in view.declared:
            row = d["declared"][rel(who)]
            row[1] = 1
            if points is None:
                row[3] = 1
            else:
                row[0] = points / MAX_TANTO
            if flor:
                row[2] = 1
        for who in view.retired:
            d["retired"][rel(who)] = 1
        d["pie"][n if view.pie is None else rel(view.pie)] = 1
        for who, stake in enumerate(view.stakes):
            d["stakes"][rel(who)] = stake / 12
        if view.vira is not None:
            d["vira"][int(view.vira)] = 1
        for c in view.manilhas:
            d["manilhas"][int(c)] = 1
        if view.ferro:
            d["onze"][2] = 1
        elif view.onze >= 0:
            d["onze"][0 if view.onze == own else 1] = 1
        for who, cards in view.partners:
            for c in cards:
                d["partners"][rel(who), int(c)] = 1
        for a in view.legal:
            d["legal"][ACTION_ID[a]] = 1
        if not self.perfect_recall:
            return
        if not match.is_over() and match.state.phase == PLAY:
            for number in match.seen_dealt(seat):
                d["dealt"][number] = 1
        rows = d["moves"]
        if len(view.history) > rows.shape[0]:
            raise ValueError(
                f"a hand of {len(view.history)} moves is longer than the {rows.shape[0]} "
                "the information state holds"
            )
        for i, (who, text) in enumerate(view.history):
            rows[i, rel(who)] = 1
            rows[i, n + seen_id(text)] = 1

"""The coach on positions built by hand, where one action (or a set of actions that mean the same
thing, such as quiero and a raise, which both accept) is clearly best: the analysis must rank it
first. Each position says why in its comment. 1v1 to 30 without flor unless it says otherwise;
seat 0 is mano unless it says otherwise. Card ranks for truco: 1e > 1b > 7e > 7o > 3 > 2 >
anchos falsos (1o 1c) > 12 > 11 > 10 > 7c 7b > 6 > 5 > 4.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from truco import notation
from truco.coach import evaluate, in_card_order
from truco.engine import to_act
from truco.view import observe

WORLDS = 320
SEED = 7


class Position(NamedTuple):
    name: str
    hands: tuple[str, ...]
    actions: tuple[str, ...]
    right: frozenset[str]
    score: tuple[int, int] = (0, 0)
    mano: int = 0
    players: int = 2


def P(name: str, hands: str, actions: str, right: str, **kw: object) -> Position:
    """Hands as "h0 | h1 | ...", actions as "a; b; c", the right actions as "a, b"."""
    return Position(
        name,
        tuple(h.strip() for h in hands.split("|")),
        tuple(a.strip() for a in actions.split(";") if a.strip()),
        frozenset(r.strip() for r in right.split(",")),
        **kw,  # type: ignore[arg-type]
    )


POSITIONS = [
    # Both anchos against a truco called before any card: two tricks are won for sure, so
    # accepting (quiero, or retruco, which accepts and raises) wins at least 2; declining gives 1.
    P("anchos-accept-truco", "4o 5c 6b | 1e 1b 4c", "0 truco", "quiero, retruco"),
    # The same anchos facing the truco at 20-20: more at stake, the same answer.
    P(
        "anchos-accept-truco-late",
        "4o 5c 6b | 1e 1b 4c",
        "0 truco",
        "quiero, retruco",
        score=(20, 20),
    ),
    # 1e and 7o (two of the four best cards, 7 of envido) against a truco: accept.
    P("matas-accept-truco", "4o 5c 10b | 1e 7o 4c", "0 truco", "quiero, retruco"),
    # Seat 1 is mano and calls truco at once; seat 0 holds both anchos: accept.
    P("anchos-accept-truco-as-pie", "1e 1b 4c | 4o 5c 6b", "1 truco", "quiero, retruco", mano=1),
    # 1e 1b 7o, three of the four best cards (7 of envido): the hand cannot be lost; accept.
    P("three-matas-accept", "4o 5c 6b | 1e 1b 7o", "0 truco", "quiero, retruco"),
    # 4c 5o 6b: the three lowest cards, 6 of envido. Against a truco the hand is lost; every
    # answer that keeps playing loses 2 or more, declining (or the mazo, the same) loses 1.
    P("nothing-decline-truco", "1e 7e 3c | 4c 5o 6b", "0 truco", "no-quiero, mazo"),
    # The same at 25-25, where each point given up weighs more: still decline.
    P(
        "nothing-decline-truco-buenas",
        "1e 7e 3c | 4c 5o 6b",
        "0 truco",
        "no-quiero, mazo",
        score=(25, 25),
    ),
    # Seat 1 with the same nothing (4o 5o 6b): the first was a parda (4c, 4o), so the second
    # decides, and the mano, holding 1e and 3c, calls truco: decline.
    P(
        "nothing-decline-truco-after-lead",
        "4c 1e 3c | 4o 5o 6b",
        "0 play 4c; 1 play 4o; 0 truco",
        "no-quiero, mazo",
    ),
    # Lost the first, holding 5o 6b, and the rival (who won the first) calls vale cuatro after
    # my retruco: no quiero loses the 3 of the retruco, quiero almost surely loses 4.
    P(
        "nothing-decline-vale-cuatro",
        "2o 1e 3c | 4c 5o 6b",
        "0 play 2o; 1 play 4c; 0 truco; 1 retruco; 0 vale-cuatro",
        "no-quiero, mazo",
    ),
    # The same vale cuatro at 15-15: the same answer.
    P(
        "nothing-decline-vale-cuatro-buenas",
        "2o 1e 3c | 4c 5o 6b",
        "0 play 2o; 1 play 4c; 0 truco; 1 retruco; 0 vale-cuatro",
        "no-quiero, mazo",
        score=(15, 15),
    ),
    # Lost the first to the 3e; the rival led the 3c into the second, which beats both my 5o
    # and 6b, and raised my bluffed truco to retruco: the hand is lost, decline.
    P(
        "nothing-decline-retruco",
        "3e 3c 1b | 4c 5o 6b",
        "0 play 3e; 1 play 4c; 0 play 3c; 1 truco; 0 retruco",
        "no-quiero, mazo",
    ),
    # Won the first, lost the second, the rival's 7c is on the table in the third and I hold
    # the ancho de espada: playing it wins the accepted truco (2); the mazo gives 2 away.
    P(
        "hand-won-no-mazo",
        "1e 4c 3o | 2b 6b 7c",
        "0 play 3o; 1 play 2b; 0 truco; 1 quiero; 0 play 4c; 1 play 6b; 1 play 7c",
        "play 1e",
    ),
    # Won the first with the 3o, lost the second to the 12c; the rival leads the third with
    # the 5o and my 1e wins it, and the accepted truco: play it, never the mazo.
    P(
        "no-mazo-hand-won-1e",
        "3o 1e 4c | 2b 12c 5o",
        "0 play 3o; 1 play 2b; 0 truco; 1 quiero; 0 play 4c; 1 play 12c; 1 play 5o",
        "play 1e",
    ),
    # Lost the first; the rival leads the second with 7o. Only the 1e beats it, and then my 3e
    # wins the third against his 6b; the 3e on the 7o loses the hand.
    P(
        "second-trick-must-beat",
        "4c 3e 1e | 3o 7o 6b",
        "0 truco; 1 quiero; 0 play 4c; 1 play 3o; 1 play 7o",
        "play 1e",
    ),
    # Won the first, lost the second, the rival's 12o on the table in the third: my 2b wins it
    # (and the accepted retruco, 3); the vale cuatro, which I own, only adds to it.
    P(
        "third-trick-win-retruco",
        "3o 4c 2b | 5c 6o 12o",
        "0 play 3o; 1 play 5c; 0 truco; 1 retruco; 0 quiero; 0 play 4c; 1 play 6o; 1 play 12o",
        "play 2b, vale-cuatro",
    ),
    # Won the first with a 3 and led the 2b; the rival bluffs a retruco while I keep the 1e for
    # the third: the hand cannot be lost. Accept (or raise).
    P(
        "matas-accept-retruco-bluff",
        "3c 1e 2b | 4c 5o 6b",
        "0 play 3c; 1 play 4c; 0 truco; 1 quiero; 0 play 2b; 1 retruco",
        "quiero, vale-cuatro",
    ),
    # Envido: I am mano with 33 (7e 6e), the most there is, ties go to the mano. The rival
    # raised to the falta envido: at 0-0 (both in malas) accepting wins the match.
    P("envido-33-accept-falta", "7e 6e 4b | 5o 4o 12c", "0 play 4b; 1 falta-envido", "quiero"),
    # The same 33 against an envido at 5-10, both in malas: every raise declined still gives the
    # 2 of the envido, accepted it gives more (the falta the match); quiero only 2. So raise;
    # which raise is the one the rival will call, and a rival who does not accept a falta as
    # loosely as an envido (the blueprint's) calls the smaller one more: any raise is right.
    P(
        "envido-33-raise",
        "7e 6e 4b | 5o 4o 12c",
        "0 play 4b; 1 envido",
        "envido, real-envido, falta-envido",
        score=(5, 10),
    ),
    # Mano with 33 at 0-0, the rival called real envido: accepting wins 3 (the falta more);
    # declining gives the rival 1.
    P(
        "envido-33-accept-real",
        "7e 6e 4b | 5o 4o 12c",
        "0 play 4b; 1 real-envido",
        "quiero, falta-envido",
    ),
    # Mano at the start with 33 of envido (7o 6o): a tanto call wins at least 1 and, accepted,
    # surely the envido; playing a card first gives that chance up.
    P("envido-33-call", "7o 6o 4e | 5c 11b 12e", "", "envido, real-envido, falta-envido"),
    # Accepting an envido with 33 as pie against a mano who called it: only another 33 held by
    # the mano could win. Quiero or a raise beat declining.
    P(
        "envido-33-pie-accept",
        "4c 5b 12o | 7e 6e 4b",
        "0 envido",
        "quiero, real-envido, falta-envido",
    ),
    # 6 points (4c 5o 6b, three suits) against a real envido: a loser; no quiero costs 1.
    P("envido-6-decline-real", "1e 7e 3c | 4c 5o 6b", "0 real-envido", "no-quiero"),
    # 6 points against a falta envido at 0-0 (both in malas): accepting loses the match almost
    # surely; declining costs 1.
    P("envido-6-decline-falta", "1e 7e 3c | 4c 5o 6b", "0 falta-envido", "no-quiero"),
    # 5 points (1e 4c 5o) against falta envido at 8-12, where the falta would end the match.
    P(
        "envido-5-decline-falta-malas",
        "6b 7b 3c | 1e 4c 5o",
        "0 falta-envido",
        "no-quiero",
        score=(8, 12),
    ),
    # The rival is at 29 of 30 and calls falta envido: declining gives him the point he needs,
    # so accept whatever the points (here 27).
    P(
        "falta-accept-when-decline-loses",
        "6b 4o 3c | 7c 10c 2e",
        "0 falta-envido",
        "quiero",
        score=(29, 20),
    ),
    # The rival at 28 calls envido; my 31 (7b 4b) as mano: accept or raise (envido envido,
    # real envido, falta), never decline.
    P(
        "envido-31-accept-at-28",
        "7b 4b 12e | 3o 2c 11c",
        "0 play 12e; 1 envido",
        "quiero, envido, real-envido, falta-envido",
        score=(20, 28),
    ),
    # I am at 29, one point from the match, and won the first with the 3c; the rival calls
    # truco on my 12b: accepted, the second or the third trick wins me the match; declined, it
    # gives him a point. Accept (quiero or retruco).
    P(
        "truco-accept-when-decline-loses",
        "3b 4o 5o | 3c 12b 6c",
        "0 play 4o; 1 play 3c; 1 play 12b; 0 truco",
        "quiero, retruco",
        score=(20, 29),
    ),
    # At 29-29 the next point wins the match: a truco declined hands it over; accept.
    P(
        "truco-29-29-accept",
        "2b 5c 6c | 3c 4o 12b",
        "0 play 2b; 1 play 3c; 1 play 4o; 0 truco",
        "quiero, retruco",
        score=(29, 29),
    ),
    # Four players, team 0 (seats 0 and 2) against team 1. Seat 1 holds 1e 1b 7o against a
    # truco from seat 0: accept.
    P(
        "2v2-matas-accept",
        "4o 5c 6b | 1e 1b 7o | 4e 5e 6e | 10o 11o 12o",
        "0 truco",
        "quiero, retruco",
        players=4,
    ),
    # Four players: seat 1 with 4c 5o 6e (the three lowest ranks, 6 of envido) against a truco
    # from the mano at once: decline.
    P(
        "2v2-nothing-decline-truco",
        "1e 7e 3c | 4c 5o 6e | 1b 7o 3e | 4b 5b 6o",
        "0 truco",
        "no-quiero, mazo",
        players=4,
    ),
]


def _decide(position: Position) -> list[tuple[str, float]]:
    lines = [
        f"players = {position.players}",
        "target = 30",
        f"score = [{position.score[0]}, {position.score[1]}]",
        f"mano = {position.mano}",
        "hands = [" + ", ".join(f'"{h}"' for h in position.hands) + "]",
        "actions = [" + ", ".join(f'"{a}"' for a in position.actions) + "]",
    ]
    history = in_card_order(notation.loads("\n".join(lines)))
    state = notation.replay(history).state
    seat = to_act(state)
    assert seat is not None and seat >= 0
    values = evaluate(observe(state, seat), worlds=WORLDS, seed=SEED)
    return sorted(((v.action, v.equity) for v in values), key=lambda v: -v[1])


@pytest.mark.slow
@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_the_right_action_is_ranked_first(position: Position) -> None:
    ranked = _decide(position)
    assert position.right <= {a for a, _ in ranked}, "a right action must be legal here"
    assert ranked[0][0] in position.right, ranked


def test_there_are_thirty_positions() -> None:
    assert len({p.name for p in POSITIONS}) >= 30

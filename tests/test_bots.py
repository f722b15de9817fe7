"""Bots: behaviour, not strength. Legal choices, no peeking at hidden cards, reproducibility."""

from __future__ import annotations

from random import Random

import pytest

from truco import notation
from truco.actions import DISCARD, Action, Deal, Verb
from truco.bots import BOTS, LEVELS, make_bot
from truco.bots.base import Bot, Situation
from truco.bots.blueprint_bot import BlueprintBot
from truco.bots.context import ctx_of_view
from truco.bots.equity import equity, equity_table, match_equity, race_equity
from truco.bots.expert import ExpertBot
from truco.bots.policy import choose_discard
from truco.bots.strength import win_prob
from truco.bots.worlds import sample_worlds
from truco.cards import DECK, Card, parse_cards
from truco.engine import CHANCE, apply, deal, legal_actions, to_act
from truco.errors import TrucoError
from truco.rules import Rules, Variant
from truco.state import OVER, State, new_match
from truco.view import observe

SMALL_WORLDS, SMALL_TRIES = 3, 60
"""The search budget of the bots under test: these tests check what a bot may do (legal, blind
to hidden cards, repeatable), which no budget changes; the full budget has its own tests
(``test_full_budget_*``)."""


def small(name: str) -> Bot:
    """The bot by name, every search in it with a small budget so that tests stay quick."""
    if name == "expert-blind":
        return ExpertBot(worlds=SMALL_WORLDS, tries=SMALL_TRIES, reads=False)
    if LEVELS.get(name, name) == "expert":
        return ExpertBot(worlds=SMALL_WORLDS, tries=SMALL_TRIES)
    return shrunk(make_bot(name))


def shrunk(bot: Bot) -> Bot:
    """``bot`` with its search (its own, or that of the bot it falls back on where no blueprint
    covers the table) at the small budget. What it models stays as it is: blueprint or rules of
    thumb for the other seats, reading, señas, tell, rollout style; only fewer worlds are
    sampled and tried (``by_mode``, the worlds by mode, is a budget too)."""
    if isinstance(bot, ExpertBot):
        bot.worlds, bot.tries, bot.by_mode = SMALL_WORLDS, SMALL_TRIES, None
    if isinstance(bot, BlueprintBot) and bot.fallback is not None:
        shrunk(bot.fallback)
    return bot


def play_out(rules: Rules, bots: list[Bot], seed: int, max_actions: int = 2000) -> int:
    """Play a match, checking every bot choice is legal; returns the number of bot choices."""
    return play_match(rules, bots, seed, max_actions)[1]


def play_match(
    rules: Rules, bots: list[Bot], seed: int, max_actions: int = 5000
) -> tuple[State, int]:
    """Play a match, checking every bot choice is legal; the last state and the bot choices."""
    rng = Random(seed)
    state = new_match(rules)
    count = 0
    while count < max_actions:
        actor = to_act(state)
        if actor is None:
            break
        if actor == CHANCE:
            state = deal(state, rng).state
            continue
        legal = legal_actions(state)
        action = bots[actor].choose(Situation(observe(state, actor), legal), rng)
        assert action in legal, f"{bots[actor].name} chose {action} not in {legal}"
        state = apply(state, action).state
        count += 1
    return state, count


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("flor", [False, True])
def test_bots_choose_only_legal_actions(name: str, players: int, flor: bool) -> None:
    rules = Rules(players=players, flor=flor, target=15 if name.startswith("expert") else 30)
    for seed in range(2 if name.startswith("expert") else 4):
        # The bot holds every other seat; random players on the rest make odd states.
        bots = [small(name) if s % 2 == seed % 2 else make_bot("random") for s in range(players)]
        assert play_out(rules, bots, seed) > 0
    bots = [small(name) for _ in range(players)]
    assert play_out(rules, bots, 99) > 0


# Short matches of each variant: pata de gallo to 10, destantado with 3 porotos, pica-pica to 15
# (1v1 rounds while the leader has 5 to 10 points).
VARIANTS = [
    Rules(variant="pata_de_gallo", target=10),
    Rules(variant="pata_de_gallo", target=10, flor=True),
    Rules(variant="destantado", porotos=3),
    Rules(variant="pica_pica", target=15),
    Rules(variant="pica_pica", target=15, flor=True),
    Rules(game="paulista"),
    Rules(game="paulista", players=4),
    Rules(game="paulista", players=6, manilhas="velha"),
]


@pytest.mark.parametrize("name", sorted({*BOTS, *LEVELS}))
@pytest.mark.parametrize(
    "rules", VARIANTS, ids=lambda r: f"{r.variant}{r.players}{'-flor' if r.flor else ''}"
)
def test_bots_play_every_variant(name: str, rules: Rules) -> None:
    expert = LEVELS.get(name, name).startswith("expert")
    players = rules.players
    for seed in range(1 if expert else 3):
        # The bot in some seats, random players in the others, then the bot everywhere.
        bots = [small(name) if s % 2 == seed % 2 else make_bot("random") for s in range(players)]
        state, count = play_match(rules, bots, seed)
        assert count > 0 and state.phase == OVER
        state, count = play_match(rules, [small(name) for _ in range(players)], 50 + seed)
        assert count > 0 and state.phase == OVER
        assert 0 <= state.winner < rules.scorers


def test_levels_map_to_bots() -> None:
    assert set(LEVELS) >= {"facil", "normal", "dificil", "experto"}
    for level in LEVELS:
        assert make_bot(level.upper()).name == LEVELS[level]
    with pytest.raises(TrucoError):
        make_bot("nobody")


def _random_midhand_state(rules: Rules, rng: Random, steps: int) -> State:
    low = 1 if rules.variant == "destantado" else 0
    high = rules.target if rules.game == "paulista" else 25  # Paulista: to 12
    score = tuple(rng.randrange(low, high) for _ in range(rules.scorers))
    pica = rng.choice((-1, 0, 1, 2)) if rules.variant == "pica_pica" else -1
    mano = rng.randrange(rules.players)
    state = deal(new_match(rules, score=score, mano=mano, pica=pica), rng).state
    for _ in range(steps):
        actor = to_act(state)
        if actor is None or actor == CHANCE:
            break
        state = apply(state, rng.choice(legal_actions(state))).state
    return state


def _scramble(state: State, seat: int, rng: Random) -> State | None:
    """The same hand with the other seats' unplayed cards (and another pie's discard, in pata de
    gallo) swapped for unseen ones, replayed from the deal with the same actions; None when the
    history would not replay (e.g. a flor)."""
    players = state.rules.players
    discards = {who: a.card for who, a in state.log if a.verb is Verb.DISCARD and who != seat}
    hidden = {c for s in range(players) if s != seat for c in state.hands[s]}
    hidden |= {c for c in discards.values() if c is not None}
    played = {c for s in range(players) for c in state.dealt[s]} - hidden
    if observe(state, seat).partners:
        return None  # a mão de onze: the seat has seen his partners' cards
    pool = [c for c in DECK if c not in played and c != state.vira]
    rng.shuffle(pool)
    new_hands: list[tuple[Card, ...]] = []
    new_discards: dict[int, Action] = {}
    it = iter(c for c in pool if c not in state.dealt[seat])
    for s in range(players):
        if s == seat:
            new_hands.append(state.dealt[s])
            continue
        kept = [c for c in state.dealt[s] if c not in state.hands[s] and c != discards.get(s)]
        fresh = [next(it) for _ in state.hands[s]]
        if s in discards:
            new_discards[s] = DISCARD[next(it)]
            fresh.append(new_discards[s].card)  # type: ignore[arg-type]
        new_hands.append(tuple(sorted(kept + fresh)))
    score = tuple(a - b for a, b in zip(state.score, state.hand_points, strict=True))
    start = new_match(state.rules, mano=state.mano, score=score, pica=state.pica)
    vira = DECK[state.vira] if state.vira >= 0 else None
    s2 = apply(start, Deal(tuple(new_hands), vira)).state
    for who, action in state.log:
        if action.verb.value == "tapada":
            return None
        if who in new_discards and action.verb is Verb.DISCARD:
            action = new_discards[who]
        if action not in s2.legal or to_act(s2) != who:
            return None
        s2 = apply(s2, action).state
    if s2.declared != state.declared or to_act(s2) != to_act(state):
        return None
    return s2


TABLES = [
    Rules(players=2),
    Rules(players=4, flor=True),
    Rules(players=6),
    Rules(players=2, flor=True),
    Rules(variant="pata_de_gallo"),
    Rules(variant="destantado"),
    Rules(variant="pica_pica", flor=True),
    Rules(variant="pata_de_gallo", flor=True),
    Rules(game="paulista"),
    Rules(game="paulista", players=4),
    Rules(game="paulista", players=6, manilhas="velha"),
]
"""Tables for the tests on random positions: team play, every variant and Truco Paulista."""


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_never_read_hidden_cards(name: str) -> None:
    rng = Random(3)
    checked = 0
    for i in range(400):
        rules = TABLES[i % len(TABLES)]
        players = rules.players
        state = _random_midhand_state(rules, rng, rng.randrange(6))
        seat = to_act(state)
        if seat is None or seat == CHANCE or len(legal_actions(state)) < 2:
            continue
        other = _scramble(state, seat, rng)
        if other is None or [state.hands[s] for s in range(players) if s != seat] == [
            other.hands[s] for s in range(players) if s != seat
        ]:
            continue
        v1, v2 = observe(state, seat), observe(other, seat)
        # The view itself must not change (only hand_no may: the replay starts a new match).
        assert v1._replace(hand_no=0) == v2._replace(hand_no=0)
        bot = small(name)
        a1 = bot.choose(Situation(v1, legal_actions(state)), Random(i))
        a2 = bot.choose(Situation(v2._replace(hand_no=v1.hand_no), legal_actions(other)), Random(i))
        assert a1 == a2
        checked += 1
        if checked >= (16 if name.startswith("expert") else 60):
            break
    assert checked >= 5


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_are_reproducible_with_a_seed(name: str) -> None:
    rules = Rules(players=2, target=15)

    def trace(seed: int) -> list[str]:
        rng = Random(seed)
        bots = [small(name), make_bot("simple")]
        state = new_match(rules)
        out: list[str] = []
        while (actor := to_act(state)) is not None:
            if actor == CHANCE:
                state = deal(state, rng).state
                continue
            action = bots[actor].choose(Situation(observe(state, actor), legal_actions(state)), rng)
            out.append(str(action))
            state = apply(state, action).state
        return out

    assert trace(5) == trace(5)


def test_expert_worlds_agree_with_the_view() -> None:
    rng = Random(11)
    found = 0
    for i in range(240):
        rules = TABLES[i % len(TABLES)]
        state = _random_midhand_state(rules, rng, rng.randrange(8))
        seat = to_act(state)
        if seat is None or seat == CHANCE:
            continue
        view = observe(state, seat)
        worlds = sample_worlds(view, Random(i), 4, 400)
        for world, weight in worlds:
            seen = observe(world, seat)
            assert weight > 0
            assert seen.hand == view.hand
            assert seen.plays == view.plays and seen.tricks == view.tricks
            assert seen.declared == view.declared
            assert seen.legal == view.legal
            assert seen.score == view.score
            # The variants: the same sides, stakes, seats out of the hand and hand sizes.
            assert seen.teams == view.teams and seen.stakes == view.stakes
            assert seen.retired == view.retired and seen.pica == view.pica
            assert seen.hand_sizes == view.hand_sizes and seen.history == view.history
            # Truco Paulista: the same vira, and a mão de onze's partners' cards as seen.
            assert seen.vira == view.vira and seen.partners == view.partners
        found += bool(worlds)
    assert found > 100


def test_match_equity_table() -> None:
    table = equity_table(30)
    assert abs(table[0][0] - 0.5) < 1e-9
    assert abs(table[15][15] - 0.5) < 1e-9
    assert table[29][0] > 0.99 and table[0][29] < 0.01
    for a in range(29):
        assert table[a + 1][10] >= table[a][10]
    assert equity(30, 30, 5) == 1.0 and equity(30, 5, 30) == 0.0


def test_hand_strength_is_a_probability() -> None:
    rng = Random(2)
    for _ in range(200):
        state = _random_midhand_state(Rules(), rng, rng.randrange(8))
        seat = to_act(state)
        if seat is None or seat == CHANCE:
            continue
        p = win_prob(ctx_of_view(observe(state, seat)))
        assert 0.0 <= p <= 1.0


def test_card_order_rules_of_thumb() -> None:
    from truco.bots.context import Ctx
    from truco.bots.strength import choose_card
    from truco.cards import parse_cards

    def ctx(hand: str, plays: tuple[tuple[int, str], ...], seat: int, players: int = 2) -> Ctx:
        return Ctx(
            seat, Rules(players=players), (0, 0), 0, tuple(s % 2 for s in range(players)),
            parse_cards(hand), 0, -1,
            tuple((s, Card.parse(c), False) for s, c in plays), (), 0, 1, None, False, (), (),
        )  # fmt: skip

    # Win cheap: the lowest card that beats the table.
    assert str(choose_card(ctx("1e 3o 5c", ((0, "2b"),), 1))) == "3o"
    # Cannot win: throw the lowest.
    assert str(choose_card(ctx("4c 5c 6o", ((0, "1e"),), 1))) == "4c"
    # A partner holds the trick (2v2: seat 2 is seat 0's partner): throw the lowest.
    assert str(choose_card(ctx("1e 3o 5c", ((0, "1b"), (1, "4o")), 2, players=4))) == "5c"
    # Leading the first trick with a strong second card: keep the best, lead the second.
    assert str(choose_card(ctx("1e 3o 5c", (), 0))) == "3o"


def test_individual_match_equity() -> None:
    gallo = Rules(variant="pata_de_gallo")
    teams = (0, 0, 1)
    even = [match_equity(gallo, (10, 10, 10), s, teams) for s in range(3)]
    assert even == pytest.approx([1 / 3] * 3)
    # More points are better, a rival's points are worse; reaching the target wins.
    assert match_equity(gallo, (12, 10, 10), 0, teams) > even[0]
    assert match_equity(gallo, (10, 12, 10), 0, teams) < even[0]
    assert match_equity(gallo, (30, 10, 10), 0, teams) == 1.0
    assert match_equity(gallo, (29, 30, 10), 0, teams) == 0.0
    # Destantado: porotos left; fewer are better, an empty pile wins; a grown pile is worse.
    dest = Rules(variant="destantado")
    own = (0, 1, 2)
    assert match_equity(dest, (10, 10, 10), 2, own) == pytest.approx(1 / 3)
    assert (
        match_equity(dest, (8, 10, 10), 0, own) > 1 / 3 > match_equity(dest, (13, 10, 10), 0, own)
    )
    assert match_equity(dest, (0, 3, 4), 0, own) == 1.0
    assert race_equity([5, 5, 50], 2) < 0.01
    # Team play is the two-team table.
    assert match_equity(Rules(), (20, 10), 1, (0, 1)) == equity(30, 10, 20)
    for rules in (gallo, dest):
        for score in ((3, 7, 11), (1, 1, 9), (25, 2, 9)):
            assert sum(match_equity(rules, score, s, teams) for s in range(3)) == pytest.approx(1)


def test_the_pie_keeps_the_best_three() -> None:
    from truco.bots.context import ctx_of_state

    rules = Rules(variant="pata_de_gallo")
    cases = [
        ("1e 1b 7e 4c", "4c"),  # keep the three best truco cards
        ("7o 6o 4c 5b", "4c"),  # keep 33 of envido, and the better of the other two
        ("4e 5e 6e 7e", "4e"),  # four of a suit: the best envido and truco cards
    ]
    for cards, discard in cases:
        pie = 2  # seat 0 is mano, so seat 2 plays last and holds four cards
        hands = [parse_cards("1o 2c 3b"), parse_cards("4o 5c 6b"), parse_cards(cards)]
        state = apply(new_match(rules), Deal(tuple(hands))).state
        assert to_act(state) == pie and len(state.legal) == 4
        ctx = ctx_of_state(state, pie)
        assert str(choose_discard(ctx, state.legal)) == f"discard {discard}"
        assert (
            str(make_bot("simple").choose(Situation(observe(state, pie), state.legal), Random(1)))
            == f"discard {discard}"
        )
        assert (
            ExpertBot(worlds=4).choose(Situation(observe(state, pie), state.legal), Random(1))
            in state.legal
        )


def test_destantado_answers_are_sensible() -> None:
    """Simple answers a call yes or no: it accepts an envido only with points and a truco only
    with a hand that wins often enough. (Since issue 17 the answers also hold the raises of
    ordinary truco.)"""
    rules = Rules(variant="destantado")
    bot = make_bot("simple")
    for mine, expect in (("7e 6e 2o", "quiero"), ("4e 5o 6c", "no-quiero")):
        hands = [parse_cards("1o 2c 3b"), parse_cards(mine), parse_cards("4o 5c 6b")]
        state = apply(new_match(rules), Deal(tuple(hands))).state
        state = apply(state, Action.parse("envido")).state
        legal = [str(a) for a in state.legal]
        assert to_act(state) == 1
        assert legal == ["quiero", "no-quiero", "envido", "real-envido", "falta-envido"]
        assert str(bot.choose(Situation(observe(state, 1), state.legal), Random(0))) == expect
    for mine, expect in (("1e 1b 7e", "quiero"), ("4e 5o 4c", "no-quiero")):
        hands = [parse_cards("1o 2c 3b"), parse_cards(mine), parse_cards("6o 5c 6b")]
        state = apply(new_match(rules), Deal(tuple(hands))).state
        state = apply(state, Action.parse("truco")).state
        assert str(bot.choose(Situation(observe(state, 1), state.legal), Random(0))) == expect


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 6])
def test_full_budget_expert_plays_legal_matches(players: int) -> None:
    rules = Rules(players=players, flor=True)
    bots = [make_bot("expert") if s % 2 else make_bot("simple") for s in range(players)]
    assert play_out(rules, bots, players) > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["pata_de_gallo", "destantado", "pica_pica"])
def test_full_budget_expert_plays_legal_variant_matches(variant: Variant) -> None:
    rules = Rules(variant=variant, flor=variant != "destantado")
    bots = [make_bot("expert") if s % 2 else make_bot("simple") for s in range(rules.players)]
    state, count = play_match(rules, bots, 3)
    assert count > 0 and state.phase == OVER


def test_the_expert_samples_worlds_of_a_hand_written_out_of_card_order() -> None:
    """A hand history lists a seat's cards in any order (a person wrote it); the expert's worlds
    (and the coach's, which uses them) must not depend on the engine's dealing order."""
    history = notation.loads(
        'players = 2\ntarget = 30\nscore = [0, 0]\nmano = 0\nhands = ["7o 1e 4c", "5b 12o 3e"]\n'
        'actions = ["0 play 4c"]\n'
    )
    state, _ = list(notation.states(history))[-1]
    assert sample_worlds(observe(state, 1), Random(1), 20, 200)

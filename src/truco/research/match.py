"""A match (or one hand) as a sequential game with explicit chance, on the real engine.

The engine deals a whole hand in one step (``truco.deal``); research libraries want the deal as
chance nodes with their outcomes. Here each chance node deals one card: the seats in playing
order get theirs one at a time (three, four for the pie in pata de gallo, none for a seat sitting
out a pica-pica 1v1 hand), then in Truco Paulista the vira is turned. Each chance outcome is a
card (its number in ``DECK``), uniform over the cards not dealt yet; once the last is dealt, each
seat's cards are sorted (as the engine's own deal gives them) and handed to ``truco.apply`` as a
``Deal``. Every other step is an action by its number (``research.actions``) through
``truco.apply``: there is no second implementation of any rule.

What a seat knows comes from ``observe`` only: its information state is the record of every hand
it has seen (the cards it saw dealt, each action as it saw it, the declarations, the cards shown,
the points) and its observation is the current view.
"""

from __future__ import annotations

from random import Random
from typing import Final

from truco.actions import DISCARD, TAPADA, Deal, Verb
from truco.cards import DECK, envido_points, flor_points
from truco.engine import apply, hand_sizes, to_act
from truco.errors import IllegalActionError
from truco.manilhas import LIMPO_DECK
from truco.research.actions import ACTION_ID, ACTIONS, NUM_ACTIONS, action_text
from truco.rooms import room_of
from truco.rules import Rules
from truco.state import DEAL, OVER, PLAY, State, new_match
from truco.view import SeatView, observe

CHANCE: Final = -1
"""``Match.to_act`` while a card is being dealt."""
RETURNS: Final = ("match", "hand")
"""What the returns measure: the match's result (the game is the whole match) or one hand's
points (the game ends with its first hand)."""


class Match:
    """One game: a match, or its first hand when ``returns == "hand"``.

    ``history`` holds every step taken, chance cards and actions, by number, in order: replaying
    it on a new ``Match`` of the same rules gives the same match (``replay``).
    """

    __slots__ = (
        "_dealing",
        "closed",
        "dealt_seen",
        "hand_from",
        "hand_start",
        "hands_done",
        "history",
        "returns_mode",
        "rules",
        "seen_cards",
        "seen_whole",
        "sizes",
        "state",
        "with_vira",
    )

    def __init__(self, rules: Rules, returns: str = "match", start: State | None = None) -> None:
        """A new game of ``rules``; ``start``: from that engine state, about to deal a hand
        (``new_match(rules, mano=..., score=...)``), instead of the match's start."""
        if returns not in RETURNS:
            raise ValueError(f"returns must be one of {RETURNS}, not {returns!r}")
        if start is not None and (start.rules != rules or start.phase != 0):
            raise ValueError("a game starts from a state of its rules about to deal a hand")
        self.rules = rules
        self.returns_mode = returns
        self.state: State = new_match(rules) if start is None else start
        self.history: list[int] = []
        self.closed: list[list[str]] = [[] for _ in range(rules.players)]
        """Each seat's record of each finished hand (``_record``)."""
        self.dealt_seen: tuple[str, ...] = ("",) * rules.players
        """What each seat saw as the current hand was dealt."""
        self.seen_cards: tuple[tuple[int, ...], ...] = ((),) * rules.players
        """The cards each seat saw it was dealt this hand (none in a blind hand)."""
        self.seen_whole: tuple[tuple[int, ...], ...] = ((),) * rules.players
        """The seats whose every card of this hand each seat saw dealt: its own (unless the hand
        is blind) and its partners' in a mão de onze."""
        self.hand_start: State = self.state
        """The engine's state before the current hand's deal."""
        self.hand_from = 0
        """Where the current hand starts in ``history``."""
        self.hands_done = 0
        """The hands played to their end in this game."""
        self._dealing: list[int] = []
        self.sizes: tuple[int, ...] = ()
        self.with_vira = False
        """Whether a vira is turned after the hand's cards (Truco Paulista with the vira)."""
        self._start_deal()

    # -- the game's shape ------------------------------------------------------------------

    def copy(self) -> Match:
        """An independent copy (the engine's states are immutable and shared)."""
        other = object.__new__(Match)
        other.rules = self.rules
        other.returns_mode = self.returns_mode
        other.state = self.state
        other.history = list(self.history)
        other.closed = [list(c) for c in self.closed]
        other.dealt_seen = self.dealt_seen
        other.seen_whole = self.seen_whole
        other.seen_cards = self.seen_cards
        other.hand_start = self.hand_start
        other.hand_from = self.hand_from
        other.hands_done = self.hands_done
        other._dealing = list(self._dealing)
        other.sizes = self.sizes
        other.with_vira = self.with_vira
        return other

    def is_over(self) -> bool:
        """Whether the game has ended: the match, or in ``hand`` mode its first hand."""
        if self.state.phase == OVER:
            return True
        return self.returns_mode == "hand" and self.hands_done > 0

    def _between_hands(self) -> bool:
        return self.state.phase == DEAL

    def to_act(self) -> int | None:
        """The seat to act, ``CHANCE`` while a card is dealt, None when the game is over."""
        if self.is_over():
            return None
        if self._between_hands():
            return CHANCE
        seat = to_act(self.state)
        assert seat is not None and seat >= 0
        return seat

    def deck(self) -> tuple[int, ...]:
        """The cards this game deals from (the baralho limpo leaves out the 4s to 7s)."""
        cards = LIMPO_DECK if self.rules.baralho == "limpo" else DECK
        return tuple(int(c) for c in cards)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards the next chance node may deal, each equally likely."""
        if self.to_act() != CHANCE:
            raise IllegalActionError("no card is being dealt now")
        dealt = set(self._dealing)
        left = [c for c in self.deck() if c not in dealt]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def legal(self) -> list[int]:
        """The numbers of the legal actions of the seat to act, ascending (empty at chance)."""
        if self.to_act() in (None, CHANCE):
            return []
        return sorted(ACTION_ID[a] for a in self.state.legal)

    # -- stepping ---------------------------------------------------------------------------

    def step(self, number: int) -> None:
        """Deal card ``number`` at a chance node, else take action ``number``."""
        actor = self.to_act()
        if actor is None:
            raise IllegalActionError(f"the game is over: no step {number} can be taken")
        if actor == CHANCE:
            self._deal_card(number)
            return
        if not 0 <= number < NUM_ACTIONS:
            raise IllegalActionError(f"there is no action {number}")
        action = ACTIONS[number]
        if action not in self.state.legal:
            raise IllegalActionError(
                f"seat {actor} cannot {action_text(number)} now (legal: "
                f"{', '.join(str(a) for a in self.state.legal)})"
            )
        self.state = apply(self.state, action).state
        self.history.append(number)
        if self.state.phase != PLAY:  # the hand is over
            self._close_hand()
            if not self.is_over():
                self._start_deal()

    def _start_deal(self) -> None:
        state = self.state
        self.hand_start = state
        self.hand_from = len(self.history)
        self._dealing = []
        self.sizes = hand_sizes(state)
        self.with_vira = room_of(self.rules).turns_vira(self.rules)

    def _deal_card(self, card: int) -> None:
        if not isinstance(card, int) or not 0 <= card < len(DECK):
            raise IllegalActionError(f"{card!r} is not a card")
        if card in self._dealing or card not in self.deck():
            raise IllegalActionError(f"{DECK[card]} cannot be dealt now: it is dealt already")
        self._dealing.append(card)
        self.history.append(card)
        if len(self._dealing) < sum(self.sizes) + self.with_vira:
            return
        vira = DECK[self._dealing[-1]] if self.with_vira else None
        deal = Deal(tuple(tuple(DECK[c] for c in sorted(h)) for h in self._dealt_hands()), vira)
        self.state = apply(self.state, deal).state
        views = [observe(self.state, s) for s in range(self.rules.players)]
        self.dealt_seen = tuple(_dealt_line(v) for v in views)
        self.seen_cards = tuple(tuple(int(c) for c in v.hand) for v in views)
        self.seen_whole = tuple(
            tuple(sorted({*(() if v.blind else (s,)), *(who for who, _ in v.partners)}))
            for s, v in enumerate(views)
        )

    def _close_hand(self) -> None:
        self.hands_done += 1
        for seat in range(self.rules.players):
            self.closed[seat].append(self._record(seat))

    # -- what a seat knows ------------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """``observe`` of the engine's state for ``seat``."""
        return observe(self.state, seat)

    def seen_dealt(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` saw it was dealt this hand."""
        return self.seen_cards[seat]

    def _record(self, seat: int) -> str:
        """The current (or just finished) hand as ``seat`` saw it."""
        view = observe(self.state, seat)
        start = self.hand_start
        moves = " ".join(f"{who}:{text}" for who, text in view.history)
        declared = _declared(view)
        shown = " ".join(f"{who}:{' '.join(map(str, cards))}" for who, cards in view.shown)
        line = (
            f"hand {start.hand_no + 1} score {'-'.join(map(str, start.score))} "
            f"mano {start.mano} | {self.dealt_seen[seat]} | {moves}"
        )
        if declared:
            line += f" | declared {declared}"
        if shown:
            line += f" | shown {shown}"
        if self.state.phase != PLAY:
            line += f" | points {'-'.join(map(str, view.hand_points))}"
        else:
            # Who is to act and what he may do can tell of unseen cards (an unanswered flor
            # means the rival has none): part of what the seat knows now.
            awaited = view.awaited
            line += f" | to-act {view.to_act}"
            if awaited is not None:
                line += f" awaits {awaited.verb} {awaited.caller}>{awaited.responder}"
            if view.onze_call is not None:
                line += f" onze {view.onze_call}"
            if view.legal:
                line += f" legal {','.join(str(a) for a in view.legal)}"
        return line

    def information_state(self, seat: int) -> str:
        """Everything ``seat`` has seen of the game, hand by hand, as text: two states it cannot
        tell apart give the same text."""
        lines = [f"seat {seat}", *self.closed[seat]]
        if not self.is_over() and not self._between_hands():
            lines.append(self._record(seat))
        elif self._dealing:
            lines.append(f"dealing {len(self._dealing)}")
        return "\n".join(lines)

    def observation(self, seat: int) -> str:
        """What ``seat`` sees now (its view, not its memory of earlier hands), as text."""
        view = observe(self.state, seat)
        parts = [
            f"seat {seat}",
            f"score {'-'.join(map(str, view.score))}",
            f"hand {view.hand_no}",
            f"mano {view.mano}",
            f"cards {' '.join(map(str, view.hand)) or '-'}",
        ]
        if view.vira is not None:
            parts.append(f"vira {view.vira}")
        for who, cards in view.partners:
            parts.append(f"partner {who} {' '.join(map(str, cards))}")
        table = [
            " ".join(f"{who}:{'??' if card is None else card}" for who, card, _ in trick)
            for trick in (*view.tricks, view.plays)
        ]
        parts.append(f"tricks {' / '.join(t for t in table if t) or '-'}")
        parts.append(f"results {' '.join(map(str, view.results)) or '-'}")
        parts.append(f"truco {view.hand_value}")
        if view.awaited is not None:
            parts.append(f"awaits {view.awaited.verb} {view.awaited.caller}")
        if view.onze_call is not None:
            parts.append(f"onze {view.onze_call}")
        parts.append(f"chain {' '.join(map(str, view.chain)) or '-'}")
        if view.flor_chain:
            parts.append(f"flor {' '.join(map(str, view.flor_chain))}")
        if view.declared:
            parts.append(f"declared {_declared(view)}")
        if view.retired:
            parts.append(f"out {' '.join(map(str, view.retired))}")
        if self._dealing:
            parts.append(f"dealing {len(self._dealing)}")
        parts.append(f"to-act {view.to_act}")
        return " | ".join(parts)

    # -- the result -------------------------------------------------------------------------

    def scorer_of(self, seat: int) -> int:
        """The score a seat's points go to: its own (scores per player) or its team's."""
        return seat if self.rules.individual else self.state.teams[seat]

    def returns(self) -> list[float]:
        """Each seat's return; zero until the game is over.

        ``match``: the winner's side +1 each; with two sides the other -1 each, with a score per
        player each loser ``-1/(n-1)``. ``hand``: a seat's own side's points in the hand less the
        mean of the other sides' (porotos passed, in destantado, count as points won).
        """
        n = self.rules.players
        if not self.is_over():
            return [0.0] * n
        scorers = self.rules.scorers
        if self.returns_mode == "match":
            winner = self.state.winner
            lose = -1.0 / (scorers - 1)
            return [1.0 if self.scorer_of(s) == winner else lose for s in range(n)]
        sign = -1 if self.state.rules.variant == "destantado" else 1
        gained = [sign * p for p in self.state.hand_points]
        total = sum(gained)
        out = []
        for s in range(n):
            own = gained[self.scorer_of(s)]
            out.append(float(own - (total - own) / (scorers - 1)))
        return out

    # -- resampling -------------------------------------------------------------------------

    def resample(self, seat: int, rng: Random, tries: int = 100_000) -> Match:
        """A game ``seat`` cannot tell from this one, the cards of this hand it has not seen
        drawn uniformly among the deals that agree with all it saw: the cards played face up,
        its own and (in a mão de onze) its partners', the vira, the declared envido and flor,
        and every action legal where it was taken. Earlier hands are kept as they were: nothing
        of them is still in play."""
        if self.is_over() or self._between_hands():
            return self.copy()
        target = self.information_state(seat)
        players = self.rules.players
        view = observe(self.state, seat)
        moves = self.history[self.hand_from + len(self._dealing) :]
        real = self._dealt_hands()
        known: list[list[int]] = [[] for _ in range(players)]
        whole = set(self.seen_whole[seat])
        for s in whole:
            known[s] = list(real[s])
        for who, card, _face_down in (p for trick in (*view.tricks, view.plays) for p in trick):
            if card is not None and who not in whole:
                known[who].append(int(card))
        vira = self._dealing[-1] if self.with_vira else None
        seen = {c for cards in known for c in cards}
        if vira is not None:
            seen.add(vira)
        hidden = [self.sizes[s] - len(known[s]) for s in range(players)]
        pool = [c for c in self.deck() if c not in seen]
        exact = [
            (who, points, flor)
            for who, points, flor in view.declared
            if points is not None and who not in whole and self.sizes[who] == 3
        ]
        for _ in range(tries):
            rng.shuffle(pool)
            drawn, at = [], 0
            for s in range(players):
                drawn.append(pool[at : at + hidden[s]])
                at += hidden[s]
            if not all(_tantos_agree(known[w] + drawn[w], p, f) for w, p, f in exact):
                continue
            world = self._replay_hand(known, drawn, vira, moves, whole)
            if world is not None and world.information_state(seat) == target:
                return world
        raise IllegalActionError(f"no deal agreeing with seat {seat}'s view in {tries} draws")

    def _dealt_hands(self) -> list[tuple[int, ...]]:
        """The cards dealt to each seat this hand, in the order dealt."""
        hands, at = [], 0
        for size in self.sizes:
            hands.append(tuple(self._dealing[at : at + size]))
            at += size
        return hands

    def _replay_hand(
        self,
        known: list[list[int]],
        drawn: list[list[int]],
        vira: int | None,
        moves: list[int],
        whole: set[int],
    ) -> Match | None:
        """This game with the current hand dealt ``known + drawn`` to each seat and its moves
        replayed, or None where one of them is not legal there. A face-down card or discard of
        a seat whose cards were not all seen becomes the next of its ``drawn`` cards."""
        world = self.copy()
        world.state = self.hand_start
        world.history = self.history[: self.hand_from]
        world.hands_done = self.hands_done
        world._start_deal()
        for s in range(len(known)):
            for card in sorted(known[s] + drawn[s]):
                world._deal_card(card)
        if vira is not None:
            world._deal_card(vira)
        unseen = [list(cards) for cards in drawn]
        try:
            for number in moves:
                actor = world.to_act()
                if actor is None or actor < 0:
                    return None
                action = ACTIONS[number]
                if action.verb in _HIDDEN_VERBS and actor not in whole:
                    if not unseen[actor]:
                        return None
                    number = ACTION_ID[_HIDDEN_VERBS[action.verb][unseen[actor].pop(0)]]
                world.step(number)
        except IllegalActionError:
            return None
        return world


_HIDDEN_VERBS: Final = {Verb.TAPADA: TAPADA, Verb.DISCARD: DISCARD}
"""The moves whose card the other seats do not see."""


def _tantos_agree(hand: list[int], points: int, flor: bool) -> bool:
    cards = tuple(DECK[c] for c in hand)
    if len(cards) != 3:
        return True
    return (flor_points(cards) if flor else envido_points(cards)) == points


def _declared(view: SeatView) -> str:
    """The envido and flor declarations as text: ``seat:points``, ``f`` for a flor."""
    return " ".join(
        f"{who}:{'buenas' if points is None else points}{'f' if flor else ''}"
        for who, points, flor in view.declared
    )


def _dealt_line(view: SeatView) -> str:
    """What a seat sees as a hand is dealt: its cards (none in a blind hand), its partners' in
    a mão de onze, the vira."""
    line = f"dealt {' '.join(map(str, view.hand)) or '-'}"
    for who, cards in view.partners:
        line += f" partner {who} {' '.join(map(str, cards))}"
    if view.vira is not None:
        line += f" vira {view.vira}"
    return line


def replay(rules: Rules, history: list[int], returns: str = "match") -> Match:
    """The game reached by taking the steps of ``history`` from the start."""
    match = Match(rules, returns)
    for number in history:
        match.step(number)
    return match

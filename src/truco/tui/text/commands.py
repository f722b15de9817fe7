"""What a player types, read back into an action: the words of the line-based game's menu.

``jugar el 12 de espada``, ``12 de espada``, ``tapar el 4 de copa``, ``ancho de espada``,
``quiero retruco``, ``me voy al mazo``: the words are ``words`` (``LABELS``, ``SAY``,
``CARD_VERBS``, ``NICKNAMES``), compared without case, accents, punctuation or articles, so
that what the menu shows can be typed back as it reads.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from truco.actions import Action, Verb
from truco.cards import RANKS, Card
from truco.tui.text.words import CARD_VERBS, LABELS, NICKNAMES, SAY, SUIT_NAME

_ARTICLES = frozenset({"el", "la", "los", "las", "de", "del", "un", "una"})
_SUITS = {name: suit for suit, name in SUIT_NAME.items()}
_SPOKEN = {
    # how a player may put it besides the menu's words (accents and case do not matter)
    Verb.PLAY: ("juego", "juega", "tiro", "tirar", "tira", "play"),
    Verb.TAPADA: ("tapo", "tapa", "tapada", "tapado"),
    Verb.DISCARD: ("descarto", "descarta", "discard"),
    Verb.MAZO: ("al mazo", "me voy", "irse al mazo", "me fui al mazo"),
    Verb.VALE_CUATRO: ("vale 4", "quiero vale 4"),
}


def words_key(typed: str) -> tuple[str, ...]:
    """The words that count in what was typed: lower case, no accents, punctuation or articles,
    suits in the singular (``¡Quiero Retruco!`` and ``quiero retruco`` are one key)."""
    decomposed = unicodedata.normalize("NFD", typed.lower())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    words = [w for w in re.split(r"[^a-z0-9]+", bare) if w and w not in _ARTICLES]
    return tuple(w[:-1] if w[:-1] in _SUITS else w for w in words)


_CALLS: dict[tuple[str, ...], Verb] = {
    words_key(said): verb
    for verb, label in LABELS.items()
    for said in (label, SAY[verb], *_SPOKEN.get(verb, ()))
}
_CARD_VERB_WORDS: dict[str, Verb] = {
    words_key(said)[0]: verb for verb, name in CARD_VERBS.items() for said in (name, *_SPOKEN[verb])
}


def _cards(key: tuple[str, ...]) -> list[Card]:
    """The cards some words name: ``12 espada``, ``1 espada ancho espada`` (the menu's words)
    or a nickname alone (``ancho falso``: both of them)."""
    named = [c for c, nick in NICKNAMES.items() if words_key(nick) == key]
    if named or len(key) < 2 or not key[0].isdigit() or key[1] not in _SUITS:
        return named
    rank = int(key[0])
    if rank not in RANKS:
        return []
    c = Card.of(rank, _SUITS[key[1]])
    rest = key[2:]
    return [c] if not rest or rest == words_key(NICKNAMES.get(c, "")) else []


def parse_words(typed: str, legal: Sequence[Action]) -> Action | None:
    """The action some Spanish words name (None: they name none). It need not be legal, so that
    the caller can say why not; where the words fit several actions (a bare card is played, or
    the pie discards it; ``ancho falso`` is two cards) the legal one is taken, and words that fit
    two legal actions name none."""
    key = words_key(typed)
    if key in _CALLS:
        return Action(_CALLS[key])
    verbs = [Verb.PLAY, Verb.DISCARD]
    if key and key[0] in _CARD_VERB_WORDS:
        verbs = [_CARD_VERB_WORDS[key[0]]]
        key = key[1:]
        if verbs == [Verb.PLAY] and key[:1] in (("tapada",), ("tapado",)):
            verbs, key = [Verb.TAPADA], key[1:]
    if key[-1:] in (("tapada",), ("tapado",)) and verbs != [Verb.TAPADA]:
        verbs, key = [Verb.TAPADA], key[:-1]
    options = [Action(verb, c) for c in _cards(key) for verb in verbs]
    if not options:
        return None
    fit = list(dict.fromkeys(a for a in options if a in legal))
    if len(fit) > 1:
        return None
    return fit[0] if fit else options[0]

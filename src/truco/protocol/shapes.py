"""The shapes of the JSON the server sends (docs/protocol.md): the view, the table, its seats.

These are the one definition of those objects: the codec (``truco.protocol.codec``) returns
them, the server builds the table's with them, and ``python -m truco.protocol_ts`` writes the
browser client's TypeScript types from their annotations (each field's docstring becomes its
comment there). The ``NewType`` strings name what a string holds, so that the TypeScript side
gets the generated union instead of a bare ``string``.
"""

from __future__ import annotations

from typing import Any, Literal, NewType, NotRequired, TypedDict

CardCode = NewType("CardCode", str)
"""A card in the notation: rank then suit letter, ``"1e"``, ``"12c"``."""
PhaseWire = NewType("PhaseWire", str)
"""A ``truco.state.Phase`` as the wire spells it (``Phase.wire``: deal, play, over)."""
ReasonWire = NewType("ReasonWire", str)
"""A ``truco.events.Reason`` as the wire spells it (``truco``, ``envido-no-quiero``...)."""
GameName = NewType("GameName", str)
"""A game of ``truco.variants.GAMES`` (argentino, paulista)."""
VerbName = NewType("VerbName", str)
"""A ``truco.actions.Verb``'s value (``retruco``, ``real-envido``, ``seis``)."""
SenaName = NewType("SenaName", str)
"""A seña of ``truco.senas.SENAS``."""
OptionsJson = NewType("OptionsJson", dict[str, Any])
"""The rules as option values (``codec.options_json``): ``players``, ``target`` and ``flor``
always (``ALWAYS_OPTIONS``), any other ``truco.rules.Rules`` field where it matters; its
TypeScript type is written from ``Rules``' own annotations."""

ALWAYS_OPTIONS = ("players", "target", "flor")
"""The options every ``options`` object names, whatever their value."""

PlayJson = tuple[int, CardCode | None, bool]
"""A card on the table: ``[seat, card or null if face down, face_down]``."""

SeatKind = Literal["human", "bot", "empty"]
TableStatus = Literal["waiting", "playing", "over", "expired"]
ExpiredWhy = Literal["nobody", "no_show", "away"]


class CaretakerJson(TypedDict):
    """What the caretaker played for a person, told to her once on her return (the words:
    ``truco.protocol.told``)."""

    hands: list[int]
    """The hands of the match it played for her (their numbers, 1 the first)."""
    score: list[int]
    """The score she came back to, by team."""


class AwaitedJson(TypedDict):
    """The call that waits for an answer (``truco.view.AwaitedCall``)."""

    verb: VerbName
    """The newest call of its chain: `retruco`, `real-envido`, `contraflor`, `seis`..."""
    caller: int
    responder: int
    """The seat that owes the answer."""
    value: int | None
    """A truco call: what the hand is worth once accepted (2-4; Paulista 3, 6, 9, 12); null for
    an envido or a flor."""


class StoryJson(TypedDict):
    """Why the hand that just ended ended so (``truco.story.HandStory``): clients say it."""

    reason: ReasonWire
    side: int
    """The side that took the truco part (as `teams` and `results`), or -1: nobody."""
    seats: list[int]
    """The seats of `side` in this hand."""
    seat: int | None
    """Who went to the mazo, declined the call or ran from the mão de onze; null when the
    tricks or the points ended the hand."""
    call: VerbName | None
    """The call `seat` declined (`retruco`, `real-envido`, `seis`...), or the envido that ended
    the match."""
    won: list[int]
    """The tricks (from 0) `side` won."""
    pardas: list[int]
    """The tricks that were pardas."""
    mano: bool
    """`side` won by being mano (every trick a parda)."""


class ViewJson(TypedDict):
    """The view (`view` in `full` and `ev`): the JSON form of the core's `SeatView`."""

    seat: int | None
    score: list[int]
    """One number per team, or per player where scores are individual (pata de gallo: points;
    destantado: the porotos still in each pile)."""
    phase: PhaseWire
    winner: int | None
    hand: int
    mano: int
    teams: list[int]
    """The side of each seat in this hand (pata de gallo: 1 for the pie; destantado: the seat)."""
    pica: int
    """Pica-pica: which 1v1 hand of a round this is (0-2), or -1 for a hand of everyone."""
    stakes: list[int]
    """Destantado: what each seat stands to lose in the hand's truco (0: out of it)."""
    pie: int | None
    """Pata de gallo: the seat that plays last this hand and discards one of four cards."""
    discard: int | None
    """Pata de gallo: the pie, while his discard is awaited; else null."""
    to_act: int | None
    """The seat that must act (-1 while dealing, null when the match is over)."""
    cards: list[CardCode]
    """The viewer's own cards still held."""
    hand_sizes: list[int]
    tantos: int | None
    flor: int | None
    tricks: list[list[PlayJson]]
    plays: list[PlayJson]
    results: list[int]
    trick: int
    retired: list[int]
    truco: int
    truco_owner: int
    truco_call: tuple[int, int, int] | None
    """`[level, caller, responder]` (Paulista: the value the call is for)."""
    envido_call: tuple[int, int] | None
    flor_call: tuple[int, int] | None
    envido_open: bool
    chain: list[VerbName]
    flor_chain: list[VerbName]
    hand_points: list[int]
    declared: list[tuple[int, int | None, bool]]
    shown: list[tuple[int, list[CardCode]]]
    history: list[tuple[int, str]]
    legal: list[str]
    options: OptionsJson
    playing: list[int]
    """The seats playing this hand: every seat but in a 1v1 hand of pica-pica (the mano and the
    seat facing him)."""
    bettors: list[int]
    """Destantado: the caller of the call that waits and those who accepted it so far."""
    pot: int
    """Destantado: the porotos thrown to the pot (0 elsewhere)."""
    start_score: int
    """What each score started at (destantado: each player's porotos)."""
    individual: bool
    """Whether `score` has one number per player rather than per team."""
    half: int | None
    """Where the malas end (null: no malas and buenas)."""
    end_reason: ReasonWire | None
    """Why the last hand ended, once it has (null while a hand is played)."""
    open_hands: list[list[CardCode]]
    """Only in the replay of a finished match (every card face up): each seat's cards still
    held; empty in every other view."""
    game: GameName
    """"argentino" or "paulista". Paulista cards keep the notation: 1 = A, 10 = Q, 11 = J,
    12 = K; b = paus, c = copas, e = espadas, o = ouros."""
    vira: CardCode | None
    """Paulista: the card turned up this hand (null with the manilha velha)."""
    manilhas: list[CardCode]
    """Paulista: this hand's manilhas, strongest (the zap) first."""
    hand_value: int
    """What the hand is worth now (Paulista 1, 3, 6, 9, 12)."""
    onze: int
    """Paulista: the side playing a mão de onze, or -1 (between hands: the next hand's)."""
    onze_call: int | None
    """Paulista: the seat deciding the mão de onze now (joga or corre), else null."""
    ferro: bool
    """Paulista: a mão de ferro (both sides at 11)."""
    blind: bool
    """Paulista: the viewer plays blind (his cards are hidden, one forced play)."""
    partners: list[tuple[int, list[CardCode]]]
    """Paulista, mão de onze: the viewer's partners' cards, [seat, cards]."""
    onze_at: int | None
    """Paulista: the score at which a side plays the mão de onze; null in the Argentine game."""
    at_onze: list[bool]
    """Paulista: whether each side (as `score`) stands at the mão de onze now."""
    awaited: AwaitedJson | None
    """The call waiting for an answer, or null."""
    story: StoryJson | None
    """Why the hand that just ended ended so (null while a hand is played)."""


class SeatJson(TypedDict):
    """One seat of a table, as the `table` message and the lobby show it."""

    seat: int
    name: str | None
    kind: SeatKind
    connected: bool
    level: str | None
    replaced: NotRequired[bool]
    """A person replaced by a bot after the grace period."""
    rematch: NotRequired[bool]
    """This seat asked for a rematch."""
    caretaker: NotRequired[CaretakerJson | None]
    """What the caretaker played for this person: only in the one ``table`` message of her
    return (null in every other message and answer)."""


class TableJson(TypedDict):
    """A table (`GET /api/tables/{id}`, the `table` message; the lobby lists some of its
    fields)."""

    table: str
    options: OptionsJson
    seats: list[SeatJson]
    status: TableStatus
    v: NotRequired[int]
    match: NotRequired[int]
    turn_seconds: NotRequired[float | None]
    """The time a seat has to act, in seconds (null: no limit)."""
    pista: NotRequired[bool]
    """The seat's person may ask for pistas (alone against bots); absent: no."""
    rated: NotRequired[bool]
    """A rated table: its matches move the players' ratings (docs/players.md)."""
    paused: NotRequired[bool]
    """Its one person (the others are bots) is away: it waits for her, no clock runs."""
    arriving: NotRequired[bool]
    """Its seats are taken but not all of its people came yet: it has not started."""
    expired: NotRequired[ExpiredWhy | None]
    """Why it expired (status `expired`, the last message before the connection closes)."""
    score: NotRequired[list[int]]
    """Each side's points when this was sent (by team; by player where each plays alone), for
    the lobby's "Tus mesas": at the table, the view's score is the one drawn."""


# --- the messages' data (`d`), by type ------------------------------------------------------

EventJson = NewType("EventJson", dict[str, Any])
"""An event, ``{"type": "CardPlayed", ...fields}`` (``codec.event_json``; TypeScript's
``GameEvent`` union is written from the events' own annotations)."""
RatedJson = NewType("RatedJson", dict[str, Any])
"""The ``d`` of a ``rated`` message (``codec.rated_json`` of a ``codec.Rated``)."""
Nothing = NewType("Nothing", dict[str, Any])
"""An empty ``d``: ``{}``."""


class FullJson(TypedDict):
    """`full`: everything the connection's seat may see of the table now."""

    v: int
    seat: int | None
    view: ViewJson
    table: TableJson
    deadline: NotRequired[int | None]
    """When the seat to act runs out of time, in ms since the epoch (null: no limit)."""


class EvJson(TypedDict):
    """`ev`: one version, its events and the view after them."""

    v: int
    events: list[EventJson]
    view: ViewJson
    deadline: NotRequired[int | None]
    a: NotRequired[int]
    """To the connection whose action made this version: that action's ``a``, acknowledged
    here instead of by an ``ack`` of its own."""


class AckJson(TypedDict):
    a: int
    v: int


class ErrJson(TypedDict):
    code: str
    message: str
    a: NotRequired[int]


class ChatJson(TypedDict):
    seat: int | None
    name: str
    text: str
    """What a person typed: text, never markup."""
    at: str | float


class SenaJson(TypedDict):
    seat: int
    sena: SenaName


class PistaJson(TypedDict):
    v: int
    action: str


SERVER_MESSAGES: dict[str, Any] = {
    "full": FullJson,
    "ev": EvJson,
    "ack": AckJson,
    "err": ErrJson,
    "chat": ChatJson,
    "sena": SenaJson,
    "table": TableJson,
    "pista": PistaJson,
    "rated": RatedJson,
    "pong": Nothing,
}
"""The ``d`` of each message the server sends, by its ``t`` (``codes.SERVER_TYPES``)."""


class ActJson(TypedDict):
    a: int
    v: int
    action: str


class ChatSendJson(TypedDict):
    text: str


class SenaSendJson(TypedDict):
    sena: SenaName


CLIENT_MESSAGES: dict[str, Any] = {
    "act": ActJson,
    "chat": ChatSendJson,
    "sena": SenaSendJson,
    "rematch": Nothing,
    "pista": Nothing,
    "ping": Nothing,
}
"""The ``d`` of each message a client sends, by its ``t`` (``codes.CLIENT_TYPES``)."""

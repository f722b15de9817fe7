"""The table protocol's codec (docs/protocol.md): every message, both ways.

Every message, both ways, is one JSON object ``{"t": TYPE, "d": DATA}`` of at most 8 KiB.
The server's side: ``parse(raw)`` turns what a client sent into a ``Message`` or an
``Unexpected`` carrying the error code to answer with (it never raises); ``view_json`` and
``event_json`` are the JSON forms of the core's ``SeatView`` and events (cards are notation
strings, a hidden card is ``null``), of the shapes in ``truco.protocol.shapes``. The client's
side reads those forms back into the same ``SeatView`` and events (``view_from_json``,
``event_from_json``) and builds what a client sends (``act_message``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any, Final, TypeAlias, get_args

import orjson

from truco import events as ev_mod
from truco.actions import Action, Verb
from truco.cards import CARD_TEXT, Card
from truco.errors import TrucoError
from truco.events import Event, Reason
from truco.protocol.codes import (
    BAD_JSON,
    BAD_MESSAGE,
    MAX_CHAT,
    MAX_COUNTER,
    MAX_MESSAGE,
    TOO_LARGE,
    UNKNOWN_TYPE,
)
from truco.protocol.plaintext import refusal
from truco.protocol.shapes import (
    ALWAYS_OPTIONS,
    AwaitedJson,
    GameName,
    OptionsJson,
    PhaseWire,
    ReasonWire,
    StoryJson,
    VerbName,
    ViewJson,
)
from truco.rules import from_options
from truco.senas import SENAS
from truco.state import Phase, new_match
from truco.story import HandStory
from truco.variants import VARIANTS, variant_of
from truco.view import AwaitedCall, PlayView, SeatView, observe

# --- client to server -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Act:
    """``act``: play ``action`` (already parsed), chosen at version ``v``; ``a`` is for the ack."""

    a: int
    v: int
    action: Action


@dataclass(frozen=True, slots=True)
class Chat:
    text: str


@dataclass(frozen=True, slots=True)
class Sena:
    sena: str


@dataclass(frozen=True, slots=True)
class Rematch:
    pass


@dataclass(frozen=True, slots=True)
class Pista:
    """``pista``: the expert's choice for the seat's current decision (answered to this
    connection only, with the version it is for)."""


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class Unexpected:
    """What the client sent cannot be used: answer ``err`` with ``code``; ``a`` if it was known."""

    code: str
    message: str
    a: int | None = None


Message: TypeAlias = Act | Chat | Sena | Rematch | Pista | Ping


def _counter(d: dict[str, Any], key: str) -> int | None:
    value = d.get(key)
    if type(value) is not int or not 0 <= value <= MAX_COUNTER:
        return None
    return value


def parse(raw: str | bytes) -> Message | Unexpected:
    """Read one client message; never raises."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE:
        return Unexpected(TOO_LARGE, f"a message may hold at most {MAX_MESSAGE} bytes, not {size}")
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return _not_json(str(exc), isinstance(raw, str))
    if not isinstance(obj, dict):
        return Unexpected(BAD_MESSAGE, 'a message is an object {"t": TYPE, "d": DATA}')
    t = obj.get("t")
    if not isinstance(t, str):
        return Unexpected(BAD_MESSAGE, 'a message needs a string "t"')
    d = obj.get("d", {})
    if not isinstance(d, dict):
        return Unexpected(BAD_MESSAGE, '"d" must be an object')
    if t == "act":
        a = _counter(d, "a")
        if a is None:
            return Unexpected(BAD_MESSAGE, 'act needs "a", a whole number from 0')
        v = _counter(d, "v")
        if v is None:
            return Unexpected(BAD_MESSAGE, 'act needs "v", a whole number from 0', a)
        text = d.get("action")
        if not isinstance(text, str):
            return Unexpected(BAD_MESSAGE, 'act needs "action", a string such as "play 1e"', a)
        try:
            action = Action.parse(text)
        except TrucoError as exc:
            return Unexpected(BAD_MESSAGE, str(exc), a)
        return Act(a, v, action)
    if t == "chat":
        text = d.get("text")
        if not isinstance(text, str) or not text.strip():
            return Unexpected(BAD_MESSAGE, 'chat needs "text", a string that is not blank')
        if len(text) > MAX_CHAT:
            return Unexpected(BAD_MESSAGE, f"a chat line holds at most {MAX_CHAT} characters")
        why = refusal(text)
        if why is not None:
            return Unexpected(BAD_MESSAGE, why)
        return Chat(text.strip())
    if t == "sena":
        sena = d.get("sena")
        if sena not in SENAS:
            return Unexpected(BAD_MESSAGE, f'sena needs "sena", one of {", ".join(SENAS)}')
        assert isinstance(sena, str)
        return Sena(sena)
    if t == "rematch":
        return Rematch()
    if t == "pista":
        return Pista()
    if t == "ping":
        return Ping()
    return Unexpected(UNKNOWN_TYPE, f"unknown message type {t[:40]!r}")


# --- server to client -----------------------------------------------------------------------


def _not_json(why: str, text: bool) -> Unexpected:
    """What a message orjson cannot read is answered with. JSON may spell a lone surrogate
    (``"\\ud800"``), and a str may hold one, which no UTF-8 text can carry (a chat line
    holding one could not be sent on to anybody): that is a bad message, not bad JSON. Bytes
    that are not UTF-8 are not JSON; nesting stops at orjson's 1,024 levels."""
    if "surrogate in string" in why or (text and "not valid UTF-8" in why):
        return Unexpected(BAD_MESSAGE, "a string holds a lone surrogate, which is not text")
    if "depth limit" in why:
        return Unexpected(BAD_JSON, "not JSON: nested too deeply")
    return Unexpected(BAD_JSON, f"not JSON: {why}")


def _wire(value: Any) -> Any:
    """What orjson cannot write itself: cards and actions are their notation, enums their
    values, named tuples arrays, other subclasses of str, int, list and dict (a ``Card`` is
    an int, so they are all passed here) their plain values."""
    if isinstance(value, Card | Action):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    raise TypeError(f"{type(value).__name__} is not part of the protocol")


_ENCODE_OPTIONS: Final = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_NON_STR_KEYS


def encode(t: str, d: dict[str, Any]) -> str:
    """One server message as compact JSON text (UTF-8 as it is, keys in their order)."""
    message = {"t": t, "d": d}
    try:
        return orjson.dumps(message, default=_wire, option=_ENCODE_OPTIONS).decode()
    except orjson.JSONEncodeError as exc:
        if "surrogates" not in str(exc):
            raise
    # A lone surrogate has no UTF-8 form: what people type is refused with one, but a message
    # must go out whatever a string holds, so such a character goes out as "?".
    return orjson.dumps(_sound(message), default=_wire, option=_ENCODE_OPTIONS).decode()


def _sound(value: Any) -> Any:
    """``value`` with every string's lone surrogates replaced."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, Mapping):
        return {_sound(k): _sound(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_sound(v) for v in value]
    return value


def error(code: str, message: str, a: int | None = None) -> str:
    d: dict[str, Any] = {"code": code, "message": message}
    if a is not None:
        d["a"] = a
    return encode("err", d)


def _plain(value: Any) -> Any:
    """Cards, verbs, actions and tuples as JSON values."""
    # By exact type first: a view holds thousands of these a second, and isinstance against a
    # union costs several times a type's identity.
    kind = type(value)
    if kind is Card:
        return CARD_TEXT[value]
    if kind is tuple or kind is list:
        return [_plain(v) for v in value]
    if kind is Action:
        return value.text
    if kind is int or kind is str or kind is bool or value is None:
        return value
    if kind is Verb:
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def event_json(event: Event) -> dict[str, Any]:
    """``{"type": "CardPlayed", ...fields}``."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for name, value in zip(event._fields, event, strict=True):
        out[name] = _plain(value)
    return out


_OPTIONS: dict[Any, OptionsJson] = {}
"""``options_json`` of the rules seen so far (every view carries its table's)."""


def options_json(rules: Any) -> OptionsJson:
    """The rules as option values: players, target and flor always, a variant with its own
    options (defaults included), then every other non-default."""
    known = _OPTIONS.get(rules)
    if known is None:
        if len(_OPTIONS) >= 4096:
            _OPTIONS.clear()
        known = _OPTIONS[rules] = _options_json(rules)
    return OptionsJson(dict(known))


def _options_json(rules: Any) -> OptionsJson:
    out: dict[str, Any] = {name: getattr(rules, name) for name in ALWAYS_OPTIONS}
    info = variant_of(rules)
    if info is not VARIANTS[0]:
        out["variant"] = rules.variant
        out.update({name: getattr(rules, name) for name in info.options})
    return OptionsJson(out | dict(rules.options()))


def _awaited_json(call: AwaitedCall | None) -> AwaitedJson | None:
    if call is None:
        return None
    verb, caller, responder, value = call
    return {"verb": VerbName(verb.value), "caller": caller, "responder": responder, "value": value}


def _story_json(told: HandStory | None) -> StoryJson | None:
    if told is None:
        return None
    return {
        "reason": ReasonWire(str(told.reason)),
        "side": told.side,
        "seats": list(told.seats),
        "seat": told.seat,
        "call": None if told.call is None else VerbName(told.call.value),
        "won": list(told.won),
        "pardas": list(told.pardas),
        "mano": told.mano,
    }


def view_json(view: SeatView) -> ViewJson:
    """The JSON form of a ``SeatView`` (docs/protocol.md, "The view")."""
    return {
        "seat": view.seat,
        "score": list(view.score),
        "phase": PhaseWire(Phase(view.phase).wire),
        "winner": view.winner if view.winner >= 0 else None,
        "hand": view.hand_no,
        "mano": view.mano,
        "teams": list(view.teams),
        "pica": view.pica,
        "stakes": list(view.stakes),
        "pie": view.pie,
        "discard": view.discard,
        "to_act": view.to_act,
        "cards": _plain(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "tantos": view.tantos,
        "flor": view.flor,
        "tricks": _plain(view.tricks),
        "plays": _plain(view.plays),
        "results": list(view.results),
        "trick": view.trick,
        "retired": list(view.retired),
        "truco": view.truco,
        "truco_owner": view.truco_owner,
        "truco_call": _plain(view.truco_call),
        "envido_call": _plain(view.envido_call),
        "flor_call": _plain(view.flor_call),
        "envido_open": view.envido_open,
        "chain": _plain(view.chain),
        "flor_chain": _plain(view.flor_chain),
        "hand_points": list(view.hand_points),
        "declared": _plain(view.declared),
        "shown": _plain(view.shown),
        "history": _plain(view.history),
        "legal": _plain(view.legal),
        "options": options_json(view.rules),
        "playing": list(view.playing),
        "bettors": list(view.bettors),
        "pot": view.pot,
        "start_score": view.start_score,
        "individual": view.individual,
        "half": view.half,
        "end_reason": None if view.end_reason is None else ReasonWire(str(view.end_reason)),
        "open_hands": _plain(view.open_hands),
        "game": GameName(view.game),
        "vira": _plain(view.vira),
        "manilhas": _plain(view.manilhas),
        "hand_value": view.hand_value,
        "onze": view.onze,
        "onze_call": view.onze_call,
        "ferro": view.ferro,
        "blind": view.blind,
        "partners": _plain(view.partners),
        "onze_at": view.onze_at,
        "at_onze": list(view.at_onze),
        "awaited": _awaited_json(view.awaited),
        "story": _story_json(view.story),
    }


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One person's rating in a rated match's mode, before and after it (docs/players.md)."""

    seat: int
    name: str
    before: int
    after: int
    provisional: bool
    """Still among the first rated matches of this mode: the number is not settled yet."""
    left: bool
    """Left the match for good (a bot finished it for him): rated as a loss."""


@dataclass(frozen=True, slots=True)
class Rated:
    """``rated``: the rating changes of a rated match that just ended (match ``match`` of the
    table, in ``mode``), one per person; sent to everyone at the table, and again to whoever
    connects while the match is over."""

    match: int
    mode: str
    changes: tuple[RatingChange, ...]


def rated_json(rated: Rated) -> dict[str, Any]:
    """The ``d`` of a ``rated`` message."""
    return {
        "match": rated.match,
        "mode": rated.mode,
        "changes": [asdict(c) for c in rated.changes],
    }


# --- the client's side: the server's JSON read back --------------------------------------------

_PHASE_NUMBERS: Final = {phase.wire: phase for phase in Phase}


def act_message(a: int, v: int, action: Action) -> dict[str, Any]:
    """The ``act`` a client sends: play ``action``, chosen at version ``v``; ``a`` for the ack."""
    return {"t": "act", "d": {"a": a, "v": v, "action": str(action)}}


def _card(value: Any) -> Card | None:
    return None if value is None else Card.parse(str(value))


def _cards(values: Any) -> tuple[Card, ...]:
    return tuple(Card.parse(str(v)) for v in values or ())


def _plays(values: Any) -> tuple[PlayView, ...]:
    return tuple((int(s), _card(c), bool(d)) for s, c, d in values or ())


def _opt_tuple(value: Any) -> Any:
    return None if value is None else tuple(int(v) for v in value)


def _ints(value: Any, default: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(p) for p in value) if value else default


def view_from_json(d: Mapping[str, Any]) -> SeatView:
    """The ``view`` of a ``full`` or ``ev`` message as the core's ``SeatView``."""
    rules = from_options(None, dict(d.get("options") or {}))
    seat = d.get("seat")
    winner = d.get("winner")
    legal = tuple(Action.parse(a) for a in d.get("legal") or ())
    mano = int(d.get("mano") or 0)
    # A server older than a field does not send it: what the core says of a fresh match (the
    # core's SeatView has no defaults; reading old messages is the codec's concern).
    fresh = observe(new_match(rules, mano=mano), None)
    pica = d.get("pica")
    reason = d.get("end_reason")
    playing, bettors = d.get("playing"), d.get("bettors")
    return SeatView(
        seat=None if seat is None else int(seat),
        rules=rules,
        score=_ints(d.get("score"), fresh.score),
        phase=_PHASE_NUMBERS.get(str(d.get("phase")), Phase.DEAL),
        winner=-1 if winner is None else int(winner),
        hand_no=int(d.get("hand") or 0),
        mano=mano,
        teams=_ints(d.get("teams"), fresh.teams),
        pica=-1 if pica is None else int(pica),
        stakes=_ints(d.get("stakes"), fresh.stakes),
        to_act=d.get("to_act"),
        hand=_cards(d.get("cards")),
        hand_sizes=tuple(int(n) for n in d.get("hand_sizes") or ()),
        tantos=d.get("tantos"),
        flor=d.get("flor"),
        tricks=tuple(_plays(t) for t in d.get("tricks") or ()),
        plays=_plays(d.get("plays")),
        results=tuple(int(r) for r in d.get("results") or ()),
        trick=int(d.get("trick") or 0),
        retired=tuple(int(s) for s in d.get("retired") or ()),
        truco=int(d.get("truco") or 1),
        truco_owner=int(d.get("truco_owner", -1) if d.get("truco_owner") is not None else -1),
        truco_call=_opt_tuple(d.get("truco_call")),
        envido_call=_opt_tuple(d.get("envido_call")),
        flor_call=_opt_tuple(d.get("flor_call")),
        envido_open=bool(d.get("envido_open", True)),
        chain=tuple(Verb(v) for v in d.get("chain") or ()),
        flor_chain=tuple(Verb(v) for v in d.get("flor_chain") or ()),
        hand_points=_ints(d.get("hand_points"), fresh.hand_points),
        history=tuple((int(s), str(a)) for s, a in d.get("history") or ()),
        declared=tuple(
            (int(s), None if p is None else int(p), bool(f)) for s, p, f in d.get("declared") or ()
        ),
        shown=tuple((int(s), _cards(cs)) for s, cs in d.get("shown") or ()),
        legal=legal,
        playing=fresh.playing if playing is None else tuple(int(s) for s in playing),
        pie=d.get("pie"),
        discard=d.get("discard"),
        bettors=fresh.bettors if bettors is None else tuple(int(s) for s in bettors),
        pot=int(d.get("pot") or 0),
        start_score=int(d.get("start_score", fresh.start_score)),
        individual=bool(d.get("individual", fresh.individual)),
        half=d.get("half", fresh.half),
        end_reason=None if reason is None else Reason(reason),
        open_hands=tuple(_cards(h) for h in d.get("open_hands") or ()),
        game=str(d.get("game") or rules.game),
        vira=_card(d.get("vira")),
        manilhas=_cards(d.get("manilhas")),
        hand_value=int(d.get("hand_value") or d.get("truco") or 1),
        onze=int(d.get("onze", -1) if d.get("onze") is not None else -1),
        onze_call=d.get("onze_call"),
        ferro=bool(d.get("ferro", False)),
        blind=bool(d.get("blind", False)),
        partners=tuple((int(s), _cards(cs)) for s, cs in d.get("partners") or ()),
        onze_at=d.get("onze_at", fresh.onze_at),
        at_onze=tuple(bool(b) for b in d["at_onze"]) if "at_onze" in d else fresh.at_onze,
        awaited=_awaited_of(d.get("awaited")),
        story=_story_of(d.get("story")),
    )


def _awaited_of(d: Any) -> AwaitedCall | None:
    if not d:
        return None
    value = d.get("value")
    return AwaitedCall(
        Verb(d["verb"]),
        int(d["caller"]),
        int(d["responder"]),
        None if value is None else int(value),
    )


def _story_of(d: Any) -> HandStory | None:
    if not d:
        return None
    call = d.get("call")
    seat = d.get("seat")
    return HandStory(
        reason=Reason(d["reason"]),
        side=int(d["side"]),
        seats=tuple(int(s) for s in d.get("seats") or ()),
        seat=None if seat is None else int(seat),
        call=None if call is None else Verb(call),
        won=tuple(int(i) for i in d.get("won") or ()),
        pardas=tuple(int(i) for i in d.get("pardas") or ()),
        mano=bool(d.get("mano", False)),
    )


def rated_from_json(d: dict[str, Any]) -> Rated | None:
    """A ``rated`` message's ``d`` read back (None: not one)."""
    try:
        changes = tuple(
            RatingChange(
                seat=int(c["seat"]),
                name=str(c["name"]),
                before=int(c["before"]),
                after=int(c["after"]),
                provisional=bool(c["provisional"]),
                left=bool(c.get("left", False)),
            )
            for c in d["changes"]
        )
        return Rated(int(d["match"]), str(d["mode"]), changes)
    except (KeyError, TypeError, ValueError):
        return None


EVENT_TYPES: Final[dict[str, type[Any]]] = {cls.__name__: cls for cls in get_args(ev_mod.Event)}
"""Every event of the core, by the name the wire gives it (``Discarded``, ``PorotosPassed``...)."""


def event_from_json(d: dict[str, Any]) -> Event | None:
    """An event of an ``ev`` message (None for a type this client does not know)."""
    cls = EVENT_TYPES.get(str(d.get("type")))
    if cls is None:
        return None
    values: list[Any] = []
    for name in cls._fields:
        value = d.get(name)
        if name == "card":
            value = _card(value)
        elif name == "cards":
            value = _cards(value)
        elif name == "verb":
            value = Verb(value)
        elif name == "blind":  # absent from a server older than the field: not blind
            value = bool(value)
        elif name in ("points", "score") and isinstance(value, list):
            value = tuple(value)
        values.append(value)
    event: Event = cls(*values)
    return event

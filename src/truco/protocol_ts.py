"""The wire's types and constants for the browser client, written from Python so the two
cannot drift.

``python -m truco.protocol_ts`` writes ``src/truco/web/src/generated.ts`` (``make generated``);
``--check`` only says whether the committed file is up to date. Everything in it comes from the
codec (``truco.protocol``), the core's events, rules and verbs, the anotador and the bots'
levels: the web client imports these instead of restating them. The wire's TypeScript types are
read from annotations: the events' (``truco.events``), the JSON shapes' (``View``, ``TableInfo``,
``SeatInfo`` from ``truco.protocol.shapes``, their fields' docstrings as comments) and the
rules' (``Options``, from ``truco.rules.Rules``). The file is committed, so building the web
client needs no Python; a test fails when it is stale.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import sys
import types
from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import (
    Any,
    Literal,
    NotRequired,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from truco import anotador, protocol, senas
from truco.actions import ENVIDO_CALLS, PAULISTA_HAND_VALUE, Verb
from truco.bots import LEVELS
from truco.cards import Card
from truco.events import Reason
from truco.paulista import ONZE_RUN, ONZE_VALUE
from truco.protocol import shapes, told
from truco.rules import TARGETS, Rules
from truco.variants import GAMES, VARIANTS, VariantInfo, target_half

OUT = Path(__file__).parent / "web" / "src" / "generated.ts"
"""Where the web client's generated module lives."""

BOT_LEVELS = tuple(LEVELS)
"""The bots a table's creator may choose from, by strength (``random`` is a fuzzer for tests,
never offered to people)."""


def _json(value: Any) -> str:
    """A value as a TypeScript literal (an object's keys unquoted where they are identifiers)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)}: {_json(v)}" for k, v in value.items()) + " }"
    return json.dumps(value, ensure_ascii=False)


def _key(key: Any) -> str:
    return str(key) if isinstance(key, int) or str(key).isidentifier() else json.dumps(key)


def _list(name: str, items: Iterable[Any], doc: str, type_name: str | None = None) -> list[str]:
    """A ``const`` array of literals, with the union of its items as a type."""
    body = ", ".join(_json(i) for i in items)
    out = [f"/** {doc} */", f"export const {name} = [{body}] as const;"]
    if type_name:
        out.append(f"export type {type_name} = (typeof {name})[number];")
    return [*out, ""]


def _record(
    name: str, items: Mapping[Any, Any], doc: str, value_type: str | None = None
) -> list[str]:
    """A ``const`` object: of ``value_type`` if given, else ``as const``."""
    body = "".join(f"  {k}: {_json(v)},\n" for k, v in items.items())
    if value_type is None:
        return [f"/** {doc} */", f"export const {name} = {{\n{body}}} as const;", ""]
    return [f"/** {doc} */", f"export const {name}: {value_type} = {{\n{body}}};", ""]


_TS_TYPES: dict[Any, str] = {
    int: "number",
    float: "number",
    bool: "boolean",
    str: "string",
    Verb: "string",
    Card: "CardCode",
    shapes.CardCode: "CardCode",
    shapes.PhaseWire: "Phase",
    shapes.ReasonWire: "Reason",
    shapes.GameName: "Game",
    shapes.VerbName: "string",
    shapes.SenaName: "Sena",
    shapes.OptionsJson: "Options",
    shapes.PlayJson: "PlayView",
    shapes.EventJson: "GameEvent",
    shapes.RatedJson: "Rated",
    shapes.Nothing: "Record<string, never>",
}
"""Python types by the TypeScript name the generated file gives them."""

_SHAPES: dict[Any, str] = {
    shapes.AwaitedJson: "AwaitedCall",
    shapes.StoryJson: "HandStory",
    shapes.ViewJson: "View",
    shapes.CaretakerJson: "CaretakerSpell",
    shapes.SeatJson: "SeatInfo",
    shapes.TableJson: "TableInfo",
    shapes.ChatJson: "ChatLine",
    shapes.FullJson: "FullData",
    shapes.EvJson: "EvData",
}
"""The codec's JSON objects by their TypeScript names."""


def _ts_type(hint: Any) -> str:
    """The TypeScript type of a field's annotation, as the codec writes it (a card is its
    notation string, a tuple of fixed length a TypeScript tuple, any other an array, None
    null)."""
    if hint in _TS_TYPES:
        return _TS_TYPES[hint]
    if hint in _SHAPES:
        return _SHAPES[hint]
    if isinstance(hint, type) and is_dataclass(hint):
        return hint.__name__  # written out by ``_interface`` too
    if hint is type(None):
        return "null"
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        return " | ".join(_ts_type(h) for h in args)
    if origin is Literal:
        return " | ".join(_json(a) for a in args)
    if origin is list or (origin is tuple and args[1:] == (...,)):
        item = _ts_type(args[0])
        return f"({item})[]" if get_origin(args[0]) in (Union, types.UnionType) else f"{item}[]"
    if origin is tuple:
        return "[" + ", ".join(_ts_type(h) for h in args) + "]"
    raise TypeError(f"no TypeScript type for {hint!r}")


def _field_docs(cls: type[Any]) -> dict[str, str]:
    """The docstring under each annotated field of a class, on one line, as a TSDoc comment
    takes it (``name`` becomes `name`)."""
    body = ast.parse(inspect.getsource(cls)).body[0]
    assert isinstance(body, ast.ClassDef)
    docs: dict[str, str] = {}
    for field, after in zip(body.body, body.body[1:], strict=False):
        if not (isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name)):
            continue
        if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            docs[field.target.id] = _doc(str(after.value.value))
    return docs


def _doc(text: str | None) -> str:
    """A docstring on one line, fit for a TSDoc comment."""
    return " ".join((text or "").split()).replace("``", "`").replace("*/", "* /")


def _member(name: str, ts: str, doc: str | None, optional: bool = False) -> list[str]:
    return ([f"  /** {doc} */"] if doc else []) + [f"  {name}{'?' * optional}: {ts};"]


def _shape(cls: type[Any]) -> list[str]:
    """A JSON shape of the codec (a ``TypedDict``) as a TypeScript interface, its docstring and
    its fields' as comments; a key the server may leave out is optional."""
    assert is_typeddict(cls)
    # Read NotRequired from the annotations themselves: under postponed annotations Python 3.11
    # does not sort the keys into __optional_keys__.
    hints, docs = get_type_hints(cls, include_extras=True), _field_docs(cls)
    doc = _doc(cls.__doc__)
    body: list[str] = []
    for name, hint in hints.items():
        optional = get_origin(hint) is NotRequired
        ts = _ts_type(get_args(hint)[0] if optional else hint)
        body += _member(name, ts, docs.get(name), optional)
    return [f"/** {doc} */", f"export interface {_SHAPES[cls]} {{", *body, "}", ""]


def _inline(cls: Any) -> str:
    """A message's data as a TypeScript type: a named one, or a TypedDict written inline."""
    if cls in _TS_TYPES or cls in _SHAPES:
        return _ts_type(cls)
    hints = get_type_hints(cls, include_extras=True)
    members = []
    for name, hint in hints.items():
        optional = get_origin(hint) is NotRequired
        members.append(
            f"{name}{'?' * optional}: {_ts_type(get_args(hint)[0] if optional else hint)}"
        )
    return "{ " + "; ".join(members) + " }"


def _messages(name: str, by_type: Mapping[str, Any], doc: str) -> list[str]:
    """A union of messages ``{t, d}``, one member per type, in the codec's order."""
    members = [f'  | {{ t: "{t}"; d: {_inline(d)} }}' for t, d in by_type.items()]
    return [f"/** {doc} */", f"export type {name} =", *members[:-1], members[-1] + ";", ""]


def _options() -> list[str]:
    """``Options``: the rules' fields (``truco.rules.Rules``) as the codec writes them, those it
    always names required, every other optional."""
    hints, docs = get_type_hints(Rules), _field_docs(Rules)
    order = [*shapes.ALWAYS_OPTIONS, *(f.name for f in fields(Rules))]
    body = [
        line
        for name in dict.fromkeys(order)
        for line in _member(
            name, _ts_type(hints[name]), docs.get(name), name not in shapes.ALWAYS_OPTIONS
        )
    ]
    doc = "The rules as option values (truco.rules.Rules; docs/rules.md)."
    return [f"/** {doc} */", "export interface Options {", *body, "}", ""]


def _events() -> list[str]:
    """The ``GameEvent`` union: one member per event of the core, its fields as the wire has them
    (``event_json``), the event's docstring as the member's comment."""
    out = [
        '/** Events: {"type": "CardPlayed", ...fields} (truco.events). */',
        "export type GameEvent =",
    ]
    for name, cls in protocol.EVENT_TYPES.items():
        doc = " ".join((cls.__doc__ or "").split()).replace("``", "`")
        hints = get_type_hints(cls)
        fields = "".join(f"; {f}: {_ts_type(hints[f])}" for f in cls._fields)
        out += [f"  /** {doc} */", f'  | {{ type: "{name}"{fields} }}']
    out[-1] += ";"
    return [*out, ""]


def _interface(cls: type[Any], doc: str) -> list[str]:
    """A dataclass of the codec as a TypeScript interface (its fields as the wire has them)."""
    hints = get_type_hints(cls)
    body = [f"  {f.name}: {_ts_type(hints[f.name])};" for f in fields(cls)]
    return [f"/** {doc} */", f"export interface {cls.__name__} {{", *body, "}", ""]


def _calls_of(values: Mapping[Verb, int | None]) -> dict[int, str]:
    return {value: verb.value for verb, value in values.items() if value is not None}


_FACTS = tuple(f.name for f in fields(VariantInfo) if f.type == "bool")
"""The registry's yes-or-no facts of a variant (``individual``, ``piles``...)."""


def _variants() -> dict[str, dict[str, Any]]:
    """Each variant's facts (``truco.variants``) a page needs before there is a view: the
    create form, the lobby."""
    return {
        v.name: {"seats": list(v.players), "game": v.game, "targets": list(v.targets)}
        | {name: getattr(v, name) for name in _FACTS}
        for v in VARIANTS
    }


def render() -> str:
    """The text of ``generated.ts``."""
    errors = sorted(protocol.ERROR_CODES)
    lines = [
        "// Generated by `python -m truco.protocol_ts` (make generated) from truco.protocol (its",
        "// codes, shapes and codec), the rules, the verbs, the anotador and the bots' levels: do",
        "// not edit; regenerate (a test fails when it is stale).",
        "",
        "/** The largest message, in bytes of UTF-8, either way. */",
        f"export const MAX_MESSAGE_BYTES = {protocol.MAX_MESSAGE};",
        "/** The longest chat line, in characters. */",
        f"export const MAX_CHAT = {protocol.MAX_CHAT};",
        "",
        *_list("CLIENT_TYPES", protocol.CLIENT_TYPES, "Every `t` a client sends.", "ClientType"),
        *_list("SERVER_TYPES", protocol.SERVER_TYPES, "Every `t` the server sends.", "ServerType"),
        *_list("ERROR_CODES", errors, "The `code` of an `err` message.", "ErrorCode"),
        *_record(
            "ERRORS",
            {code.upper(): code for code in errors},
            "The error codes by name.",
        ),
        *_record(
            "CLOSE",
            {k.upper(): v for k, v in protocol.CLOSE_CODES.items()},
            "WebSocket close codes (docs/protocol.md, \u201cLimits\u201d).",
        ),
        *_list("PHASES", protocol.PHASES, "The view's `phase`.", "Phase"),
        *_list(
            "REASONS",
            [str(r) for r in Reason],
            "Why points were scored or porotos passed, and why a hand ended (`end_reason`).",
            "Reason",
        ),
        *_list("SENAS", senas.SENAS, "The señas a player may make to his partners.", "Sena"),
        *_record(
            "CARETAKER_PLAYED",
            told.CARETAKER_PLAYED,
            "What a person back at her seat is told the caretaker played for her, by language: "
            "for one hand and for several (truco.protocol.told, the terminal's words too).",
        ),
        *_list("EVENT_TYPES", protocol.EVENT_TYPES, "The `type` of every event.", "GameEventType"),
        '/** A card in the notation: rank then suit letter, "1e", "12c". */',
        "export type CardCode = string;",
        "",
        *_events(),
        "/** A card on the table as the viewer sees it: [seat, card or null if face down, "
        "face_down]. */",
        f"export type PlayView = [{', '.join(_ts_type(h) for h in get_args(shapes.PlayJson))}];",
        "",
        *_options(),
        *(line for cls in _SHAPES for line in _shape(cls)),
        *_messages(
            "ServerMessage",
            shapes.SERVER_MESSAGES,
            "Every message the server sends.",
        ),
        *_messages(
            "ClientMessage",
            shapes.CLIENT_MESSAGES,
            "Every message a client sends.",
        ),
        *_record(
            "TRUCO_CALL_OF_LEVEL",
            _calls_of({v: v.truco_level for v in Verb}),
            "The Argentine truco calls by what the hand is worth once each is accepted.",
            "Readonly<Record<number, string>>",
        ),
        *_record(
            "PAULISTA_CALL_OF_VALUE",
            _calls_of({v: v.paulista_value for v in Verb}),
            "Truco Paulista's calls by what the hand is worth once each is accepted.",
            "Readonly<Record<number, string>>",
        ),
        *_list(
            "TRUCO_CALLS",
            [v.value for v in Verb if v.truco_level or v.paulista_value],
            "The truco's family of calls, Paulista's raises (seis, nove, doze) included.",
        ),
        *_list("ENVIDO_CALLS", [a.verb.value for a in ENVIDO_CALLS], "The envido's calls."),
        "/** What a hand of Truco Paulista is worth when no truco is accepted. */",
        f"export const PAULISTA_HAND_VALUE = {PAULISTA_HAND_VALUE};",
        "/** Paulista: what a mão de onze played is worth, and what running from it gives the "
        "rivals. */",
        f"export const ONZE_VALUE = {ONZE_VALUE};",
        f"export const ONZE_RUN = {ONZE_RUN};",
        "",
        *_interface(
            protocol.RatingChange,
            "One person's rating before and after a rated match (the `rated` message).",
        ),
        *_interface(
            protocol.Rated, "The `d` of a `rated` message: the changes of the match just ended."
        ),
        *_list("BOT_LEVELS", BOT_LEVELS, "The bots a table's creator may choose.", "BotLevel"),
        *_list(
            "VARIANTS",
            [v.name for v in VARIANTS],
            'The ways of playing (truco.variants); absent from the options: "standard".',
            "Variant",
        ),
        *_list("GAMES", GAMES, "The games (`options.game`); absent: argentino.", "Game"),
        "/** What the registry says of one variant. */",
        "export interface VariantFacts {",
        "  readonly seats: readonly number[];",
        "  readonly game: Game;",
        "  readonly targets: readonly number[];",
        *(
            f"  readonly {k}: boolean;"
            for k in ("individual", "own_side", "piles", "pie_alone", "pica", "flor")
        ),
        "}",
        "",
        *_record(
            "VARIANT_RULES",
            _variants(),
            "Each variant's facts (truco.variants.VariantInfo): its seat counts, the first the "
            "default; its game; its targets (empty: TARGETS); scores per player; each on his "
            "own; piles of porotos; the pie alone; 1v1 rounds; flor allowed.",
            "Record<Variant, VariantFacts>",
        ),
        *_list("TARGETS", TARGETS, "The points a match may be played to."),
        *_record(
            "HALVES",
            {t: target_half(t) for t in TARGETS},
            "Where the malas end for each target (null: no malas and buenas).",
            "Readonly<Record<number, number | null>>",
        ),
        *_list(
            "TARGET_CHOICES",
            anotador.TARGET_CHOICES,
            "The targets as a table offers them, the usual first (truco.anotador).",
        ),
        *_list(
            "FALTA_MODES",
            anotador.FALTA_MODES,
            "The falta envido's rules (truco.rules.FaltaMode).",
            "FaltaMode",
        ),
        *_record(
            "ANOTADOR",
            {
                "target": anotador.Anotador().target,
                "falta": anotador.Anotador().falta,
                "format": anotador.FORMAT,
                "quick": anotador.QUICK,
            },
            "The anotador's defaults, its save format and its quick amounts (truco.anotador).",
        ),
    ]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m truco.protocol_ts", description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT, help="the file to write (%(default)s)")
    parser.add_argument(
        "--check", action="store_true", help="only fail (exit 1) when the file is not up to date"
    )
    args = parser.parse_args(argv)
    text = render()
    current = args.out.read_text(encoding="utf-8") if args.out.exists() else None
    if args.check:
        if current != text:
            print(f"{args.out} is stale: run python -m truco.protocol_ts", file=sys.stderr)
            return 1
        return 0
    if current != text:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

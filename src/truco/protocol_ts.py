"""The wire's constants for the browser client, written from Python so the two cannot drift.

``python -m truco.protocol_ts`` writes ``src/truco/web/src/generated.ts`` (``make generated``);
``--check`` only says whether the committed file is up to date. Everything in it comes from the
codec (``truco.protocol``), the core's events and rules, and the bots' levels: the web client
imports these instead of restating them (the events' types are read from their annotations,
and the view's field names from ``view_json``). The file is committed, so building the web
client needs no Python; a test fails when it is stale.
"""

from __future__ import annotations

import argparse
import json
import sys
import types
from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

from truco import protocol, senas
from truco.actions import Verb
from truco.bots import LEVELS
from truco.cards import Card
from truco.events import Reason
from truco.rules import TARGETS, Rules
from truco.state import new_match
from truco.variants import GAMES, VARIANTS, VariantInfo, target_half
from truco.view import observe

OUT = Path(__file__).parent / "web" / "src" / "generated.ts"
"""Where the web client's generated module lives."""

BOT_LEVELS = tuple(LEVELS)
"""The bots a table's creator may choose from, by strength (``random`` is a fuzzer for tests,
never offered to people)."""


def _json(value: Any) -> str:
    """A value as a TypeScript literal (an object's keys unquoted: they are identifiers)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k}: {_json(v)}" for k, v in value.items()) + " }"
    return json.dumps(value, ensure_ascii=False)


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
    bool: "boolean",
    str: "string",
    Verb: "string",
    Card: "CardCode",
}


def _ts_type(hint: Any) -> str:
    """The TypeScript type of a field's annotation, as the codec writes it (a card is its
    notation string, a tuple an array, None null)."""
    if hint in _TS_TYPES:
        return _TS_TYPES[hint]
    if isinstance(hint, type) and is_dataclass(hint):
        return hint.__name__  # written out by ``_interface`` too
    if hint is type(None):
        return "null"
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return " | ".join(_ts_type(h) for h in get_args(hint))
    if origin is tuple and get_args(hint)[1:] == (...,):
        return f"{_ts_type(get_args(hint)[0])}[]"
    raise TypeError(f"no TypeScript type for {hint!r}")


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


def _view_keys() -> list[str]:
    """Every field of the wire's view (``view_json``), in its order."""
    return list(protocol.view_json(observe(new_match(Rules()), None)))


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
        "// Generated by `python -m truco.protocol_ts` (make generated) from truco.protocol, the",
        "// rules and the bots' levels: do not edit; regenerate (a test fails when it is stale).",
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
        *_list("EVENT_TYPES", protocol.EVENT_TYPES, "The `type` of every event.", "GameEventType"),
        '/** A card in the notation: rank then suit letter, "1e", "12c". */',
        "export type CardCode = string;",
        "",
        *_events(),
        *_list(
            "VIEW_KEYS",
            _view_keys(),
            "The fields of the view (`view` in `full` and `ev`); types.ts's View has these.",
            "ViewKey",
        ),
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

"""The web client's generated constants (src/truco/web/src/generated.ts) are the codec's own."""

from __future__ import annotations

import tokenize
from pathlib import Path
from typing import get_type_hints

import truco
from truco import protocol, protocol_ts, senas


def test_the_committed_generated_file_is_up_to_date() -> None:
    """Regenerating gives the committed text: Python and TypeScript cannot drift apart unseen
    (when this fails, run ``python -m truco.protocol_ts``, or ``make generated``)."""
    assert protocol_ts.OUT.read_text(encoding="utf-8") == protocol_ts.render()


def test_check_says_whether_a_file_is_stale(tmp_path: Path) -> None:
    out = tmp_path / "generated.ts"
    assert protocol_ts.main(["--out", str(out), "--check"]) == 1  # missing
    assert protocol_ts.main(["--out", str(out)]) == 0
    assert protocol_ts.main(["--out", str(out), "--check"]) == 0
    out.write_text(out.read_text(encoding="utf-8").replace('"flor"', '"flor2"'), encoding="utf-8")
    assert protocol_ts.main(["--out", str(out), "--check"]) == 1


def test_every_constant_of_the_codec_is_written() -> None:
    text = protocol_ts.render()
    for value in (*senas.SENAS, *protocol.ERROR_CODES, *protocol.SERVER_TYPES, *protocol.PHASES):
        assert f'"{value}"' in text
    for code in protocol.CLOSE_CODES.values():
        assert f": {code}," in text


def test_the_servers_close_codes_are_the_codecs() -> None:
    """The server closes sockets with the codec's named codes (the ones generated.ts gives the
    clients), never with a number of its own that could drift from them."""
    from truco.server import errors

    codes = {str(code) for code in protocol.CLOSE_CODES.values()}
    found = []
    for path in sorted((Path(truco.__file__).parent / "server").rglob("*.py")):
        with path.open("rb") as source:
            for token in tokenize.tokenize(source.readline):
                if token.type == tokenize.NUMBER and token.string in codes:
                    found.append(f"{path.name}:{token.start[0]}: {token.line.strip()}")
    assert found == []
    assert errors.CLOSE_EXPIRED not in protocol.CLOSE_CODES.values()


def test_the_web_client_writes_no_wire_type_of_its_own() -> None:
    """types.ts only re-exports: every wire type is generated from the codec's shapes and the
    rules' annotations, so that a field is added in one place."""
    types_ts = protocol_ts.OUT.with_name("types.ts").read_text(encoding="utf-8")
    assert "interface " not in types_ts
    text = protocol_ts.render()
    for name in ("View", "Options", "TableInfo", "SeatInfo", "ChatLine", "AwaitedCall"):
        assert f"export interface {name} {{" in text
    for field in get_type_hints(protocol.ViewJson):
        assert f"\n  {field}: " in text

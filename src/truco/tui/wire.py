"""What the terminal takes from a server, made safe to print.

A terminal obeys the bytes it is sent: an escape sequence in a chat line can set the window's
title (OSC 0), write the clipboard (OSC 52), move the cursor or repaint the screen (CSI). The
server refuses such text, but the terminal does not trust a server to have done so (an older
one, or somebody else's): every string of every answer and message is cleaned here, once, as it
is decoded, before any part of the client can show it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from truco.protocol.plaintext import BIDI, CONTROL_CATEGORIES

# Whole sequences go, not just their ESC: "\x1b]0;hi\x07" must not leave "]0;hi" behind.
# OSC/DCS/SOS/PM/APC run to BEL or ST; CSI to its final byte; the rest is ESC and one byte.
# Both the 7-bit (ESC [) and 8-bit (U+009B) introducers.
_SEQUENCES = re.compile(
    r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|\x1b[ -~]?"
)


def plain(text: str) -> str:
    """``text`` without escape sequences, control characters or text-direction marks; a line
    break or tab becomes a space, so one message stays on one line."""
    text = _SEQUENCES.sub("", text)
    out = []
    for ch in text:
        if ch in "\t\n\r":
            out.append(" ")
        elif unicodedata.category(ch) in CONTROL_CATEGORIES or ch in BIDI:
            continue
        else:
            out.append(ch)
    return "".join(out)


def cleaned(value: Any) -> Any:
    """``value`` (decoded JSON) with every string in it, keys too, made :func:`plain`."""
    if isinstance(value, str):
        return plain(value)
    if isinstance(value, list):
        return [cleaned(v) for v in value]
    if isinstance(value, dict):
        return {plain(k) if isinstance(k, str) else k: cleaned(v) for k, v in value.items()}
    return value


def loads(raw: str | bytes) -> Any:
    """JSON from a server, every string :func:`plain`; ``ValueError`` when it is not JSON."""
    return cleaned(json.loads(raw))

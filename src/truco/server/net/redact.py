"""No log line carries a secret: seat tokens, Authorization and Cookie values, the identity
cookie and passwords are blanked.

The server never puts a token in a URL itself (docs/protocol.md), but an old or careless client
may still send ``?token=...``, and uvicorn's access log writes every request line as it came. The
filter rewrites a record's message, arguments and traceback before any handler formats it.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Final

HIDDEN: Final = "[hidden]"

_SECRETS = re.compile(
    r"(?P<key>(?:[?&;]|\b)token=)[^&\s\"';]*"  # a query parameter
    r"|(?P<sub>\btoken\.)[A-Za-z0-9_\-]+"  # the seat token's WebSocket subprotocol
    r"|(?P<hdr>\b(?:authorization|cookie|set-cookie|sec-websocket-protocol)\b[\"']?\s*[:=,]\s*"
    r"b?[\"']?)[^\"'\r\n]*"  # a header, as text or as a repr'd (bytes) pair
    r"|(?P<bearer>\bBearer\s+)[A-Za-z0-9._~+/=\-]+"
    # The identity cookie wherever it shows, and a password field as JSON, a repr or a form has it.
    r"|(?P<cookie>\btruco_player=)[^;\s\"',]*"
    r"|(?P<pw>\b(?:new_)?password[\"']?\s*[:=]\s*)"
    r"(?:\"(?:[^\"\\\r\n]|\\.)*\"?|'(?:[^'\\\r\n]|\\.)*'?|[^&\s,;}]*)",
    re.IGNORECASE,
)

LOGGERS: Final = ("uvicorn", "uvicorn.error", "uvicorn.access", "truco")


def redact(text: str) -> str:
    """``text`` with every token, cookie and credential value replaced by ``[hidden]``."""

    def blank(m: re.Match[str]) -> str:
        kept = next((k for k in m.groups() if k is not None), "")
        return kept + HIDDEN

    return _SECRETS.sub(blank, text)


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, bytes):
        return redact(value.decode("latin-1"))
    if isinstance(value, tuple | list):
        return type(value)(_clean(v) for v in value)
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    return value


class Redact(logging.Filter):
    """Blanks secrets in a record; it never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if record.args:
            # Element by element: uvicorn's access formatter unpacks the arguments itself.
            record.args = _clean(record.args)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def install() -> None:
    """Put the filter on uvicorn's and the server's loggers (once; harmless to call again)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, Redact) for f in logger.filters):
            logger.addFilter(Redact())


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with the filter on its handlers too, so that a record
    propagated from any child logger (the libraries under uvicorn) passes through it."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = {**LOGGING_CONFIG}
    config["filters"] = {"redact": {"()": Redact}}
    config["handlers"] = {
        name: {**handler, "filters": ["redact"]}
        for name, handler in LOGGING_CONFIG["handlers"].items()
    }
    return config


__all__ = ["HIDDEN", "Redact", "install", "log_config", "redact"]

"""The bounds of a request's head (its request line and header lines), counted at the socket.

uvicorn's parser (httptools) keeps a header line in memory until the line ends, however long it
is, so a client could make the process hold any amount of memory by never ending one: 32
connections each sending a 32 MiB header took a server from 170 MB to 904 MB (issue 26). The
bytes of a head are therefore counted as they arrive, before the parser sees them, and a head
over a bound is answered 431 and its connection closed (``admission.guarded``):

- ``max_line``: the request line and each header line, in bytes (its line end included);
- ``max_headers``: header lines in one head;
- ``max_head``: the whole head, in bytes.
"""

from __future__ import annotations

import json
from typing import Final

HEAD_TOO_LARGE: Final = "head_too_large"
"""Error code of a request whose head is over a bound (HTTP 431)."""


class HeadTooLarge(Exception):
    """A head over one of ``HeadLimit``'s bounds; the message says which."""


class HeadLimit:
    """Counts one head at a time; ``scan`` is fed the bytes as they arrive."""

    __slots__ = ("_blank", "line", "lines", "max_head", "max_headers", "max_line", "total")

    def __init__(self, max_line: int, max_headers: int, max_head: int) -> None:
        self.max_line = max_line
        self.max_headers = max_headers
        self.max_head = max_head
        self.line = 0
        """Bytes of the line being received."""
        self.lines = 0
        """Lines of this head ended so far (the request line included)."""
        self.total = 0
        self._blank = True
        """The line being received is empty so far (a CR at most)."""

    def reset(self) -> None:
        """A new head starts (the previous request was read whole)."""
        self.line = self.lines = self.total = 0
        self._blank = True

    def scan(self, data: bytes) -> tuple[int, bool]:
        """How many bytes of ``data`` belong to the head, and whether the head ended there
        (with an empty line); raises ``HeadTooLarge`` as soon as a bound is passed."""
        pos = 0
        size = len(data)
        while pos < size:
            end = data.find(b"\n", pos)
            stop = size if end < 0 else end + 1
            self.line += stop - pos
            self.total += stop - pos
            if self.line > self.max_line:
                what = "the request line" if self.lines == 0 else "a header line"
                raise HeadTooLarge(f"{what} may hold at most {self.max_line} bytes")
            if self.total > self.max_head:
                raise HeadTooLarge(f"a request's headers may hold at most {self.max_head} bytes")
            # An empty line is "\n" or "\r\n": only a line that short needs looking at.
            if self._blank and (self.line > 2 or data[pos:stop].strip(b"\r\n")):
                self._blank = False
            pos = stop
            if end < 0:
                break
            empty, self._blank, self.line = self._blank, True, 0
            if empty:
                if self.lines:  # the empty line after the headers: the head is whole
                    return pos, True
                continue  # empty lines before the request line are skipped (RFC 9112, 2.2)
            self.lines += 1
            if self.lines > self.max_headers + 1:
                raise HeadTooLarge(f"a request may carry at most {self.max_headers} headers")
        return pos, False


def refusal(message: str) -> bytes:
    """The whole 431 answer, written to the socket before it is closed."""
    body = json.dumps({"code": HEAD_TOO_LARGE, "message": message}).encode()
    return (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
        b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )


__all__ = ["HEAD_TOO_LARGE", "HeadLimit", "HeadTooLarge", "refusal"]

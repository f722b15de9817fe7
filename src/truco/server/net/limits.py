"""What a client may send: frame size, message rate, and the browser origins the server trusts.

Every limit here protects the table from one connection: a frame too large to be a message, a
client that sends faster than any person plays, or a page on a foreign site that a player's
browser would otherwise let act with the player's cookies and network position. The close codes
are part of the protocol (docs/protocol.md, "Limits").
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Final
from urllib.parse import urlsplit

from truco import protocol as p
from truco.server.errors import TableError

BAD_ORIGIN: Final = "bad_origin"
"""Error code of an HTTP request refused for its ``Origin`` (answered with 403)."""


class TokenBucket:
    """``burst`` credits at once, refilled at ``rate`` credits a second.

    A bucket rather than a fixed window, so that a client that paused may burst (a person who
    types a chat line after a quiet spell) while a steady flood still runs dry.
    """

    __slots__ = ("_clock", "_credits", "_last", "burst", "rate")

    def __init__(
        self, burst: float, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = float(burst)
        self.rate = float(rate)
        self._clock = clock
        self._credits = self.burst
        self._last = clock()

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` credits; False (and nothing spent) when there are not enough."""
        now = self._clock()
        # max(): a clock that stepped back must not drain the bucket.
        self._credits = min(self.burst, self._credits + max(0.0, now - self._last) * self.rate)
        self._last = now
        if self._credits < cost:
            return False
        self._credits -= cost
        return True

    def full(self) -> bool:
        """Back to its whole burst: forgetting this bucket changes nothing."""
        elapsed = max(0.0, self._clock() - self._last)
        return self._credits + elapsed * self.rate >= self.burst


class Buckets:
    """One ``TokenBucket`` per key (a seat, an address), made on first use.

    Kept per key rather than per connection so that a client cannot reset its allowance by
    connecting again. At most ``keys`` are kept: when full, the least recently used bucket is
    forgotten (a key idle that long would be back at its full burst anyway, so forgetting it
    gives nothing away unless a client spreads over more keys than that).
    """

    __slots__ = ("_buckets", "_clock", "burst", "keys", "rate")

    def __init__(
        self,
        burst: float,
        rate: float,
        keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.rate = rate
        self.keys = keys
        self._clock = clock
        self._buckets: OrderedDict[Hashable, TokenBucket] = OrderedDict()

    def take(self, key: Hashable, cost: float = 1.0) -> bool:
        """Spend ``cost`` from ``key``'s bucket; False (nothing spent) when it has too little."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.burst, self.rate, self._clock)
            if len(self._buckets) > self.keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.take(cost)

    def __len__(self) -> int:
        return len(self._buckets)


def frame_size(raw: str | bytes) -> int:
    """The size of a frame in bytes, as it travelled (text frames are UTF-8)."""
    if isinstance(raw, bytes):
        return len(raw)
    # surrogatepass: a str that did not come off a real socket may hold lone surrogates.
    return len(raw.encode("utf-8", "surrogatepass"))


def origin_ok(origin: str, host: str, allowed: tuple[str, ...]) -> bool:
    """May a browser page from ``origin`` talk to this server, reached as ``host``?

    Its own host (the page the server itself serves) and the configured ``allowed`` origins
    only. Browsers send ``Origin: null`` from sandboxed frames and files: never trusted.
    """
    origin = origin.strip()
    if origin.rstrip("/") in allowed or origin in allowed:
        return True
    netloc = urlsplit(origin).netloc.lower()
    return bool(netloc) and netloc == host.strip().lower()


def spend(budget: Buckets, key: Hashable, what: str, *, burst: float, per_second: float) -> None:
    """Take one credit of ``key`` from ``budget``, or refuse (``rate_limited``) saying the limit."""
    if not budget.take(key):
        raise TableError(
            p.RATE_LIMITED, f"{what}: at most {burst:g} at once, then {per_second:g}/s"
        )


__all__ = [
    "BAD_ORIGIN",
    "Buckets",
    "TokenBucket",
    "frame_size",
    "origin_ok",
    "spend",
]

"""Bot decisions off the event loop: a bounded pool of worker processes.

An expert bot thinks for 10 to 85 ms; on the server's loop that is 10 to 85 ms during which no
table moves and no ping is answered. A bot needs only its seat's view, the legal actions and a
seeded random generator, all plain picklable values, so the decision runs in another process
and the table, which alone applies actions, awaits it like any other command. The worker builds
the bot by level (bots keep no state between decisions) and seeds the generator from the same
string the table would, so a decision is the same wherever it runs.

If the pool breaks (a worker killed or crashed) it is replaced and the decision asked again once;
if that fails too, or no answer comes within ``bot_seconds``, the table decides with the random
bot on the loop (microseconds), so that a table never stalls on its bots.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import Counter
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from random import Random

from truco.actions import Action
from truco.bots import Bot, make_bot
from truco.view import SeatView

log = logging.getLogger("truco.server.bots")

FALLBACK = "random"
"""The bot that decides on the loop when the pool cannot (cheap, and always legal)."""

_bots: dict[str, Bot] = {}
"""A worker's bots, one per level (in the server process too, for the fallback)."""


def decide(level: str, view: SeatView, legal: tuple[Action, ...], seed: str) -> tuple[Action, int]:
    """One decision, and the process that made it (runs in a worker)."""
    bot = _bots.get(level)
    if bot is None:
        bot = _bots[level] = make_bot(level)
    return bot.choose(view, legal, Random(seed)), os.getpid()


class BotPool:
    """At most ``processes`` workers deciding for every bot of this process (0: on the loop)."""

    def __init__(self, processes: int, seconds: float) -> None:
        self.processes = processes
        self.seconds = seconds
        self._executor: Executor | None = None
        self.pids: Counter[int] = Counter()
        """Decisions made, by the process that made them (the server's own: a fallback)."""
        self.failures = 0

    def _pool(self) -> Executor:
        if self._executor is None:
            # forkserver: a forked copy of the server would inherit its threads (the database
            # driver's) and their locks; the workers start clean and import only the bots.
            context = multiprocessing.get_context("forkserver")
            self._executor = ProcessPoolExecutor(self.processes, mp_context=context)
        return self._executor

    def _replace(self) -> None:
        old, self._executor = self._executor, None
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)

    async def choose(
        self, level: str, view: SeatView, legal: tuple[Action, ...], seed: str
    ) -> Action:
        if self.processes > 0:
            loop = asyncio.get_running_loop()
            for attempt in (1, 2):
                try:
                    future = loop.run_in_executor(self._pool(), decide, level, view, legal, seed)
                    action, pid = await asyncio.wait_for(future, self.seconds)
                except (BrokenProcessPool, RuntimeError, OSError) as exc:
                    # RuntimeError: the pool was shut down under us.
                    self.failures += 1
                    log.warning("bot pool failed (%s), attempt %d: replacing it", exc, attempt)
                    self._replace()
                    continue
                except TimeoutError:
                    self.failures += 1
                    log.warning(
                        "a %s bot took over %gs: the random bot decides", level, self.seconds
                    )
                    break
                self.pids[pid] += 1
                return action
            level = FALLBACK
        action, pid = decide(level, view, legal, seed)
        self.pids[pid] += 1
        return action

    def close(self) -> None:
        self._replace()


_shared: dict[tuple[int, float], BotPool] = {}


def shared(processes: int, seconds: float) -> BotPool:
    """The process's pool for these settings (one per process: the workers are the bound)."""
    pool = _shared.get((processes, seconds))
    if pool is None:
        pool = _shared[(processes, seconds)] = BotPool(processes, seconds)
    return pool


__all__ = ["FALLBACK", "BotPool", "decide", "shared"]

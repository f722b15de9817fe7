"""Bot decisions off the event loop: a bounded pool of worker processes.

An expert bot thinks for 10 to 85 ms; on the server's loop that is 10 to 85 ms during which no
table moves and no ping is answered. A bot needs only its seat's view, the legal actions and a
seeded random generator, all plain picklable values, so the decision runs in another process
and the table, which alone applies actions, awaits it like any other command. The worker builds
the bot by level and persona, one shared by every table of the process, and seeds the generator
from the same string the table would, so a decision is the same wherever it runs. What the bot
is told (``Situation``: the view, the legal actions, the señas its seat received and its
reading of the rivals) is the table's and travels with the decision (``driver.decide``): the
table keeps what an expert bot has read of its rivals (``readings.py``), has each hand's
evidence computed here (``read``) and sends a copy with each decision, so nothing of one table
stays in the shared bot.

If the pool breaks (a worker killed or crashed) it is replaced and the decision asked again once;
if that fails too, or no answer comes within ``bot_seconds``, the table decides with the
caretaker on the loop (a rules-based choice, well under a millisecond), so that a table never
stalls on its bots; the caretaker never starts or raises a bet, so a fallback never gambles a
match away for anyone.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from random import Random
from typing import Any, TypeVar

from truco import coach
from truco.actions import Action
from truco.bots import Bot, ExpertBot, driver, make_bot, make_persona_bot
from truco.bots.base import Situation
from truco.bots.rivals import read_hand
from truco.view import SeatView

T = TypeVar("T")

log = logging.getLogger("truco.server.bots")

FALLBACK = "caretaker"
"""The bot that decides on the loop when the pool cannot: cheap, always legal, never a bet."""

_bots: dict[tuple[str, str], Bot] = {}
"""A worker's bots, one per level and persona (in the server process too, for the fallback)."""


def _watch(server: int) -> None:
    """A worker ends when the server process is gone (even killed with SIGKILL): otherwise it
    would wait for work forever."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()


def spawn_workers(processes: int) -> ProcessPoolExecutor:
    """A pool of ``processes`` workers that end with the server (the analyses' pool too).

    spawn: a forked copy of the server would inherit its threads (the database driver's) and
    their locks; the workers start clean, as the server's children (so that they can tell when
    it is gone), and import only what their work needs."""
    return ProcessPoolExecutor(
        processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_watch,
        initargs=(os.getpid(),),
    )


def bot(level: str, persona: str = "") -> Bot:
    """The process's bot of a level and persona: a bot seat plays with its persona's style
    (docs/bots.md); without a persona (a caretaker) the level's plain bot."""
    found = _bots.get((level, persona))
    if found is None:
        made = make_persona_bot(level, persona) if persona else make_bot(level)
        found = _bots[(level, persona)] = made
    return found


def reads(level: str, persona: str = "") -> bool:
    """Whether the bot of a level and persona reads its rivals (the expert levels do)."""
    found = bot(level, persona)
    return isinstance(found, ExpertBot) and found.reads


def decide(level: str, told: Situation, seed: str, persona: str = "") -> tuple[Action, int]:
    """One decision of the bot of a level and persona, with what its seat is told, and the
    process that made it (runs in a worker)."""
    return driver.decide(bot(level, persona), told, Random(seed)), os.getpid()


def read(view: SeatView) -> tuple[dict[int, list[float]], int]:
    """One finished hand's evidence of each rival's type, as the seat of ``view`` saw it
    (``rivals.read_hand``, 50 to 100 ms: runs in a worker), and the process that read it."""
    return read_hand(view), os.getpid()


def pista(view: SeatView, seed: str) -> tuple[Action | None, int]:
    """The "pista": the coach's choice for the seat's current decision, from its view alone
    (runs in a worker; a few hundred ms of the expert's search, never on the server's loop)."""
    return coach.hint(view, seed=seed), os.getpid()


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
            self._executor = spawn_workers(self.processes)
        return self._executor

    def _replace(self, broken: Executor) -> None:
        """Replace ``broken`` if it is still the pool: every decision waiting on a broken pool
        fails at once, and one new pool is enough for all of them."""
        if self._executor is broken:
            self._executor = None
            # Not cancel_futures: a cancelled decision would cancel the table that awaits it.
            broken.shutdown(wait=False)

    async def _run(
        self, what: str, fn: Callable[..., tuple[T, int]], *args: Any
    ) -> tuple[T, int] | None:
        """``fn(*args)`` in a worker, and the process that ran it; None when the pool could not
        answer (a broken pool is replaced and the call tried once more; a timeout is final)."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._pool()
            try:
                future = loop.run_in_executor(pool, fn, *args)
                async with asyncio.timeout(self.seconds):
                    done: tuple[T, int] = await future
            except TimeoutError:  # first: it is an OSError too, and the pool is not broken
                self.failures += 1
                log.warning("%s took over %gs", what, self.seconds)
                return None
            except (BrokenProcessPool, RuntimeError, OSError) as exc:
                # RuntimeError: the pool was shut down under us.
                self.failures += 1
                log.warning("bot pool failed (%r), attempt %d", exc, attempt)
                self._replace(pool)
                continue
            self.pids[done[1]] += 1
            return done
        return None

    async def choose(self, level: str, told: Situation, seed: str, persona: str = "") -> Action:
        """A bot's decision (``decide``), in a worker; the caretaker's on the loop when the pool
        cannot answer (told neither the señas nor the reading: it plays for nobody's persona)."""
        if self.processes > 0:
            what = f"a {level} bot (the caretaker decides)"
            done = await self._run(what, decide, level, told, seed, persona)
            if done is not None:
                return done[0]
            level, persona = FALLBACK, ""
            told = told._replace(heard=(), reading=None)
        action, pid = decide(level, told, seed, persona)
        self.pids[pid] += 1
        return action

    async def pista(self, view: SeatView, seed: str) -> Action | None:
        """The coach's choice for ``view``'s decision, computed off the loop; None when the pool
        could not answer (unlike a bot's move there is no fallback on the loop: the search
        would hold up every table of the process)."""
        if self.processes <= 0:
            # No workers (bots decide on the loop): a thread, so the loop still never waits.
            action, pid = await asyncio.to_thread(pista, view, seed)
            self.pids[pid] += 1
            return action
        done = await self._run("a pista", pista, view, seed)
        return None if done is None else done[0]

    async def read(self, view: SeatView) -> dict[int, list[float]] | None:
        """The evidence of the hand that ended in ``view`` about each rival's type, computed off
        the loop (``read``); None when the pool could not answer: that hand is not read."""
        if self.processes <= 0:
            # No workers (bots decide on the loop): a thread, so the loop still never waits.
            evidence, pid = await asyncio.to_thread(read, view)
            self.pids[pid] += 1
            return evidence
        done = await self._run("a reading of the rivals", read, view)
        return None if done is None else done[0]

    def close(self) -> None:
        """Stop the workers (the server is stopping); a later decision starts new ones."""
        if self._executor is not None:
            old, self._executor = self._executor, None
            old.shutdown(wait=False, cancel_futures=True)


_shared: dict[tuple[int, float], BotPool] = {}


def shared(processes: int, seconds: float) -> BotPool:
    """The process's pool for these settings (one per process: the workers are the bound)."""
    pool = _shared.get((processes, seconds))
    if pool is None:
        pool = _shared[(processes, seconds)] = BotPool(processes, seconds)
    return pool


def close_all() -> None:
    for pool in _shared.values():
        pool.close()


__all__ = [
    "FALLBACK",
    "BotPool",
    "bot",
    "close_all",
    "decide",
    "pista",
    "read",
    "reads",
    "shared",
    "spawn_workers",
]

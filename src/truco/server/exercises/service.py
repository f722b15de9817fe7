"""Generation passes: finished tables taken from the store, judged off the event loop, saved.

A pass takes at most ``exercises_tables`` finished tables that no pass took before (each claimed
by its row, so two processes of a cluster never judge one table twice), judges each in a worker
process of its own (the coach's search is seconds of CPU: never on the event loop, never in the
bots' or the analyses' workers), and stores what it kept. The server runs one pass every
``exercises_interval`` seconds; ``truco admin ejercicios`` runs one from the command line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from typing import Any

from truco.server.exercises.generate import Found, from_table
from truco.server.exercises.store import Exercises
from truco.server.settings import Settings
from truco.server.tables.botpool import spawn_workers

log = logging.getLogger("truco.server.exercises")

Judge = Callable[..., Awaitable[list[Found]]]
"""Runs ``generate.from_table`` with the same arguments, somewhere off the event loop."""


@dataclass(frozen=True, slots=True)
class Pass:
    tables: int
    """Finished tables judged in this pass."""
    found: int
    """Exercises stored by it."""


async def in_thread(*args: Any, **kwargs: Any) -> list[Found]:
    """The judge of the command line: a thread of its own (nothing else runs on its loop)."""
    return await asyncio.to_thread(partial(from_table, *args, **kwargs))


class Worker:
    """The judge of a server: one worker process, started on first use, replaced if it breaks."""

    def __init__(self) -> None:
        self._pool: Executor | None = None

    async def __call__(self, *args: Any, **kwargs: Any) -> list[Found]:
        if self._pool is None:
            # Starting a process takes the loop's time: in a thread.
            self._pool = await asyncio.to_thread(spawn_workers, 1)
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(
                pool, partial(from_table, *args, **kwargs)
            )
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


async def generation_pass(exercises: Exercises, settings: Settings, judge: Judge) -> Pass:
    """One pass (see the module's docstring)."""
    if await exercises.count() >= settings.exercises_max:
        return Pass(0, 0)
    tables = found = 0
    for table_id in await exercises.unscanned(settings.exercises_tables):
        if not await exercises.claim(table_id):
            continue
        row = await exercises.store.load(table_id)
        kept: list[Found] = []
        if row is not None and row.status == "over":
            entries = [(e.kind, e.data) for e in row.log]
            try:
                kept = await judge(
                    table_id,
                    row.options,
                    entries,
                    worlds=settings.exercises_worlds,
                    decisions=settings.exercises_decisions,
                    keep=settings.exercises_keep,
                )
            except Exception:  # a log the engine refuses: the table gives none, the pass goes on
                log.exception("exercises: table %s could not be judged", table_id)
        tables += 1
        found += await exercises.save(table_id, kept)
    return Pass(tables, found)


class Generator:
    """The server's periodic passes (none when ``exercises_interval`` is 0)."""

    def __init__(self, exercises: Exercises, settings: Settings) -> None:
        self.exercises = exercises
        self.settings = settings
        self.judge = Worker()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.settings.exercises_interval > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="exercises")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.exercises_interval)
            try:
                done = await generation_pass(self.exercises, self.settings, self.judge)
                if done.tables:
                    log.info("exercises: %d tables judged, %d kept", done.tables, done.found)
            except Exception:  # the database away, a worker broken: the next pass tries again
                log.exception("exercises: the pass failed")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self.judge.close()


__all__ = ["Generator", "Pass", "Worker", "generation_pass", "in_thread"]

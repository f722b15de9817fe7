"""A table stopped in this process (it expired, was set aside, or the server shuts down) answers
every command that waits on its owner task: the one it was running as well as the queued ones.
Nobody waits for ever on a command that will not run here."""

from __future__ import annotations

import asyncio

from server.helpers import WAIT, app_state, create, serving
from truco.protocol import UNAVAILABLE
from truco.server import Settings
from truco.server.errors import TableError
from truco.server.tables.table import Table


async def stop_in_the_middle(table: Table) -> list[object]:
    """Stop the table while its owner runs a command that would never end on its own (as an
    action waiting on its commit), with another command queued behind it; what each waiter
    hears."""
    running = asyncio.Event()

    async def endless() -> None:
        running.set()
        await asyncio.Event().wait()

    async def next_one() -> str:
        return "ran"

    waiters = [asyncio.ensure_future(table.submit(endless))]
    await running.wait()
    waiters.append(asyncio.ensure_future(table.submit(next_one)))
    await asyncio.sleep(0)  # the second is queued behind the first
    await table.stop()
    async with asyncio.timeout(WAIT):  # a hang guard: without the answer this never returns
        heard: list[object] = list(await asyncio.gather(*waiters, return_exceptions=True))
    return heard


def test_stopping_a_table_answers_the_command_it_was_running(settings: Settings) -> None:
    with serving(settings) as c:
        t = create(c)
        table: Table = app_state(c).hub.tables[t["table"]]
        assert c.portal is not None  # the test client's portal lives while its `with` is open
        heard = c.portal.call(stop_in_the_middle, table)
    assert len(heard) == 2
    for answer in heard:
        assert isinstance(answer, TableError), answer
        assert answer.code == UNAVAILABLE and "reconnect" in str(answer)

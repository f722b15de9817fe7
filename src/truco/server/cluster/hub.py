"""The tables of a process that shares Redis with others (docs/operations.md).

It owns the tables whose lease it holds and serves the others through their owner
(``remote.py``). A maintenance loop renews its leases, drops the tables it lost, adopts the
unfinished tables nobody holds (their process died), and notices relayed players whose other
end went away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any

from redis.exceptions import RedisError

from truco import protocol as p
from truco.notation import dumps
from truco.server.cluster.coordinator import Coordinator
from truco.server.cluster.remote import RelayConn, Relayed, RemoteTable
from truco.server.errors import TableError
from truco.server.settings import Settings
from truco.server.store.database import Store
from truco.server.store.schema import StoreUnavailable, TableRow
from truco.server.tables.handle import TableHandle
from truco.server.tables.hub import LOBBY_KEYS, Hub
from truco.server.tables.table import WAITING, Table

log = logging.getLogger("truco.server.cluster.coordinator")


def make_hub(store: Store, settings: Settings) -> Hub:
    """One process alone (no Redis configured) or one of a cluster."""
    if settings.redis_url:
        return ClusterHub(store, settings)
    return Hub(store, settings)


class ClusterHub(Hub):
    def __init__(self, store: Store, settings: Settings) -> None:
        super().__init__(store, settings)
        assert settings.redis_url is not None
        self.bus = Coordinator(
            settings.redis_url, settings.node_id, settings.lease_seconds, settings.call_seconds
        )
        self.bus.on_message = self._on_message
        self.bus.on_call = self._on_call
        self.bus.on_lost = self._on_bus_lost
        self.relays: dict[str, RelayConn] = {}
        """Owner side: players of this process's tables connected to other processes."""
        self.relayed: Relayed = {}
        """Socket side: this process's players at tables other processes own."""
        self._dirty: set[str] = set()
        self._flushing = False
        self._task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()

    # --- life -----------------------------------------------------------------------------------

    async def start(self) -> None:
        await self.store.migrate()
        await self.bus.start()
        with contextlib.suppress(RedisError, OSError):
            await self.bus.renew([])  # alive before anyone relays a player through here
        # The orphans are adopted after start-up, not before it: the process answers at once.
        self._begin(self._adopt_at_start())
        self._task = asyncio.get_running_loop().create_task(self._maintain(), name="cluster")

    async def _adopt_at_start(self) -> None:
        with contextlib.suppress(RedisError, OSError, StoreUnavailable):
            await self._adopt_orphans()
        self.restored.set()

    async def stop(self) -> None:
        for task in [self._task, *self._jobs]:
            if task is None:
                continue
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        owned = list(self.tables)
        for table in list(self.tables.values()):
            for conn in table.connections():
                conn.close(p.CLOSE_GOING_AWAY, "the server is stopping; reconnect")
            await table.stop()
        for conn, _ in list(self.relayed.values()):
            conn.close(p.CLOSE_GOING_AWAY, "the server is stopping; reconnect")
        # Released at once rather than left to expire: the others adopt the tables right away.
        with contextlib.suppress(RedisError, OSError):
            await self.bus.release(owned)
        await self.bus.stop()
        await self.store.close()

    # --- tables ---------------------------------------------------------------------------------

    async def _own(self, table: Table) -> None:
        try:
            ours = await self.bus.acquire(table.id)
        except (RedisError, OSError) as exc:
            raise TableError(p.UNAVAILABLE, f"Redis is unreachable: {exc}") from None
        if not ours:
            raise TableError(p.UNAVAILABLE, "another server holds this table")
        self._attach(table)

    def _attach(self, table: Table) -> None:
        table.on_change = lambda: self._lobby_dirty(table.id)
        table.on_lost = lambda: self._spawn(self._drop(table.id))
        self._lobby_dirty(table.id)

    async def get(self, table_id: str) -> TableHandle | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        try:
            owner = await self.bus.owner(table_id)
            if owner is None or owner == self.bus.node:
                found = await self._load(table_id)
                if found is None or isinstance(found, Table):
                    return found
                owner = await self.bus.owner(table_id)
            if owner is None:
                raise TableError(p.UNAVAILABLE, "the table is between servers; try again")
            return await RemoteTable.fetch(self.bus, self.relayed, table_id, owner)
        except (RedisError, OSError) as exc:
            raise TableError(p.UNAVAILABLE, f"Redis is unreachable: {exc}") from None
        except StoreUnavailable as exc:
            raise TableError(p.UNAVAILABLE, f"the database is unreachable: {exc}") from None

    async def _load(self, table_id: str) -> Table | bool | None:
        """The table, loaded here under a new lease; None: no such table; True: another has it."""
        if table_id not in self.tables:
            if not await self.store.exists(table_id):
                return None
            if not await self.bus.acquire(table_id):
                return True
            await self._let_the_last_owner_go()
        async with self._loading:
            table = self.tables.get(table_id)
            if table is None:
                try:
                    table = await self._restore(table_id)
                except TableError:  # expired or set aside: nobody holds it
                    with contextlib.suppress(RedisError, OSError):
                        await self.bus.release([table_id])
                    raise
                if table is None:
                    return None
        table.start()
        return table

    async def _let_the_last_owner_go(self) -> None:
        """Wait out one renewal of whoever held the lease before: when Redis lost the leases
        (a restart) that process may still believe it owns the table, and learns otherwise at
        its next renewal. Loaded after that, the table holds all of its writes; a later one is
        refused by the log's fence."""
        await asyncio.sleep(self.settings.lease_seconds / 3 + 0.2)

    def _build(self, row: TableRow) -> Table:
        table = super()._build(row)
        self._attach(table)
        return table

    async def _forget(self, table_id: str) -> None:
        await super()._forget(table_id)
        self._lobby_dirty(table_id)
        with contextlib.suppress(RedisError, OSError):
            await self.bus.release([table_id])

    async def _drop(self, table_id: str) -> None:
        """Forget a table this process no longer owns; its players reconnect to the new owner."""
        table = self.tables.pop(table_id, None)
        self._born.pop(table_id, None)
        if table is None:
            return
        for conn in table.connections():
            conn.close(p.CLOSE_MOVED, "the table moved to another server")
        await table.stop()
        for cid, relay in list(self.relays.items()):
            if relay.table_id == table_id:
                del self.relays[cid]
        with contextlib.suppress(RedisError, OSError):
            await self.bus.release([table_id])

    async def _adopt_orphans(self) -> None:
        """Take the unfinished tables whose lease lapsed (their process died)."""
        free = [t for t in await self.store.unfinished() if t not in self.tables]
        taken = await self.bus.acquire_many(free)
        if not taken:
            return
        await self._let_the_last_owner_go()
        for table_id in taken:
            try:
                async with self._loading:
                    if table_id in self.tables:
                        continue
                    found = await self._restore(table_id)
                    if found is None:
                        continue
                    table = found
                table.start()
                log.info("adopted table %s", table_id)
            except TableError as exc:
                if exc.code == p.UNAVAILABLE:
                    await self.bus.release(t for t in taken if t not in self.tables)
                    raise StoreUnavailable(exc.message) from None
                await self.bus.release([table_id])  # set aside: nobody is to hold it

    # --- the lobby ------------------------------------------------------------------------------

    async def _build_lobby(self) -> list[dict[str, Any]]:
        try:
            return await self.bus.lobby()
        except (RedisError, OSError):
            return await self.local_lobby()

    def _lobby_dirty(self, table_id: str) -> None:
        self._dirty.add(table_id)
        if not self._flushing:
            self._flushing = True
            self._spawn(self._flush_lobby())

    async def _flush_lobby(self) -> None:
        try:
            await asyncio.sleep(0)  # gather the changes of this turn of the loop
            dirty, self._dirty = self._dirty, set()
            entries: dict[str, dict[str, Any] | None] = {}
            for table_id in dirty:
                table = self.tables.get(table_id)
                info = table.info() if table is not None else None
                shown = info is not None and info["status"] == WAITING
                entries[table_id] = (
                    {k: info[k] for k in LOBBY_KEYS} if info is not None and shown else None
                )
            with contextlib.suppress(RedisError, OSError):
                await self.bus.lobby_update(entries)
        finally:
            self._flushing = False

    # --- upkeep ---------------------------------------------------------------------------------

    async def _maintain(self) -> None:
        period = self.settings.lease_seconds / 3
        tick = 0
        while True:
            await asyncio.sleep(period)
            tick += 1
            try:
                await self._renew()
                if tick % 3 == 0:
                    await self._adopt_orphans()
            except (RedisError, OSError, StoreUnavailable) as exc:
                log.warning("cluster upkeep failed: %s", exc)
            except Exception:
                log.exception("cluster upkeep failed")

    async def _renew(self) -> None:
        for table_id in await self.bus.renew(list(self.tables)):
            log.warning("lost the lease of table %s", table_id)
            await self._drop(table_id)
        # The lobby is a cache: rewrite this process's open tables (Redis may have restarted).
        for table in self.tables.values():
            if table.status == WAITING:
                self._dirty.add(table.id)
        if self._dirty:
            self._lobby_dirty(next(iter(self._dirty)))
        # Relayed players whose socket's process died: they are away (grace, then a bot).
        alive = await self.bus.alive(r.node for r in self.relays.values())
        for cid, relay in list(self.relays.items()):
            if relay.node not in alive:
                self._relay_gone(cid)
        # Players here at tables whose owner changed or vanished: reconnect them.
        remote = {r.id: r.owner for _, r in self.relayed.values()}
        tables = list(remote)
        for table_id, owner in zip(tables, await self.bus.owners(tables), strict=True):
            if owner != remote[table_id]:
                for conn, r in list(self.relayed.values()):
                    if r.id == table_id:
                        conn.close(p.CLOSE_MOVED, "the table moved to another server")

    # --- the bus --------------------------------------------------------------------------------

    def _on_message(self, op: str, cid: str, payload: str) -> None:
        if op == "f":
            held = self.relayed.get(cid)
            if held is not None:
                held[0].send(payload)
        elif op == "x":
            held = self.relayed.pop(cid, None)
            if held is not None:
                code, _, reason = payload.partition(" ")
                held[0].close(int(code), reason)
        elif op == "m":
            relay = self.relays.get(cid)
            table = self.tables.get(relay.table_id) if relay is not None else None
            if relay is not None and table is not None:
                self._spawn(table.receive(relay, payload))
        elif op == "g":
            self._relay_gone(cid)

    def _relay_gone(self, cid: str) -> None:
        relay = self.relays.pop(cid, None)
        table = self.tables.get(relay.table_id) if relay is not None else None
        if relay is not None and table is not None:
            self._spawn(table.disconnect(relay))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        # Tasks are kept until done (the loop holds only weak references to them). Created in
        # arrival order, their first steps queue on the table in that order too.
        task = asyncio.get_running_loop().create_task(_quietly(coro))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _on_bus_lost(self) -> None:
        # Frames may have been lost both ways: everyone relayed reconnects and catches up.
        for conn, _ in list(self.relayed.values()):
            conn.close(p.CLOSE_GOING_AWAY, "lost the link between servers; reconnect")
        self.relayed.clear()
        for cid in list(self.relays):
            self._relay_gone(cid)

    async def _on_call(self, method: str, table_id: str, args: dict[str, Any]) -> Any:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(p.UNAVAILABLE, "the table moved to another server; try again")
        if method == "connect":
            relay = RelayConn(
                self.bus,
                args["node"],
                args["cid"],
                table_id,
                limit=self.settings.outbox_size,
            )
            self.relays[relay.cid] = relay
            try:
                await table.connect(
                    relay, args["token"], int(args["last_v"]), args.get("player_id")
                )
            except TableError:
                self.relays.pop(relay.cid, None)
                raise
            return None
        if method == "snapshot":
            return {
                "info": table.info(),
                "hands": [dumps(h) for h in table.hands],
                "tokens": [[s.seat, s.token_hash] for s in table.seats if s.token_hash],
            }
        if method == "join":
            return list(await table.join(args["name"], args["seat"], args.get("player_id")))
        if method == "add_bot":
            try:
                await table.add_bot(int(args["seat"]), args["level"])
            except ValueError as exc:  # an unknown bot (TrucoError)
                raise TableError(p.BAD_OPTIONS, str(exc)) from None
            return table.info()
        if method == "kick":
            await table.kick(int(args["seat"]))
            return table.info()
        raise TableError(p.BAD_MESSAGE, f"unknown request {method!r}")


async def _quietly(coro: Coroutine[Any, Any, None]) -> None:
    try:
        await coro
    except TableError:
        pass
    except Exception:
        log.exception("cluster: a relayed command failed")


__all__ = ["ClusterHub", "make_hub"]

"""The "Jugar ahora" queue of a cluster, in Redis: players on any process meet.

Keys (docs/operations.md):

- ``truco:mm:q:{mode}``: a sorted set of the mode's waiting tickets, scored by when they joined.
- ``truco:mm:t:{ticket}``: a hash, the ticket (mode, player, name, rating, since, the seat
  token's hash, state, table, seat); it expires ``idle`` seconds after it was last asked about.
- ``truco:mm:p:{player}``: the player's ticket (one each), expiring with it.

Every change that reads before it writes is one Lua script, which Redis runs alone: two
processes can never both claim a ticket, and a player can never be in two queues. A sorted
set's member whose hash expired is dropped by the next process that reads the queue.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from redis.asyncio import Redis

from truco.server.queue.tickets import FORMING, MATCHED, ROUND_MOST, WAITING, QueueFull, Ticket

PREFIX = "truco:mm:"
CHECK_SECONDS = 0.25
"""How often a waiting request asks Redis whether its ticket changed."""


def queue_key(mode: str) -> str:
    return f"{PREFIX}q:{mode}"


def ticket_key(ticket: str) -> str:
    return f"{PREFIX}t:{ticket}"


def player_key(player: str) -> str:
    return f"{PREFIX}p:{player}"


# KEYS: the player's key, the new ticket's hash, its mode's queue.
# ARGV: prefix, ticket, mode, idle ms, most, since, then the hash's other fields as pairs.
# Returns the ticket's since (the old one's, when it keeps its place), or false when full.
_JOIN = """
local prefix, ticket, mode = ARGV[1], ARGV[2], ARGV[3]
local since = ARGV[6]
local old = redis.call('GET', KEYS[1])
local old_key, old_mode = nil, nil
if old then
  old_key = prefix .. 't:' .. old
  if redis.call('HGET', old_key, 'state') == 'waiting' then
    old_mode = redis.call('HGET', old_key, 'mode')
  else
    old_key = nil
  end
end
local count = redis.call('ZCARD', KEYS[3])
if old_mode == mode then
  count = count - 1
  since = redis.call('HGET', old_key, 'since')
end
if count >= tonumber(ARGV[5]) then
  return false
end
if old_key then
  redis.call('ZREM', prefix .. 'q:' .. old_mode, old)
  redis.call('DEL', old_key)
end
redis.call('HSET', KEYS[2], 'mode', mode, 'since', since, 'state', 'waiting')
for i = 7, #ARGV, 2 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[3], since, ticket)
redis.call('SET', KEYS[1], ticket, 'PX', ARGV[4])
return since
"""

# KEYS: a ticket's hash. ARGV: prefix, idle ms. The ticket (flat field list), kept alive; not a
# claimed one: if the process that claimed it died before its table was made, it lapses.
_LOOK = """
local found = redis.call('HGETALL', KEYS[1])
if #found > 0 and redis.call('HGET', KEYS[1], 'state') ~= 'forming' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  local player = redis.call('HGET', KEYS[1], 'player')
  redis.call('PEXPIRE', ARGV[1] .. 'p:' .. player, ARGV[2])
end
return found
"""

# KEYS: a ticket's hash. ARGV: prefix, ticket. Drops it if it waits; returns it as it was.
_LEAVE = """
local found = redis.call('HGETALL', KEYS[1])
if #found > 0 and redis.call('HGET', KEYS[1], 'state') == 'waiting' then
  local mode = redis.call('HGET', KEYS[1], 'mode')
  local pkey = ARGV[1] .. 'p:' .. redis.call('HGET', KEYS[1], 'player')
  redis.call('ZREM', ARGV[1] .. 'q:' .. mode, ARGV[2])
  redis.call('DEL', KEYS[1])
  if redis.call('GET', pkey) == ARGV[2] then
    redis.call('DEL', pkey)
  end
end
return found
"""

# KEYS: the tickets' hashes. ARGV: prefix, idle ms, then the tickets. All waiting: all taken.
_CLAIM = """
for i, key in ipairs(KEYS) do
  if redis.call('HGET', key, 'state') ~= 'waiting' then
    return 0
  end
end
for i, key in ipairs(KEYS) do
  local mode = redis.call('HGET', key, 'mode')
  redis.call('ZREM', ARGV[1] .. 'q:' .. mode, ARGV[i + 2])
  redis.call('HSET', key, 'state', 'forming')
  redis.call('PEXPIRE', key, ARGV[2])
end
return 1
"""

# KEYS: the tickets' hashes. ARGV: prefix, then the tickets. Claimed ones wait again.
_UNCLAIM = """
for i, key in ipairs(KEYS) do
  if redis.call('HGET', key, 'state') == 'forming' then
    redis.call('HSET', key, 'state', 'waiting')
    local mode = redis.call('HGET', key, 'mode')
    redis.call('ZADD', ARGV[1] .. 'q:' .. mode, redis.call('HGET', key, 'since'), ARGV[i + 1])
  end
end
return 1
"""


class RedisQueue:
    """The queue shared by the processes of a cluster (``queues.Queue``)."""

    def __init__(self, redis: Redis, idle: float) -> None:
        self.redis = redis
        self.idle_ms = int(idle * 1000)
        self._join = redis.register_script(_JOIN)
        self._look = redis.register_script(_LOOK)
        self._leave = redis.register_script(_LEAVE)
        self._claim = redis.register_script(_CLAIM)
        self._unclaim = redis.register_script(_UNCLAIM)

    async def join(self, ticket: Ticket, most: int) -> Ticket:
        fields = {
            "player": ticket.player,
            "name": ticket.name,
            "rating": repr(ticket.rating),
            "token_hash": ticket.token_hash,
        }
        args: list[Any] = [PREFIX, ticket.ticket, ticket.mode, self.idle_ms, most]
        args.append(repr(ticket.since))
        for k, v in fields.items():
            args += [k, v]
        keys = [player_key(ticket.player), ticket_key(ticket.ticket), queue_key(ticket.mode)]
        since = await self._join(keys=keys, args=args)
        if since is None:
            raise QueueFull(ticket.mode)
        return replace(ticket, since=float(since))

    async def look(self, ticket: str) -> Ticket | None:
        found = await self._look(keys=[ticket_key(ticket)], args=[PREFIX, self.idle_ms])
        return _ticket(ticket, found)

    async def leave(self, ticket: str) -> Ticket | None:
        return _ticket(ticket, await self._leave(keys=[ticket_key(ticket)], args=[PREFIX, ticket]))

    async def waiting(self, mode: str) -> list[Ticket]:
        members = [str(m) for m in await self.redis.zrange(queue_key(mode), 0, ROUND_MOST - 1)]
        if not members:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for ticket in members:
                pipe.hgetall(ticket_key(ticket))
            rows = await pipe.execute()
        found, gone = [], []
        for ticket, row in zip(members, rows, strict=True):
            t = _ticket(ticket, _flat(row))
            if t is None or t.state != WAITING:
                gone.append(ticket)
            else:
                found.append(t)
        if gone:
            # Expired (or, for a moment, claimed: then the claim removed it already).
            await self.redis.zrem(queue_key(mode), *gone)
        return sorted(found, key=lambda t: (t.since, t.ticket))

    async def claim(self, tickets: list[str]) -> bool:
        keys = [ticket_key(t) for t in tickets]
        return bool(await self._claim(keys=keys, args=[PREFIX, self.idle_ms, *tickets]))

    async def unclaim(self, tickets: list[Ticket]) -> None:
        keys = [ticket_key(t.ticket) for t in tickets]
        await self._unclaim(keys=keys, args=[PREFIX, *(t.ticket for t in tickets)])

    async def settle(self, ticket: str, table: str, seat: int) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(ticket_key(ticket), mapping={"state": MATCHED, "table": table, "seat": seat})
            pipe.pexpire(ticket_key(ticket), self.idle_ms)
            await pipe.execute()

    async def changed(self, ticket: str, timeout: float) -> None:
        await asyncio.sleep(min(timeout, CHECK_SECONDS))


def _flat(row: dict[str, str]) -> list[str]:
    return [x for kv in row.items() for x in kv]


def _ticket(ticket: str, flat: list[str]) -> Ticket | None:
    if not flat:
        return None
    row = dict(zip(flat[0::2], flat[1::2], strict=True))
    try:
        return Ticket(
            ticket=ticket,
            mode=row["mode"],
            player=row["player"],
            name=row["name"],
            rating=float(row["rating"]),
            since=float(row["since"]),
            token_hash=row["token_hash"],
            state=row["state"] if row["state"] in (WAITING, FORMING, MATCHED) else WAITING,
            table=row.get("table"),
            seat=int(row["seat"]) if "seat" in row else None,
        )
    except KeyError:  # half written (expired between two commands): as good as gone
        return None


__all__ = ["PREFIX", "RedisQueue", "player_key", "queue_key", "ticket_key"]

"""Server settings: defaults for a developer's machine, overridden by ``TRUCO_*`` variables."""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

TABLE_PREFIX = re.compile(r"[0-9a-f]{0,4}")
"""What a table prefix may be: a table id stays 12 hex digits."""


def _env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value else default


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    database_url: str = "sqlite+aiosqlite:///truco.db"
    """SQLAlchemy async URL; SQLite runs in WAL mode."""
    grace_seconds: float = 60.0
    """How long a disconnected player keeps his seat before a bot plays it for him."""
    bot_delay: float = 0.6
    """Pause before a bot acts, so that people can follow the play (0 in tests)."""
    deal_delay: float = 1.5
    """Pause between the end of a hand and the next deal."""
    bot_processes: int = field(default_factory=lambda: max(1, min(4, (os.cpu_count() or 2) - 1)))
    """Worker processes that make the bots' decisions, off the event loop (0: on the loop).
    Bounded so that the bots never take every CPU from the server's own loop."""
    bot_seconds: float = 10.0
    """How long a table waits for a worker's decision before the random bot decides instead."""
    takeover_bot: str = "caretaker"
    """The bot that plays for an absent player and for a player whose time ran out (it never
    bets in her name: ``truco.bots.caretaker``)."""
    history_size: int = 256
    """Versions kept in memory per table to catch a reconnecting client up without a full."""
    outbox_size: int = 512
    """Messages queued for one connection before it is closed as too slow."""
    chat_burst: int = 10
    """Chat and señas: a seat may send this many at once, over all its connections..."""
    chat_per_second: float = 0.5
    """...and then this many per second."""
    address_chat_burst: int = 30
    """Chat and señas from one network address, over all its seats and connections: this many
    at once (several people may share an address behind a NAT)..."""
    address_chat_per_second: float = 2.0
    """...and then this many per second."""
    pista_burst: int = 3
    """Pistas (the expert's choice, a search in the bot pool) a seat may ask for at once..."""
    pista_per_second: float = 0.2
    """...and then this many per second (one every 5 s)."""
    # Ejercicios (server/exercises, docs/players.md): positions of finished matches.
    exercises_interval: float = 600.0
    """Seconds between two generation passes of this process (0: none; ``truco admin
    ejercicios`` makes them)."""
    exercises_tables: int = 20
    """Finished tables one pass takes."""
    exercises_decisions: int = 60
    """Decisions of one table the coach judges at most (two searches each)."""
    exercises_keep: int = 6
    """Exercises kept at most from one table (the clearest)."""
    exercises_worlds: int = 320
    """Sampled worlds per search (the coach's own default)."""
    exercises_max: int = 100_000
    """Exercises stored at most: past it no pass takes a table."""
    exercises_burst: int = 30
    """Ejercicios' requests (an exercise asked for, an answer) a player may make at once..."""
    exercises_per_second: float = 1.0
    """...and then this many per second."""
    address_exercises_burst: int = 60
    """The same from one network address, over all its players..."""
    address_exercises_per_second: float = 3.0
    """...and then this many per second."""
    # The analysis of a finished hand (server/analysis.py, docs/coach.md).
    analysis_processes: int = 1
    """Worker processes that analyse hands: a pool of their own, so that an analysis (a second
    or more of search) never holds up a bot's decision, nor the event loop."""
    analysis_queue: int = 4
    """Analyses running or waiting in this process at once; one more answers 503
    ``analysis_busy``."""
    analysis_seconds: float = 120.0
    """How long a request waits for its analysis (503 after that; the work goes on, and its
    answer is cached for the next request)."""
    analysis_worlds: int = 320
    """Sampled worlds per decision (as ``truco analizar``'s default)."""
    analysis_cache: int = 256
    """Analyses kept in memory (per table, match, hand, seat and seed), least recently used out."""
    analysis_burst: int = 5
    """Analyses one seat (one player, with an account) may start at once..."""
    analysis_per_second: float = 0.1
    """...and then this many per second (one every 10 s); a cached answer costs nothing."""
    address_analysis_burst: int = 10
    """Analyses one network address may start at once..."""
    address_analysis_per_second: float = 0.2
    """...and then this many per second."""
    seat_connect_burst: int = 10
    """Connections a seat may open (reconnects) at once..."""
    seat_connects_per_second: float = 0.2
    """...and then this many per second (one every 5 s); over that a connection is refused."""
    address_connect_burst: int = 60
    """WebSocket connections one network address may open at once..."""
    address_connects_per_second: float = 2.0
    """...and then this many per second; over that a connection is refused."""
    max_frame: int = 64 * 1024
    """The largest WebSocket frame a client may send, in bytes; a larger one closes the
    connection with 1009 (messages over ``protocol.MAX_MESSAGE`` only get ``too_large``)."""
    message_burst: int = 40
    """Every message a connection sends (pings included): this many at once..."""
    messages_per_second: float = 10.0
    """...and then this many per second; over that the connection is closed with 4429."""
    allowed_origins: tuple[str, ...] = field(default=())
    """Browser origins allowed besides the server's own host."""
    static_dir: str | None = None
    """The built web client; None: ``truco/web/dist`` next to the package."""
    seed: int | None = None
    """Seed every table's deals and bots (tests); None: from ``secrets``."""
    redis_url: str | None = None
    """Redis shared by several server processes (leases, lobby, pub/sub); None: one process."""
    node_id: str = field(default_factory=lambda: secrets.token_hex(4))
    """This process's name in Redis (leases and its message channel); unique per process."""
    table_prefix: str = ""
    """The first hex digits of every table id this process makes (up to 4; "": none), so that
    a proxy can send a table's requests and sockets to the process that made it, its owner,
    instead of one that would relay them (docs/operations.md, "A cluster")."""
    lease_seconds: float = 10.0
    """How long a table's lease lasts without renewal: a dead process's tables move after it."""
    call_seconds: float = 5.0
    """How long a process waits for another one to answer a forwarded request."""
    tables_burst: int = 20
    """Tables one address may create at once..."""
    tables_per_minute: float = 10.0
    """...and then this many a minute; over that ``POST /api/tables`` answers 429."""
    waiting_per_creator: int = 10
    """Tables one creator (today: one address) may have waiting for players at once."""
    waiting_seconds: float = 1800.0
    """A table still waiting for players this long after it was created expires; so does a
    table of one person and bots this long after she went away (it waits for her, paused)."""
    arrival_seconds: float = 120.0
    """A table whose seats are all taken but some of whose people never connected (a table
    the queue formed, say) does not start; it expires this long after its seats were filled."""
    lobby_page: int = 50
    """Lobby entries per page by default (``GET /api/tables?limit=``)..."""
    lobby_page_max: int = 200
    """...and at most."""
    lobby_cache_seconds: float = 1.0
    """The lobby is built at most once per this many seconds; requests in between share it."""
    restore_batch: int = 20
    """Tables restored from the store between two turns of the event loop at start-up."""
    max_body: int = 16 * 1024
    """The largest HTTP request body, in bytes; a larger one is refused with 413 unread."""
    body_seconds: float = 10.0
    """How long a request's body may take to arrive (408 after that)."""
    header_seconds: float = 10.0
    """How long a connection may take to send a request's headers before it is closed."""
    max_head_line: int = 8 * 1024
    """The longest request line or header line, in bytes; a longer one is answered 431."""
    max_headers: int = 64
    """Header lines in one request; more are answered 431."""
    max_head: int = 32 * 1024
    """A request's whole head (request line and headers), in bytes; more is answered 431."""
    connections_per_address: int = 64
    """Open connections (HTTP and WebSocket) from one address; more are refused with 429."""
    proxies: tuple[str, ...] = field(default=())
    """Addresses of reverse proxies: exempt from ``connections_per_address`` (the proxy limits
    connections per client itself) and trusted for ``X-Forwarded-For`` and
    ``X-Forwarded-Proto``; no other client's are read."""
    ranking_zone: str = "America/Argentina/Buenos_Aires"
    """The time zone whose clock the ranking's week (from Monday 00:00) and month (from the 1st)
    start by: the players', not the server's."""
    session_check_seconds: float = 1.0
    """How long a process trusts that a session it checked is still open: a session ended in
    another process of a cluster (logout, "cerrar las otras sesiones", a new password) ends here
    within this; in the process that ended it, at once."""
    hsts_seconds: int = 365 * 24 * 3600
    """``Strict-Transport-Security: max-age`` on answers served over HTTPS (0: not sent)."""
    login_burst: int = 10
    """Requests that check or make a password (claim a name, log in, change the password) one
    address may send at once..."""
    logins_per_minute: float = 10.0
    """...and then this many a minute; over that they answer 429."""
    hashes_waiting: int = 8
    """Password checks one process lets wait for a turn besides the ones running (two, and one
    for a browser that has been the player); one more answers ``503 busy`` with ``Retry-After``
    at once."""
    name_login_burst: int = 10
    """Logins and password changes for one name, from anywhere, at once..."""
    name_logins_per_minute: float = 3.0
    """...and then this many a minute (a guesser gets 4,320 tries a day at most)."""
    # --- Amigos (players/friends.py; docs/players.md) -----------------------------------------
    max_follows: int = 200
    """Players one player may follow; one more answers ``too_many_follows``."""
    presence_seconds: float = 60.0
    """A player is online this long after a page of hers last asked for her friends (the web
    client asks every 20 s while a page is open)."""
    friends_polls_burst: int = 30
    """Friends lists one player may ask for at once..."""
    friends_polls_per_second: float = 1.0
    """...and then this many per second."""
    invite_burst: int = 5
    """Invitations to a table one player may send at once..."""
    invites_per_minute: float = 6.0
    """...and then this many a minute."""
    invite_seconds: float = 1800.0
    """An invitation is shown this long (and only while its table's match goes on)."""
    # --- Moderation (players/moderation.py; docs/players.md) --------------------------------
    max_mutes: int = 200
    """Players one player may mute; one more answers ``too_many_mutes``."""
    max_blocks: int = 200
    """Players one player may block; one more answers ``too_many_blocks``."""
    reports_per_day: int = 10
    """Reports one player may send in 24 hours; one more answers ``too_many_reports``."""
    report_text_most: int = 500
    """The most characters of a report's own words (the body's schema says 500: a setting may
    only lower it)."""
    moderation_burst: int = 30
    """Moderation's requests (its list, a mute or block made or undone, a report) one player may
    make at once (per process)..."""
    moderation_per_second: float = 1.0
    """...and then this many per second."""
    secret: str | None = field(default=None, repr=False)
    """The key the identity cookies are signed with (``identity.py``); None: one made once and
    kept in the database, shared by every process of a cluster."""
    db_wait_seconds: float = 10.0
    """How long a SQLite write waits for the file's lock before it answers ``unavailable``."""
    # --- Jugar ahora (server/playnow.py; docs/players.md) ------------------------------------
    queue_bots_after: float = 30.0
    """Seconds in the queue without a match before the player is offered a table with bots."""
    queue_wait_seconds: float = 20.0
    """The longest a ``GET /api/queue/{ticket}`` waits for news before it answers."""
    queue_idle_seconds: float = 45.0
    """A ticket nobody asked about for this long leaves the queue (its tab was closed)."""
    queue_tick: float = 0.5
    """How often the waiting players are paired (and at once after each new ticket)."""
    queue_max: int = 10_000
    """Tickets waiting per mode (in a cluster: in all processes); more answer ``queue_full``."""
    queue_per_address: int = 8
    """Tickets one network address may hold at once (several people may share one)."""
    queue_burst: int = 10
    """Tickets one address may ask for at once..."""
    queue_per_minute: float = 12.0
    """...and then this many a minute."""
    queue_polls_burst: int = 60
    """Queue questions (``GET``/``DELETE`` of a ticket) from one address at once..."""
    queue_polls_per_second: float = 5.0
    """...and then this many per second."""
    queue_window: tuple[float, float, float] = (3.0, 0.5, 25.0)
    """The rating window (``matchmaking.Curve``): the gap at once, its growth per second of
    waiting, the widest it gets."""
    queue_turn_seconds: float | None = 60.0
    """The turn clock of a table the queue forms among people (a table with bots has none)."""
    queue_bot_level: str = "normal"
    # --- Rated play (players/rated.py; docs/players.md, "Rated play is fair") ----------------
    rated_turn_range: tuple[float, float] = (15.0, 120.0)
    """The turn clock a rated table may have, in seconds; a rated table has one always."""
    rated_turn_seconds: float = 60.0
    """The turn clock of a rated table created without one."""
    rated_pair_per_day: int = 5
    """Rated matches that move ratings two rival people may have in 24 hours; the ones after
    move no rating (rating farming between two accounts)."""
    stall_timeouts: int = 3
    """A person of a rated match whose clock ran out this many turns in a row stalls: he is
    rated as having left, and a rival who leaves after that keeps his rating."""
    """The bots of a table taken instead of waiting."""
    tournament_tick: float = 1.0
    """Seconds between two pairing rounds of the tournaments (run by one process of a cluster:
    the one that holds the tournaments' lease)."""
    tournament_turn_seconds: float | None = 60.0
    """The turn clock of a tournament's tables: an absent player's turn is played for him when
    it runs out, so that every game ends."""
    tournament_bot_level: str = "normal"
    """The bots that fill a tournament's odd seats, where its creator allows them."""
    tournament_max_players: int = 64
    """The players one tournament takes at most."""
    tournaments_per_player: int = 2
    """The tournaments not over yet that one player may have created."""
    sightings_days: int = 30
    """Days a player's sightings (the digests of the addresses he came from) are kept, for the
    rating-farming flags (``players/sightings.py``)."""
    sightings_memory: int = 100_000
    """Sightings one process remembers having written today (past it, it writes again)."""
    tournaments_joined_most: int = 3
    """The tournaments not over yet that one player may be in at once (a player is in one from
    joining it until withdrawing or its end): each one seats him at a table of its own."""
    tournaments_burst: int = 3
    """Tournaments one address may create at once..."""
    tournaments_per_hour: float = 6.0
    """...and then this many an hour."""
    tournament_joins_burst: int = 20
    """Joins and withdrawals one address may make at once..."""
    tournament_joins_per_minute: float = 20.0
    """...and then this many a minute."""

    def __post_init__(self) -> None:
        if not TABLE_PREFIX.fullmatch(self.table_prefix):
            raise ValueError(
                f"TRUCO_TABLE_PREFIX {self.table_prefix!r}: at most 4 hex digits (0-9, a-f)"
            )

    def but(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @classmethod
    def from_env(cls, **overrides: Any) -> Settings:
        base = cls()
        values: dict[str, Any] = {
            "grace_seconds": _env_float("TRUCO_GRACE_SECONDS", base.grace_seconds),
            "bot_delay": _env_float("TRUCO_BOT_DELAY", base.bot_delay),
            "deal_delay": _env_float("TRUCO_DEAL_DELAY", base.deal_delay),
        }
        if os.environ.get("TRUCO_DATABASE_URL"):
            values["database_url"] = os.environ["TRUCO_DATABASE_URL"]
        if os.environ.get("TRUCO_REDIS_URL"):
            values["redis_url"] = os.environ["TRUCO_REDIS_URL"]
        if os.environ.get("TRUCO_NODE_ID"):
            values["node_id"] = os.environ["TRUCO_NODE_ID"]
        if os.environ.get("TRUCO_TABLE_PREFIX"):
            values["table_prefix"] = os.environ["TRUCO_TABLE_PREFIX"]
        # Scripted clients (load and cluster tests) play far faster than people.
        rate = _env_float("TRUCO_MESSAGES_PER_SECOND", base.messages_per_second)
        values["messages_per_second"] = rate
        values["message_burst"] = int(_env_float("TRUCO_MESSAGE_BURST", base.message_burst))
        values["address_connect_burst"] = int(
            _env_float("TRUCO_ADDRESS_CONNECT_BURST", base.address_connect_burst)
        )
        values["address_connects_per_second"] = _env_float(
            "TRUCO_ADDRESS_CONNECTS_PER_SECOND", base.address_connects_per_second
        )
        values["bot_processes"] = int(_env_float("TRUCO_BOT_PROCESSES", base.bot_processes))
        values["history_size"] = int(_env_float("TRUCO_HISTORY_SIZE", base.history_size))
        values["lease_seconds"] = _env_float("TRUCO_LEASE_SECONDS", base.lease_seconds)
        values["call_seconds"] = _env_float("TRUCO_CALL_SECONDS", base.call_seconds)
        for name in (
            "tables_per_minute",
            "waiting_seconds",
            "arrival_seconds",
            "max_body",
            "body_seconds",
            "header_seconds",
            "max_head_line",
            "max_headers",
            "max_head",
        ):
            value = _env_float(f"TRUCO_{name.upper()}", getattr(base, name))
            values[name] = type(getattr(base, name))(value)
        values["queue_bots_after"] = _env_float("TRUCO_QUEUE_BOTS_AFTER", base.queue_bots_after)
        values["tournament_tick"] = _env_float("TRUCO_TOURNAMENT_TICK", base.tournament_tick)
        low, high = base.rated_turn_range  # the low end lowered only by scripted tests
        values["rated_turn_range"] = (_env_float("TRUCO_RATED_TURN_MIN", low), high)
        if os.environ.get("TRUCO_TOURNAMENT_TURN_SECONDS"):
            values["tournament_turn_seconds"] = float(os.environ["TRUCO_TOURNAMENT_TURN_SECONDS"])
        for name in (
            "logins_per_minute",
            "name_logins_per_minute",
            "session_check_seconds",
            "presence_seconds",
            "invites_per_minute",
            "moderation_per_second",
            "exercises_interval",
            "exercises_per_second",
            "address_exercises_per_second",
        ):
            values[name] = _env_float(f"TRUCO_{name.upper()}", getattr(base, name))
        for name in (
            "tables_burst",
            "waiting_per_creator",
            "connections_per_address",
            "hsts_seconds",
            "login_burst",
            "hashes_waiting",
            "name_login_burst",
            "max_follows",
            "invite_burst",
            "max_mutes",
            "max_blocks",
            "reports_per_day",
            "report_text_most",
            "moderation_burst",
            "exercises_tables",
            "exercises_decisions",
            "exercises_keep",
            "exercises_worlds",
            "exercises_max",
            "exercises_burst",
            "address_exercises_burst",
            "analysis_processes",
            "analysis_queue",
        ):
            values[name] = int(_env_float(f"TRUCO_{name.upper()}", getattr(base, name)))
        if os.environ.get("TRUCO_PROXIES"):
            values["proxies"] = tuple(
                a.strip() for a in os.environ["TRUCO_PROXIES"].split(",") if a.strip()
            )
        if os.environ.get("TRUCO_RANKING_ZONE"):
            values["ranking_zone"] = os.environ["TRUCO_RANKING_ZONE"]
        if os.environ.get("TRUCO_SECRET"):
            values["secret"] = os.environ["TRUCO_SECRET"]
        if os.environ.get("TRUCO_SEED"):
            values["seed"] = int(os.environ["TRUCO_SEED"])
        values.update(overrides)
        return cls(**values)


def sqlite_url(path: str) -> str:
    return f"sqlite+aiosqlite:///{path}"

"""Load: many tables at once, measured from an action to every player at the table hearing of it.

``python -m tools.loadtest [--tables 50] [--seconds 20] [--think 1.0] [--processes 1]``
opens the tables (``--humans`` seats of each played by a scripted client over a real WebSocket,
the other seats by the server's bots), and ``--bot-tables`` more of one client against a
``--bot-level`` bot (reported apart, under ``bot_tables``: they load the server's bot workers),
then lets them all play for ``--seconds``. Each client
acts after a random pause of mean ``--think`` seconds (0: at once) with a random legal action,
and asks for a rematch when a match ends. For each client action it takes the time from sending
the ``act`` to the last of the table's clients receiving that version.

With ``--processes 1`` (the default) it starts one server on 127.0.0.1 with a temporary SQLite
file; with ``--processes 2`` (or ``--cluster``) PostgreSQL, Redis, that many servers and nginx in
front of them (``localcluster``). nginx sends each table's requests and sockets to the server
that made it (its id's prefix, ``TRUCO_TABLE_PREFIX``); with ``--spread`` to any server, so that
about half the players are relayed by another process.
``--url`` measures a server that is already running. It prints one JSON object: the actions and
table versions per second, latency median/p99/max, errors by code, and how busy the machine's
CPUs were (the load generator runs on the same machine and is part of that). A table that could
not be opened (its creation, a seat or a WebSocket handshake refused) is counted in the errors as
``refused:create``, ``refused:seat`` or ``refused:websocket`` (with the HTTP status when there
was one) and the others play on; ``tables_opened`` says how many did, and ``refused_first``
gives the first reason met for each of those codes.

``--rated`` plays rated tables (docs/players.md): each scripted person is a player of his own
(his own identity cookie) who claims a name first, the tables are created rated, their bots are
of a level (``--bots facil`` by default, ``experto`` against ``--bot-tables``), and every match
that ends moves its players' ratings; ``rated_matches`` counts the matches whose ratings were
told.
"""

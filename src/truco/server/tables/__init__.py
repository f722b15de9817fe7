"""The tables: a table's owner task and what it drives (seats, clock, fan-out, bots), the hub of
the process's tables, and the table API's routes and WebSocket."""

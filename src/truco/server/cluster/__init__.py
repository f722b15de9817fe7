"""Several server processes sharing Redis: leases, the lobby and the bus (``coordinator``), the
hub that owns some tables and reaches the others (``hub``), and the relay of a player whose
socket is held by another process (``remote``)."""

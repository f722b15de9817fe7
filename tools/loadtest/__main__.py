"""``python -m tools.loadtest``: the load test from the command line (``cli.py``)."""

from tools.loadtest.cli import main

raise SystemExit(main())

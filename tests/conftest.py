"""Settings shared by every test.

Hypothesis's per-example deadline is a wall-clock budget: on a loaded machine (CI's two cores
shared with a browser and servers) a slow example fails a test that is right. Speed is measured
by the benchmarks (`make bench`), never asserted by a test, so the deadline is off everywhere.
"""

from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("truco", deadline=None)
settings.load_profile("truco")

E2E = Path(__file__).resolve().parent / "e2e"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`make test`: ``-n 2 --dist loadgroup``) each browser module runs on
    one worker, so that its Chromium and its own servers start once, as in one process; every
    other test goes to whichever worker is free."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if item.path.parent == E2E:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))

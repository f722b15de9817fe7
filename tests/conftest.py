"""Settings shared by every test.

Hypothesis's per-example deadline is a wall-clock budget: on a loaded machine (CI's two cores
shared with a browser and servers) a slow example fails a test that is right. Speed is measured
by the benchmarks (`make bench`), never asserted by a test, so the deadline is off everywhere.
"""

from hypothesis import settings

settings.register_profile("truco", deadline=None)
settings.load_profile("truco")

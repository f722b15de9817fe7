"""Compiles the engine's hot path with mypyc when the package is installed.

Every other setting is in pyproject.toml. The modules in ``COMPILED`` are plain, fully typed
Python; mypyc turns them into C extensions that play random hands about 1.4 times faster
(docs/design.md, "Speed"). They are built in place (``src/truco/*.so``) by
``pip install -e .``, which ``make`` runs whenever one of them changes. Set TRUCO_PURE_PYTHON=1
to install without compiling (no C compiler needed): the package then runs as plain Python.
"""

import os

from setuptools import setup

COMPILED = (
    "legal",
    "hand",
    "argentino",
    "pata_de_gallo",
    "pica_pica",
    "destantado",
    "paulista",
    "rooms",
    "engine",
    "tricks",
    "envido",
    "view",
)
"""Must match ``truco.COMPILED`` (a test checks it)."""

ext_modules = []
if not os.environ.get("TRUCO_PURE_PYTHON"):
    from mypyc.build import mypycify

    ext_modules = mypycify(
        [f"src/truco/{name}.py" for name in COMPILED], opt_level="3", group_name="truco._native"
    )

setup(ext_modules=ext_modules)

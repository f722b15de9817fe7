"""``make run`` builds the web client only when its sources changed (issue 25, point 9).

The Makefile's own ``web`` target is asked, with ``make -q`` (is it up to date? nothing is
run), about a client in a temporary directory (``WEB=...``): up to date after a build, out of
date once a source is newer than the build, or when there is no build yet.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (
    "src/main.ts",
    "src/styles.css",
    "index.html",
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "vite.config.ts",
    "precompress.mjs",
    "node_modules/.package-lock.json",
)


def up_to_date(web: Path) -> bool:
    """Whether ``make web`` would do nothing (``make -q``: 0 up to date, 1 not)."""
    done = subprocess.run(
        ["make", "-q", "-f", str(ROOT / "Makefile"), "web", f"WEB={web}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode == 0


def age(path: Path, seconds: float) -> None:
    """Set ``path``'s modification time ``seconds`` in the past."""
    then = path.stat().st_mtime - seconds
    os.utime(path, (then, then))


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_the_web_client_is_built_only_when_its_sources_changed(tmp_path: Path) -> None:
    web = tmp_path / "web"
    for name in SOURCES:
        (web / name).parent.mkdir(parents=True, exist_ok=True)
        (web / name).write_text("x", encoding="utf-8")
        age(web / name, 100)
    assert not up_to_date(web)  # never built
    built = web / "dist" / "index.html"
    built.parent.mkdir()
    built.write_text("<!doctype html>", encoding="utf-8")
    assert up_to_date(web)  # built after every source: `make run` starts at once
    (web / "src" / "main.ts").write_text("y", encoding="utf-8")  # a source edited since
    age(built, 10)
    assert not up_to_date(web)
    built.touch()
    assert up_to_date(web)
    (web / "src" / "new.ts").write_text("z", encoding="utf-8")  # a new source file
    age(built, -10)
    age(web / "src" / "new.ts", -20)
    assert not up_to_date(web)

"""End to end: ``truco play --seed 1`` typed at a shell in an 80x24 tmux session.

Needs the ``tmux`` program (Debian/Ubuntu package ``tmux``); skipped without it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from truco.bots.personas import persona

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (install the 'tmux' apt package)"
)


class Tmux:
    def __init__(self, socket: str) -> None:
        self.base = [str(TMUX), "-L", socket]

    def run(self, *args: str) -> str:
        done = subprocess.run(
            [*self.base, *args], capture_output=True, text=True, timeout=10, check=False
        )
        return done.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "truco")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "truco", *keys)

    def wait(self, test: Callable[[str], bool], what: str, seconds: float = 20) -> str:
        deadline = time.monotonic() + seconds
        while True:
            screen = self.screen()
            if test(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen:\n{screen}")
            time.sleep(0.1)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    t = Tmux(f"truco-test-{os.getpid()}")
    bindir = Path(sys.executable).parent
    env = {
        "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
        "XDG_DATA_HOME": str(tmp_path),
        "TERM": "xterm-256color",
        "HOME": os.environ.get("HOME", str(tmp_path)),
        "LANG": "C.UTF-8",
    }
    sets = [f"{k}={shlex.quote(v)}" for k, v in env.items()]
    t.run(
        "new-session", "-d", "-s", "truco", "-x", "80", "-y", "24",
        f"env -i {' '.join(sets)} sh",
    )  # fmt: skip
    try:
        yield t
    finally:
        t.run("kill-server")


def test_truco_play_from_the_shell(tmux: Tmux) -> None:
    tmux.keys("truco play --seed 1", "Enter")
    screen = tmux.wait(lambda s: "Tu mano" in s and " t  truco" in s, "the first hand")
    lines = screen.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert "Truco a 30 · 2 jugadores · sin flor" in screen and "semilla 1" in screen
    # --seed 1 always deals the same hand; we are mano, so we speak first
    assert " 1  1 espada    2  12 espada    3  7 basto" in screen
    assert "Nosotros 0 (malas)" in screen and "Ellos 0 (malas)" in screen
    tmux.keys("e")
    tmux.wait(lambda s: "Vos: Envido" in s, "our envido in the log")
    for _ in range(6):  # accept whatever the bot raised until we may play a card
        screen = tmux.wait(lambda s: " 1  1 espada" in s or " q  quiero" in s, "our turn")
        if " 1  1 espada" in screen:
            break
        tmux.keys("q")
        tmux.wait(lambda s: " q  quiero" not in s, "the quiero")
    tmux.keys("1")
    screen = tmux.wait(lambda s: "Baza 1: Vos 1e" in s, "our card on the table")
    tmux.keys("C-q")
    tmux.wait(lambda s: "Tu mano" not in s, "the app to quit")


def test_a_variant_from_the_shell(tmux: Tmux) -> None:
    """``--variant``: three seats, each player's score, the pie marked; it fits 80x24."""
    tmux.keys("truco play --variant pata_de_gallo --seed 1 --bot random --delay 0", "Enter")
    bot1, bot2 = (persona("random", seat, 1) for seat in (1, 2))  # the bots' names
    screen = tmux.wait(lambda s: "Tu mano" in s and f"Pie: {bot2}" in s, "the first hand")
    lines = screen.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert "Truco pata de gallo a 30 · sin flor · bot random · semilla 1" in screen
    assert "Vos 0 (malas)" in screen and f"{bot1}+ 0 (malas)" in screen
    assert f"{bot2} (pie) 0 (malas)" in screen
    tmux.wait(lambda s: f"{bot2} (pie): descarta una carta" in s, "the pie's discard, unseen")
    tmux.keys("C-q")
    tmux.wait(lambda s: "Tu mano" not in s, "the app to quit")

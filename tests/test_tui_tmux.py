"""End to end: ``truco play --seed 1`` typed at a shell in an 80x24 tmux session.

Needs the ``tmux`` program (Debian/Ubuntu package ``tmux``); skipped without it.

Every wait polls the pane until the program has drawn what the test looks for: the shell's
prompt before typing, the table once the app is up, an exit line once it has quit. On a loaded
machine starting the app can take far longer than it does alone, so no wait has a time budget
of its own; a wait gives up at once when the program has exited without drawing it, and only a
stuck program meets the hang guard (``HANG_GUARD``, far above any load seen). Each test has a
tmux server of its own, and a tmux command that fails (a session that is gone) fails the test
at once with tmux's words.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from truco.bots.personas import persona

TMUX = shutil.which("tmux")
pytestmark = [
    pytest.mark.skipif(
        TMUX is None, reason="tmux is not installed (install the 'tmux' apt package)"
    ),
    pytest.mark.timeout(900),  # above the waits' own guard, which reports the screen
]

HANG_GUARD = 240.0
"""Seconds after which a wait reports a program that is still running but never drew what the
test expects: only a hung program gets there, not a slow start."""
PROMPT = "shell-ready$ "
"""The shell's prompt: typing starts once it is drawn (the pane reads it without its space)."""
EXITED = re.compile(r"^truco exited with status (\d+)$", re.MULTILINE)
"""Printed by the shell after the program ends (the typed command line shows ``$?``, not a
number, so it cannot match before)."""


class Tmux:
    def __init__(self, socket: str) -> None:
        self.base = [str(TMUX), "-L", socket]

    def run(self, *args: str) -> str:
        """A tmux command's output; it fails the test when tmux refuses (the session is gone)."""
        # tmux answers at once; the guard only stops a hung tmux from hanging the test
        done = subprocess.run(
            [*self.base, *args], capture_output=True, text=True, timeout=HANG_GUARD, check=False
        )
        if done.returncode != 0:
            raise AssertionError(f"tmux {args[0]}: {done.stderr.strip()}")
        return done.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "truco")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "truco", *keys)

    def start(self, command: str) -> None:
        """Type ``command`` at the shell once its prompt is up, and have the shell say when the
        program is over and how."""
        self.wait(lambda s: PROMPT.rstrip() in s, "the shell's prompt", running=False)
        self.keys(f'{command}; echo "truco exited with status $?"', "Enter")

    def wait(self, test: Callable[[str], bool], what: str, *, running: bool = True) -> str:
        """Poll the pane until ``test`` passes. With ``running``, fail as soon as the program
        has exited without drawing what was awaited."""
        guard = time.monotonic() + HANG_GUARD
        while True:
            screen = self.screen()
            if test(screen):
                return screen
            if running and EXITED.search(screen):
                raise AssertionError(f"truco exited before {what}; the screen:\n{screen}")
            if time.monotonic() > guard:
                raise AssertionError(f"no {what} after {HANG_GUARD:.0f} s; the screen:\n{screen}")
            time.sleep(0.1)

    def quit(self) -> None:
        """Ctrl+Q, then the exit line: the app quit by itself, with status 0."""
        self.keys("C-q")
        screen = self.wait(lambda s: EXITED.search(s) is not None, "the app to quit", running=False)
        assert "Tu mano" not in screen
        match = EXITED.search(screen)
        assert match is not None and match.group(1) == "0", screen


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    # A server of its own for each test: "kill-server" returns before the server is gone, and a
    # new session on the same socket at that moment dies with it (a blank screen, once the wait
    # was all that noticed).
    t = Tmux(f"truco-test-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    bindir = Path(sys.executable).parent
    env = {
        "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
        "XDG_DATA_HOME": str(tmp_path),
        "TERM": "xterm-256color",
        "HOME": os.environ.get("HOME", str(tmp_path)),
        "LANG": "C.UTF-8",
        "PS1": PROMPT,
    }
    # The source under test, where the test run chose it (a checkout's src, or pure Python).
    env.update({k: os.environ[k] for k in ("PYTHONPATH", "TRUCO_PURE_PYTHON") if k in os.environ})
    sets = [f"{k}={shlex.quote(v)}" for k, v in env.items()]
    t.run(
        "new-session", "-d", "-s", "truco", "-x", "80", "-y", "24",
        f"env -i {' '.join(sets)} sh",
    )  # fmt: skip
    try:
        yield t
    finally:
        with contextlib.suppress(AssertionError):  # a server that already exited
            t.run("kill-server")


def test_truco_play_from_the_shell(tmux: Tmux) -> None:
    tmux.start("truco play --seed 1")
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
    screen = tmux.wait(lambda s: "Primera: Vos 1e" in s, "our card on the table")
    tmux.quit()


def test_a_variant_from_the_shell(tmux: Tmux) -> None:
    """``--variant``: three seats, each player's score, the pie marked; it fits 80x24."""
    tmux.start("truco play --variant pata_de_gallo --seed 1 --bot random --delay 0")
    bot1, bot2 = (persona("random", seat, 1) for seat in (1, 2))  # the bots' names
    screen = tmux.wait(lambda s: "Tu mano" in s and f"Pie: {bot2}" in s, "the first hand")
    lines = screen.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert "Truco pata de gallo a 30 · sin flor · bots Fácil · semilla 1" in screen
    assert "Vos 0 (malas)" in screen and f"{bot1}+ 0 (malas)" in screen
    assert f"{bot2} (pie) 0 (malas)" in screen
    tmux.wait(lambda s: f"{bot2} (pie): descarta una carta" in s, "the pie's discard, unseen")
    tmux.quit()

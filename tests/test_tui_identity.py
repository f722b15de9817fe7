"""The terminal player's identity (docs/terminal.md): the server's cookie kept in a 0600 file,
so that ``truco play --connect`` is the same player across runs, and ``truco cuenta``."""

from __future__ import annotations

import asyncio
import stat
import time
from pathlib import Path

import pytest

from test_tui_server import HANG_GUARD, _post, base_url  # noqa: F401 - the server fixture
from truco.errors import TrucoError
from truco.tui.app import TrucoApp
from truco.tui.cookies import COOKIE, Jar, config_dir
from truco.tui.cuenta import cuenta
from truco.tui.net import join_table, my_seat
from truco.tui.session import RemoteGame

PASSWORD = "yerba con palo 42"


def test_the_config_dir_follows_xdg(tmp_path: Path) -> None:
    assert config_dir({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "truco"
    assert config_dir({"XDG_CONFIG_HOME": "relative"}) == Path.home() / ".config" / "truco"


def test_the_identity_is_kept_in_a_private_file_across_runs(
    base_url: str,  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    created = _post(f"{base_url}/api/tables", {"name": "Ana", "options": {"players": 2}})
    invite = base_url + created["invite"]
    path = tmp_path / "config" / "truco" / "cookies.json"
    jar = Jar(path)
    assert my_seat(invite, jar) is None  # the first request already gets an identity
    assert jar.get(base_url) is not None
    seat, _ = join_table(invite, "Beto", jar=jar)
    assert seat == 1
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) & 0o077 == 0
    # Another run reads the same file: the same player, who holds seat 1 there.
    assert my_seat(invite, Jar(path)) == 1
    # Someone else (no file) holds no seat there.
    assert my_seat(invite, Jar(tmp_path / "other.json")) is None


def test_cuenta_claims_logs_in_and_out(
    base_url: str,  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    home, laptop = Jar(tmp_path / "home.json"), Jar(tmp_path / "laptop.json")
    said = cuenta("nombre", base_url, "Ramiro", lambda prompt: PASSWORD, home)
    assert said == "Listo: tu nombre es Ramiro."
    assert cuenta("yo", base_url, None, lambda p: "", home) == "Sos Ramiro."
    with pytest.raises(TrucoError, match="nombre o contraseña incorrectos"):
        cuenta("entrar", base_url, "ramiro", lambda prompt: "no es esa", laptop)
    with pytest.raises(TrucoError, match="no coinciden"):
        answers = iter([PASSWORD, "otra clave larga", "otra distinta"])
        cuenta("clave", base_url, None, lambda prompt: next(answers), home)
    assert cuenta("entrar", base_url, "ramiro", lambda prompt: PASSWORD, laptop) == "Sos Ramiro."
    # Each device holds a session of its own (docs/players.md, "Sessions").
    assert laptop.get(base_url) != home.get(base_url)
    assert cuenta("salir", base_url, None, lambda p: "", laptop).startswith("Saliste")
    assert cuenta("yo", base_url, None, lambda p: "", laptop) == "Sos anónimo."
    assert cuenta("yo", base_url, None, lambda p: "", home) == "Sos Ramiro."
    with pytest.raises(TrucoError, match="no está disponible"):
        cuenta("nombre", base_url, "RAMIRO", lambda prompt: PASSWORD, laptop)


def test_a_terminal_logged_in_takes_its_seat_back_without_a_token(
    base_url: str,  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    home, laptop = Jar(tmp_path / "home.json"), Jar(tmp_path / "laptop.json")
    cuenta("nombre", base_url, "Sofía", lambda prompt: PASSWORD, home)
    _post(f"{base_url}/api/tables", {"name": "Ana", "bots": {"1": "random"}})  # not hers
    other = _post(f"{base_url}/api/tables", {"name": "Zoe", "options": {"players": 2}})
    invite = base_url + other["invite"]
    seat, _ = join_table(invite, "Sofía", jar=home)
    cuenta("entrar", base_url, "sofía", lambda prompt: PASSWORD, laptop)
    assert my_seat(invite, laptop) == seat
    game = RemoteGame()
    app = TrucoApp(game, invite=invite, token=None, delay=0, save_dir=tmp_path, jar=laptop)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            deadline = time.monotonic() + HANG_GUARD
            while game.view is None and time.monotonic() < deadline:
                await pilot.pause(0.02)
            assert game.seat == seat

    asyncio.run(asyncio.wait_for(run(), 2 * HANG_GUARD))
    assert (tmp_path / "laptop.json").read_text().count(COOKIE) == 0  # values only, by server

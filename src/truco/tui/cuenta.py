"""``truco cuenta``: the terminal player's account at a server (docs/terminal.md).

``yo`` says who the player is there; ``nombre NOMBRE`` claims a name with a password; ``entrar
NOMBRE`` logs in as that player; ``salir`` logs out (a fresh anonymous player); ``clave``
changes the password. The identity is the cookie ``cookies.Jar`` keeps, the same one
``truco play --connect`` uses, so a player who logged in here takes her seats back there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from truco.errors import TrucoError
from truco.tui.cookies import Jar
from truco.tui.net import Refused, call

ACTIONS = ("yo", "nombre", "entrar", "salir", "clave")

ERRORS = {
    "bad_login": "nombre o contraseña incorrectos",
    "name_unavailable": "ese nombre no está disponible",
    "bad_name": "ese nombre no sirve",
    "name_lookalike": "ese nombre se parece al nombre reclamado de otro jugador",
    "bad_message": "la contraseña nueva lleva de 8 a 128 caracteres",
    "rate_limited": "demasiados intentos: esperá un poco",
    "busy": "el servidor está muy ocupado: probá de nuevo en unos segundos",
}


def _who(me: dict[str, Any]) -> str:
    name = me.get("name") or "anónimo"
    seats = ", ".join(f"mesa {s['table']} (asiento {s['seat'] + 1})" for s in me.get("seats", []))
    return f"Sos {name}" + (f"; estás sentado en: {seats}" if seats else "") + "."


def cuenta(
    action: str,
    server: str,
    name: str | None,
    ask: Callable[[str], str],
    jar: Jar | None = None,
) -> str:
    """Do ``action`` at ``server`` (its base URL) and say what happened; ``ask(prompt)`` reads a
    password. ``TrucoError`` says why it failed, in words."""
    jar = jar or Jar()
    base = server.rstrip("/")
    try:
        if action == "yo":
            return _who(call(base, "GET", "/api/me", None, jar))
        if action in ("nombre", "entrar") and not name:
            raise TrucoError(f"truco cuenta {action} NOMBRE: falta el nombre")
        if action == "nombre":
            password = ask("Contraseña nueva (8 a 128 caracteres): ")
            if ask("Otra vez: ") != password:
                raise TrucoError("las dos contraseñas no coinciden")
            me = call(base, "POST", "/api/me/name", {"name": name, "password": password}, jar)
            return f"Listo: tu nombre es {me['name']}."
        if action == "entrar":
            body = {"name": name, "password": ask("Contraseña: ")}
            return _who(call(base, "POST", "/api/login", body, jar))
        if action == "salir":
            call(base, "POST", "/api/logout", None, jar)
            return "Saliste: ahora sos un jugador anónimo nuevo."
        if action == "clave":
            body = {"password": ask("Contraseña actual: ")}
            body["new_password"] = ask("Contraseña nueva (8 a 128 caracteres): ")
            if ask("Otra vez: ") != body["new_password"]:
                raise TrucoError("las dos contraseñas no coinciden")
            call(base, "POST", "/api/me/password", body, jar)
            return "Listo: la contraseña es otra."
    except Refused as exc:
        if exc.code in ERRORS:
            raise TrucoError(f"{ERRORS[exc.code]} ({exc.message})") from None
        raise
    raise TrucoError(f"truco cuenta: no sé hacer {action!r} (sí: {', '.join(ACTIONS)})")


__all__ = ["ACTIONS", "cuenta"]

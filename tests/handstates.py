"""Hand-built states for the core modules' tests: a hand history in, the states it passes by."""

from __future__ import annotations

import truco
from truco.actions import Action
from truco.events import Event
from truco.state import State


def hand(hands: str, actions: str = "", **options: object) -> list[State]:
    """The state after the deal and after each action of one hand, from the notation: ``hands``
    is the cards seat by seat, separated by ``|`` (``"1e 4c 5o | 7o 6c 12b"``), ``actions`` the
    action lines separated by ``,`` (``"0 envido, 1 quiero"``); ``options`` are ``Rules``
    options and ``score``/``mano``."""
    lines = [f"{key} = {_toml(value)}" for key, value in options.items()]
    seats = [f'"{h.strip()}"' for h in hands.split("|")]
    lines.append(f"players = {len(seats)}" if "players" not in options else "")
    lines.append(f"hands = [{', '.join(seats)}]")
    moves = [f'"{a.strip()}"' for a in actions.split(",") if a.strip()]
    lines.append(f"actions = [{', '.join(moves)}]")
    return [state for state, _ in truco.states(truco.loads("\n".join(lines)))]


def after(hands: str, actions: str = "", **options: object) -> State:
    """The state after the last action."""
    return hand(hands, actions, **options)[-1]


def act(state: State, *actions: str) -> tuple[State, list[Event]]:
    """Apply actions in order (``"play 1e"``, ``"truco"``...): the state and every event they
    caused."""
    events: list[Event] = []
    for text in actions:
        state, caused = truco.apply(state, Action.parse(text))
        events.extend(caused)
    return state, events


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)

"""``truco anotar``: the anotador in the terminal (Textual), saved after every change."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.markup import escape
from rich.text import Text
from textual import events as tx_events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from truco.anotador import TARGET_CHOICES, Anotador, fosforos, save

QUICK_KEYS: dict[str, str] = {
    "e": "envido",
    "r": "real envido",
    "t": "truco",
    "y": "retruco",
    "v": "vale cuatro",
    "f": "falta envido",
}


def _key(key: str, label: str) -> str:
    return f"[b reverse] {key} [/] {label}"


HELP = "\n".join(
    "  ".join(_key(k, label) for k, label in line)
    for line in (
        [("←/→", "lado"), ("+", "+1"), ("-", "-1"), ("e", "envido 2"), ("r", "real envido 3")],
        [("t", "truco 2"), ("y", "retruco 3"), ("v", "vale cuatro 4"), ("f", "falta envido")],
        [("u", "deshacer"), ("o", "a 15/30/…"), ("n n", "partido nuevo"), ("ctrl+q", "salir")],
    )
)


class AnotadorApp(App[int]):
    """Keeps a game's score; ``path`` is the JSON file it is saved to after every change."""

    TITLE = "truco anotar"
    CSS = """
    Screen { layout: vertical; }
    #status { height: auto; background: $primary-background; padding: 0 1; }
    #sides { height: 9; }
    .side { width: 1fr; border: round $secondary; padding: 0 1; }
    .side.selected { border: heavy $accent; }
    #log { height: 1fr; padding: 0 1; }
    #help { height: 3; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Salir", priority=True)]

    def __init__(self, anotador: Anotador, path: Path | None = None) -> None:
        super().__init__()
        self.anotador = anotador
        self.path = path
        self.selected = 0
        self.confirm_new = False
        self.message = ""

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="sides"):
            for side in range(self.anotador.sides):
                yield Static(id=f"side{side}", classes="side")
        yield Static(id="log")
        yield Static(Text.from_markup(HELP), id="help")

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        a = self.anotador
        half = a.half
        halves = f" (malas y buenas de {half})" if half else ""
        self.query_one("#status", Static).update(
            Text.from_markup(f"[b]Anotador[/] · a {a.target}{halves} · falta: {a.falta_words}")
        )
        winner = a.winner
        for side in range(a.sides):
            widget = self.query_one(f"#side{side}", Static)
            widget.set_class(side == self.selected, "selected")
            points = a.score[side]
            status = a.status(side)
            lines = [f"[b]{a.names[side]}[/]  [b]{points}[/]" + (f"  {status}" if status else "")]
            lines += [f"[yellow]{row}[/]" for row in fosforos(points, a.target)]
            falta = a.falta_points(side) if winner is None else 0
            lines.append(f"[dim]falta envido: {falta}[/]" if falta else "")
            if winner == side:
                lines.append(f"[b reverse] {escape(a.winner_words(side))} [/]")
            widget.update(Text.from_markup("\n".join(lines)))
        recent = [
            f"{a.names[e.side]}: {'+' if e.points > 0 else ''}{e.points}"
            + (f" ({e.what})" if e.what else "")
            for e in a.entries[-8:]
        ]
        log = ["[b]Últimos tantos[/]", *(recent or ["[dim](ninguno todavía)[/]"])]
        if self.message:
            log.append(self.message)
        self.query_one("#log", Static).update(Text.from_markup("\n".join(log)))

    def changed(self, message: str = "") -> None:
        self.message = message
        if self.path is not None:
            try:
                save(self.anotador, self.path)
            except OSError as exc:
                self.message = f"[red]No pude guardar en {self.path}: {exc}[/]"
        self.redraw()

    def on_key(self, event: tx_events.Key) -> None:
        a = self.anotador
        key = event.key
        if key != "n":
            self.confirm_new = False
        if key in ("left", "right", "tab", "shift+tab"):
            step = 1 if key in ("right", "tab") else -1
            self.selected = (self.selected + step) % a.sides
            self.redraw()
        elif key in ("1", "2", "3") and int(key) <= a.sides:
            self.selected = int(key) - 1
            self.redraw()
        elif key in ("plus", "up", "equals_sign", "+"):
            a.add(self.selected, 1)
            self.changed()
        elif key in ("minus", "down", "-"):
            if a.score[self.selected] > 0:
                a.add(self.selected, -1)
            self.changed()
        elif key in QUICK_KEYS:
            a.quick(self.selected, QUICK_KEYS[key])
            self.changed()
        elif key in ("u", "backspace"):
            entry = a.undo()
            self.changed("Deshecho." if entry else "Nada que deshacer.")
        elif key == "o":
            i = TARGET_CHOICES.index(a.target) if a.target in TARGET_CHOICES else -1
            a.target = TARGET_CHOICES[(i + 1) % len(TARGET_CHOICES)]
            self.changed(f"Ahora a {a.target}.")
        elif key == "n":
            if self.confirm_new:
                a.reset()
                self.confirm_new = False
                self.changed("Partido nuevo (u lo deshace).")
            else:
                self.confirm_new = True
                self.message = "Apretá n otra vez para empezar un partido nuevo."
                self.redraw()
        else:
            return
        event.stop()

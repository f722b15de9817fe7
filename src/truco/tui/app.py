"""``truco play``: the Textual application (a match against bots, or a seat at a server's table).

Every legal action has a key, shown at the bottom: cards 1-3 (4-6 face down), calls by letter
(t truco, e envido, q quiero...). The left column holds the score as fósforos and the hand on the
table; the right one the log of what everybody said and played.
"""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events as tx_events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import RichLog, Static

from truco.actions import Action, Verb
from truco.anotador import data_dir
from truco.errors import TrucoError
from truco.events import Event, HandEnded, HandStarted, MatchEnded
from truco.state import Phase
from truco.tui import text, wire
from truco.tui.cookies import Jar
from truco.tui.session import LocalGame, RemoteGame
from truco.variants import variant_of
from truco.view import SeatView

_ON_CARD = (Verb.PLAY, Verb.DISCARD)
"""Actions whose key is written on the card itself (the bottom line lists the rest)."""


def _markup(lines: list[str]) -> Text:
    return Text.from_markup("\n".join(lines))


class TrucoApp(App[int]):
    """A match in the terminal; ``game`` is a ``LocalGame`` or a ``RemoteGame``."""

    TITLE = "truco"
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-background; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 46; }
    #score { height: 8; padding: 0 1; }
    #table { height: 1fr; border: round $secondary; padding: 0 1; }
    #log { width: 1fr; border: round $secondary; scrollbar-size-vertical: 1; overflow-x: hidden; }
    #hand { height: auto; max-height: 6; border: round $accent; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Salir", priority=True)]

    def __init__(
        self,
        game: LocalGame | RemoteGame,
        *,
        delay: float = 0.6,
        save_dir: Path | None = None,
        invite: str | None = None,
        token: str | None = None,
        description: str = "",
        pistas: bool = False,
        jar: Jar | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.pistas = pistas and isinstance(game, LocalGame)
        """``truco play --pistas``: 'p' shows the expert's choice (never at a server's table)."""
        self.delay = delay
        self.save_dir = save_dir or data_dir() / "partidas"
        self.invite = invite
        self.token = token
        self.jar = jar
        """The player's identity at servers (``cookies.py``): without a token, the socket asks
        for that player's seat."""
        self.description = description
        self.paused = False
        """True while the summary of a finished hand waits for Enter (local games)."""
        self.summary: list[str] = []
        self.hand_events: list[Event] = []
        self.saved: list[Path] = []
        self.message = ""
        self.busy = False
        self._socket: Any = None

    # --- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="score")
                yield Static(id="table")
            yield RichLog(id="log", markup=True, wrap=True, min_width=20)
        yield Static(id="hand")

    def on_mount(self) -> None:
        self.query_one("#table", Static).border_title = "Mesa"
        self.query_one("#log", RichLog).border_title = "Jugadas"
        self.query_one("#hand", Static).border_title = "Tu mano"
        self.query_one("#hand", Static).border_subtitle = "ctrl+q salir"
        self.redraw()
        if isinstance(self.game, LocalGame):
            self.advance()
        else:
            self.run_worker(self._remote(), exclusive=True, group="net")

    @property
    def view(self) -> SeatView | None:
        return self.game.view

    def _names(self, view: SeatView) -> text.Names:
        return text.Names.of(view, self.game.names)

    def redraw(self) -> None:
        view = self.view
        status = self.query_one("#status", Static)
        score = self.query_one("#score", Static)
        table = self.query_one("#table", Static)
        hand = self.query_one("#hand", Static)
        if view is None:
            where = (self.invite or "").split("?")[0]
            status.update(Text(f"truco · conectando a {where}…"))
            return
        names = self._names(view)
        rules = view.rules
        info = variant_of(rules)
        variant = info.title
        goal = f"· {rules.porotos} porotos" if info.piles else f"a {rules.target}"
        # a variant says how many play; the status line must fit 80 columns
        players = f" · {rules.players} jugadores" if not variant else ""
        head = (
            f"[b]Truco[/]{' ' + variant if variant else ''} {goal}{players}"
            f" · {'con' if rules.flor else 'sin'} flor"
        )
        if names.french:  # Truco Paulista: no flor; its manilhas instead
            seats = f"{rules.players // 2} x {rules.players // 2}"
            head = f"[b]Truco Paulista[/] · {seats} · {rules.target} tentos"
            head += f" · manilha {rules.manilhas}"
        partner = names.say("partner_mark") if rules.players > 2 and rules.teams == 2 else ""
        # The panels' titles in the table's language (pt-BR at a Truco Paulista table).
        self.query_one("#table", Static).border_title = names.say("title_table")
        self.query_one("#log", RichLog).border_title = names.say("title_log")
        hand.border_title = names.say("title_hand")
        hand.border_subtitle = names.say("quit_key")
        status.update(_markup([f"{head}{self.description}{partner}"]))
        score.update(_markup(text.score_lines(view, names)))
        if self.game.over:
            hands = view.hand_no
            lines = text.match_summary(view, names, hands) + self.summary
            table.update(_markup(lines))
        elif self.paused or (self.summary and view.phase != Phase.PLAY):
            lines = text.table_lines(view, names, notes=False)[1:]
            table.update(_markup(lines + self.summary))
        elif view.hand_no:
            table.update(_markup(text.table_lines(view, names)))
        else:
            table.update(_markup([names.say("dealing")]))
        hand.update(_markup(self._hand_lines(view, names)))

    def _hand_lines(self, view: SeatView, names: text.Names) -> list[str]:
        keys = text.action_keys(view)
        by_action = {a: k for k, a in keys.items()}
        cards = []
        for c in view.hand:
            key = next((k for k, a in keys.items() if a.card == c and a.verb in _ON_CARD), "")
            label = f"[b reverse] {key} [/]" if key else ""
            manilha = text.manilha_name(view, c) if names.french else None
            mark = f"[b yellow]({manilha})[/]" if manilha else ""
            cards.append(f"{label}{names.card(c, long=True)}{mark}")
        if view.blind and view.seat is not None:  # a blind mão de ferro: the cards unseen
            key = "[b reverse] 1 [/]" if "1" in keys else ""
            cards.append(f"{key}{names.card(None)}" + " ??" * (view.hand_sizes[view.seat] - 1))
        # the pie's tantos count once he has put his fourth card away
        counted = view.tantos is not None and 0 < len(view.hand) <= 3
        tanto = f"envido {view.tantos}" if counted else ""
        if view.flor is not None and counted:
            tanto += f" · flor {view.flor}"
        first = "  ".join(cards) + (f"   [dim]{tanto}[/]" if tanto else "")
        if not first and text.sitting_out(view):
            first = "[dim](esta mano de pica no jugás: mirás)[/]"
        lines = [first or f"[dim]{names.say('no_cards')}[/]"]
        for partner, held in view.partners:  # the mão de onze: the partners' cards
            if held:
                lines.append(names.say("cards_of", who=names.seat(partner)) + names.cards(held))
        pending = text.pending_call(view, names)
        if pending and not self.game.over:
            lines.append(f"[b yellow]{pending}[/]")
        if self.game.over:
            say = names.say
            rematch = f"   [b reverse] r [/] {say('rematch')}" if self._socket is not None else ""
            lines.append(
                f"[b reverse] s [/] {say('save_quit')}   [b reverse] Enter [/] {say('quit')}"
                + rematch
            )
        elif self.paused:
            lines.append(
                f"[b reverse] Enter [/] {names.say('next_hand')}"
                f"   [b reverse] s [/] {names.say('save')}"
            )
        elif keys:
            calls = [
                f"[b reverse] {k} [/] {text.action_label(a)}"
                for a, k in by_action.items()
                if not (a.card is not None and a.verb in _ON_CARD)
            ]
            if self.pistas:
                calls.append(f"[b reverse] p [/] {names.say('hint')}")
            lines.append("  ".join(calls))
        elif view.to_act is not None and view.to_act >= 0:
            lines.append(f"[dim]{names.say('to_play', who=names.seat(view.to_act))}[/]")
        if self.message:
            lines.append(self.message)
        return lines

    def log_events(self, found: list[Event]) -> None:
        log = self.query_one("#log", RichLog)
        view = self.view
        if view is not None:
            self._log_events(log, view, found)
        # What is not an event: the server's answers, chat, and the señas of a partner (a
        # person's, or a bot's in a local game too). Plain text: names are what people typed.
        for notice in self.game.notices:
            log.write(Text(notice, style="italic"))
        self.game.notices.clear()

    def _log_events(self, log: RichLog, view: SeatView, found: list[Event]) -> None:
        names = self._names(view)
        for event in found:
            if isinstance(event, HandStarted):
                self.hand_events = []
                self.summary = []
            self.hand_events.append(event)
            line = text.event_line(event, names, view)
            if line:
                log.write(Text.from_markup(line))
            if isinstance(event, HandEnded):
                self.summary = text.hand_summary(self.hand_events, view, names)
                log.write(Text.from_markup(text.score_line(view, names)))
                if isinstance(self.game, LocalGame) and not self.game.over:
                    self.paused = True
            elif isinstance(event, MatchEnded):
                self.paused = False

    # --- the local game ---------------------------------------------------------------------

    def advance(self) -> None:
        """Let the dealer and the bots play until it is the human's turn (or a hand ends)."""
        self.busy = True
        self.run_worker(self._advance(), exclusive=True, group="engine")

    async def _advance(self) -> None:
        game = self.game
        assert isinstance(game, LocalGame)
        try:
            while not self.paused and not game.over and not game.human_to_act:
                dealing = game.view.to_act == -1
                if self.delay and not dealing:
                    await asyncio.sleep(self.delay)
                found = await asyncio.to_thread(game.step)
                if found is None:
                    break
                self.log_events(found)
                self.redraw()
        finally:
            self.busy = False
            self.redraw()

    # --- the remote game --------------------------------------------------------------------

    async def _remote(self) -> None:
        import websockets
        from websockets.typing import Subprotocol

        from truco.protocol import ws_protocols
        from truco.tui.session import invite_token, ws_url

        game = self.game
        assert isinstance(game, RemoteGame) and self.invite is not None
        base, url = ws_url(self.invite, game.v)
        # The seat token goes in the handshake's subprotocols, never in the URL; without one,
        # the player's identity (its cookie) asks for the player's own seat.
        token = self.token or invite_token(self.invite)
        offered = [Subprotocol(s) for s in ws_protocols(token, player=self.jar is not None)]
        headers = self.jar.headers(base) if self.jar is not None else {}
        try:
            async with websockets.connect(
                url, max_size=1 << 16, subprotocols=offered, additional_headers=headers
            ) as socket:
                self._socket = socket
                self.message = ""
                async for raw in socket:
                    try:
                        message = wire.loads(raw)
                    except ValueError:
                        continue
                    if isinstance(message, dict):
                        self.log_events(game.handle(message))
                        self.redraw()
        except (OSError, websockets.WebSocketException) as exc:
            self.message = f"[red]Conexión perdida: {exc}[/]"
        finally:
            self._socket = None
            self.redraw()

    # --- keys -------------------------------------------------------------------------------

    async def on_key(self, event: tx_events.Key) -> None:
        key = event.key
        if key == "s":  # no call uses it: saving works at any moment
            event.stop()
            await self.save()
            return
        if self.game.over:
            if key == "enter":
                event.stop()
                self.exit(0)
            elif key == "r" and self._socket is not None:
                event.stop()
                await self._socket.send(json.dumps({"t": "rematch", "d": {}}))
                self.message = "Pediste la revancha; esperando a los demás…"
                self.redraw()
            return
        if self.paused:
            if key in ("enter", "space"):
                event.stop()
                self.paused = False
                self.summary = []
                self.redraw()
                self.advance()
            return
        view = self.view
        if view is None or self.busy or not self.game.human_to_act:
            return
        if isinstance(self.game, RemoteGame) and self.game.pending:
            return  # wait for the server to acknowledge the last action
        if key == "p" and self.pistas:
            event.stop()
            await self.pista(view)
            return
        action = text.action_keys(view).get(key)
        if action is not None:
            event.stop()
            await self.act(action)

    async def pista(self, view: SeatView) -> None:
        """The coach's pick for this decision, computed off the event loop."""
        from truco.coach import hint

        self.message = "[dim]Pensando la pista…[/]"
        self.redraw()
        seed = f"pista/{view.hand_no}/{len(view.history)}"
        action = await asyncio.to_thread(hint, view, seed=seed)
        if action is not None and self.view == view:  # still the same decision
            self.message = f"[b]Pista:[/] {text.action_label(action)} (lo que haría el experto)"
            self.redraw()

    async def act(self, action: Action) -> None:
        self.message = ""
        if isinstance(self.game, LocalGame):
            try:
                found = self.game.play(action)
            except TrucoError as exc:
                self.message = f"[red]{exc}[/]"
                self.redraw()
                return
            self.log_events(found)
            self.redraw()
            self.advance()
        elif self._socket is not None:
            await self._socket.send(json.dumps(self.game.act(action)))

    async def save(self) -> None:
        """Write every finished hand as a hand history (a remote game fetches them)."""
        stem = datetime.now().strftime("partida-%Y%m%d-%H%M%S")
        try:
            if isinstance(self.game, LocalGame):
                self.saved = self.game.save(self.save_dir, stem)
            elif self.game.view is not None and self.invite is not None:
                from truco.tui.net import fetch_hands
                from truco.tui.session import invite_token

                done = self.game.view.hand_no - (self.game.view.phase == Phase.PLAY)
                token = self.token or invite_token(self.invite)
                texts = await asyncio.to_thread(fetch_hands, self.invite, done, token)
                self.save_dir.mkdir(parents=True, exist_ok=True)
                self.saved = []
                for i, toml in enumerate(texts, 1):
                    path = self.save_dir / f"{stem}-mano-{i:02d}.toml"
                    path.write_text(toml, encoding="utf-8")
                    self.saved.append(path)
        except (OSError, TrucoError) as exc:
            self.message = f"[red]No pude guardar: {exc}[/]"
        else:
            n = len(self.saved)
            if n:
                where = f"{self.save_dir}/{stem}-mano-*.toml"
                self.message = f"Guardé {n} mano{'s' * (n != 1)} en {where}"
            else:
                self.message = "[red]No hay manos terminadas para guardar.[/]"
        self.redraw()

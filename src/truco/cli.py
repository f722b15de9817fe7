"""The ``truco`` command: play, replay, analizar, bench, arena, serve, admin."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from truco.errors import TrucoError
from truco.variants import VARIANTS


def _cmd_play(args: argparse.Namespace) -> int:
    if args.pistas and (args.plain or args.connect):
        print("truco play: --pistas is only for a local game against bots", file=sys.stderr)
        return 2
    if args.juego == "paulista":  # Truco Paulista is a variant of its own in the registry
        args.variant = "paulista"
    if args.plain:
        from truco.tui.plain import run_text_game

        return run_text_game(
            players=args.players or 2,
            target=args.target,
            flor=args.flor,
            variant=args.variant,
            seed=args.seed,
            bot=args.bot,
            choose_bot=args.bot is None,
        )
    from truco.tui.main import run_play

    return run_play(args)


def _cmd_anotar(args: argparse.Namespace) -> int:
    from truco.tui.main import run_anotar

    return run_anotar(args)


def _cmd_repeticion(args: argparse.Namespace) -> int:
    from truco.tui.repeticion import run_repeticion

    ask = None if args.todo or not sys.stdin.isatty() else input
    try:
        return run_repeticion(args.url, args.token, print, ask, everything=args.todo)
    except TrucoError as exc:
        print(f"truco repeticion: {exc}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from truco import notation

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"truco replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        results = notation.replay_match(notation.loads_match(text))
    except TrucoError as exc:
        print(f"truco replay: {args.file}: {exc}", file=sys.stderr)
        return 2
    last = results[-1]
    if args.json:
        report = last.to_json()
        if len(results) > 1:  # a match file: the last hand's figures, and every hand's
            report["hands"] = [r.to_json() for r in results]
        print(json.dumps(report))
        return 0
    for number, result in enumerate(results, 1):
        prefix = f"hand {number}: " if len(results) > 1 else ""
        print(f"{prefix}hand points: {list(result.points)}  score: {list(result.score)}")
    if not last.finished:
        print("the hand is not over yet")
    if last.winner is not None:
        print(f"team {last.winner} won the match")
    return 0


MAX_WORLDS = 5000
"""``truco analizar --worlds``: the most sampled worlds per decision (about 15 s a hand)."""


def _cmd_analizar(args: argparse.Namespace) -> int:
    from truco import notation
    from truco.coach import WORLDS, analyse_match, to_json

    worlds = WORLDS if args.worlds is None else args.worlds
    if not 1 <= worlds <= MAX_WORLDS:
        print(f"truco analizar: --worlds must be from 1 to {MAX_WORLDS}", file=sys.stderr)
        return 2
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        print(f"truco analizar: cannot read {args.file}: {why}", file=sys.stderr)
        return 2
    try:
        histories = notation.loads_match(text)
        players = histories[0].rules.players
        if args.seat is not None and not 0 <= args.seat < players:
            raise TrucoError(f"--seat {args.seat}: the table has seats 0 to {players - 1}")
        decisions = analyse_match(histories, seat=args.seat, worlds=worlds, seed=args.seed)
    except TrucoError as exc:
        print(f"truco analizar: {args.file}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(to_json(decisions), ensure_ascii=False))
        return 0
    from rich.console import Console

    from truco.coach.render import render

    Console().print(render(histories, decisions))
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from truco.bench import run_all

    def progress(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    import truco

    if truco.STALE:
        print(
            f"truco bench: {', '.join(truco.STALE)} changed since the engine was compiled, so "
            "this measures it as plain Python; run `make` to compile it again",
            file=sys.stderr,
        )
    if args.expert_latency:
        from truco.bench import BUDGET_MS, expert_latency

        rows = expert_latency(
            bot=args.bot, matches=args.matches, progress=None if args.json else progress
        )
        if args.json:
            print(json.dumps(rows))
            return 0
        print(
            f"{args.bot}: ms per decision on one core (CPU time), budget p50 <= "
            f"{BUDGET_MS[0]:.0f}, p99 <= {BUDGET_MS[1]:.0f}"
        )
        for row in rows:
            verdict = "ok" if row["within_budget"] else "OVER BUDGET"
            print(
                f"  {row['mode']:14s} p50 {row['latency_ms_p50']:7.2f}  p99 "
                f"{row['latency_ms_p99']:7.2f}  max {row['latency_ms_max']:7.2f}  "
                f"({row['decisions']} decisions, {row['matches']} matches)  {verdict}"
            )
        return 0 if all(row["within_budget"] for row in rows) else 1
    figures = run_all(seconds=args.seconds, progress=None if args.json else progress)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:28s} {value}")
    return 0


def _cmd_arena(args: argparse.Namespace) -> int:
    import os

    from truco.arena import format_report, progress_bar, run_arena
    from truco.rules import Rules, from_options

    try:
        options: dict[str, object] = {"variant": args.variant, "target": args.target}
        options["flor"] = args.flor
        if args.players is not None:
            options["players"] = args.players
        if args.porotos is not None:
            options["porotos"] = args.porotos
        rules = from_options(Rules(), options)
        report = run_arena(
            args.bot_a,
            args.bot_b,
            matches=args.matches,
            rules=rules,
            seed=args.seed,
            jobs=args.jobs or os.cpu_count() or 1,
            progress=None if args.quiet else progress_bar,
            cpu_clock=args.cpu_clock,
        )
    except TrucoError as exc:
        print(f"truco arena: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report.to_json()) if args.json else format_report(report))
    return 0


def _cmd_explotabilidad(args: argparse.Namespace) -> int:
    from truco.bots.blueprint.measure import format_rows, measure

    try:
        rows = measure(args.files, args.blueprint, args.deals, args.held_out, args.seed)
    except TrucoError as exc:
        print(f"truco explotabilidad: {exc}", file=sys.stderr)
        return 2
    if args.json:
        for r in rows:
            print(json.dumps(r.to_json()))
    else:
        print(format_rows(rows))
    return 0


def _cmd_entrenar(args: argparse.Namespace) -> int:
    from truco.bots.blueprint.train import train

    command = "truco entrenar " + " ".join(sys.argv[2:]) if args.command is None else args.command
    try:
        train(
            args.blueprint,
            args.iterations,
            args.seed,
            args.checkpoint,
            args.every,
            args.out,
            args.keep,
            command,
            snapshots=args.snapshots,
        )
    except TrucoError as exc:
        print(f"truco entrenar: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrumpido: se reanuda desde el último punto de control", file=sys.stderr)
        return 130
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from truco.server import serve

    serve(host=args.host, port=args.port, db=args.db)
    return 0


def _cmd_cuenta(args: argparse.Namespace) -> int:
    import getpass

    from truco.tui.cuenta import cuenta

    try:
        print(cuenta(args.accion, args.server, args.nombre, getpass.getpass))
    except TrucoError as exc:
        print(f"truco cuenta: {exc}", file=sys.stderr)
        return 2
    return 0


def _cmd_flags(args: argparse.Namespace) -> int:
    from truco.server.admin import list_flags

    print(list_flags(args.db, args.json, args.days, args.matches))
    return 0


def _cmd_admin_reports(args: argparse.Namespace) -> int:
    from truco.server.admin import list_reports

    print(list_reports(args.db, args.json, max(1, args.limit)))
    return 0


def _cmd_admin_exercises(args: argparse.Namespace) -> int:
    from truco.server.admin import make_exercises

    print(make_exercises(args.db, args.json, tables=args.tables, worlds=args.worlds))
    return 0


def _cmd_admin(args: argparse.Namespace) -> int:
    from truco.server.admin import list_broken

    if not args.broken:
        print("truco admin tables: say which tables (--broken)", file=sys.stderr)
        return 2
    print(list_broken(args.db, args.json))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="truco", description="Argentine truco.")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser(
        "play",
        help="play a match in the terminal against bots",
        description="Play a match in the terminal against bots. The usual table is two teams of "
        "two: 'truco play --players 4' seats you with a bot partner against two bots "
        "(2v2); without --players you play mano a mano (1v1).",
    )
    play.add_argument(
        "--variant",
        default="standard",
        choices=tuple(v.name for v in VARIANTS),
        help="pata_de_gallo and destantado (3 players), pica_pica (6); default standard",
    )
    play.add_argument(
        "--juego",
        default=None,
        choices=("argentino", "paulista"),
        help="paulista: Truco Paulista (Brazilian, French cards, manilhas, to 12 tentos); "
        "the same as --variant paulista",
    )
    play.add_argument(
        "--manilhas",
        default="vira",
        choices=("vira", "velha"),
        help="Truco Paulista: the manilhas of the vira (default) or the fixed ones (velha)",
    )
    play.add_argument(
        "--players",
        type=int,
        default=None,
        choices=(2, 3, 4, 6),
        help="4 for two teams of two (2v2), 6 for three; default: the variant's (standard: 2)",
    )
    play.add_argument("--target", type=int, default=30, choices=(10, 15, 20, 24, 30, 40))
    play.add_argument("--flor", action="store_true", help="play with flor")
    play.add_argument("--seed", type=int, default=None, help="make the game reproducible")
    play.add_argument(
        "--bot", default=None, help="bot level or name (default: the strongest; --plain asks)"
    )
    play.add_argument("--connect", metavar="URL", help="join a server's table by its invite link")
    play.add_argument("--name", default="Invitado", help="your name at a server's table")
    play.add_argument("--delay", type=float, default=0.6, help="seconds between bot moves")
    play.add_argument("--save-dir", default=None, help="where 's' saves the hand histories")
    play.add_argument("--plain", action="store_true", help="the line-based game (no Textual)")
    play.add_argument("--pistas", action="store_true", help="'p' shows the expert's choice")
    play.set_defaults(func=_cmd_play)

    anotar = sub.add_parser("anotar", help="keep the score of a game played with real cards")
    anotar.add_argument("--names", default=None, help="two or three side names: 'Nos,Ellos'")
    anotar.add_argument("--target", type=int, default=None, choices=(10, 15, 20, 24, 30, 40))
    anotar.add_argument("--falta", default=None, help="the falta envido formula (docs/rules.md)")
    anotar.add_argument("--new", action="store_true", help="start a new game, forget the last")
    anotar.add_argument("--file", default=None, help="where to keep the game (JSON)")
    anotar.set_defaults(func=_cmd_anotar)

    rep = sub.add_parser("replay", help="replay a hand history (TOML) and print the result")
    rep.add_argument("file")
    rep.add_argument("--json", action="store_true", help="print one JSON object")
    rep.set_defaults(func=_cmd_replay)

    rep = sub.add_parser(
        "repeticion", help="a match's replay from a server, step by step (its /r/TABLE link)"
    )
    rep.add_argument("url", metavar="URL", help="http://HOST/r/TABLE[/HAND/STEP][?match=K]")
    rep.add_argument("--token", default=None, help="a seat token: a match in play, as you saw it")
    rep.add_argument("--todo", action="store_true", help="print every step of every hand")
    rep.set_defaults(func=_cmd_repeticion)

    ana = sub.add_parser(
        "analizar", help="the coach: judge every decision of a hand history or a match file"
    )
    ana.add_argument("file", metavar="HAND.toml")
    ana.add_argument("--seat", type=int, default=None, help="only this seat's decisions")
    ana.add_argument(
        "--worlds", type=int, default=None, help="sampled worlds per decision (docs/coach.md)"
    )
    ana.add_argument("--seed", type=int, default=0, help="the same seed, the same numbers")
    ana.add_argument("--json", action="store_true", help="print one JSON object")
    ana.set_defaults(func=_cmd_analizar)

    bench = sub.add_parser("bench", help="measure the engine's speed (random playouts)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--seconds", type=float, default=6.0, help="time for each measurement (default 6)"
    )
    bench.add_argument(
        "--expert-latency",
        action="store_true",
        help="instead: the expert's time per decision in every mode, against its budget",
    )
    bench.add_argument("--bot", default="experto", help="with --expert-latency: the bot timed")
    bench.add_argument(
        "--matches", type=int, default=12, help="with --expert-latency: matches per mode"
    )
    bench.set_defaults(func=_cmd_bench)
    arena = sub.add_parser("arena", help="bot against bot: duplicate matches and statistics")
    arena.add_argument("bot_a", metavar="BOT_A")
    arena.add_argument("bot_b", metavar="BOT_B")
    arena.add_argument(
        "--matches", type=int, default=100, help="matches (whole duplicate pairs or groups)"
    )
    arena.add_argument(
        "--variant",
        default="standard",
        choices=tuple(v.name for v in VARIANTS),
        help="the way of playing (the three-player variants rotate the seats: docs/bots.md)",
    )
    arena.add_argument("--players", type=int, default=None, choices=(2, 3, 4, 6))
    arena.add_argument(
        "--target",
        type=int,
        default=30,
        choices=(10, 12, 15, 20, 24, 30, 40),
        help="points to win (30; Truco Paulista: 12, its only target)",
    )
    arena.add_argument("--flor", action="store_true", help="play with flor")
    arena.add_argument("--porotos", type=int, default=None, help="destantado: porotos each")
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument("--jobs", type=int, default=0, help="processes (default: all cores)")
    arena.add_argument("--json", action="store_true", help="print one JSON object")
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.add_argument(
        "--cpu-clock",
        action="store_true",
        help="time decisions in CPU time (one core's latency on a shared machine)",
    )
    arena.set_defaults(func=_cmd_arena)

    ent = sub.add_parser(
        "entrenar", help="train a bots' blueprint by CFR (docs/bots.md, 'Training')"
    )
    ent.add_argument("blueprint", choices=("standard", "flor", "paulista"))
    ent.add_argument("--iterations", type=int, default=1_000_000, help="iterations in all")
    ent.add_argument("--seed", type=int, default=1)
    ent.add_argument("--checkpoint", type=Path, default=None, help="resume from and save to")
    ent.add_argument("--every", type=int, default=50_000, help="iterations between checkpoints")
    ent.add_argument("--out", type=Path, default=None, help="the blueprint file to write")
    ent.add_argument(
        "--snapshots", type=Path, default=None, help="a folder for a blueprint at each checkpoint"
    )
    ent.add_argument(
        "--keep", type=float, default=1.0, help="share of the strategy weight the file keeps"
    )
    ent.add_argument("--command", default=None, help=argparse.SUPPRESS)
    ent.set_defaults(func=_cmd_entrenar)

    exp = sub.add_parser(
        "explotabilidad",
        help="a blueprint's exploitability by best response (docs/bots.md, 'Exploitability')",
    )
    exp.add_argument("files", nargs="+", help="blueprint files (or 'uniforme': untrained)")
    exp.add_argument("--blueprint", choices=("standard", "flor", "paulista"), default="standard")
    exp.add_argument("--deals", type=int, default=200, help="deals the exploiter fits")
    exp.add_argument("--held-out", type=int, default=200, help="other deals it is judged on")
    exp.add_argument("--seed", type=int, default=1)
    exp.add_argument("--json", action="store_true", help="one JSON object per file")
    exp.set_defaults(func=_cmd_explotabilidad)

    srv = sub.add_parser("serve", help="run the game server (web client, API and WebSockets)")
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    srv.add_argument("--port", type=int, default=8000, help="port (8000)")
    srv.add_argument("--db", default="truco.db", help="SQLite file (truco.db)")
    srv.set_defaults(func=_cmd_serve)

    acct = sub.add_parser(
        "cuenta",
        help="your player at a server: yo, nombre NOMBRE, entrar NOMBRE, salir, clave",
        description="Your player at a server (the identity 'truco play --connect' uses): "
        "'yo' says who you are there, 'nombre NOMBRE' claims a name with a password, "
        "'entrar NOMBRE' logs in, 'salir' logs out, 'clave' changes the password.",
    )
    acct.add_argument("accion", choices=("yo", "nombre", "entrar", "salir", "clave"))
    acct.add_argument("nombre", nargs="?", default=None, help="the name (nombre, entrar)")
    acct.add_argument("--server", required=True, help="the server's address: http://HOST:PORT")
    acct.set_defaults(func=_cmd_cuenta)

    admin = sub.add_parser("admin", help="look into a server's database")
    admin_sub = admin.add_subparsers(dest="what", required=True)
    tables = admin_sub.add_parser("tables", help="list tables")
    tables.add_argument(
        "--broken", action="store_true", help="the tables set aside: their log cannot be replayed"
    )
    tables.add_argument("--db", default="truco.db", help="SQLite file (TRUCO_DATABASE_URL wins)")
    tables.add_argument("--json", action="store_true", help="print one JSON array")
    tables.set_defaults(func=_cmd_admin)
    flags = admin_sub.add_parser(
        "flags", help="rated results to review: one rival always beaten by the other"
    )
    flags.add_argument("--db", default="truco.db", help="SQLite file (TRUCO_DATABASE_URL wins)")
    flags.add_argument("--days", type=float, default=7.0, help="the window (7 days)")
    flags.add_argument("--matches", type=int, default=3, help="matches in it at least (3)")
    flags.add_argument("--json", action="store_true", help="print one JSON array")
    flags.set_defaults(func=_cmd_flags)
    reports = admin_sub.add_parser("reports", help="list the players' reports, newest first")
    reports.add_argument("--db", default="truco.db", help="SQLite file (TRUCO_DATABASE_URL wins)")
    reports.add_argument("--json", action="store_true", help="print one JSON array")
    reports.add_argument("--limit", type=int, default=100, help="at most this many (100)")
    reports.set_defaults(func=_cmd_admin_reports)
    ejercicios = admin_sub.add_parser(
        "ejercicios", help="one pass of Ejercicios: exercises from finished tables not yet read"
    )
    ejercicios.add_argument(
        "--db", default="truco.db", help="SQLite file (TRUCO_DATABASE_URL wins)"
    )
    ejercicios.add_argument(
        "--tables", type=int, default=None, help="finished tables at most (TRUCO_EXERCISES_TABLES)"
    )
    ejercicios.add_argument(
        "--worlds", type=int, default=None, help="worlds per search (TRUCO_EXERCISES_WORLDS)"
    )
    ejercicios.add_argument("--json", action="store_true", help="print one JSON object")
    ejercicios.set_defaults(func=_cmd_admin_exercises)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())

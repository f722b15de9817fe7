"""Starting the terminal applications from the ``truco`` command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from truco import anotador as anot
from truco.bots.personas import label
from truco.errors import TrucoError
from truco.rules import Rules


def run_play(args: argparse.Namespace) -> int:
    """``truco play``: a match against bots, or ``--connect URL`` to a server's table."""
    from truco.tui.app import TrucoApp
    from truco.tui.session import LocalGame, RemoteGame

    save_dir = Path(args.save_dir) if args.save_dir else None
    if args.connect:
        from truco.tui.cookies import Jar
        from truco.tui.net import join_table, my_seat
        from truco.tui.session import invite_token, ws_url

        # The player's identity at the server, kept across runs (docs/terminal.md).
        jar = Jar()
        try:
            ws_url(args.connect)  # checks the link
            token = invite_token(args.connect)
            # An invite: the player's own seat there (any run, any device), or the first empty.
            if token is None and my_seat(args.connect, jar) is None:
                _, token = join_table(args.connect, args.name, jar=jar)
        except TrucoError as exc:
            print(f"truco play: {exc}", file=sys.stderr)
            return 2
        app = TrucoApp(RemoteGame(), invite=args.connect, token=token, save_dir=save_dir, jar=jar)
        return app.run() or 0
    try:
        paulista = {"manilhas": args.manilhas} if args.variant == "paulista" else {}
        rules = Rules(
            variant=args.variant,
            players=args.players or 2,
            target=args.target,
            flor=args.flor,
            **paulista,
        )
        game = LocalGame(rules=rules, seed=args.seed, bot=args.bot)
    except TrucoError as exc:
        print(f"truco play: {exc}", file=sys.stderr)
        return 2
    seed = "" if args.seed is None else f" · semilla {args.seed}"
    app = TrucoApp(
        game,
        delay=max(0.0, args.delay),
        save_dir=save_dir,
        description=f" · bots {label(game.bot_name)}{seed}",
        pistas=args.pistas,
    )
    return app.run() or 0


def run_anotar(args: argparse.Namespace) -> int:
    """``truco anotar``: keeps the last game in the data dir (or ``--file``)."""
    from truco.tui.anotar import AnotadorApp

    path = Path(args.file) if args.file else anot.data_dir() / anot.SAVE_NAME
    game = None if args.new else anot.load(path)
    try:
        if game is None:
            names = [n.strip() for n in args.names.split(",")] if args.names else None
            game = anot.Anotador(
                **({"names": names} if names else {}),
                target=args.target or 30,
                falta=args.falta or "match_if_malas",
            )
        else:
            if args.names:
                names = [n.strip() for n in args.names.split(",")]
                if len(names) != game.sides:
                    raise ValueError(
                        f"the saved game has {game.sides} sides; use --new to change that"
                    )
                game.names = names
            if args.target:
                game.target = args.target
            if args.falta:
                game = anot.Anotador.from_json({**game.to_json(), "falta": args.falta})
    except ValueError as exc:
        print(f"truco anotar: {exc}", file=sys.stderr)
        return 2
    anot.save(game, path)
    return AnotadorApp(game, path).run() or 0

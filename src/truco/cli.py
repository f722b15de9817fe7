"""The ``truco`` command: play, replay, bench."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from truco.errors import TrucoError


def _cmd_play(args: argparse.Namespace) -> int:
    from truco.textgame import run_text_game

    return run_text_game(players=args.players, target=args.target, flor=args.flor, seed=args.seed)


def _cmd_replay(args: argparse.Namespace) -> int:
    from truco import notation

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"truco replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        result = notation.replay_text(text)
    except TrucoError as exc:
        print(f"truco replay: {args.file}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"hand points: {list(result.points)}  score: {list(result.score)}")
    if not result.finished:
        print("the hand is not over yet")
    if result.winner is not None:
        print(f"team {result.winner} won the match")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from truco.bench import run_all

    def progress(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    figures = run_all(seconds=args.seconds, progress=None if args.json else progress)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:28s} {value}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="truco", description="Argentine truco.")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a match in the terminal against bots")
    play.add_argument("--players", type=int, default=2, choices=(2, 4, 6))
    play.add_argument("--target", type=int, default=30, choices=(10, 15, 20, 24, 30, 40))
    play.add_argument("--flor", action="store_true", help="play with flor")
    play.add_argument("--seed", type=int, default=None, help="make the game reproducible")
    play.set_defaults(func=_cmd_play)

    rep = sub.add_parser("replay", help="replay a hand history (TOML) and print the result")
    rep.add_argument("file")
    rep.add_argument("--json", action="store_true", help="print one JSON object")
    rep.set_defaults(func=_cmd_replay)

    bench = sub.add_parser("bench", help="measure the engine's speed (random playouts)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--seconds", type=float, default=6.0, help="time for each measurement (default 6)"
    )
    bench.set_defaults(func=_cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())

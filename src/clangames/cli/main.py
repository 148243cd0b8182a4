"""The ``clangames`` command line (argparse; no dependency beyond the library)."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import TextIO

from clangames import __version__
from clangames.bots import bot_specs
from clangames.cli.demo import DemoFailure, run_demo
from clangames.cli.params import describe_parameter, parse_params, seed_type
from clangames.engine.errors import ClanGamesError
from clangames.engine.registry import game_spec, games, load


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``clangames`` command and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="clangames",
        description="Rules engines for tabletop games about Scottish clans.",
    )
    parser.add_argument("--version", action="version", version=f"clangames {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    demo = sub.add_parser(
        "demo",
        help="watch bots play one whole game, narrated step by step",
        description=(
            "Bots play one whole game, narrated step by step, then the final scores,"
            " winners and returns. The same seed always prints the same game."
        ),
    )
    demo.add_argument("game", metavar="GAME", help="a game name, e.g. kings-kilt or kings_kilt")
    demo.add_argument("--players", type=int, default=None, help="number of players")
    demo.add_argument("--seed", type=seed_type, default=0, help="random seed (default 0)")
    demo.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game parameter (repeatable); see 'clangames list'",
    )
    demo.add_argument(
        "--bots",
        default="random",
        metavar="NAMES",
        help="bot for every seat, or comma-separated one per seat (default: random)",
    )
    demo.add_argument("--quiet", action="store_true", help="print only the header and the result")
    demo.add_argument("--record", metavar="FILE", help="also save the game record (JSON) here")
    demo.set_defaults(handler=_demo)

    listing = sub.add_parser(
        "list",
        help="list the games, their player counts and parameters, and the bots",
        description="Every registered game with its player range and parameters, and the bots.",
    )
    listing.set_defaults(handler=_list)
    # play / replay / simulate import rich, so they are imported only by the CLI.
    from clangames.cli import play, replay, simulate

    play.add_parser(sub)
    replay.add_parser(sub)
    simulate.add_parser(sub)
    return parser


def _demo(args: argparse.Namespace, out: TextIO) -> int:
    spec = game_spec(args.game)
    params = parse_params(spec, args.param, args.players)
    game = load(spec.name, **params)
    bots = [name.strip() for name in args.bots.split(",")]
    result = run_demo(game, args.seed, bots, out, narrate=not args.quiet)
    if args.record:
        try:
            with open(args.record, "w", encoding="utf-8") as fh:
                fh.write(result.match.record.dumps() + "\n")
        except OSError as exc:
            print(f"clangames: error: cannot write the record: {exc}", file=sys.stderr)
            return 1
        out.write(f"Record saved to {args.record}\n")
    return 0


def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=indent + "  ")


def _list(args: argparse.Namespace, out: TextIO) -> int:
    out.write("Games:\n")
    for spec in games():
        players = (
            f"{spec.min_players} players"
            if spec.min_players == spec.max_players
            else f"{spec.min_players}-{spec.max_players} players"
        )
        out.write(f"\n  {spec.name}: {spec.title}, {players}\n")
        out.write(_wrap(spec.summary, "    ") + "\n")
        out.write("    parameters (--param KEY=VALUE):\n")
        for param in spec.parameters:
            out.write(_wrap(describe_parameter(param), "      ") + "\n")
    out.write("\nBots (demo --bots NAME):\n")
    for bot in bot_specs():
        out.write(f"  {bot.name}: {bot.summary}\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with ``argv`` (default: the process arguments); the exit code:
    0 done, 2 bad usage (unknown game, bad parameter, ...), 1 other failures (a record
    that cannot be written, a game that misbehaves, a closed output pipe)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else 2
    try:
        code: int = args.handler(args, sys.stdout)
        sys.stdout.flush()
    except DemoFailure as exc:
        print(f"clangames: the game failed: {exc}", file=sys.stderr)
        return 1
    except ClanGamesError as exc:
        print(f"clangames: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `clangames demo ... | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())

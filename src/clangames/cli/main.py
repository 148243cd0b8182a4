"""The ``clangames`` command line (argparse; no dependency beyond the library)."""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from clangames import __version__
from clangames.bots import bot_specs
from clangames.cli.demo import run_demo
from clangames.cli.errors import INTERRUPTED_EXIT, UsageError, exit_code, one_line
from clangames.cli.files import atomic_write, check_writable, os_reason
from clangames.cli.params import describe_parameter, parse_params, seed_type
from clangames.cli.prose import fold_line
from clangames.cli.saving import utc_now, with_headers
from clangames.engine.errors import ClanGamesError
from clangames.engine.registry import game_spec, games, load


class CommandParser(argparse.ArgumentParser):
    """argparse, but a usage error is a UsageError (one line, exit 2) like every other."""

    def error(self, message: str) -> NoReturn:
        """Raise UsageError naming the subcommand and the problem, instead of exiting."""
        where = self.prog.removeprefix("clangames").strip()
        hint = f"see '{self.prog} --help'"
        raise UsageError(f"{where}: {message} ({hint})" if where else f"{message} ({hint})")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``clangames`` command and its subcommands."""
    parser = CommandParser(
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
    from clangames.cli import play, replay, report, serve, simulate

    play.add_parser(sub)
    replay.add_parser(sub)
    simulate.add_parser(sub)
    report.add_parser(sub)
    serve.add_parser(sub)
    return parser


def _demo(args: argparse.Namespace, out: TextIO) -> int:
    spec = game_spec(args.game)
    params = parse_params(spec, args.param, args.players)
    game = load(spec.name, **params)
    bots = [name.strip() for name in args.bots.split(",")]
    if args.record is not None:
        check_writable(args.record, "--record")
    date = utc_now()
    result = run_demo(game, args.seed, bots, out, narrate=not args.quiet)
    if args.record is not None:
        record = with_headers(result.match, result.names, args.seed, date, "demo")
        try:
            atomic_write(args.record, record.dumps() + "\n")
        except OSError as exc:
            print(
                one_line(
                    f"clangames: error: cannot write the record {args.record!r}: {os_reason(exc)}"
                ),
                file=sys.stderr,
            )
            return 1
        out.write(f"Record saved to {args.record}\n")
    return 0


def _width(out: TextIO) -> int:
    """The terminal's width when ``out`` is one (at least 40), else 100 columns."""
    try:
        terminal = out.isatty()
    except (AttributeError, ValueError):
        terminal = False
    if not terminal:
        return 100
    return max(40, shutil.get_terminal_size((100, 24)).columns)


def _list(args: argparse.Namespace, out: TextIO) -> int:
    width = _width(out)
    out.write("Games:\n")
    for spec in games():
        players = (
            f"{spec.min_players} players"
            if spec.min_players == spec.max_players
            else f"{spec.min_players}-{spec.max_players} players"
        )
        out.write(f"\n  {spec.name}: {spec.title}, {players}\n")
        out.write(fold_line("    " + spec.summary, width, hyphens=True) + "\n")
        out.write("    parameters (--param KEY=VALUE):\n")
        for param in spec.parameters:
            out.write(fold_line("      " + describe_parameter(param), width, hyphens=True) + "\n")
    out.write("\nBots (demo --bots NAME):\n")
    for bot in bot_specs():
        out.write(fold_line(f"  {bot.name}: {bot.summary}", width, hyphens=True) + "\n")
    return 0


def _say_error(message: str) -> None:
    """The one line every failed command ends with."""
    print(one_line(f"clangames: error: {message}"), file=sys.stderr, flush=True)


def _tolerant_output() -> None:
    """Let stdout print any text (a file name with undecodable bytes, say) by escaping what
    its encoding cannot show, instead of failing mid-command."""
    stream = sys.stdout
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with ``argv`` (default: the process arguments); the exit code:
    0 done, 2 bad usage (unknown game, bad parameter or option, unwritable output file, ...),
    1 other failures (an unreadable record, a game that misbehaves, a closed output pipe),
    130 interrupted by Ctrl-C. Every failure ends with one line on stderr,
    ``clangames: error: ...``, and never a traceback."""
    try:
        _tolerant_output()
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help and --version
            return exc.code if isinstance(exc.code, int) else 0
        code: int = args.handler(args, sys.stdout)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt:
        _say_error("interrupted")
        return INTERRUPTED_EXIT
    except ClanGamesError as exc:
        _say_error(str(exc))
        return exit_code(exc)
    except BrokenPipeError:  # e.g. `clangames demo ... | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except Exception as exc:  # the last resort: whatever it was, one line and exit 1
        _say_error(
            f"internal error, a bug in clangames (please report it with the command line):"
            f" {type(exc).__name__}: {exc}"
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())

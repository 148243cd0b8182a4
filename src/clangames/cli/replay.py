"""``clangames replay FILE [--as SEAT]``: step through a saved game record.

The record (``GameRecord`` JSON, as ``play``'s ``save`` or ``demo --record`` write it) is
replayed through the rules, one narrated line per step. Without ``--as`` everything is told
(every seat's secrets, every chance outcome); with ``--as SEAT`` only what that seat could
know: the boards are drawn from its observation and steps it could not identify are told as
``play`` told them to that seat. ``--boards`` draws the table before each decision shown,
``--step`` waits for Enter after each step.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from rich.console import Console

from clangames.cli.errors import UsageError
from clangames.cli.files import input_stream
from clangames.cli.saving import read_record
from clangames.engine.errors import StateDecodeError
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord
from clangames.rendering.text import (
    narrate,
    renderer_for,
    results,
    reveal,
    seat_view,
    step_line,
    who,
)


class ReplayError(UsageError):
    """A replay that cannot run as asked (a seat out of range)."""


__all__ = ["ReplayError", "add_parser", "read_record", "replay", "run"]


def replay(
    record: GameRecord,
    out: TextIO,
    viewer: int | None = None,
    *,
    boards: bool = False,
    inp: TextIO | None = None,
    width: int | None = None,
) -> int:
    """Narrate ``record`` to ``out`` as ``viewer`` sees it (None: everything); with ``inp``,
    wait for a line after each step ('q' stops). Returns the exit code."""
    game = record.load_game()
    if viewer is not None and not 0 <= viewer < game.num_players:
        raise ReplayError(f"--as {viewer}: seats are 0..{game.num_players - 1}")
    # Every move is checked before any is narrated: a bad record stops with nothing shown.
    every_state = list(record.replay())
    renderer = renderer_for(game)
    console = Console(file=out, markup=False, highlight=False, soft_wrap=True, width=width or 100)
    view = "everything" if viewer is None else f"as {who(viewer)} saw it"
    params = ", ".join(f"{k}={v!r}" for k, v in game.params.items())
    console.print(f"{game.info.title} ({game.name}) replay, {view}", style="bold")
    console.print(f"parameters: {params}")
    console.print(f"{len(record.moves)} moves")
    states = iter(every_state)
    state = next(states)
    shown_first_board = False
    for index, move in enumerate(record.moves, 1):
        before = state
        try:
            state = next(states)
        except StopIteration:  # pragma: no cover - replay yields one state per move
            raise StateDecodeError(f"record.moves[{index - 1}]: no state") from None
        player = move.player
        deciding = player != CHANCE and (viewer is None or player == viewer)
        if deciding and (boards or not shown_first_board):
            console.print()
            _board(console, renderer, before, viewer)
            console.print(before.prompt(), style="bold")
            shown_first_board = True
        action = game.parse_action(move.action)
        text = narrate(renderer, before, action, player, state, viewer)
        console.print(step_line(index, player, text))
        if inp is not None:
            console.print("(Enter: next step, q: stop) ", end="")
            out.flush()
            line = inp.readline()
            if not line or line.strip().lower() == "q":
                console.print()
                return 0
    console.print()
    if state.is_terminal:
        console.print("===== Game over =====", style="bold reverse")
        console.print(seat_view(renderer, state, None))
        lines = reveal(renderer, state)
        if lines:
            console.print("Revealed:", style="bold")
            for line in lines:
                console.print("  " + line)
        console.print(results(state))
    else:
        console.print("The record ends before the game does; the table now:", style="bold")
        _board(console, renderer, state, viewer)
        console.print(state.prompt(), style="bold")
    return 0


def _board(console: Console, renderer: Any, state: Any, viewer: int | None) -> None:
    console.print(seat_view(renderer, state, viewer))
    if viewer is None:
        for line in reveal(renderer, state):
            console.print(line)


def add_parser(subparsers: Any) -> None:
    """Add the ``replay`` subcommand to the ``clangames`` parser."""
    parser = subparsers.add_parser(
        "replay",
        help="step through a saved game record, whole or as one seat saw it",
        description=(
            "Replay a game record (JSON from 'play' save or 'demo --record'): every step"
            " narrated; with --as SEAT only what that seat could know."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the record (JSON)")
    parser.add_argument(
        "--as", dest="seat", type=int, default=None, metavar="SEAT", help="view as this seat"
    )
    parser.add_argument(
        "--boards", action="store_true", help="draw the table before every decision shown"
    )
    parser.add_argument("--step", action="store_true", help="wait for Enter after each step")
    parser.set_defaults(func=run, handler=lambda args, out: run(args, out=out))


def run(args: argparse.Namespace, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Run ``clangames replay`` with parsed arguments."""
    record = read_record(args.file)
    stream = input_stream(inp) if args.step else None
    return replay(
        record,
        out if out is not None else sys.stdout,
        args.seat,
        boards=args.boards,
        inp=stream,
    )

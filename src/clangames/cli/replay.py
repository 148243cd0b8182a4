"""``clangames replay FILE [--as SEAT]``: step through a saved game record.

The record (``GameRecord`` JSON, as ``play``'s ``save`` or ``demo --record`` write it) is
replayed through the rules, one narrated line per step. Without ``--as`` everything is told
(every seat's secrets, every chance outcome); with ``--as SEAT`` only what that seat could
know: the boards are drawn from its observation and steps it could not identify are told as
``play`` told them to that seat. ``--boards`` draws the table before each decision shown;
``--step`` walks through the game interactively: forward, back, jump to a move, first, last.
The whole record is checked before anything is shown.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from rich.console import Console

from clangames.cli.errors import CommandFailure, UsageError
from clangames.cli.files import input_stream
from clangames.cli.prose import fold_line
from clangames.cli.saving import read_record
from clangames.engine.errors import ClanGamesError
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord
from clangames.rendering.explain import end_report
from clangames.rendering.text import (
    narrate,
    print_items,
    print_reveal,
    renderer_for,
    results,
    reveal_items,
    seat_view,
    step_line,
    who,
)


class ReplayError(UsageError):
    """A replay that cannot run as asked (a seat out of range)."""


__all__ = ["ReplayError", "add_parser", "read_record", "replay", "run"]


STEP_HELP = "keys: Enter or n next, b back, N or j N after move N, f first, l last, q stop"
"""The keys of ``replay --step`` (one line of the smallest screen, 80 columns)."""


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
    step through it interactively (:data:`STEP_HELP`). Returns the exit code. The whole
    record is checked before anything is printed."""
    try:
        game = record.load_game()
    except ClanGamesError as exc:
        # The file is at fault, not the command line: a failure (exit 1), as for resume.
        raise CommandFailure(f"the record's game cannot be loaded: {exc}") from None
    if viewer is not None and not 0 <= viewer < game.num_players:
        raise ReplayError(f"--as {viewer}: seats are 0..{game.num_players - 1}")
    # Every move is checked before any is narrated: a bad record stops with nothing shown.
    states = list(record.replay())
    actions = [game.parse_action(move.action) for move in record.moves]
    renderer = renderer_for(game)
    console = Console(file=out, markup=False, highlight=False, soft_wrap=True)
    # The terminal's width, as play's (the tables were drawn 100 wide on an 80-column
    # screen, every row folded in two); 100 columns when the output is not a terminal.
    console.width = width or (console.size.width if console.is_terminal else 100)
    fold = console.is_terminal or width is not None  # sentences too, as play folds them
    view = "everything" if viewer is None else f"as {who(viewer)} saw it"
    params = ", ".join(f"{k}={v!r}" for k, v in game.params.items())
    console.print(f"{game.info.title} ({game.name}) replay, {view}", style="bold")
    _prose(console, f"parameters: {params}", fold)
    console.print(f"{len(record.moves)} moves")

    def line(index: int) -> str:
        """The narration of move ``index`` (1-based)."""
        player = record.moves[index - 1].player
        before, after = states[index - 1], states[index]
        text = narrate(renderer, before, actions[index - 1], player, after, viewer)
        said = step_line(index, player, text)
        return fold_line(said, console.width) if fold else said

    if inp is not None:
        return _step_through(console, renderer, states, line, viewer, inp, fold)
    shown_first_board = False
    for index, move in enumerate(record.moves, 1):
        before = states[index - 1]
        deciding = move.player != CHANCE and (viewer is None or move.player == viewer)
        if deciding and (boards or not shown_first_board):
            console.print()
            _board(console, renderer, before, viewer, fold)
            _prose(console, before.prompt(), fold, style="bold")
            shown_first_board = True
        console.print(line(index))
    console.print()
    _ending(console, renderer, states, viewer, fold)
    return 0


def _prose(console: Console, text: str, fold: bool, style: str | None = None) -> None:
    """A sentence (a prompt too), folded at spaces to the console's width when ``fold``."""
    console.print(fold_line(text, console.width) if fold else text, style=style)


def _ending(
    console: Console, renderer: Any, states: list[Any], viewer: int | None, fold: bool
) -> None:
    """The end of the record: the game-over screen with the score breakdown, or the table
    where the record stops."""
    state = states[-1]
    if state.is_terminal:
        console.print("===== Game over =====", style="bold reverse")
        console.print(seat_view(renderer, state, None), soft_wrap=False)
        print_reveal(console, renderer, state, fold)
        console.print(results(state), soft_wrap=False)
        console.print("How the scores came about:", style="bold")
        for text in end_report(states).lines():
            _prose(console, text, fold)
    else:
        console.print("The record ends before the game does; the table now:", style="bold")
        _board(console, renderer, state, viewer, fold)
        _prose(console, state.prompt(), fold, style="bold")


def _step_through(
    console: Console,
    renderer: Any,
    states: list[Any],
    line: Any,
    viewer: int | None,
    inp: TextIO,
    fold: bool,
) -> int:
    """The interactive ``--step`` loop: position ``k`` is the table after ``k`` moves."""
    last = len(states) - 1
    console.print(STEP_HELP)
    console.print()
    _board(console, renderer, states[0], viewer, fold)
    k = 0
    while True:
        console.print(f"(at move {k} of {last}) > ", end="")
        console.file.flush()
        answer = inp.readline()
        if not answer:
            console.print()
            return 0
        word, _, rest = answer.strip().lower().partition(" ")
        target: int | None
        if word in ("", "n", "next"):
            target = k + 1
        elif word in ("b", "back"):
            target = k - 1
        elif word in ("f", "first"):
            target = 0
        elif word in ("l", "last"):
            target = last
        elif word in ("q", "quit"):
            return 0
        elif word.isascii() and word.isdigit() and not rest:
            target = int(word) if len(word) <= 9 else last + 1
        elif word in ("j", "jump") and rest.strip().isascii() and rest.strip().isdigit():
            target = int(rest.strip()) if len(rest.strip()) <= 9 else last + 1
        else:
            console.print(f"unknown key {answer.strip()!r:.40}")
            console.print(STEP_HELP)
            continue
        if not 0 <= target <= last:
            where = "the last move" if target > last else "the start"
            console.print(f"no move {target}: moves are 0..{last} ({where} is as far as it goes)")
            continue
        if target == k + 1:
            console.print(line(target))  # forward one step: its narration, as without --step
        else:
            console.print(f"jumped to after move {target}" if target else "back at the start")
            if target:
                console.print(line(target))
            _board(console, renderer, states[target], viewer, fold)
        k = target
        if k == last:
            console.print()
            _ending(console, renderer, states, viewer, fold)


def _board(console: Console, renderer: Any, state: Any, viewer: int | None, fold: bool) -> None:
    console.print(seat_view(renderer, state, viewer), soft_wrap=False)
    if viewer is None:
        print_items(console, reveal_items(renderer, state), fold)


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
    parser.add_argument(
        "--step",
        action="store_true",
        help="walk through the game: Enter next, b back, N jump to move N, f first, l last, q stop",
    )
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

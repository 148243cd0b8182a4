"""Run directories of ``clangames simulate --out DIR``: results streamed as batches finish.

A run directory holds ``run.json`` (what the run plays: the game and its parameters, the
seats, the seed, the number of games, the batch size, the bots' budgets and the names of
the game's statistics) and ``results.jsonl``, one line per finished batch::

    {"batch": START, "games": [[index, seats, scores, returns, winners, steps, decisions,
                                first, statistics], ...]}

Each line is written whole, flushed and synced when its batch completes, so a run that
dies loses only the batches in flight (a torn last line is dropped on reading);
``--resume DIR`` plays the batches with no line, and its summary (and ``clangames report``'s)
reads the file's games back a line at a time, each checked against the run's settings.
Batch ``START`` holds games ``START .. START + batch_size - 1`` (fewer in the last one),
and game ``i`` depends only on the seed and ``i``: a batch replayed gives the same line.
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import attrs

from clangames.cli.errors import CommandFailure, UsageError
from clangames.cli.files import NotARegularFile, atomic_write, open_regular, os_reason
from clangames.engine.codec import require
from clangames.engine.errors import StateDecodeError

RUN_FILE = "run.json"
"""The run's settings, written once when the run starts."""

RESULTS_FILE = "results.jsonl"
"""The finished batches, one JSON line each, in the order they finished."""

FORMAT = 1
"""The run directory's format version (``run.json``'s ``format``)."""

SEEDS = 2**64
"""Seeds are ``0 .. SEEDS - 1`` (what :class:`~clangames.engine.rng.Rng` takes)."""

MAX_RUN_FILE = 1024 * 1024
"""The largest ``run.json`` read (bytes). One holds a few settings and the names of the
game's statistics, a few kilobytes at most; the bound keeps a ``run.json`` that is a huge
file from being read whole."""

MAX_RESULTS_LINE = 16 * 1024 * 1024
"""The longest line of ``results.jsonl`` read (bytes, its newline included). A batch of 50
games of the game with the most statistics is about 100 kB; the file itself is not bounded
(a run of a million games is legitimately large), only each line, so a damaged file
without newlines is refused instead of read whole into memory."""


@attrs.frozen(slots=True)
class RunSettings:
    """Everything that decides a run's results (and the batches it is cut into)."""

    game: str
    params: dict[str, Any] = attrs.field(eq=False)
    seats: tuple[str, ...]
    seed: int
    games: int
    rotate: bool
    iterations: int | None
    rollout_limit: int | None
    batch_size: int
    statistics: tuple[str, ...]
    version: str

    def batch_starts(self) -> list[int]:
        """The first game index of every batch, in order."""
        return list(range(0, self.games, self.batch_size))

    def to_json(self) -> dict[str, Any]:
        """``run.json``'s content."""
        return {
            "format": FORMAT,
            "version": self.version,
            "game": self.game,
            "params": self.params,
            "seats": list(self.seats),
            "seed": self.seed,
            "games": self.games,
            "rotate": self.rotate,
            "iterations": self.iterations,
            "rollout_limit": self.rollout_limit,
            "batch_size": self.batch_size,
            "statistics": list(self.statistics),
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> RunSettings:
        """Settings read back from ``run.json`` (``where`` names the file in errors): every
        field of its type and range, else CommandFailure naming the field."""
        if not isinstance(data, dict):
            raise CommandFailure(
                f"{where}: not a run's settings (a JSON object expected, got"
                f" {type(data).__name__}); expected the run.json that 'clangames simulate"
                " --out' writes"
            )
        if type(data.get("format")) is not int or data["format"] != FORMAT:
            raise CommandFailure(
                f"{where}: run format {data.get('format')!r}, this clangames reads {FORMAT}"
            )

        def field(name: str, check: Callable[[Any], bool], expected: str) -> Any:
            try:
                return require(data, name, f"{where}: run", check, expected)
            except StateDecodeError as exc:
                raise CommandFailure(str(exc)) from None

        def count(least: int) -> Callable[[Any], bool]:
            return lambda v: _whole(v) and v >= least

        def names(v: Any) -> bool:
            return isinstance(v, list) and all(isinstance(x, str) for x in v)

        seats = field("seats", lambda v: names(v) and len(v) > 0, "a list of bot names")
        return cls(
            game=field("game", lambda v: isinstance(v, str), "a game name"),
            params=dict(field("params", lambda v: isinstance(v, dict), "an object")),
            seats=tuple(seats),
            seed=field("seed", lambda v: _whole(v) and 0 <= v < SEEDS, "an integer in 0..2**64-1"),
            games=field("games", count(1), "a whole number at least 1"),
            rotate=field("rotate", lambda v: isinstance(v, bool), "true or false"),
            iterations=field(
                "iterations", lambda v: v is None or count(1)(v), "null or at least 1"
            ),
            rollout_limit=field(
                "rollout_limit", lambda v: v is None or count(0)(v), "null or at least 0"
            ),
            batch_size=field("batch_size", count(1), "a whole number at least 1"),
            statistics=tuple(field("statistics", names, "a list of statistic names")),
            version=field("version", lambda v: isinstance(v, str), "a version string"),
        )


@attrs.frozen(slots=True)
class GameResult:
    """One simulated game: its index, the bots per seat and what came of it."""

    index: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    steps: int
    decisions: int
    first: int
    """The seat that made the first decision (-1 if nobody decided)."""
    statistics: tuple[float, ...] = ()
    """The game's own statistics, in the order of its declared names (empty when the game
    declares none)."""


def result_row(result: GameResult) -> list[Any]:
    """One game of a batch line."""
    return [
        result.index,
        list(result.seats),
        list(result.scores),
        list(result.returns),
        list(result.winners),
        result.steps,
        result.decisions,
        result.first,
        list(result.statistics),
    ]


def start_run(directory: str, settings: RunSettings) -> None:
    """Create the run directory (it may exist if empty) and write ``run.json``."""
    path = Path(directory)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UsageError(
            f"--out: {directory!r} exists and is not an empty directory; expected a new"
            " directory (use --resume DIR to finish a run)"
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
        # Whole or not at all: a run.json cut short (a full disk) would leave a directory
        # that --out refuses as not empty and --resume as damaged. Synced, as each batch
        # of results.jsonl is: --resume reads it after a crash.
        atomic_write(path / RUN_FILE, json.dumps(settings.to_json(), indent=1) + "\n", sync=True)
        (path / RESULTS_FILE).touch()
    except OSError as exc:
        # A failure while working (exit 1), like any other file the command cannot write;
        # the command line itself asked for something possible.
        raise CommandFailure(
            f"--out: cannot create the run directory {directory!r}: {os_reason(exc)}"
        ) from None


def refuse_run_file(path: str, directory: str, option: str) -> None:
    """UsageError if ``path`` is one of the run files in ``directory``: writing a summary,
    a plot or a report there would destroy the run it describes."""
    # realpath, not Path.resolve: a symlink loop makes resolve raise RuntimeError, and the
    # loop is then refused by the check that the file can be written, in a sentence.
    target = os.path.realpath(path)
    for name in (RUN_FILE, RESULTS_FILE):
        if target == os.path.realpath(os.path.join(directory, name)):
            raise UsageError(
                f"{option}: {path!r} is the run's own {name}; expected another file name"
                " (writing there would destroy the run)"
            )


def read_settings(directory: str) -> RunSettings:
    """The settings of the run in ``directory``; UsageError if it holds no run,
    CommandFailure if its ``run.json`` is not a regular file (a named pipe would be waited
    on forever, ``/dev/zero`` read forever), is larger than :data:`MAX_RUN_FILE` or is
    damaged."""
    where = str(Path(directory) / RUN_FILE)
    expected = "expected the run.json that 'clangames simulate --out' writes"
    try:
        with open_regular(where) as fh:
            raw = fh.read(MAX_RUN_FILE + 1)
    except NotARegularFile as exc:
        raise CommandFailure(f"{where}: {exc.kind}, not a regular file; {expected}") from None
    except OSError as exc:
        raise UsageError(
            f"{directory!r} holds no run ({exc.strerror or exc}); expected a directory"
            " written by 'clangames simulate --out'"
        ) from None
    if len(raw) > MAX_RUN_FILE:
        raise CommandFailure(
            f"{where}: larger than {MAX_RUN_FILE // (1024 * 1024)} MiB, too large for a run's"
            f" settings; {expected}"
        )
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise CommandFailure(
            f"{where}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start});"
            " expected the run.json that 'clangames simulate --out' writes"
        ) from None
    except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep to decode
        raise CommandFailure(f"{where}: not JSON ({exc})") from None
    return RunSettings.from_json(data, where)


def result_from_row(row: Any, settings: RunSettings) -> GameResult:
    """A game read back from a batch line (:func:`result_row`), checked against the run's
    settings: ValueError naming what is wrong (a line edited or damaged by hand)."""
    if not isinstance(row, list) or len(row) != 9:
        raise ValueError("a game is a list of 9 items")
    index, seats, scores, returns, winners, steps, decisions, first, statistics = row
    players = len(settings.seats)
    if not _whole(index) or not 0 <= index < settings.games:
        raise ValueError(f"game index {index!r} is not one of the run's")
    if not isinstance(seats, list) or len(seats) != players:
        raise ValueError(f"game {index}: seats {seats!r}, expected {players} bot names")
    if any(name not in settings.seats for name in seats):
        raise ValueError(f"game {index}: seats {seats!r} are not the run's bots")
    if not isinstance(scores, list) or len(scores) != players or not all(map(_real, scores)):
        raise ValueError(f"game {index}: scores {scores!r}, expected {players} numbers")
    if not isinstance(returns, list) or len(returns) != players or not all(map(_real, returns)):
        raise ValueError(f"game {index}: returns {returns!r}, expected {players} numbers")
    if not isinstance(winners, list) or not all(_whole(w) and 0 <= w < players for w in winners):
        raise ValueError(f"game {index}: winners {winners!r}, expected seats 0..{players - 1}")
    if len(set(winners)) != len(winners):
        raise ValueError(f"game {index}: winners {winners!r} name a seat twice")
    shares = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]
    if returns != shares:  # what State.returns gives: the win rates are their sums
        raise ValueError(
            f"game {index}: returns {returns!r}, expected {shares} for winners {winners!r}"
        )
    if not _whole(steps) or not _whole(decisions) or not 0 <= decisions <= steps:
        raise ValueError(f"game {index}: {steps!r} steps and {decisions!r} decisions")
    if not _whole(first) or not -1 <= first < players:
        raise ValueError(f"game {index}: first seat {first!r}, expected -1..{players - 1}")
    wanted = len(settings.statistics)
    if not isinstance(statistics, list) or len(statistics) != wanted:
        raise ValueError(f"game {index}: statistics {statistics!r}, expected {wanted} numbers")
    if not all(map(_real, statistics)):
        raise ValueError(f"game {index}: statistics {statistics!r}, expected finite numbers")
    return GameResult(
        index,
        tuple(seats),
        tuple(scores),
        tuple(float(r) for r in returns),
        tuple(winners),
        steps,
        decisions,
        first,
        tuple(statistics),
    )


def _whole(value: Any) -> bool:
    return type(value) is int


def _real(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def scan_batches(
    directory: str, settings: RunSettings, each: Callable[[GameResult], None] | None = None
) -> tuple[set[int], int]:
    """The first indices of a run's finished batches, and the length in bytes of the
    file's whole lines (a line cut short by a crash is left out; :func:`open_results`
    cuts it off). The file is read a line at a time, and ``each`` gets every game of
    every batch, so a run of any size is read in constant memory. A batch written twice
    (a resumed run that raced a dying one) counts once. CommandFailure names the first
    line that is not a finished batch of this run, or a line longer than
    :data:`MAX_RESULTS_LINE`, or a file that is not a regular file."""
    path = Path(directory) / RESULTS_FILE
    starts = set(settings.batch_starts())
    finished: set[int] = set()
    good = 0
    try:
        with open_regular(path) as lines:
            for number in itertools.count(1):
                line = lines.readline(MAX_RESULTS_LINE + 1)
                if len(line) > MAX_RESULTS_LINE:
                    raise CommandFailure(
                        f"{str(path)!r} line {number} is longer than"
                        f" {MAX_RESULTS_LINE // (1024 * 1024)} MiB; not a finished batch of"
                        " this run (a batch's line is at most some 100 kB)"
                    )
                if not line.endswith(b"\n"):
                    break  # the end, or a line torn by a crash: its batch is played again
                try:
                    entry = json.loads(line)
                    start = entry["batch"]
                    games = entry["games"]
                    if not _whole(start) or start not in starts:
                        raise ValueError(f"batch {start!r} is not one of the run's")
                    expected = list(range(start, min(settings.games, start + settings.batch_size)))
                    if [g[0] for g in games] != expected:
                        raise ValueError(f"batch {start} must hold games {start}..{expected[-1]}")
                    results = [result_from_row(row, settings) for row in games]
                except (ValueError, KeyError, TypeError, IndexError, RecursionError) as exc:
                    raise CommandFailure(
                        f"{str(path)!r} line {number} is not a finished batch of this run ({exc})"
                    ) from None
                good += len(line)
                if start in finished:
                    continue
                finished.add(start)
                if each is not None:
                    for result in results:
                        each(result)
    except FileNotFoundError:
        return set(), 0
    except NotARegularFile as exc:
        raise CommandFailure(
            f"{str(path)!r} is {exc.kind}, not a regular file; expected the results.jsonl"
            " that 'clangames simulate --out' writes"
        ) from None
    except OSError as exc:
        raise CommandFailure(f"cannot read {str(path)!r}: {os_reason(exc)}") from None
    return finished, good


def open_results(directory: str, keep: int) -> IO[str]:
    """``results.jsonl`` opened for appending, cut to its first ``keep`` bytes (the whole
    lines) so that a line torn by a crash does not run into the next one."""
    path = Path(directory) / RESULTS_FILE
    try:
        with open(path, "ab") as raw:
            raw.truncate(keep)
        return open(path, "a", encoding="utf-8")
    except OSError as exc:
        raise CommandFailure(f"cannot write {str(path)!r}: {exc}") from None


def append_batch(out: IO[str], start: int, results: Sequence[Any]) -> None:
    """Write one finished batch as a whole line and push it to the disk; CommandFailure if
    it cannot be (a full disk, say: the batches written before are kept for --resume)."""
    line = json.dumps({"batch": start, "games": [result_row(r) for r in results]})
    try:
        out.write(line + "\n")
        out.flush()
        os.fsync(out.fileno())
    except OSError as exc:
        directory = Path(out.name).parent
        raise CommandFailure(
            f"cannot write {out.name!r}: {exc.strerror or exc}; the batches written before"
            f" are kept (clangames simulate --resume {directory} finishes the run)"
        ) from None

"""``clangames simulate``: many bot games in parallel, summarised with confidence intervals.

``clangames simulate kings-kilt --games 1000 --players 3 --seats ismcts,random --jobs 2
--seed 1 --json out.json --plot out.png``

Game ``i`` is fully determined by ``Rng(seed).fork(i)`` (its chance stream; the bot at seat
``p`` gets ``Rng(seed).fork(i).fork(p + 1)``), and the summary is a :class:`Tally` of the
games with exact sums, the same in any order, so the same seed gives the same results, and
the same JSON, whatever ``--jobs`` is; the games themselves are not kept (constant memory).
The summary gives, per seat and per bot: the win share (a shared win of k seats counts 1/k)
with a 95% Wilson interval, and the score distribution (mean, sd, min, max); then game length
and the first player's advantage. ``--plot`` draws win shares and score distributions
with matplotlib (the optional ``plot`` extra), imported only then.

The batches run in local worker processes (the default) or, with ``--backend ray``, as Ray
tasks (the optional ``ray`` extra; a cluster at ``--address``, else a local Ray instance):
the same games either way. ``--out DIR`` streams each finished batch to a run directory
(:mod:`clangames.cli.runs`), and ``--resume DIR`` reads the finished games back into the
tally and plays only the batches it lacks. Each game's own statistics
(:mod:`clangames.engine.statistics`) are measured per game and summarised too.

Worker processes are started with the ``spawn`` method on every platform and Python
(``fork`` is unsafe in a process with threads and no longer the default from Python 3.14),
so a job carries everything a worker needs: the game's name and parameters (games are
registered by importing clangames), the seats and the seed. Workers ignore Ctrl-C; the main
process stops them at once and exits with status 130.
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, nullcontext, suppress
from typing import Any, TextIO

import attrs
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from clangames import __version__
from clangames.bots.random_bot import RandomBot
from clangames.cli.errors import CommandFailure, Interrupted, UsageError, one_line
from clangames.cli.files import atomic_write, atomic_write_with, check_writable, os_reason
from clangames.cli.play import (
    PlayError,
    add_game_arguments,
    load_game,
    make_seat_bot,
    positive_int,
    seat_names,
    seat_policies,
)
from clangames.cli.runs import (
    GameResult,
    RunSettings,
    append_batch,
    open_results,
    read_settings,
    refuse_run_file,
    scan_batches,
    start_run,
)
from clangames.cli.saving import HUMAN, seat_rng
from clangames.cli.tally import Tally, box_stats
from clangames.engine.errors import ClanGamesError
from clangames.engine.game import Game
from clangames.engine.match import Policy
from clangames.engine.phases import CHANCE
from clangames.engine.registry import load
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout_seats
from clangames.engine.state import State, winner_shares
from clangames.engine.statistics import GameStatistics

START_METHOD = "spawn"
"""How worker processes start: the same everywhere, and safe in a multi-threaded parent."""

MAX_JOBS = 256
"""The most worker processes ``--jobs`` may ask for."""


class SimulateError(PlayError):
    """A simulation that cannot run as asked."""


@attrs.frozen(slots=True)
class Job:
    """A batch of games for one worker (plain data, so it pickles to another process)."""

    game: str
    params: tuple[tuple[str, Any], ...]
    names: tuple[str, ...]
    seed: int
    indices: tuple[int, ...]
    rotate: bool
    iterations: int | None
    rollout_limit: int | None


def seats_for(names: Sequence[str], index: int, rotate: bool) -> tuple[str, ...]:
    """The bots of game ``index``: ``names``, turned ``index`` places when rotating so each
    bot takes every seat in turn."""
    n = len(names)
    if not rotate:
        return tuple(names)
    shift = index % n
    return tuple(names[(seat - shift) % n] for seat in range(n))


def play_game(
    game: Game,
    names: Sequence[str],
    seed: int,
    index: int,
    rotate: bool = False,
    iterations: int | None = None,
    rollout_limit: int | None = None,
    measure: GameStatistics | None = None,
) -> GameResult:
    """Game ``index`` of a simulation with ``seed``: chance from ``Rng(seed).fork(index)``,
    seat ``p``'s bot from that Rng's ``fork(p + 1)``; with ``measure``, the game's own
    statistics of the finished game too. A batch plays its games with one
    :class:`GamePlayer` instead, which does this call's set-up once."""
    return GamePlayer(game, names, seed, rotate, iterations, rollout_limit, measure).play(index)


class GamePlayer:
    """Plays the games of one batch (:func:`play_game` for each index), with what does not
    change from game to game looked up once: which bot names are plain random bots (their
    seats draw inline on the fast path, no bot is made), the declared length, the seed's
    Rng, whether the final states' ``returns`` are the kernel's (then they come from the
    winners already asked for rather than a second scoring)."""

    __slots__ = (
        "_game",
        "_iterations",
        "_limit",
        "_measure",
        "_names",
        "_plain",
        "_rollout_limit",
        "_root",
        "_rotate",
        "_unplayable",
    )

    def __init__(
        self,
        game: Game,
        names: Sequence[str],
        seed: int,
        rotate: bool = False,
        iterations: int | None = None,
        rollout_limit: int | None = None,
        measure: GameStatistics | None = None,
    ) -> None:
        self._game = game
        self._names = tuple(names)
        self._root = Rng(seed)
        self._rotate = rotate
        self._iterations = iterations
        self._rollout_limit = rollout_limit
        self._measure = measure
        self._limit = game.info.max_game_length
        self._unplayable = len(self._names) != game.num_players or HUMAN in self._names
        # A name is plain when its bot is exactly a RandomBot drawing from the Rng it was
        # given: such a seat's draws are made inline from that Rng, so the bot itself is
        # never needed (an unknown name raises here, as making its bot would).
        plain = set()
        for name in set(self._names) - {HUMAN}:
            probe = Rng(0)
            bot = make_seat_bot(name, probe, iterations, rollout_limit)
            if type(bot) is RandomBot and bot.rng is probe:
                plain.add(name)
        self._plain = frozenset(plain)

    def play(self, index: int) -> GameResult:
        """Game ``index``, as :func:`play_game` plays it."""
        game = self._game
        root = self._root.fork(index)
        names = self._names
        seats = seats_for(names, index, self._rotate) if self._rotate else names
        if self._unplayable:
            raise SimulateError(f"game {index}: nobody can move (is a seat human?)")
        # The fast path plays exactly the Match this used to drive: chance from ``root``, a
        # random seat drawing from its RandomBot's Rng inline, any other bot asked as usual.
        plain = self._plain
        seat_rngs = []
        searching: dict[int, Policy] = {}
        for seat, name in enumerate(seats):
            rng = seat_rng(root, seat)
            if name in plain:
                seat_rngs.append(rng)
            else:
                seat_rngs.append(root)  # unused: this seat's bot draws from its own Rng
                searching[seat] = make_seat_bot(name, rng, self._iterations, self._rollout_limit)
        limit = self._limit
        measure = self._measure
        follow = None if measure is None else measure.follow
        follower = None if follow is None else follow()
        played = rollout_seats(
            game.initial_state(),
            root,
            seat_rngs,
            limit + 1,
            searching,
            watch=None if follower is None else follower.see,
        )
        moves = played.moves
        steps = len(moves)
        if steps > limit:
            raise CommandFailure(f"game {index}: longer than the declared max_game_length {limit}")
        state = played.state
        statistics = () if measure is None else measure.row(state, moves, follower)
        deciders = [player for player, _ in moves if player != CHANCE]
        winners = tuple(state.winners())
        if type(state).returns is State.returns:
            # The kernel's returns ask for the winners again, which costs a game's scoring.
            returns = winner_shares(winners, game.num_players)
        else:
            returns = tuple(state.returns())
        return GameResult(
            index,
            seats,
            tuple(state.scores()),
            returns,
            winners,
            steps,
            len(deciders),
            deciders[0] if deciders else -1,
            statistics,
        )


def run_job(job: Job) -> list[GameResult]:
    """Play a batch of games (what each worker process runs)."""
    game = load(job.game, **dict(job.params))
    player = GamePlayer(
        game, job.names, job.seed, job.rotate, job.iterations, job.rollout_limit, game.statistics()
    )
    return [player.play(i) for i in job.indices]


def bot_settings(
    names: Sequence[str], iterations: int | None = None, rollout_limit: int | None = None
) -> dict[str, dict[str, Any]]:
    """Each distinct bot's settings, as the seats were made (:func:`make_seat_bot`)."""
    settings: dict[str, dict[str, Any]] = {}
    for name in sorted(set(names)):
        if name == "ismcts":
            settings[name] = {
                "iterations": 200 if iterations is None else iterations,
                "rollout_limit": 40 if rollout_limit is None else rollout_limit,
            }
        else:
            settings[name] = {}
    return settings


def confounding_warning(names: Sequence[str], rotate: bool, games: int) -> str | None:
    """Why the per-bot figures cannot be read as bot strength, or None when they can:
    without rotation each bot always sits in the same seat(s), so a bot's win rate mixes
    its strength with its seat's advantage (and the first player's rate is one bot's);
    with rotation a number of games that is not a multiple of the players leaves the
    seats unevenly shared."""
    if len(set(names)) < 2:
        return None
    if not rotate:
        return (
            "seat and bot are confounded: each bot always took the same seat(s), so its win"
            " rate mixes its strength with the seat's advantage, and the first player's rate"
            " is one bot's; run with --rotate to compare bots"
        )
    if games % len(names):
        return (
            f"{games} games do not rotate evenly over {len(names)} seats: some bots sat"
            " first more often; use a multiple of the player count"
        )
    return None


def summarize(
    game: Game,
    names: Sequence[str],
    seed: int,
    rotate: bool,
    results: Sequence[GameResult] | Tally,
    *,
    iterations: int | None = None,
    rollout_limit: int | None = None,
) -> dict[str, Any]:
    """The JSON summary of a simulation, from its games (in any order) or their
    :class:`Tally`, with the version, the bots' settings and how the games were seeded, so
    it can be reproduced."""
    tally = (
        results if isinstance(results, Tally) else Tally.of(game.num_players, names, (), results)
    )
    warning = confounding_warning(names, rotate, tally.games)
    return {
        "version": __version__,
        "game": game.name,
        "params": {k: v for k, v in game.params.items()},
        "players": game.num_players,
        "seats": list(names),
        "rotate": rotate,
        "seed": seed,
        "seeding": (
            "game i: chance from Rng(seed).fork(i), the bot at seat p from"
            " Rng(seed).fork(i).fork(p + 1)"
        ),
        "bots": bot_settings(names, iterations, rollout_limit),
        "warnings": [warning] if warning else [],
        "games": tally.games,
        "per_seat": tally.per_seat(),
        "per_bot": tally.per_bot(),
        "length": tally.length(),
        "first_player": tally.first_player(),
    }


def batch_size_for(games: int, jobs: int) -> int:
    """Games per batch: about eight batches per worker (so the workers finish together),
    at most 50 (so a crash loses little and the progress bar moves)."""
    return max(1, min(50, games // (jobs * 8) or 1))


def _jobs(
    game: Game,
    names: Sequence[str],
    seed: int,
    games: int,
    size: int,
    rotate: bool,
    iterations: int | None,
    rollout_limit: int | None,
) -> list[Job]:
    params = tuple(sorted(game.params.items()))
    return [
        Job(
            game.name,
            params,
            tuple(names),
            seed,
            tuple(range(start, min(games, start + size))),
            rotate,
            iterations,
            rollout_limit,
        )
        for start in range(0, games, size)
    ]


BACKENDS = ("local", "ray")
"""Where the batches run: local worker processes, or Ray (the optional ``ray`` extra)."""

BatchDone = Callable[[Job, list[GameResult]], None]
"""Called in the main process with each finished batch (in the order batches finish)."""


def simulate(
    game: Game,
    names: Sequence[str],
    seed: int,
    games: int,
    jobs: int = 1,
    *,
    rotate: bool = False,
    iterations: int | None = None,
    rollout_limit: int | None = None,
    progress: Console | None = None,
    backend: str = "local",
    address: str | None = None,
    batch_size: int | None = None,
    skip: Collection[int] = (),
    on_batch: BatchDone | None = None,
    keep_results: bool = True,
) -> list[GameResult]:
    """Play ``games`` games with ``jobs`` processes (``backend="local"``) or on Ray
    (``backend="ray"``: the cluster at ``address``, or a local Ray instance when None, or
    the Ray already initialised in this process); the results in index order. The batches
    are ``batch_size`` games (default :func:`batch_size_for`); the batches whose first
    index is in ``skip`` are not played (already finished in a run directory), and
    ``on_batch`` gets each batch as it finishes. With ``keep_results=False`` the games are
    only passed to ``on_batch`` (a :class:`Tally` of them takes constant memory, where the
    list grows with the run) and the list returned is empty. With ``progress``, a progress
    bar is drawn on that console."""
    if games < 1:
        raise SimulateError(f"--games must be at least 1, got {games}")
    if jobs < 1:
        raise SimulateError(f"--jobs must be at least 1, got {jobs}")
    if "human" in names:
        raise SimulateError("simulate plays bots only; 'human' cannot take a seat")
    if backend not in BACKENDS:
        raise SimulateError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    size = batch_size_for(games, jobs) if batch_size is None else batch_size
    if size < 1:
        raise SimulateError(f"the batch size must be at least 1, got {size}")
    skipped = set(skip)
    batches = [
        b
        for b in _jobs(game, names, seed, games, size, rotate, iterations, rollout_limit)
        if b.indices[0] not in skipped
    ]
    results: list[GameResult] = []
    remaining = sum(len(b.indices) for b in batches)
    bar = (
        Progress(
            TextColumn("simulating"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=progress,
            transient=False,
        )
        if progress is not None
        else None
    )

    task = bar.add_task("games", total=remaining) if bar is not None else None

    def finished(job: Job, done: list[GameResult]) -> None:
        if keep_results:
            results.extend(done)
        if on_batch is not None:
            on_batch(job, done)
        if bar is not None and task is not None:
            bar.advance(task, len(done))

    with bar if bar is not None else nullcontext():
        if not batches:
            pass
        elif backend == "ray":
            _run_ray(batches, address, finished)
        elif jobs == 1:
            for batch in batches:
                finished(batch, run_job(batch))
        else:
            _run_local(batches, jobs, finished)
    results.sort(key=lambda r: r.index)
    return results


def _run_local(batches: list[Job], jobs: int, finished: BatchDone) -> None:
    """The batches on ``jobs`` spawned worker processes, each passed to ``finished`` as it
    completes; on any failure (or Ctrl-C) every worker is stopped at once."""
    context = multiprocessing.get_context(START_METHOD)
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(batches)), mp_context=context, initializer=_ignore_sigint
    )
    with _broken_pool_threads_quiet(pool):
        try:
            with _sigint_ignored():  # workers start (on submit) already deaf to Ctrl-C
                futures: dict[Future[list[GameResult]], Job] = {
                    pool.submit(run_job, b): b for b in batches
                }
            for future in as_completed(futures):
                finished(futures[future], future.result())
        except BaseException as exc:
            with _sigint_ignored():  # a second Ctrl-C must not leave workers running
                _stop_workers(pool)
            if isinstance(exc, KeyboardInterrupt):
                raise Interrupted("interrupted; the worker processes were stopped") from None
            if isinstance(exc, BrokenProcessPool):
                raise CommandFailure(
                    "a worker process died before finishing its games (killed, or out of"
                    " memory?); the other workers were stopped"
                ) from None
            raise
    pool.shutdown(wait=True)


RAY_MISSING = (
    "--backend ray needs Ray, the optional 'ray' extra: pip install 'clangames[ray]'"
    " (in a checkout: pip install -e '.[ray]')"
)


def import_ray() -> Any:
    """The ``ray`` module; UsageError naming the extra when it is not installed."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise UsageError(RAY_MISSING) from None


def _run_ray(batches: list[Job], address: str | None, finished: BatchDone) -> None:
    """The batches as Ray tasks (one per batch), each passed to ``finished`` as it
    completes. Ray is started here (a local instance, or connected to ``address``) unless
    this process already initialised it, and then shut down again; on any failure (or
    Ctrl-C) the tasks still running are cancelled."""
    ray = import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        try:
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="ERROR",
                configure_logging=False,
            )
        except Exception as exc:  # Ray raises plain ConnectionError/RuntimeError/ValueError
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            raise CommandFailure(f"cannot start or reach {where}: {exc}") from None
    pending: dict[Any, Job] = {}
    try:
        remote = ray.remote(num_cpus=1)(run_job)
        pending = {remote.remote(b): b for b in batches}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                job = pending.pop(ref)
                finished(job, ray.get(ref))
    except BaseException as exc:
        for ref in pending:
            ray.cancel(ref, force=True)
        if isinstance(exc, KeyboardInterrupt):
            raise Interrupted("interrupted; the Ray tasks were cancelled") from None
        cause = getattr(exc, "cause", None)
        if isinstance(cause, ClanGamesError):  # a RayTaskError around our own error
            raise cause from None
        if isinstance(exc, ClanGamesError):
            raise
        if type(exc).__module__.startswith("ray"):
            raise CommandFailure(f"the Ray run failed: {one_line(str(exc))}") from None
        raise
    finally:
        if started_here:
            ray.shutdown()


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C reaches the whole process group, but only the main
    process acts on it (it stops the workers), so workers print nothing."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _broken_pool_threads_quiet(pool: ProcessPoolExecutor) -> Iterator[None]:
    """While inside, an exception ending the pool's manager thread once the pool is broken
    is not printed. When a worker dies, the standard library's manager thread fails the
    pending batches while the call queue's feeder thread, which cannot write to the dead
    worker, removes one of them too: the manager may then end with "dictionary changed
    size during iteration" (Python 3.11-3.13). The command's one-line error says what
    happened, and ``_stop_workers`` stops the workers itself."""
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        # The manager is looked up when it fails: it starts on the first submit, and
        # _stop_workers lets it end before the pool's shutdown forgets it.
        manager = getattr(pool, "_executor_manager_thread", None)
        if args.thread is not None and args.thread is manager and getattr(pool, "_broken", False):
            return
        previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while inside (when on the main thread; signals are set only there).
    Processes spawned meanwhile inherit the ignored disposition from their first
    instruction, before any initializer could run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop every worker now (pending batches cancelled, running ones killed) and reap them."""
    manager = getattr(pool, "_executor_manager_thread", None)
    if getattr(pool, "_broken", False) and manager is not None:
        # A worker died: the pool's manager thread is failing the pending batches and
        # killing the other workers itself. Let it finish (or fail: see
        # _broken_pool_threads_quiet) before the pool is shut down under it.
        manager.join(timeout=10)
    terminate: Callable[[], None] | None = getattr(pool, "terminate_workers", None)
    if terminate is not None:  # Python 3.14+
        terminate()
        return
    # Older Pythons have no public way to stop running workers: take them from the pool.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)
    # Let the pool's manager thread see its workers gone and close its wake-up pipe before
    # we return: otherwise the interpreter's exit hook may race it, writing to the pipe as
    # it closes, and print a traceback after our one-line error (Python 3.11-3.13).
    if manager is not None:
        manager.join(timeout=10)


def print_summary(summary: dict[str, Any], console: Console) -> None:
    """The summary as tables for people."""
    console.print(
        f"{summary['games']} games of {summary['game']} ({summary['players']} players),"
        f" seed {summary['seed']}, seats {', '.join(summary['seats'])}"
        + (" (rotated each game)" if summary["rotate"] else ""),
        style="bold",
    )
    table = Table(title="per seat", box=None, pad_edge=False)
    for col in ("seat", "bots", "win rate", "95% CI", "mean score", "sd", "min", "max"):
        table.add_column(col, justify="left" if col in ("seat", "bots") else "right")
    for s in summary["per_seat"]:
        bots = ", ".join(name for name, _ in s["bots"])
        low, high = s["ci95"]
        score = s["score"]
        table.add_row(
            f"player {s['seat']}",
            bots,
            f"{s['win_rate']:.3f}",
            f"{low:.3f}-{high:.3f}",
            f"{score['mean']:.2f}",
            f"{score['sd']:.2f}",
            f"{score['min']:g}",
            f"{score['max']:g}",
        )
    console.print(table)
    if len(summary["per_bot"]) > 1:
        title = "per bot (every seat)" if summary["rotate"] else "per bot (seat = bot, see below)"
        by_bot = Table(title=title, box=None, pad_edge=False)
        for col in ("bot", "seat-games", "win rate", "95% CI", "mean score"):
            by_bot.add_column(col, justify="left" if col == "bot" else "right")
        for b in summary["per_bot"]:
            low, high = b["ci95"]
            by_bot.add_row(
                b["bot"],
                str(b["games"]),
                f"{b['win_rate']:.3f}",
                f"{low:.3f}-{high:.3f}",
                f"{b['score']['mean']:.2f}",
            )
        console.print(by_bot)
    steps = summary["length"]["steps"]
    decisions = summary["length"]["decisions"]
    console.print(
        f"game length: {steps['mean']:.1f} steps (sd {steps['sd']:.1f}, {steps['min']:g}"
        f"-{steps['max']:g}), {decisions['mean']:.1f} decisions"
    )
    first = summary["first_player"]
    low, high = first["ci95"]
    console.print(
        f"first player: win rate {first['win_rate']:.3f} (95% CI {low:.3f}-{high:.3f})"
        f" against {first['expected_without_advantage']:.3f} without an advantage"
    )
    settings = "; ".join(
        f"{name} ({', '.join(f'{k} {v}' for k, v in values.items()) or 'no settings'})"
        for name, values in summary["bots"].items()
    )
    console.print(f"bots: {settings}; clangames {summary['version']}")
    for warning in summary["warnings"]:
        console.print(f"warning: {warning}", style="bold yellow")


def _rate_bars(
    axes: Any, rows: Sequence[dict[str, Any]], labels: list[str], players: int, colour: str
) -> None:
    """Win-rate bars with their 95% intervals and the no-advantage line at 1/players."""
    rates = [r["win_rate"] for r in rows]
    lows = [r["win_rate"] - r["ci95"][0] for r in rows]
    highs = [r["ci95"][1] - r["win_rate"] for r in rows]
    axes.bar(range(len(rows)), rates, yerr=[lows, highs], capsize=6, color=colour)
    axes.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
    axes.set_xticks(range(len(rows)), labels)
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (shared wins split)")


def plot(summary: dict[str, Any], tally: Tally, path: str) -> None:
    """A PNG with win rates (95% intervals) per seat and, with several bots, per bot, and
    the score distribution per seat."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SimulateError(
            "--plot needs matplotlib, the optional 'plot' extra: pip install 'clangames[plot]'"
            " (in a checkout: pip install -e '.[plot]')"
        ) from None
    seats = summary["per_seat"]
    bots = summary["per_bot"]
    labels = [f"P{s['seat']}\n{'/'.join(name for name, _ in s['bots'])}" for s in seats]
    by_bot = len(bots) > 1
    fig, panels = plt.subplots(1, 3 if by_bot else 2, figsize=(16 if by_bot else 11, 4.5))
    left, right = panels[0], panels[-1]
    _rate_bars(left, seats, labels, summary["players"], "tab:blue")
    left.set_title("win rate per seat, 95% Wilson interval")
    if by_bot:
        middle = panels[1]
        _rate_bars(middle, bots, [b["bot"] for b in bots], summary["players"], "tab:orange")
        middle.set_title(
            "win rate per bot (over every seat)"
            if summary["rotate"]
            else "win rate per bot: CONFOUNDED with seat (no --rotate)"
        )
    right.bxp([box_stats(h) for h in tally.score_histograms()])
    right.set_xticks(range(1, len(seats) + 1), labels)
    right.set_ylabel("final score")
    right.set_title("score distribution per seat")
    fig.suptitle(f"{summary['game']}: {summary['games']} games, seed {summary['seed']}")
    fig.tight_layout()
    # Given a file object, matplotlib cannot take the format from the name: it is taken
    # here as savefig would (the name's extension, else its default format).
    extension = os.path.splitext(path)[1][1:]
    kind = extension if extension else plt.rcParams["savefig.format"]
    try:
        atomic_write_with(path, lambda fh: fig.savefig(fh, format=kind, dpi=100))
    except OSError as exc:
        raise CommandFailure(f"cannot write the plot {path!r}: {os_reason(exc)}") from None
    finally:
        plt.close(fig)


def add_parser(subparsers: Any) -> None:
    """Add the ``simulate`` subcommand to the ``clangames`` parser."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many bot games in parallel and summarise win rates and scores",
        description=(
            "Bots play many games in parallel processes (or on Ray). The same seed gives the"
            " same results whatever --jobs and --backend are. With --out DIR the results"
            " stream to DIR as batches finish, and --resume DIR finishes an interrupted run."
        ),
    )
    add_game_arguments(parser, "a game name, e.g. kings-kilt (not with --resume)", nargs="?")
    parser.add_argument(
        "--games", type=positive_int, default=None, help="how many games, >= 1 (default 100)"
    )
    parser.add_argument(
        "--seats",
        default=None,
        metavar="SEATS",
        help="bot names: one for every seat or comma-separated one per seat (default random)",
    )
    parser.add_argument(
        "--rotate",
        action="store_true",
        help="turn the seat list one place each game, so every bot plays every seat",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=None,
        help=f"worker processes, 1..{MAX_JOBS} (default: the number of CPUs)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="local worker processes (default) or Ray (needs the 'ray' extra)",
    )
    parser.add_argument(
        "--address",
        metavar="ADDR",
        default=None,
        help="with --backend ray: the Ray cluster to join (default: start a local Ray)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        default=None,
        help="stream the results to this new directory as batches finish (for --resume and"
        " 'clangames report')",
    )
    parser.add_argument(
        "--resume",
        metavar="DIR",
        default=None,
        help="finish the run in DIR (its settings come from DIR/run.json)",
    )
    parser.add_argument("--json", metavar="FILE", help="write the summary as JSON here")
    parser.add_argument("--plot", metavar="FILE", help="draw a PNG plot here (needs matplotlib)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=run, handler=lambda args, out: run(args, out=out))


def check_plot_extra() -> None:
    """UsageError unless matplotlib (the ``plot`` extra) can be imported."""
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        raise UsageError(
            "--plot needs matplotlib, the optional 'plot' extra: pip install 'clangames[plot]'"
            " (in a checkout: pip install -e '.[plot]')"
        ) from None


def check_plot_format(path: str) -> None:
    """UsageError unless matplotlib can write the format ``path``'s extension names (a
    name without one gets matplotlib's default, PNG): checked before the first game, so a
    typing slip such as ``out.pgn`` does not cost the whole run and then fail."""
    extension = os.path.splitext(path)[1][1:].lower()
    if not extension:
        return
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    if extension not in formats:
        raise UsageError(
            f"--plot: matplotlib cannot write {path!r}: its extension .{extension} names no"
            f" format it knows; expected one of {', '.join('.' + f for f in sorted(formats))}"
        )


RUN_SETTINGS_FLAGS = (
    ("GAME", "game"),
    ("--players", "players"),
    ("--param", "param"),
    ("--seed", "seed"),
    ("--games", "games"),
    ("--seats", "seats"),
    ("--rotate", "rotate"),
    ("--iterations", "iterations"),
    ("--rollout-limit", "rollout_limit"),
)
"""The options a run directory fixes: ``--resume`` refuses them."""


def _settings_from_args(args: argparse.Namespace, jobs: int) -> tuple[Game, RunSettings]:
    """A new run's game and settings from the command line (bots and budgets checked)."""
    if args.game is None:
        raise UsageError("simulate needs GAME (or --resume DIR to finish a run)")
    game = load_game(args.game, args.players, args.param)
    names = seat_names(args.seats or "random", game.num_players)
    seed = 0 if args.seed is None else args.seed
    if "human" in names:
        raise SimulateError("simulate plays bots only; 'human' cannot take a seat")
    seat_policies(names, seed, args.iterations, args.rollout_limit)  # unknown bots stop here
    games = 100 if args.games is None else args.games
    declared = game.statistics()
    return game, RunSettings(
        game=game.name,
        params=dict(game.params),
        seats=tuple(names),
        seed=seed,
        games=games,
        rotate=args.rotate,
        iterations=args.iterations,
        rollout_limit=args.rollout_limit,
        batch_size=batch_size_for(games, jobs),
        statistics=declared.names if declared is not None else (),
        version=__version__,
    )


def _resumed(args: argparse.Namespace) -> tuple[Game, RunSettings]:
    """The game and settings of the run ``--resume`` continues."""
    given = [
        flag for flag, key in RUN_SETTINGS_FLAGS if getattr(args, key) not in (None, [], False)
    ]
    if given:
        raise UsageError(
            f"--resume takes the run's settings from {args.resume}/run.json; leave out"
            f" {', '.join(given)}"
        )
    if args.out is not None:
        raise UsageError("--resume writes to the run's own directory; leave out --out")
    settings = read_settings(args.resume)
    game = load_run_game(args.resume, settings)
    # The bots are made in the workers: a seat no bot can take is named here, with its file.
    if "human" in settings.seats:
        raise CommandFailure(
            f"{args.resume}/run.json: seats {list(settings.seats)}; simulate plays bots only,"
            " 'human' cannot take a seat"
        )
    try:
        seat_policies(settings.seats, settings.seed, settings.iterations, settings.rollout_limit)
    except ClanGamesError as exc:
        raise CommandFailure(
            f"{args.resume}/run.json: seats {list(settings.seats)}: {exc}"
        ) from None
    declared = game.statistics()
    names = declared.names if declared is not None else ()
    if names != settings.statistics:
        raise CommandFailure(
            f"{args.resume}/run.json: the run measured statistics {list(settings.statistics)},"
            f" this clangames measures {list(names)} (run written by clangames"
            f" {settings.version}); finish it with that version"
        )
    return game, settings


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run ``clangames simulate`` with parsed arguments; every option is checked before
    the first game starts (bots, budgets, backend, output files and directories, the plot
    extra). With ``--resume`` the games already in the run directory are read back into
    the tally first."""
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if jobs > MAX_JOBS:
        raise SimulateError(f"--jobs must be 1..{MAX_JOBS}, got {jobs}")
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address needs --backend ray")
    if args.backend == "ray":
        import_ray()
    directory = args.resume if args.resume is not None else args.out
    game, settings = _resumed(args) if args.resume is not None else _settings_from_args(args, jobs)
    names = list(settings.seats)
    for option, path in (("--json", args.json), ("--plot", args.plot)):
        if path is not None and directory is not None:
            refuse_run_file(path, directory, option)
    if args.json is not None:
        check_writable(args.json, "--json")
    if args.plot is not None:
        check_writable(args.plot, "--plot")
        check_plot_extra()
        check_plot_format(args.plot)
    tally = Tally(game.num_players, names, settings.statistics)
    done: set[int] = set()
    keep = 0
    if args.resume is not None:
        done, keep = scan_batches(directory, settings, tally.add)
    elif directory is not None:
        start_run(directory, settings)
    stream = open_results(directory, keep) if directory is not None else None
    console = Console(file=out if out is not None else sys.stdout, highlight=False, soft_wrap=True)
    progress = None if args.no_progress else Console(file=sys.stderr)
    if done:
        console.print(f"resuming {directory}: {tally.games} of {settings.games} games done")
    played = tally.games

    def finished(job: Job, batch: list[GameResult]) -> None:
        if stream is not None:
            append_batch(stream, job.indices[0], batch)
        for result in batch:
            tally.add(result)

    started = time.perf_counter()
    try:
        simulate(
            game,
            names,
            settings.seed,
            settings.games,
            jobs,
            rotate=settings.rotate,
            iterations=settings.iterations,
            rollout_limit=settings.rollout_limit,
            progress=progress,
            backend=args.backend,
            address=args.address,
            batch_size=settings.batch_size if directory is not None else None,
            skip=done,
            on_batch=finished,
            keep_results=False,
        )
    finally:
        if stream is not None:
            # Every batch was flushed as it was written: a close that fails can only be
            # the write that already failed, retried, and must not hide its message.
            with suppress(OSError):
                stream.close()
    elapsed = time.perf_counter() - started
    played = tally.games - played
    summary = full_summary(game, settings, tally)
    print_summary(summary, console)
    print_statistics(summary["statistics"], console)
    console.print(
        f"{played} games in {elapsed:.1f} s with {jobs} job(s)"
        + (" on Ray" if args.backend == "ray" else "")
    )
    if directory is not None:
        console.print(f"results in {directory} (clangames report {directory})")
    if args.json:
        try:
            atomic_write(args.json, json.dumps(summary, indent=1) + "\n")
        except OSError as exc:
            raise CommandFailure(
                f"cannot write the JSON summary {args.json!r}: {os_reason(exc)}"
            ) from None
        console.print(f"summary written to {args.json}")
    if args.plot:
        plot(summary, tally, args.plot)
        console.print(f"plot written to {args.plot}")
    return 0


def load_run_game(directory: str, settings: RunSettings) -> Game:
    """The game a run directory's settings name, with one seat per player; CommandFailure
    naming run.json otherwise."""
    try:
        game = load(settings.game, **settings.params)
    except ClanGamesError as exc:
        raise CommandFailure(f"{directory}/run.json: cannot load its game: {exc}") from None
    if len(settings.seats) != game.num_players:
        raise CommandFailure(
            f"{directory}/run.json: {len(settings.seats)} seats {list(settings.seats)} for"
            f" {game.num_players} players of {game.name}"
        )
    return game


def tally_run(directory: str, settings: RunSettings) -> Tally:
    """The tally of every game of a run directory, read line by line; CommandFailure if
    batches are missing (a run not finished: ``--resume`` it)."""
    tally = Tally(len(settings.seats), settings.seats, settings.statistics)
    finished, _ = scan_batches(directory, settings, tally.add)
    missing = [start for start in settings.batch_starts() if start not in finished]
    if missing:
        raise CommandFailure(
            f"{directory}: {len(missing)} of {len(settings.batch_starts())} batches are not"
            f" finished; finish the run with clangames simulate --resume {directory}"
        )
    return tally


def full_summary(game: Game, settings: RunSettings, tally: Tally) -> dict[str, Any]:
    """:func:`summarize` of a run with the game's own statistics (key ``statistics``)."""
    summary = summarize(
        game,
        settings.seats,
        settings.seed,
        settings.rotate,
        tally,
        iterations=settings.iterations,
        rollout_limit=settings.rollout_limit,
    )
    summary["statistics"] = tally.statistics()
    return summary


def print_statistics(statistics: dict[str, dict[str, float]], console: Console) -> None:
    """The game's own statistics as a table (mean, sd, min, max per name)."""
    if not statistics:
        return
    table = Table(title="the game's statistics (per game)", box=None, pad_edge=False)
    for col in ("statistic", "mean", "sd", "min", "max"):
        table.add_column(col, justify="left" if col == "statistic" else "right")
    for name, values in statistics.items():
        table.add_row(
            name,
            f"{values['mean']:.3f}",
            f"{values['sd']:.3f}",
            f"{values['min']:g}",
            f"{values['max']:g}",
        )
    console.print(table)

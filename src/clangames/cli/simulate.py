"""``clangames simulate``: many bot games in parallel, summarised with confidence intervals.

``clangames simulate kings-kilt --games 1000 --players 3 --seats ismcts,random --jobs 2
--seed 1 --json out.json --plot out.png``

Game ``i`` is fully determined by ``Rng(seed).fork(i)`` (its chance stream; the bot at seat
``p`` gets ``Rng(seed).fork(i).fork(p + 1)``), and the summary is computed from the games in
index order, so the same seed gives the same results, and the same JSON, whatever ``--jobs``
is. The summary gives, per seat and per bot: the win share (a shared win of k seats counts
1/k) with a 95% Wilson interval, and the score distribution (mean, sd, min, max); then game
length and the first player's advantage. ``--plot`` draws win shares and score distributions
with matplotlib (the optional ``plot`` extra), imported only then.

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
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TextIO

import attrs
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from clangames import __version__
from clangames.bots.random_bot import RandomBot
from clangames.cli.errors import CommandFailure, Interrupted, UsageError
from clangames.cli.files import check_writable
from clangames.cli.play import (
    PlayError,
    add_common_game_arguments,
    load_game,
    positive_int,
    seat_names,
    seat_policies,
)
from clangames.engine.game import Game
from clangames.engine.phases import CHANCE
from clangames.engine.registry import load
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout_seats

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""

START_METHOD = "spawn"
"""How worker processes start: the same everywhere, and safe in a multi-threaded parent."""

MAX_JOBS = 256
"""The most worker processes ``--jobs`` may ask for."""


class SimulateError(PlayError):
    """A simulation that cannot run as asked."""


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
) -> GameResult:
    """Game ``index`` of a simulation with ``seed``: chance from ``Rng(seed).fork(index)``,
    seat ``p``'s bot from that Rng's ``fork(p + 1)``."""
    root = Rng(seed).fork(index)
    seats = seats_for(names, index, rotate)
    policies = seat_policies(seats, root, iterations, rollout_limit)
    if len(policies) != game.num_players:
        raise SimulateError(f"game {index}: nobody can move (is a seat human?)")
    # The fast path plays exactly the Match this used to drive: chance from ``root``, a
    # random seat drawing from its RandomBot's Rng inline, any other bot asked as usual.
    seat_rngs = []
    searching = {}
    for seat in range(game.num_players):
        bot = policies[seat]
        if isinstance(bot, RandomBot) and type(bot) is RandomBot:
            seat_rngs.append(bot.rng)
        else:
            seat_rngs.append(root)  # unused: this seat's bot draws from its own Rng
            searching[seat] = bot
    limit = game.info.max_game_length
    played = rollout_seats(game.initial_state(), root, seat_rngs, limit + 1, searching)
    steps = played.steps
    if steps > limit:
        raise CommandFailure(f"game {index}: longer than the declared max_game_length {limit}")
    deciders = [player for player, _ in played.moves if player != CHANCE]
    state = played.state
    return GameResult(
        index,
        seats,
        tuple(state.scores()),
        tuple(state.returns()),
        tuple(state.winners()),
        steps,
        len(deciders),
        deciders[0] if deciders else -1,
    )


def run_job(job: Job) -> list[GameResult]:
    """Play a batch of games (what each worker process runs)."""
    game = load(job.game, **dict(job.params))
    return [
        play_game(game, job.names, job.seed, i, job.rotate, job.iterations, job.rollout_limit)
        for i in job.indices
    ]


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n`` (fractional successes
    allowed, for shared wins); (0, 1) when ``n`` is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _stats(values: Sequence[float]) -> dict[str, float]:
    """Mean, sample standard deviation, min and max (rounded to 6 places for stable JSON)."""
    n = len(values)
    if n == 0:
        return {"mean": 0.0, "sd": 0.0, "min": 0.0, "max": 0.0}
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return {
        "mean": round(mean, 6),
        "sd": round(math.sqrt(var), 6),
        "min": min(values),
        "max": max(values),
    }


def _share(wins: float, n: int) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {
        "games": n,
        "wins": round(wins, 6),
        "win_rate": round(wins / n, 6) if n else 0.0,
        "ci95": [round(low, 6), round(high, 6)],
    }


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
    results: Sequence[GameResult],
    *,
    iterations: int | None = None,
    rollout_limit: int | None = None,
) -> dict[str, Any]:
    """The JSON summary of a simulation (results in any order; summarised by index), with
    the version, the bots' settings and how the games were seeded, so it can be
    reproduced."""
    ordered = sorted(results, key=lambda r: r.index)
    n = game.num_players
    games = len(ordered)
    per_seat = []
    for seat in range(n):
        scores = [r.scores[seat] for r in ordered]
        wins = sum(r.returns[seat] for r in ordered)
        bots = sorted(Counter(r.seats[seat] for r in ordered).items())
        per_seat.append(
            {
                "seat": seat,
                "bots": [[name, count] for name, count in bots],
                **_share(wins, games),
                "outright_wins": sum(1 for r in ordered if r.winners == (seat,)),
                "score": _stats(scores),
                "score_histogram": [[k, v] for k, v in sorted(Counter(scores).items())],
            }
        )
    per_bot = []
    for name in sorted(set(names)):
        scores = []
        wins = 0.0
        plays = 0
        for r in ordered:
            for seat, bot in enumerate(r.seats):
                if bot == name:
                    plays += 1
                    wins += r.returns[seat]
                    scores.append(r.scores[seat])
        per_bot.append({"bot": name, **_share(wins, plays), "score": _stats(scores)})
    first_games = [r for r in ordered if r.first >= 0]
    first_wins = sum(r.returns[r.first] for r in first_games)
    warning = confounding_warning(names, rotate, games)
    return {
        "version": __version__,
        "game": game.name,
        "params": {k: v for k, v in game.params.items()},
        "players": n,
        "seats": list(names),
        "rotate": rotate,
        "seed": seed,
        "seeding": (
            "game i: chance from Rng(seed).fork(i), the bot at seat p from"
            " Rng(seed).fork(i).fork(p + 1)"
        ),
        "bots": bot_settings(names, iterations, rollout_limit),
        "warnings": [warning] if warning else [],
        "games": games,
        "per_seat": per_seat,
        "per_bot": per_bot,
        "length": {
            "steps": _stats([r.steps for r in ordered]),
            "decisions": _stats([r.decisions for r in ordered]),
        },
        "first_player": {
            **_share(first_wins, len(first_games)),
            "expected_without_advantage": round(1 / n, 6),
            "advantage": round(first_wins / len(first_games) - 1 / n, 6) if first_games else 0.0,
        },
    }


def _jobs(
    game: Game,
    names: Sequence[str],
    seed: int,
    games: int,
    jobs: int,
    rotate: bool,
    iterations: int | None,
    rollout_limit: int | None,
) -> list[Job]:
    size = max(1, min(50, games // (jobs * 8) or 1))
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
) -> list[GameResult]:
    """Play ``games`` games with ``jobs`` processes; the results in index order. With
    ``progress``, a progress bar is drawn on that console."""
    if games < 1:
        raise SimulateError(f"--games must be at least 1, got {games}")
    if jobs < 1:
        raise SimulateError(f"--jobs must be at least 1, got {jobs}")
    if "human" in names:
        raise SimulateError("simulate plays bots only; 'human' cannot take a seat")
    batches = _jobs(game, names, seed, games, jobs, rotate, iterations, rollout_limit)
    results: list[GameResult] = []
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
    if jobs == 1:
        if bar is None:
            for batch in batches:
                results.extend(run_job(batch))
        else:
            with bar:
                task = bar.add_task("games", total=games)
                for batch in batches:
                    results.extend(run_job(batch))
                    bar.advance(task, len(batch.indices))
    else:
        context = multiprocessing.get_context(START_METHOD)
        pool = ProcessPoolExecutor(
            max_workers=min(jobs, len(batches)), mp_context=context, initializer=_ignore_sigint
        )
        try:
            with _sigint_ignored():  # workers start (on submit) already deaf to Ctrl-C
                futures: list[Future[list[GameResult]]] = [pool.submit(run_job, b) for b in batches]
            if bar is None:
                for future in futures:
                    results.extend(future.result())
            else:
                with bar:
                    task = bar.add_task("games", total=games)
                    for future in as_completed(futures):
                        done = future.result()
                        results.extend(done)
                        bar.advance(task, len(done))
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
    results.sort(key=lambda r: r.index)
    return results


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C reaches the whole process group, but only the main
    process acts on it (it stops the workers), so workers print nothing."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
    terminate: Callable[[], None] | None = getattr(pool, "terminate_workers", None)
    if terminate is not None:  # Python 3.14+
        terminate()
        return
    # Older Pythons have no public way to stop running workers: take them from the pool.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
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


def plot(summary: dict[str, Any], results: Sequence[GameResult], path: str) -> None:
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
    scores = [[r.scores[s["seat"]] for r in results] for s in seats]
    right.boxplot(scores)
    right.set_xticks(range(1, len(seats) + 1), labels)
    right.set_ylabel("final score")
    right.set_title("score distribution per seat")
    fig.suptitle(f"{summary['game']}: {summary['games']} games, seed {summary['seed']}")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except OSError as exc:
        raise CommandFailure(f"cannot write the plot {path!r}: {exc}") from None
    finally:
        plt.close(fig)


def add_parser(subparsers: Any) -> None:
    """Add the ``simulate`` subcommand to the ``clangames`` parser."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many bot games in parallel and summarise win rates and scores",
        description=(
            "Bots play many games in parallel processes. The same seed gives the same"
            " results whatever --jobs is."
        ),
    )
    add_common_game_arguments(parser)
    parser.add_argument(
        "--games", type=positive_int, default=100, help="how many games, >= 1 (default 100)"
    )
    parser.add_argument(
        "--seats",
        default="random",
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


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run ``clangames simulate`` with parsed arguments; every option is checked before
    the first game starts (bots, budgets, output files, the plot extra)."""
    game = load_game(args.game, args.players, args.param)
    names = seat_names(args.seats, game.num_players)
    seed = 0 if args.seed is None else args.seed
    if "human" in names:
        raise SimulateError("simulate plays bots only; 'human' cannot take a seat")
    seat_policies(names, seed, args.iterations, args.rollout_limit)  # unknown bots stop here
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if jobs > MAX_JOBS:
        raise SimulateError(f"--jobs must be 1..{MAX_JOBS}, got {jobs}")
    if args.json is not None:
        check_writable(args.json, "--json")
    if args.plot is not None:
        check_writable(args.plot, "--plot")
        check_plot_extra()
    console = Console(file=out if out is not None else sys.stdout, highlight=False, soft_wrap=True)
    progress = None if args.no_progress else Console(file=sys.stderr)
    started = time.perf_counter()
    results = simulate(
        game,
        names,
        seed,
        args.games,
        jobs,
        rotate=args.rotate,
        iterations=args.iterations,
        rollout_limit=args.rollout_limit,
        progress=progress,
    )
    elapsed = time.perf_counter() - started
    summary = summarize(
        game,
        names,
        seed,
        args.rotate,
        results,
        iterations=args.iterations,
        rollout_limit=args.rollout_limit,
    )
    print_summary(summary, console)
    console.print(f"{len(results)} games in {elapsed:.1f} s with {jobs} job(s)")
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(summary, fh, indent=1)
                fh.write("\n")
        except OSError as exc:
            raise CommandFailure(f"cannot write the JSON summary {args.json!r}: {exc}") from None
        console.print(f"summary written to {args.json}")
    if args.plot:
        plot(summary, results, args.plot)
        console.print(f"plot written to {args.plot}")
    return 0

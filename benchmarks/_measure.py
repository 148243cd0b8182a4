"""What the benchmark scripts share: the documented random playout, interleaved timing,
the choice of rows, the common options and the JSON report.

``benchmarks/`` is not a package: each script puts this folder on ``sys.path`` and
imports this module by name, so ``python benchmarks/X.py`` and an import by file path
(as the tests do) both find it.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import clangames
from clangames.engine.registry import canonical_name

T = TypeVar("T")


def random_playouts(game: clangames.Game, games: int, seed: int) -> int:
    """Play ``games`` random games from ``Rng(seed)`` step by step; the steps taken.

    Legal actions, a uniform pick with the kernel ``Rng``, apply; chance sampled with
    ``clangames.sample_chance``: one ``Rng`` stream across all the games.
    """
    sample_chance = clangames.sample_chance
    rng = clangames.Rng(seed)
    steps = 0
    for _ in range(games):
        state = game.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                action, rng = sample_chance(state, rng)
                state = state.apply(action)
            else:
                player = state.to_move[0]
                legal = state.legal_actions(player)
                index, rng = rng.below(len(legal))
                state = state.apply(legal[index], player)
            steps += 1
    return steps


def best_of(runs: Sequence[Callable[[], T]], repeat: int) -> list[tuple[T, float]]:
    """Time every run ``repeat`` times, round-robin; each run's result and best seconds.

    Interleaving the repeats lets every run see the same machine load (other processes
    come and go), so the ratios between them stay fair. Each run goes once untimed first
    to warm up caches.
    """
    results = [run() for run in runs]  # the warm-up; the timed runs replace its results
    best = [float("inf")] * len(runs)
    for _ in range(repeat):
        for i, run in enumerate(runs):
            start = time.perf_counter()
            results[i] = run()
            best[i] = min(best[i], time.perf_counter() - start)
    return list(zip(results, best, strict=True))


def player_counts(spec: clangames.GameSpec, players: int | None) -> list[int]:
    """The counts to measure a game at: ``players`` if given (and allowed), else all."""
    if players is not None:
        return [players] if spec.min_players <= players <= spec.max_players else []
    return list(range(spec.min_players, spec.max_players + 1))


def configurations(script: str, games: list[str], players: int | None) -> list[tuple[str, int]]:
    """The (game, player count) rows asked for; exits naming ``script`` when a game is
    unknown or no game takes ``players``."""
    wanted = {canonical_name(g) for g in games}
    specs = [s for s in clangames.games() if not wanted or s.name in wanted]
    missing = wanted - {s.name for s in specs}
    if missing:
        raise SystemExit(f"{script}: unknown game(s): {', '.join(sorted(missing))}")
    configs = [(s.name, n) for s in specs for n in player_counts(s, players)]
    if not configs:
        raise SystemExit(f"{script}: no game can be played by {players} players")
    return configs


def machine() -> str:
    """The Python version and platform, for the header line."""
    return f"Python {platform.python_version()}, {platform.system()} {platform.machine()}"


def report_head(args: argparse.Namespace) -> dict[str, Any]:
    """The JSON report's opening fields: where and how it was measured."""
    return {
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "seed": args.seed,
        "repeat": args.repeat,
    }


def add_common_options(parser: argparse.ArgumentParser, games: int, unit: str) -> None:
    """The options every benchmark takes; ``--games`` defaults to ``games`` ``unit``."""
    parser.add_argument(
        "--games", type=int, default=games, help=f"{unit} per row (default {games})"
    )
    parser.add_argument("--players", type=int, default=None, help="only this player count")
    parser.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="playout seed (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs, best kept")


def check_common_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse counts below one (through ``parser.error``)."""
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")


def write_json(report: dict[str, Any], path: str | None) -> None:
    """Write ``report`` to ``path`` (indented, a final newline) when a path is given."""
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
            fh.write("\n")

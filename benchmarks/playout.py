"""Random-playout speed of every registered game, optionally against OpenSpiel.

    python benchmarks/playout.py [--games N] [--players P] [--game NAME] [--seed S]
                                 [--repeat R] [--ref-games M] [--json FILE]

A *step* is what a search or a training loop does at every node: get the legal actions,
pick one uniformly with the kernel ``Rng``, apply it (a chance node instead samples its
exact outcome distribution with ``clangames.sample_chance`` and applies the outcome). Each
game runs at every player count it supports (or just ``--players``), from ``Rng(seed)``,
so every repeat plays the very same games; the best of ``--repeat`` timings is reported
(repeats are interleaved across all configurations so that all see the same machine load).

When OpenSpiel (``pyspiel``, the optional ``bench`` extra) is importable, the same loop
also runs over OpenSpiel's pure-Python ``python_tic_tac_toe`` and its C++ ``tic_tac_toe``
in this process, and each game's step cost is printed as a ratio to both.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import attrs

import clangames
from clangames.engine.registry import canonical_name, load

REFERENCES = ("python_tic_tac_toe", "tic_tac_toe")


@attrs.frozen
class Result:
    """One measured configuration: totals over the games of the best repeat."""

    game: str
    players: int
    games: int
    steps: int
    seconds: float

    @property
    def us_per_step(self) -> float:
        """Microseconds per step."""
        return self.seconds / self.steps * 1e6

    @property
    def games_per_second(self) -> float:
        """Whole games per second."""
        return self.games / self.seconds

    @property
    def mean_length(self) -> float:
        """Mean number of steps per game (chance steps included)."""
        return self.steps / self.games

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data with the derived figures."""
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "steps": self.steps,
            "seconds": self.seconds,
            "us_per_step": self.us_per_step,
            "games_per_second": self.games_per_second,
            "mean_length": self.mean_length,
        }


def clangames_playouts(game: clangames.Game, games: int, seed: int) -> int:
    """Play ``games`` random games from ``Rng(seed)``; the number of steps taken."""
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


def openspiel_playouts(game: Any, games: int, seed: int) -> int:
    """The same loop over an OpenSpiel game (its states are mutated in place)."""
    rng = clangames.Rng(seed)
    steps = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                x, rng = rng.random()
                action = outcomes[-1][0]
                for candidate, probability in outcomes:
                    x -= probability
                    if x < 0:
                        action = candidate
                        break
                state.apply_action(action)
            else:
                legal = state.legal_actions()
                index, rng = rng.below(len(legal))
                state.apply_action(legal[index])
            steps += 1
    return steps


@attrs.frozen
class Job:
    """One configuration to time: a label, its player count, its game count and the run."""

    game: str
    players: int
    games: int
    run: Callable[[], int]


def measure(jobs: list[Job], repeat: int) -> list[Result]:
    """Time every job ``repeat`` times, round-robin, keeping each job's best run.

    Interleaving the repeats lets every configuration see the same machine load (other
    processes come and go), so the ratios between them stay fair. Each job runs once
    untimed first to warm up caches.
    """
    for job in jobs:
        job.run()
    best = [float("inf")] * len(jobs)
    steps = [0] * len(jobs)
    for _ in range(repeat):
        for i, job in enumerate(jobs):
            start = time.perf_counter()
            steps[i] = job.run()
            best[i] = min(best[i], time.perf_counter() - start)
    return [
        Result(job.game, job.players, job.games, n, seconds)
        for job, n, seconds in zip(jobs, steps, best, strict=True)
    ]


def player_counts(spec: clangames.GameSpec, players: int | None) -> list[int]:
    """The counts to measure a game at: ``players`` if given (and allowed), else all."""
    if players is not None:
        return [players] if spec.min_players <= players <= spec.max_players else []
    return list(range(spec.min_players, spec.max_players + 1))


def load_openspiel() -> Any | None:
    """The ``pyspiel`` module with ``python_tic_tac_toe`` registered, or None."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
        from open_spiel.python.games import (  # type: ignore[import-not-found, unused-ignore]
            tic_tac_toe,  # noqa: F401 - importing registers python_tic_tac_toe
        )
    except ImportError:
        return None
    return pyspiel


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Measure everything asked for, print the tables, and return the JSON report."""
    wanted = {canonical_name(g) for g in args.game}
    specs = [s for s in clangames.games() if not wanted or s.name in wanted]
    missing = wanted - {s.name for s in specs}
    if missing:
        raise SystemExit(f"playout.py: unknown game(s): {', '.join(sorted(missing))}")
    print(
        f"clangames random playouts: {args.games} games per row, seed {args.seed},"
        f" best of {args.repeat} (Python {platform.python_version()},"
        f" {platform.system()} {platform.machine()})"
    )
    jobs = [
        Job(
            spec.name,
            n,
            args.games,
            partial(clangames_playouts, load(spec.name, players=n), args.games, args.seed),
        )
        for spec in specs
        for n in player_counts(spec, args.players)
    ]
    if not jobs:
        raise SystemExit(f"playout.py: no game can be played by {args.players} players")
    pyspiel = load_openspiel()
    ours = len(jobs)
    if pyspiel is not None:
        for name in REFERENCES:
            os_game = pyspiel.load_game(name)
            jobs.append(
                Job(
                    name,
                    os_game.num_players(),
                    args.ref_games,
                    partial(openspiel_playouts, os_game, args.ref_games, args.seed),
                )
            )
    measured = measure(jobs, args.repeat)
    results, references = measured[:ours], measured[ours:]

    print()
    print(f"{'game':<24}{'players':>8}{'us/step':>10}{'games/s':>10}{'mean length':>13}")
    for result in results:
        print(_row(result))
    ratios: list[dict[str, Any]] = []
    print()
    if pyspiel is None:
        print("OpenSpiel: not installed (pip install 'clangames[bench]'), no comparison")
    else:
        print(f"OpenSpiel {_version()} references: {args.ref_games} games each")
        for reference in references:
            print(_row(reference))
        print()
        print("step cost ratio (lower is faster):")
        head = "".join(f"{'vs ' + r.game:>26}" for r in references)
        print(f"{'game':<24}{'players':>8}{head}")
        for result in results:
            cells = ""
            for reference in references:
                ratio = result.us_per_step / reference.us_per_step
                cells += f"{ratio:>25.2f}x"
                ratios.append(
                    {
                        "game": result.game,
                        "players": result.players,
                        "reference": reference.game,
                        "ratio": ratio,
                    }
                )
            print(f"{result.game:<24}{result.players:>8}{cells}")
    return {
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "seed": args.seed,
        "repeat": args.repeat,
        "results": [r.to_json() for r in results],
        "openspiel": None if pyspiel is None else _version(),
        "references": [r.to_json() for r in references],
        "ratios": ratios,
    }


def _row(result: Result) -> str:
    return (
        f"{result.game:<24}{result.players:>8}{result.us_per_step:>10.2f}"
        f"{result.games_per_second:>10.1f}{result.mean_length:>13.1f}"
    )


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:  # the metadata may be missing for a source build
        return "(unknown version)"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    parser.add_argument("--players", type=int, default=None, help="only this player count")
    parser.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="playout seed (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs, best kept")
    parser.add_argument(
        "--ref-games",
        type=int,
        default=None,
        help="games per OpenSpiel reference (default 10 x --games: tic-tac-toe is short)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    if args.ref_games is None:
        args.ref_games = 10 * args.games
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; write ``--json`` if asked."""
    args = parse_args(argv)
    report = run(args)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

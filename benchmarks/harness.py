"""Cost of the conformance harness per step, as a ratio to a bare random-playout step.

    python benchmarks/harness.py [--games N] [--players P] [--game NAME] [--seed S]
                                 [--repeat R] [--rate X] [--json FILE]

For every registered game and player count (or just ``--game``/``--players``), this times
``clangames.testing.check_game(game, playouts=N, seed=S, rate=X)`` and a bare loop of N
random playouts (legal actions, a uniform pick with the kernel ``Rng``, apply; chance
sampled with ``clangames.sample_chance``) in the same process. Each side's cost per step
is its time over its steps; the ratio of the two is what the harness adds, and it is the
figure to watch (absolute times move with the machine's load, ratios much less). Repeats
are interleaved across all rows and the best of ``--repeat`` is kept for each.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import attrs

import clangames
from clangames.engine.registry import load
from clangames.testing import DEFAULT_RATE, check_game

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/ is not a package
from _measure import (
    add_common_options,
    best_of,
    check_common_options,
    configurations,
    machine,
    random_playouts,
    report_head,
    write_json,
)


def bare_playouts(game: clangames.Game, games: int, seed: int) -> tuple[int, int]:
    """Play ``games`` random games from ``Rng(seed)``: (steps, states fully checked = 0)."""
    return random_playouts(game, games, seed), 0


def harness_playouts(game: clangames.Game, games: int, seed: int, rate: float) -> tuple[int, int]:
    """``check_game`` over ``games`` playouts: (steps, states given the full checks)."""
    report = check_game(game, playouts=games, seed=seed, rate=rate)
    return report.steps, report.fully_checked


@attrs.frozen
class Timing:
    """The best of the timed runs of one side of a row."""

    steps: int
    fully_checked: int
    seconds: float

    @property
    def us_per_step(self) -> float:
        """Microseconds per step."""
        return self.seconds / self.steps * 1e6


@attrs.frozen
class Row:
    """One game and player count: the bare loop and the harness, timed alike."""

    game: str
    players: int
    games: int
    bare: Timing
    harness: Timing

    @property
    def ratio(self) -> float:
        """The harness's cost per step over a bare step's."""
        return self.harness.us_per_step / self.bare.us_per_step

    @property
    def full_share(self) -> float:
        """The share of states that got the full checks (states = steps + games)."""
        return self.harness.fully_checked / (self.harness.steps + self.games)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data with the derived figures."""
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "steps": self.harness.steps,
            "bare_us_per_step": self.bare.us_per_step,
            "harness_us_per_step": self.harness.us_per_step,
            "ratio": self.ratio,
            "fully_checked": self.harness.fully_checked,
            "full_share": self.full_share,
        }


Run = Callable[[], tuple[int, int]]


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Measure every row asked for, print the table, and return the JSON report."""
    configs = configurations("harness.py", args.game, args.players)
    print(
        f"conformance harness vs bare random playouts: {args.games} games per row,"
        f" seed {args.seed}, rate {args.rate}, best of {args.repeat} ({machine()})"
    )
    runs: list[Run] = []
    for name, n in configs:
        game = load(name, players=n)
        runs.append(partial(bare_playouts, game, args.games, args.seed))
        runs.append(partial(harness_playouts, game, args.games, args.seed, args.rate))
    timings = [Timing(s, f, t) for (s, f), t in best_of(runs, args.repeat)]
    rows = [
        Row(name, n, args.games, timings[2 * i], timings[2 * i + 1])
        for i, (name, n) in enumerate(configs)
    ]
    print()
    print(
        f"{'game':<24}{'players':>8}{'bare us/step':>14}{'harness us/step':>17}"
        f"{'ratio':>8}{'fully checked':>15}"
    )
    for row in rows:
        print(
            f"{row.game:<24}{row.players:>8}{row.bare.us_per_step:>14.2f}"
            f"{row.harness.us_per_step:>17.2f}{row.ratio:>7.1f}x{row.full_share:>14.1%}"
        )
    return {
        **report_head(args),
        "rate": args.rate,
        "rows": [row.to_json() for row in rows],
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_options(parser, 300, "playouts")
    parser.add_argument(
        "--rate",
        type=float,
        default=DEFAULT_RATE,
        help=f"check_game's rate of full checks (default {DEFAULT_RATE})",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    check_common_options(parser, args)
    if not 0 <= args.rate <= 1:
        parser.error("--rate must be in [0, 1]")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; write ``--json`` if asked."""
    args = parse_args(argv)
    write_json(run(args), args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
from clangames.testing import DEFAULT_RATE, check_game


def bare_playouts(game: clangames.Game, games: int, seed: int) -> tuple[int, int]:
    """Play ``games`` random games from ``Rng(seed)``: (steps, states fully checked = 0)."""
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
    return steps, 0


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


def best_of(runs: list[Run], repeat: int) -> list[Timing]:
    """Time every run ``repeat`` times round-robin (after one untimed warm-up each), so
    that all of them see the same machine load; keep each one's best."""
    for run in runs:
        run()
    best = [float("inf")] * len(runs)
    counts = [(0, 0)] * len(runs)
    for _ in range(repeat):
        for i, run in enumerate(runs):
            start = time.perf_counter()
            counts[i] = run()
            best[i] = min(best[i], time.perf_counter() - start)
    return [Timing(s, f, t) for (s, f), t in zip(counts, best, strict=True)]


def player_counts(spec: clangames.GameSpec, players: int | None) -> list[int]:
    """The counts to measure a game at: ``players`` if given (and allowed), else all."""
    if players is not None:
        return [players] if spec.min_players <= players <= spec.max_players else []
    return list(range(spec.min_players, spec.max_players + 1))


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Measure every row asked for, print the table, and return the JSON report."""
    wanted = {canonical_name(g) for g in args.game}
    specs = [s for s in clangames.games() if not wanted or s.name in wanted]
    missing = wanted - {s.name for s in specs}
    if missing:
        raise SystemExit(f"harness.py: unknown game(s): {', '.join(sorted(missing))}")
    configs = [(s.name, n) for s in specs for n in player_counts(s, args.players)]
    if not configs:
        raise SystemExit(f"harness.py: no game can be played by {args.players} players")
    print(
        f"conformance harness vs bare random playouts: {args.games} games per row,"
        f" seed {args.seed}, rate {args.rate}, best of {args.repeat}"
        f" (Python {platform.python_version()}, {platform.system()} {platform.machine()})"
    )
    runs: list[Run] = []
    for name, n in configs:
        game = load(name, players=n)
        runs.append(partial(bare_playouts, game, args.games, args.seed))
        runs.append(partial(harness_playouts, game, args.games, args.seed, args.rate))
    timings = best_of(runs, args.repeat)
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
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "seed": args.seed,
        "repeat": args.repeat,
        "rate": args.rate,
        "rows": [row.to_json() for row in rows],
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="playouts per row (default 300)")
    parser.add_argument("--players", type=int, default=None, help="only this player count")
    parser.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="playout seed (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs, best kept")
    parser.add_argument(
        "--rate",
        type=float,
        default=DEFAULT_RATE,
        help=f"check_game's rate of full checks (default {DEFAULT_RATE})",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    if not 0 <= args.rate <= 1:
        parser.error("--rate must be in [0, 1]")
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

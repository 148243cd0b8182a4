"""A state's JSON round trip and ``resample``, against a step and against the old codec.

    python benchmarks/codec.py [--games N] [--players P] [--game NAME] [--seed S]
                               [--repeat R] [--json FILE]

Measures, for every game and player count (or the ones asked for), in this thread's CPU
time (a shared machine's other processes do not count), best of ``--repeat`` runs
interleaved across everything:

- ``step``: a step-by-step random-playout step (as ``benchmarks/playout.py``);
- per call over the states of a few seeded games (``playout.py``'s ``sample_states``):
  ``state.to_json()``, ``game.state_from_json(data)`` and ``resample`` for the player to
  move, each as a ratio to ``step``;
- the round trip ``game.state_from_json(state.to_json())`` against the same round trip
  through the codec before issue 11 (``tests/engine/legacy_codec.py``, frozen): old time
  over new time. Both sides run the game's current ``check_consistency``; only the new side
  runs the kernel's liveness check (issue 10), so the ratio is conservative.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import clangames
from clangames.engine.registry import load

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/ is not a package
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.engine
from _measure import (
    add_common_options,
    check_common_options,
    configurations,
    machine,
    random_playouts,
    report_head,
    write_json,
)
from playout import per_call, sample_states
from tests.engine import legacy_codec

KINDS = ("step", "to_json", "from_json", "resample", "trip", "old trip")


def round_trip(states: list[clangames.State]) -> int:
    """Each state to JSON data and back through ``state_from_json``; the calls made."""
    for state in states:
        state.game.state_from_json(state.to_json())
    return len(states)


def old_round_trip(states: list[clangames.State]) -> int:
    """The same round trip through the codec before issue 11; the calls made."""
    for state in states:
        legacy_codec.legacy_state_from_json(state.game, legacy_codec.legacy_to_json(state))
    return len(states)


def best_cpu(runs: list[Callable[[], int]], repeat: int) -> list[tuple[int, float]]:
    """Each run's units and its least thread CPU time over ``repeat`` interleaved rounds."""
    best = [float("inf")] * len(runs)
    units = [0] * len(runs)
    for _ in range(repeat):
        for i, run in enumerate(runs):
            start = time.thread_time()
            units[i] = run()
            best[i] = min(best[i], time.thread_time() - start)
    return list(zip(units, best, strict=True))


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Measure, print the table and return the JSON report."""
    configs = configurations("codec.py", args.game, args.players)
    print(
        f"state JSON round trip and resample: states of {args.call_games} games, step over"
        f" {args.games} games, best of {args.repeat} in thread CPU time ({machine()})"
    )
    runs: list[Callable[[], int]] = []
    for name, n in configs:
        game = load(name, players=n)
        states = sample_states(game, args.call_games, args.seed)
        runs += [
            partial(random_playouts, game, args.games, args.seed),
            partial(per_call, "to_json", states, args.seed),
            partial(per_call, "from_json", states, args.seed),
            partial(per_call, "resample", states, args.seed),
            partial(round_trip, states),
            partial(old_round_trip, states),
        ]
    measured = best_cpu(runs, args.repeat)
    print()
    head = "".join(f"{k:>11}" for k in ("to_json", "from_json", "resample"))
    head += f"{'old/new trip':>14}"
    print(f"{'game':<16}{'players':>8}{head}")
    rows = []
    for i, (name, n) in enumerate(configs):
        per = {
            kind: seconds / units
            for kind, (units, seconds) in zip(
                KINDS, measured[i * len(KINDS) : (i + 1) * len(KINDS)], strict=True
            )
        }
        row = {
            "game": name,
            "players": n,
            "to_json": per["to_json"] / per["step"],
            "from_json": per["from_json"] / per["step"],
            "resample": per["resample"] / per["step"],
            "round_trip_speedup": per["old trip"] / per["trip"],
        }
        rows.append(row)
        print(
            f"{name:<16}{n:>8}{row['to_json']:>10.2f}x{row['from_json']:>10.2f}x"
            f"{row['resample']:>10.2f}x{row['round_trip_speedup']:>13.2f}x"
        )
    return {**report_head(args), "per_call": rows}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_options(parser, 40, "games")
    parser.add_argument(
        "--call-games",
        type=int,
        default=None,
        help="games whose states are timed per call (default: --games / 10, at least 1)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    check_common_options(parser, args)
    if args.call_games is None:
        args.call_games = max(1, args.games // 10)
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; write ``--json`` if asked."""
    args = parse_args(argv)
    write_json(run(args), args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Random-playout speed of every registered game, honestly compared with OpenSpiel.

    python benchmarks/playout.py [--games N] [--players P] [--game NAME] [--seed S]
                                 [--repeat R] [--ref-games M] [--json FILE]

A *step* is what a search or a training loop does at every node: get the legal actions,
pick one uniformly at random, apply it (a chance node instead samples its exact outcome
distribution and applies the outcome). Each game runs at every player count it supports
(or just ``--players``), from ``Rng(seed)``, so every repeat plays the very same games.
Repeats are interleaved across all configurations (every one sees the same machine load)
and the best of ``--repeat`` is kept. Measured for each game and player count:

- ``step``: the step-by-step API (``legal_actions``, ``apply``, ``sample_chance``);
- ``fast``: the kernel's fast path (:func:`clangames.rollout`, the same games);
- ``simulate``: ``clangames simulate``'s own per-game work with random seats, in this
  process (games per second per core), and its cost per game over the fast path's bare
  playout of the very same games;
- per call, as ratios to a step of the same game: a state's JSON (``to_json``) and back
  (``state_from_json``), ``resample`` for the player to move, ``copy.deepcopy`` and a
  pickle round trip, over up to 100 states spread over a few games.

When OpenSpiel (``pyspiel``, the optional ``bench`` extra) is importable, the same loop
runs over its pure-Python ``python_tic_tac_toe`` and its C++ ``tic_tac_toe`` and
``leduc_poker`` (a C++ game with chance and hidden information), each driven by a generator
of its own (the stdlib's ``random.Random``, seeded: what an OpenSpiel user would write) and
by the clangames ``Rng``; every clangames step is reported as a ratio to the stdlib-driven
references (the honest comparison: the clangames ``Rng`` is pure Python and costs a C++
game more than its own step).
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import attrs

import clangames
from clangames.cli.simulate import GamePlayer
from clangames.engine.registry import load

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

REFERENCES = ("python_tic_tac_toe", "tic_tac_toe", "leduc_poker")
DRIVERS = ("random", "rng")
"""The OpenSpiel loop's generators: stdlib ``random.Random`` and the clangames ``Rng``."""

PER_CALL = ("to_json", "from_json", "resample", "deepcopy", "pickle")
"""Per-call costs measured over every state of a few games (ratios to a step)."""


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


def fast_playouts(game: clangames.Game, games: int, seed: int) -> int:
    """The same games through the kernel's fast path; the steps taken."""
    rollout = clangames.rollout
    rng = clangames.Rng(seed)
    steps = 0
    for _ in range(games):
        _, rng, taken = rollout(game.initial_state(), rng, first_mover=True)
        steps += taken
    return steps


def simulate_games(game: clangames.Game, games: int, seed: int) -> int:
    """``clangames simulate``'s work for games 0..games-1 with random seats (one worker's
    loop over a batch, in this process: its set-up once, then each game); the steps
    taken."""
    names = ("random",) * game.num_players
    player = GamePlayer(game, names, seed)
    return sum(player.play(i).steps for i in range(games))


def simulate_bare(game: clangames.Game, games: int, seed: int) -> int:
    """The bare fast playouts of exactly the games :func:`simulate_games` plays (the same
    chance and seat generators), without a driver around them; the steps taken."""
    steps = 0
    seats = range(game.num_players)
    for i in range(games):
        root = clangames.Rng(seed).fork(i)
        played = clangames.rollout_seats(
            game.initial_state(), root, [root.fork(p + 1) for p in seats]
        )
        steps += played.steps
    return steps


def openspiel_playouts(game: Any, games: int, seed: int, driver: str = "random") -> int:
    """The same loop over an OpenSpiel game (its states are mutated in place), drawing with
    ``random.Random(seed)`` (driver "random") or the clangames ``Rng`` (driver "rng")."""
    if driver == "random":
        return _openspiel_stdlib(game, games, seed)
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


def _openspiel_stdlib(game: Any, games: int, seed: int) -> int:
    """The OpenSpiel loop with the stdlib generator, as an OpenSpiel user writes it."""
    gen = random.Random(seed)
    randrange = gen.randrange
    uniform = gen.random
    steps = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                x = uniform()
                action = outcomes[-1][0]
                for candidate, probability in outcomes:
                    x -= probability
                    if x < 0:
                        action = candidate
                        break
                state.apply_action(action)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[randrange(len(legal))])
            steps += 1
    return steps


def sample_states(
    game: clangames.Game, games: int, seed: int, most: int = 100
) -> list[clangames.State]:
    """The states of ``games`` random games (terminal states excluded), at most ``most``
    of them, evenly spaced (a deep copy of a state can cost a thousand steps)."""
    states: list[clangames.State] = []
    rng = clangames.Rng(seed)
    for _ in range(games):
        state, rng, moves = clangames.rollout_moves(game.initial_state(), rng)
        state = game.initial_state()
        for player, action in moves:
            states.append(state)
            state = state.apply(action, player)
    if len(states) > most:
        states = [states[i * len(states) // most] for i in range(most)]
    return states


def per_call(kind: str, states: list[clangames.State], seed: int) -> int:
    """Do ``kind`` once per state; the number of calls made."""
    if kind == "to_json":
        for state in states:
            state.to_json()
    elif kind == "from_json":
        for data, state in zip(_encoded(states), states, strict=True):
            state.game.state_from_json(data)
    elif kind == "resample":
        rng = clangames.Rng(seed)
        calls = 0
        for i, state in enumerate(states):
            player = state.to_move[0] if state.to_move else 0
            if player >= 0:
                state.resample(player, rng.fork(i))
                calls += 1
        return calls
    elif kind == "deepcopy":
        for state in states:
            copy.deepcopy(state)
    elif kind == "pickle":
        for state in states:
            pickle.loads(pickle.dumps(state))
    else:  # pragma: no cover - the kinds are this module's own constants
        raise ValueError(kind)
    return len(states)


_ENCODED: dict[int, list[Any]] = {}


def _encoded(states: list[clangames.State]) -> list[Any]:
    """The JSON of ``states``, made once (decoding is what is timed)."""
    key = id(states)
    if key not in _ENCODED:
        _ENCODED[key] = [s.to_json() for s in states]
    return _ENCODED[key]


@attrs.frozen
class Job:
    """One configuration to time: what, at which player count, how many units, the run."""

    kind: str
    game: str
    players: int
    games: int
    run: Callable[[], int]


def measure(jobs: list[Job], repeat: int) -> list[Result]:
    """Time every job ``repeat`` times, round-robin, keeping each job's best run (see
    :func:`_measure.best_of`)."""
    return [
        Result(job.game, job.players, job.games, n, seconds)
        for job, (n, seconds) in zip(jobs, best_of([job.run for job in jobs], repeat), strict=True)
    ]


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
    configs = configurations("playout.py", args.game, args.players)
    print(
        f"clangames random playouts: {args.games} games per row, seed {args.seed},"
        f" best of {args.repeat} ({machine()})"
    )
    jobs: list[Job] = []
    for name, n in configs:
        game = load(name, players=n)
        states = sample_states(game, args.call_games, args.seed)
        jobs += [
            Job(
                "step",
                name,
                n,
                args.games,
                partial(random_playouts, game, args.games, args.seed),
            ),
            Job("fast", name, n, args.games, partial(fast_playouts, game, args.games, args.seed)),
            Job(
                "simulate",
                name,
                n,
                args.games,
                partial(simulate_games, game, args.games, args.seed),
            ),
            Job("bare", name, n, args.games, partial(simulate_bare, game, args.games, args.seed)),
        ]
        jobs += [
            Job(kind, name, n, len(states), partial(per_call, kind, states, args.seed))
            for kind in PER_CALL
        ]
    pyspiel = load_openspiel()
    if pyspiel is not None:
        for name in REFERENCES:
            os_game = pyspiel.load_game(name)
            for driver in DRIVERS:
                jobs.append(
                    Job(
                        f"openspiel:{driver}",
                        name,
                        os_game.num_players(),
                        args.ref_games,
                        partial(openspiel_playouts, os_game, args.ref_games, args.seed, driver),
                    )
                )
    measured = measure(jobs, args.repeat)
    by_kind: dict[str, list[Result]] = {}
    for job, result in zip(jobs, measured, strict=True):
        by_kind.setdefault(job.kind, []).append(result)
    steps, fast = by_kind["step"], by_kind["fast"]
    simulated, bare = by_kind["simulate"], by_kind["bare"]

    print()
    print("step by step (legal_actions, apply, sample_chance):")
    print(_head())
    for result in steps:
        print(_row(result))
    print()
    print("fast path (clangames.rollout, the same games):")
    print(_head())
    for result in fast:
        print(_row(result))

    references: list[Result] = []
    ratios: list[dict[str, Any]] = []
    print()
    if pyspiel is None:
        print("OpenSpiel: not installed (pip install 'clangames[bench]'), no comparison")
    else:
        print(f"OpenSpiel {_version()} references: {args.ref_games} games each")
        print(_head())
        for driver in DRIVERS:
            for result in by_kind[f"openspiel:{driver}"]:
                labelled = attrs.evolve(result, game=f"{result.game}[{driver}]")
                references.append(labelled)
                print(_row(labelled))
        honest = by_kind["openspiel:random"]
        print()
        print("step cost ratio to OpenSpiel driven by random.Random (lower is faster):")
        head = "".join(
            f"{'step/' + _short(r.game):>12}{'fast/' + _short(r.game):>12}" for r in honest
        )
        print(f"{'game':<24}{'players':>8}{head}")
        for s, f in zip(steps, fast, strict=True):
            cells = ""
            for ref in honest:
                cells += f"{s.us_per_step / ref.us_per_step:>11.2f}x"
                cells += f"{f.us_per_step / ref.us_per_step:>11.2f}x"
            print(f"{s.game:<24}{s.players:>8}{cells}")
        for driver in DRIVERS:
            for ref in by_kind[f"openspiel:{driver}"]:
                for path, results in (("step", steps), ("fast", fast)):
                    for result in results:
                        ratios.append(
                            {
                                "game": result.game,
                                "players": result.players,
                                "path": path,
                                "reference": ref.game,
                                "driver": driver,
                                "ratio": result.us_per_step / ref.us_per_step,
                            }
                        )

    print()
    print("simulate (random seats, one core) and its cost per game over the bare fast playout:")
    print(f"{'game':<24}{'players':>8}{'games/s':>10}{'x bare':>10}{'fast/step':>11}")
    simulate_rows = []
    for sim, b, s, f in zip(simulated, bare, steps, fast, strict=True):
        row: dict[str, Any] = {
            "game": sim.game,
            "players": sim.players,
            "games_per_second": sim.games_per_second,
            "cost_over_bare": sim.seconds / b.seconds,
            "fast_over_step": f.us_per_step / s.us_per_step,
        }
        simulate_rows.append(row)
        print(
            f"{sim.game:<24}{sim.players:>8}{sim.games_per_second:>10.1f}"
            f"{row['cost_over_bare']:>9.2f}x{row['fast_over_step']:>10.2f}x"
        )

    print()
    print("cost per call as a ratio to one step-by-step step of the same game:")
    print(f"{'game':<24}{'players':>8}" + "".join(f"{k:>11}" for k in PER_CALL))
    call_rows = []
    for i, s in enumerate(steps):
        cells = ""
        row = {"game": s.game, "players": s.players}
        for kind in PER_CALL:
            result = by_kind[kind][i]
            ratio = result.us_per_step / s.us_per_step
            row[kind] = ratio
            cells += f"{ratio:>10.2f}x"
        call_rows.append(row)
        print(f"{s.game:<24}{s.players:>8}{cells}")
    return {
        **report_head(args),
        "results": [r.to_json() for r in steps],
        "fast": [r.to_json() for r in fast],
        "openspiel": None if pyspiel is None else _version(),
        "references": [r.to_json() for r in references],
        "ratios": ratios,
        "simulate": simulate_rows,
        "per_call": call_rows,
    }


def _short(name: str) -> str:
    return {"python_tic_tac_toe": "pyttt", "tic_tac_toe": "ttt", "leduc_poker": "leduc"}.get(
        name, name
    )


def _head() -> str:
    return f"{'game':<24}{'players':>8}{'us/step':>10}{'games/s':>10}{'mean length':>13}"


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
    add_common_options(parser, 200, "games")
    parser.add_argument(
        "--ref-games",
        type=int,
        default=None,
        help="games per OpenSpiel reference (default 10 x --games: tic-tac-toe is short)",
    )
    parser.add_argument(
        "--call-games",
        type=int,
        default=None,
        help="games whose every state is timed per call (default: --games / 10, at least 1)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    check_common_options(parser, args)
    if args.ref_games is None:
        args.ref_games = 10 * args.games
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

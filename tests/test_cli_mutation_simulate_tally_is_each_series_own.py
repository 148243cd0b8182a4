"""The tally's figures are each series' own (the simulate command's mutation audit): every
statistic summarised under its own name, a first player's share only from games somebody
decided, bots outside the run's names and games that
measured nothing counted as they are, and the Wilson bounds inside [0, 1]."""

from __future__ import annotations

from fractions import Fraction

import pytest

from clangames.cli.runs import GameResult
from clangames.cli.simulate import simulate
from clangames.cli.tally import Tally, wilson
from clangames.engine.registry import load


def test_every_statistic_is_summarised_under_its_own_name() -> None:
    game = load("kings_kilt", players=3)
    declared = game.statistics()
    assert declared is not None
    results = simulate(game, ["random"] * 3, 7, 20)
    tally = Tally.of(3, ["random"] * 3, declared.names, results)
    summary = tally.statistics()
    assert list(summary) == list(declared.names)
    for i, name in enumerate(declared.names):
        values = [r.statistics[i] for r in results]
        exact = sum((Fraction(v) for v in values), Fraction(0)) / len(values)
        assert summary[name]["mean"] == round(float(exact), 6), name
        assert (summary[name]["min"], summary[name]["max"]) == (min(values), max(values)), name
    # The names' series differ here, so a summary filed under another name shows.
    assert len({(s["mean"], s["max"]) for s in summary.values()}) > 3


def _result(index: int, returns: tuple[float, ...], first: int, **kw: object) -> GameResult:
    seats = kw.pop("seats", ("a", "b"))
    return GameResult(
        index,
        seats,
        (3, 1),
        returns,
        (0,),
        10,
        6,
        first,
        **kw,  # type: ignore[arg-type]
    )


def test_games_nobody_decided_leave_the_first_player_without_games() -> None:
    tally = Tally.of(2, ["a", "b"], (), [_result(i, (1.0, 0.0), -1) for i in range(3)])
    assert tally.first_player() == {
        "games": 0,
        "wins": 0.0,
        "win_rate": 0.0,
        "ci95": [0.0, 1.0],
        "expected_without_advantage": 0.5,
        "advantage": 0.0,
    }


def test_the_first_player_is_the_seat_that_decided_first() -> None:
    games = [_result(0, (0.0, 1.0), 1), _result(1, (0.0, 1.0), 1), _result(2, (1.0, 0.0), 0)]
    first = Tally.of(2, ["a", "b"], (), games).first_player()
    assert (first["games"], first["wins"]) == (3, 3.0)


def test_a_bot_outside_the_runs_names_is_counted_all_the_same() -> None:
    games = [_result(i, (1.0, 0.0), 0, seats=("a", "stranger")) for i in range(2)]
    bots = Tally.of(2, ["a", "b"], (), games).per_bot()
    assert [(b["bot"], b["games"]) for b in bots] == [("a", 2), ("b", 0), ("stranger", 2)]


def test_games_that_measured_nothing_leave_the_statistics_empty() -> None:
    tally = Tally(2, ["a", "b"], ("x",))
    tally.add(_result(0, (1.0, 0.0), 0))
    tally.add(_result(1, (1.0, 0.0), 0, statistics=(4.0,)))
    assert tally.games == 2
    assert tally.statistics()["x"] == {"mean": 4.0, "sd": 0.0, "min": 4.0, "max": 4.0}


@pytest.mark.parametrize("n", [16, 21, 40])
def test_wilson_bounds_stay_inside_zero_and_one(n: int) -> None:
    """At all or no successes the formula's bounds land a rounding error outside [0, 1]
    for these n; the interval is clamped."""
    assert wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0
    assert wilson(0, 0) == (0.0, 1.0)

"""The games' own statistics (the kernel hook of clangames.engine.statistics): every game
declares them, and random finished games give exactly the declared names with values that
agree with the final state; the conformance harness refuses a game that breaks the hook."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clangames
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout_moves
from clangames.engine.statistics import (
    GameStatistics,
    StatisticsError,
    declared_statistics,
)
from clangames.testing import ConformanceError
from clangames.testing.statistics import check_statistics

CASES = [
    ("kings_kilt", 2),
    ("kings_kilt", 4),
    ("koa_kingmaker", 2),
    ("koa_kingmaker", 5),
    ("kilt_castle", 2),
    ("kilt_castle", 4),
    ("clan_feud", 2),
    ("clan_feud", 4),
]


def _finished(name: str, players: int, seed: int) -> tuple[Any, Any, dict[str, float]]:
    game = clangames.load(name, players=players)
    final, _, moves = rollout_moves(game.initial_state(), Rng(seed))
    return game, final, declared_statistics(game).of(final, moves)


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_the_hook_gives_the_declared_names_for_random_finished_games(
    name: str, players: int, seed: int
) -> None:
    game, final, values = _finished(name, players, seed)
    names = declared_statistics(game).names
    assert list(values) == list(names)
    assert all(isinstance(v, (int, float)) for v in values.values())
    _agrees_with_the_final_state(name, game, final, values)


def _agrees_with_the_final_state(
    name: str, game: Any, final: Any, values: Mapping[str, float]
) -> None:
    n = game.num_players
    if name == "kings_kilt":
        kings = [values[f"king.{clan}"] for clan in game.clans]
        assert sum(kings) == values["crowned"] <= 1
        for seat, family in enumerate(final.families):
            clans = final.family_of(seat)
            assert family and clans
            assert sum(values[f"family_card_points.{c}"] for c in clans) == final.scores()[seat]
        assert values["betrayed"] == len(final.removed)
    elif name == "koa_kingmaker":
        assert values["eliminations"] + values["surviving_houses"] == game.houses
        assert values["surviving_houses"] >= 1
        assert sum(values[f"survived.house{h}"] for h in range(game.houses)) == (
            values["surviving_houses"]
        )
    elif name == "kilt_castle":
        assert values["overbuilds"] == sum(values[f"overbuilds.seat{p}"] for p in range(n))
        # Every floor beyond a tower's first was built on top of a tower.
        floors = sum(len(t) for t in final.towers)
        assert values["overbuilds"] == floors - sum(1 for t in final.towers if t)
        assert 0 <= values["ducat_days"] <= values["turns"]
    else:
        taken = [v for k, v in values.items() if k.endswith(".taken")]
        won = [v for k, v in values.items() if k.endswith(".won")]
        assert sum(taken) == n
        assert sum(won) == pytest.approx(1.0)
        assert values["vp.total"] == sum(final.vp)
        assert values["vp.final_count"] + values["vp.during_play"] == values["vp.total"]


def test_the_statistics_need_a_finished_game() -> None:
    game = clangames.load("koa_kingmaker", players=3)
    with pytest.raises(StatisticsError, match="need a finished game"):
        declared_statistics(game).of(game.initial_state(), ())


def _fail(check: str, message: str) -> Exception:
    return ConformanceError(check, message, 0, None)


def test_the_harness_refuses_a_statistics_function_that_breaks_its_declaration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = clangames.load("koa_kingmaker", players=3)
    broken = GameStatistics(("eliminations", "rounds"), lambda final, moves: {"rounds": 1})
    monkeypatch.setattr(type(game), "statistics", lambda self: broken)
    with pytest.raises(ConformanceError, match=r"left out \['eliminations'\]"):
        check_statistics(game, 0, _fail)


def test_the_harness_refuses_a_built_in_game_without_statistics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = clangames.load("kilt_castle", players=2)
    monkeypatch.setattr(type(game), "statistics", lambda self: None)
    with pytest.raises(ConformanceError, match="declares no statistics"):
        check_statistics(game, 0, _fail)
    with pytest.raises(ConformanceError, match="declares no statistics"):
        clangames.testing.check_game(game, playouts=1)


def test_a_value_that_is_not_a_number_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = clangames.load("kings_kilt", players=2)
    bad = GameStatistics(("crowned",), lambda final, moves: {"crowned": float("nan")})
    monkeypatch.setattr(type(game), "statistics", lambda self: bad)
    with pytest.raises(ConformanceError, match="expected a finite number"):
        check_statistics(game, 0, _fail)

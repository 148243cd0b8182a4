"""The harness's statistics check measures every game it promises to (two per run, each
of its own seed) and the Hypothesis strategies reach every value they promise (seeds over
all 64 bits) (the harness's mutation audit)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import find

import clangames
from clangames.engine.state import State
from clangames.engine.statistics import GameStatistics, declared_statistics
from clangames.testing import ConformanceError, strategies
from clangames.testing.statistics import check_statistics


def _fail(check: str, message: str) -> Exception:
    return ConformanceError(check, message, 0, None)


def test_the_statistics_of_the_second_game_are_checked_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = clangames.load("koa_kingmaker", players=3)
    real = declared_statistics(game)
    measured: list[int] = []

    def breaks_on_the_second_game(final: State, moves: Sequence[Any]) -> dict[str, float]:
        measured.append(len(moves))
        values = dict(real.measure(final, moves))
        if len(measured) == 2:
            values[real.names[0]] = float("inf")
        return values

    broken = GameStatistics(real.names, breaks_on_the_second_game)
    monkeypatch.setattr(type(game), "statistics", lambda self: broken)
    check_statistics(game, 0, _fail, games=1)  # the first game alone is fine
    measured.clear()
    with pytest.raises(ConformanceError, match="expected a finite number"):
        check_statistics(game, 0, _fail)
    assert len(measured) == 2 and measured[0] != measured[1]  # two different games


def test_seeds_reach_past_32_bits() -> None:
    assert find(strategies.seeds(), lambda seed: seed >= 2**63) < 2**64


def test_reachable_states_reach_the_end_of_a_game() -> None:
    from testing import toys

    end = find(strategies.reachable_states(toys.toy(), max_steps=12), lambda s: s.is_terminal)
    assert end.is_terminal

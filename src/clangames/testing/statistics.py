"""The conformance harness's check of a game's balance statistics
(:mod:`clangames.engine.statistics`): a built-in game must declare them, and for random
finished games the statistics function must give exactly the declared names, each a finite
number (``GameStatistics.of`` checks the values)."""

from __future__ import annotations

from collections.abc import Callable

from clangames.engine.game import Game
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout_moves
from clangames.engine.statistics import StatisticsError, declared_statistics

STATISTICS_STREAM = 3 << 32
"""The fork of the harness seed whose random games the statistics are measured on."""


def check_statistics(
    game: Game, seed: int, fail: Callable[[str, str], Exception], games: int = 2
) -> None:
    """Measure ``games`` random finished games; raise ``fail(check, message)`` for a game that
    should declare statistics and does not, or on a function that breaks its declaration.
    Games of the clangames package must declare them; others are checked if they do."""
    if game.statistics() is None and not type(game).__module__.startswith("clangames."):
        return
    try:
        declared = declared_statistics(game)
        base = Rng(seed).fork(STATISTICS_STREAM)
        for i in range(games):
            final, _, moves = rollout_moves(game.initial_state(), base.fork(i))
            declared.of(final, moves)
    except StatisticsError as exc:
        raise fail("statistics", str(exc)) from exc

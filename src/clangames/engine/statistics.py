"""Per-game balance statistics: what a game declares it can measure about a finished game.

Balance questions are mostly game-specific (which clan became King, how many houses were
eliminated, how many ducat days there were), so each game declares a :class:`GameStatistics`
through :meth:`clangames.engine.game.Game.statistics`: the names it measures (fixed for a
loaded game, so every finished game gives the same columns) and a function from the final
state and the moves played to a number per name. ``clangames simulate`` records them per
game and summarises them; ``clangames report`` shows them.

The moves are ``(player, action)`` pairs (CHANCE for chance), as
:func:`clangames.engine.rollout.rollout_seats` returns them, so a game may replay the moves
to count events its final state no longer shows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from clangames.engine.errors import ClanGamesError

if TYPE_CHECKING:
    from clangames.engine.game import Game
    from clangames.engine.state import State

Moves = Sequence[tuple[int, Any]]
"""The moves of a game: ``(player, action)`` pairs in order, CHANCE for chance."""

Measure = Callable[["State", Moves], Mapping[str, float]]
"""A game's statistics function: the final state and the moves to a number per name."""


class StatisticsError(ClanGamesError, ValueError):
    """A game without declared statistics, a game not over, or a statistics function that
    broke its declaration (a missing or extra name, a value that is not a finite number)."""


@attrs.frozen(slots=True)
class GameStatistics:
    """What a game measures about each finished game: ``names`` (in display order) and the
    ``measure`` function giving a number for each of them."""

    names: tuple[str, ...]
    measure: Measure = attrs.field(repr=False, eq=False)

    def of(self, final: State, moves: Moves) -> dict[str, float]:
        """The statistics of a finished game, checked against the declared names; raises
        StatisticsError if the game is not over or the function broke its declaration."""
        if not final.is_terminal:
            raise StatisticsError(
                f"{final.game.name}: statistics need a finished game, this one is in phase"
                f" {final.phase.name!r}"
            )
        values = dict(self.measure(final, moves))
        if set(values) != set(self.names):
            missing = sorted(set(self.names) - set(values))
            extra = sorted(set(values) - set(self.names))
            raise StatisticsError(
                f"{final.game.name}: the statistics function gave names {extra} not declared"
                f" and left out {missing}; expected exactly the declared {list(self.names)}"
            )
        for name, value in values.items():
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
            ):
                raise StatisticsError(
                    f"{final.game.name}: statistic {name!r} is {value!r}; expected a finite number"
                )
        return {name: values[name] for name in self.names}


def declared_statistics(game: Game) -> GameStatistics:
    """The statistics ``game`` declares; StatisticsError if it declares none."""
    declared = game.statistics()
    if declared is None:
        raise StatisticsError(
            f"{game.name} declares no statistics: its Game.statistics() returned None; expected"
            " a GameStatistics (see clangames.engine.statistics)"
        )
    names = declared.names
    if len(set(names)) != len(names) or not all(isinstance(n, str) and n for n in names):
        raise StatisticsError(
            f"{game.name}: statistic names must be distinct non-empty strings, got {names!r}"
        )
    return declared

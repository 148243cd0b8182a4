"""Per-game balance statistics: what a game declares it can measure about a finished game.

Balance questions are mostly game-specific (which clan became King, how many houses were
eliminated, how many ducat days there were), so each game declares a :class:`GameStatistics`
through :meth:`clangames.engine.game.Game.statistics`: the names it measures (fixed for a
loaded game, so every finished game gives the same columns) and a function from the final
state and the moves played to a number per name. ``clangames simulate`` records them per
game and summarises them; ``clangames report`` shows them.

The moves are ``(player, action)`` pairs (CHANCE for chance), as
:func:`clangames.engine.rollout.rollout_seats` returns them, so a game may replay the moves
to count events its final state no longer shows. A replay costs about one more game, so such
a game may also offer a :class:`Follower`: it watches the states while the game is played
(``rollout_seats(..., watch=follower.see)``, as ``clangames simulate`` does) and then gives
the same statistics without the replay; the harness checks that both agree.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from clangames.engine.errors import ClanGamesError

if TYPE_CHECKING:
    from clangames.engine.game import Game
    from clangames.engine.state import State

Moves = Sequence[tuple[int, Any]]
"""The moves of a game: ``(player, action)`` pairs in order, CHANCE for chance."""

Measure = Callable[["State", Moves], Mapping[str, float]]
"""A game's statistics function: the final state and the moves to a number per name."""


class Follower(Protocol):
    """Watches one game while it is played so that its statistics need no replay."""

    def see(self, state: State) -> None:
        """Called with the initial state and then the state after each move. On the fast
        path the next move may build on that state in place: read what is needed at once
        and keep no reference to the state."""

    def measure(self, final: State, moves: Moves) -> Mapping[str, float]:
        """The statistics of the finished game watched (as the game's ``measure`` of
        ``final`` and ``moves`` would give them)."""


class StatisticsError(ClanGamesError, ValueError):
    """A game without declared statistics, a game not over, or a statistics function that
    broke its declaration (a missing or extra name, a value that is not a finite number)."""


@attrs.frozen(slots=True)
class GameStatistics:
    """What a game measures about each finished game: ``names`` (in display order) and the
    ``measure`` function giving a number for each of them."""

    names: tuple[str, ...]
    measure: Measure = attrs.field(repr=False, eq=False)
    follow: Callable[[], Follower] | None = attrs.field(default=None, repr=False, eq=False)
    """A new :class:`Follower` for a game about to be played, if the game offers one."""

    _expected: frozenset[str] = attrs.field(init=False, repr=False, eq=False)
    """``names`` as a set, made once: every game's values are checked against it."""

    @_expected.default
    def _names_set(self) -> frozenset[str]:
        return frozenset(self.names)

    def of(self, final: State, moves: Moves, followed: Follower | None = None) -> dict[str, float]:
        """The statistics of a finished game (from ``followed``, the game's follower that
        watched it, if given; else from ``measure``), checked against the declared names;
        raises StatisticsError if the game is not over or the function broke its
        declaration."""
        return dict(zip(self.names, self.row(final, moves, followed), strict=True))

    def row(
        self, final: State, moves: Moves, followed: Follower | None = None
    ) -> tuple[float, ...]:
        """:meth:`of` as the values alone, in the order of ``names`` (what ``clangames
        simulate`` records for each game), with the same checks and errors."""
        if not final.is_terminal:
            raise StatisticsError(
                f"{final.game.name}: statistics need a finished game, this one is in phase"
                f" {final.phase.name!r}"
            )
        found = (
            followed.measure(final, moves) if followed is not None else self.measure(final, moves)
        )
        values = found if type(found) is dict else dict(found)
        if values.keys() != self._expected:
            missing = sorted(self._expected - set(values))
            extra = sorted(set(values) - self._expected)
            raise StatisticsError(
                f"{final.game.name}: the statistics function gave names {extra} not declared"
                f" and left out {missing}; expected exactly the declared {list(self.names)}"
            )
        isfinite = math.isfinite
        for name, value in values.items():
            kind = type(value)
            # Exact ints and floats (nearly every value) skip the isinstance checks.
            if kind is float or kind is int:
                if isfinite(value):
                    continue
            elif kind is not bool and isinstance(value, (int, float)) and isfinite(value):
                continue
            raise StatisticsError(
                f"{final.game.name}: statistic {name!r} is {value!r}; expected a finite number"
            )
        return tuple(map(values.__getitem__, self.names))


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

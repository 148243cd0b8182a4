"""KOA Kingmaker's balance statistics (the kernel hook of
:mod:`clangames.engine.statistics`): ``eliminations`` (houses knocked out, automated
households included), ``surviving_houses`` (houses still in at the end), ``rounds`` (rounds
played) and, per house, ``survived.house<h>`` (1 if that house was still in at the end).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.statistics import GameStatistics, Moves

if TYPE_CHECKING:
    from clangames.engine.state import State
    from clangames.koa_kingmaker.game import KoaGame
    from clangames.koa_kingmaker.state import KoaState


def statistics(game: KoaGame) -> GameStatistics:
    """The statistics KOA Kingmaker declares for ``game`` (its houses give the names)."""
    houses = game.houses
    survived = tuple(enumerate(f"survived.house{h}" for h in range(houses)))
    names = ("eliminations", "surviving_houses", "rounds", *(name for _, name in survived))
    everyone = (1 << houses) - 1

    def measure(final: State, moves: Moves) -> dict[str, float]:
        s: KoaState = final  # type: ignore[assignment]
        alive = s.alive
        values: dict[str, float] = {
            "eliminations": sum(1 for r in s.out_round[:houses] if r > 0),
            "surviving_houses": (alive & everyone).bit_count(),
            "rounds": s.round,
        }
        for h, name in survived:
            values[name] = alive >> h & 1
        return values

    return GameStatistics(names, measure)

"""King's Kilt's balance statistics (the kernel hook of :mod:`clangames.engine.statistics`).

Per clan: ``king.<clan>`` is 1 when the finished pyramid's King is of that clan (the mean
over games is how often each clan is crowned), and ``family_card_points.<clan>`` what one
Clan Family card of that clan scored (the mean is what each family card is worth). Also
``crowned`` (a King at all) and ``betrayed`` (cards removed by betrayals).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.statistics import GameStatistics, Moves
from clangames.kings_kilt.scoring import clan_points

if TYPE_CHECKING:
    from clangames.engine.state import State
    from clangames.kings_kilt.game import KingsKiltGame
    from clangames.kings_kilt.state import KingsKiltState


def statistics(game: KingsKiltGame) -> GameStatistics:
    """The statistics King's Kilt declares for ``game`` (its clans give the names)."""
    clans = game.clans
    king_positions = tuple(p for p in range(game.geo.size) if game.geo.row[p] == game.geo.king_row)
    # The names are made once: measure runs for every game of a simulation.
    per_clan = tuple(
        (c, f"king.{clan}", f"family_card_points.{clan}") for c, clan in enumerate(clans)
    )
    names = (
        "crowned",
        "betrayed",
        *(king for _, king, _ in per_clan),
        *(points for _, _, points in per_clan),
    )

    def measure(final: State, moves: Moves) -> dict[str, float]:
        s: KingsKiltState = final  # type: ignore[assignment]
        pyramid = s.pyramid
        kings = {pyramid[p] for p in king_positions} - {-1}
        values: dict[str, float] = {"crowned": 1 if kings else 0, "betrayed": len(s.removed)}
        for c, king, points_name in per_clan:
            values[king] = 1 if c in kings else 0
            values[points_name] = clan_points(game, pyramid, c)
        return values

    return GameStatistics(names, measure)

"""The end of the game: family points and the winner.

Each Clan Family card scores for its clan: 3 if the King is of that clan, 2 for each
Guardian of it, 1 for each Nobleman (values from the components file). Most points wins;
a tie goes to the player with more Influence cards left; still tied, they share the win.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clangames.kings_kilt.game import KingsKiltGame
    from clangames.kings_kilt.state import KingsKiltState


def clan_points(game: KingsKiltGame, pyramid: tuple[int, ...], clan: int) -> int:
    """What one family card of ``clan`` scores with the pyramid as it stands."""
    geo = game.geo
    comps = game.components
    points = 0
    for pos in range(geo.size):
        if pyramid[pos] != clan:
            continue
        row = geo.row[pos]
        if row == geo.king_row:
            points += comps.king_points
        elif row == geo.guardian_row:
            points += comps.guardian_points
        elif row == geo.nobleman_row:
            points += comps.nobleman_points
    return points


def family_score(game: KingsKiltGame, pyramid: tuple[int, ...], family: int) -> int:
    """The points of a family (a clan bitmask), revealed or not."""
    return sum(clan_points(game, pyramid, c) for c in game.bits[family])


def scores(s: KingsKiltState) -> tuple[int, ...]:
    """Each seat's family points."""
    return tuple(family_score(s.game, s.pyramid, fam) for fam in s.families)


def winners(s: KingsKiltState) -> tuple[int, ...]:
    """The winning seats: most points, then most Influence cards left, then shared."""
    ranked = [(pts, len(s.hands[p])) for p, pts in enumerate(scores(s))]
    best = max(ranked)
    return tuple(p for p, key in enumerate(ranked) if key == best)

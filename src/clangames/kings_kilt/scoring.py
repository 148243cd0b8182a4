"""The end of the game: family points and the winner.

Each Clan Family card scores for its clan: 3 if the King is of that clan, 2 for each
Guardian of it, 1 for each Nobleman (values from the components file). Most points wins;
a tie goes to the player with more Influence cards left; still tied, they share the win.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clangames.kings_kilt.game import KingsKiltGame
    from clangames.kings_kilt.state import KingsKiltState


def clan_points(game: KingsKiltGame, pyramid: tuple[int, ...], clan: int) -> int:
    """What one family card of ``clan`` scores with the pyramid as it stands."""
    return sum(compress(game.points_at, map(clan.__eq__, pyramid)))


def position_points(game: KingsKiltGame) -> tuple[int, ...]:
    """What a card of a clan in each pyramid position is worth to that clan's family
    cards: the King's row, a Guardian's or a Nobleman's points, 0 off the scoring rows
    (the game keeps it as ``points_at``, which :func:`clan_points` and the statistics
    read)."""
    geo = game.geo
    comps = game.components
    points = []
    for pos in range(geo.size):
        row = geo.row[pos]
        if row == geo.king_row:
            points.append(comps.king_points)
        elif row == geo.guardian_row:
            points.append(comps.guardian_points)
        elif row == geo.nobleman_row:
            points.append(comps.nobleman_points)
        else:
            points.append(0)
    return tuple(points)


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

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
    points = 0
    for pos, worth in game.scoring_points:
        if pyramid[pos] == clan:
            points += worth
    return points


def scoring_points(game: KingsKiltGame) -> tuple[tuple[int, int], ...]:
    """Each pyramid position a card scores from for its clan's family cards, with what it
    scores: the King's row, a Guardian's or a Nobleman's points (the game keeps it as
    ``scoring_points``; the rows below score nothing)."""
    geo = game.geo
    comps = game.components
    points = []
    for pos in range(geo.size):
        row = geo.row[pos]
        if row == geo.king_row:
            points.append((pos, comps.king_points))
        elif row == geo.guardian_row:
            points.append((pos, comps.guardian_points))
        elif row == geo.nobleman_row:
            points.append((pos, comps.nobleman_points))
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

"""Ducat days, the final pay-out and the winner.

A colour's building areas are the groups of orthogonally connected spaces whose top floor
is that colour, together with every roofed space connected to them (a roofed space belongs
to every colour and areas connect through it; a lone roofed space is an area too). An area
pays 1 ducat per own tower, 1 per roof and 1 per crest on an own top floor; a colour is paid
for its single most valuable area, and a player for each of their colours.

At the end each player gets 1 ducat per tower topped by their colour and 1 per crest on
those top floors; a roofed tower belongs to everyone, so it pays each player 1 ducat (its
covered crests pay nothing). Most ducats wins; then most floors built; still tied, a shared
win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clangames.kilt_castle.game import KiltCastleGame
    from clangames.kilt_castle.state import KiltCastleState

Towers = Sequence[str]
"""Each space's floors as letters (see :func:`clangames.kilt_castle.board.floor_letter`)."""


def _colour_masks(
    game: KiltCastleGame, towers: Towers, roofed: int
) -> tuple[list[int], list[int], list[int]]:
    """Per colour, bitmasks of the unroofed spaces whose top floor is that colour, and of
    those with one and with two crests on top."""
    k = len(game.board.colours)
    tops = [0] * k
    one = [0] * k
    two = [0] * k
    top_of = game.letter_floor
    for space, tower in enumerate(towers):
        if tower and not roofed >> space & 1:
            colour, crests = top_of[tower[-1]]
            bit = 1 << space
            tops[colour] |= bit
            if crests == 1:
                one[colour] |= bit
            elif crests == 2:
                two[colour] |= bit
    return tops, one, two


def _areas(game: KiltCastleGame, members: int, one_crest: int, two_crests: int) -> list[int]:
    """The values of the orthogonally connected groups of ``members``, largest first: 1 a
    space plus the crests on top (roofed spaces are in no crest mask). A group grows from
    its lowest space by shifting the mask a row up and down and a column left and right
    (never across the grid's edge columns) until it stops growing."""
    cols = game.board.cols
    not_last, not_first = game.inner_columns
    values = []
    rest = members
    while rest:
        area = rest & -rest
        while True:
            grown = (
                area
                | (area << cols)
                | (area >> cols)
                | ((area & not_last) << 1)
                | ((area & not_first) >> 1)
            ) & members
            if grown == area:
                break
            area = grown
        value = area.bit_count()
        if one_crest:
            value += (area & one_crest).bit_count()
        if two_crests:
            value += 2 * (area & two_crests).bit_count()
        values.append(value)
        rest &= ~area
    values.sort(reverse=True)
    return values


def area_values(game: KiltCastleGame, towers: Towers, roofed: int, colour: int) -> list[int]:
    """The value of each building area of ``colour``, largest first.

    An area is a set of orthogonally connected spaces whose top floor is ``colour`` or that
    carry a roof (roofs belong to everyone and connect). A space is worth 1, plus the crests
    of its top floor unless it is roofed. Areas are flood-filled on bitmasks of the grid.
    """
    tops, one, two = _colour_masks(game, towers, roofed)
    return _areas(game, tops[colour] | roofed, one[colour], two[colour])


def best_area(game: KiltCastleGame, towers: Towers, roofed: int, colour: int) -> int:
    """What ``colour`` earns on a ducat day: its most valuable area (0 if it has none)."""
    values = area_values(game, towers, roofed, colour)
    return values[0] if values else 0


def ducat_day(game: KiltCastleGame, towers: Towers, roofed: int) -> tuple[int, ...]:
    """Each seat's ducats from a ducat day: the best area of each of its colours (a seat
    with two colours is paid for both)."""
    tops, one, two = _colour_masks(game, towers, roofed)
    paid = [0] * game.num_players
    owner = game.owner
    for colour in game.colours:
        members = tops[colour] | roofed
        if members:
            paid[owner[colour]] += _areas(game, members, one[colour], two[colour])[0]
    return tuple(paid)


def final_payout(game: KiltCastleGame, towers: Towers, roofed: int) -> tuple[int, ...]:
    """Each seat's end-of-game ducats: 1 per own tower and per crest on its top floor, and
    1 per roofed tower for everyone."""
    out = [0] * game.num_players
    roofs = 0
    owner = game.floor_owner
    for space in game.board.spaces:
        tower = towers[space]
        if not tower:
            continue
        if roofed >> space & 1:
            roofs += 1
            continue
        top = ord(tower[-1]) - 97
        out[owner[top]] += 1 + top % 3
    return tuple(v + roofs for v in out)


def floors_built(s: KiltCastleState, seat: int) -> int:
    """Floors of ``seat``'s colour(s) on the board."""
    game = s.game
    counts = s.supply.counts
    per = game.board.floors_per_colour
    return sum(
        per - counts[c * 3] - counts[c * 3 + 1] - counts[c * 3 + 2] for c in game.seat_colours[seat]
    )


def winners(s: KiltCastleState) -> tuple[int, ...]:
    """The winning seats: most ducats, then most floors built, then shared."""
    ranked = [(s.money[p], floors_built(s, p)) for p in range(s.game.num_players)]
    best = max(ranked)
    return tuple(p for p, key in enumerate(ranked) if key == best)

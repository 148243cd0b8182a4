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
from itertools import compress
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clangames.kilt_castle.game import KiltCastleGame
    from clangames.kilt_castle.state import KiltCastleState

Towers = Sequence[str]
"""Each space's floors as letters (see :func:`clangames.kilt_castle.board.floor_letter`)."""


AREA_MEMO_LIMIT = 1 << 15
"""Member masks whose connected groups a game keeps before it forgets them all."""


def _kind_masks(game: KiltCastleGame, towers: Towers) -> list[int]:
    """Per floor kind ``colour * 3 + crests``, a bitmask of the spaces whose top floor is
    of that kind, roofed or not (only the built spaces are visited: ``compress`` and
    ``filter`` skip the empty ones without a Python step)."""
    masks = [0] * (3 * len(game.board.colours))
    kind_of = game.letter_kind
    for bit, tower in zip(compress(game.space_bits, towers), filter(None, towers), strict=True):
        masks[kind_of[tower[-1]]] |= bit
    return masks


def _colour_masks(
    game: KiltCastleGame, towers: Towers, roofed: int
) -> tuple[list[int], list[int], list[int]]:
    """Per colour, bitmasks of the unroofed spaces whose top floor is that colour, and of
    those with one and with two crests on top."""
    unroofed = ~roofed
    kinds = [mask & unroofed for mask in _kind_masks(game, towers)]
    colours = range(len(game.board.colours))
    tops = [kinds[3 * c] | kinds[3 * c + 1] | kinds[3 * c + 2] for c in colours]
    return tops, kinds[1::3], kinds[2::3]


def _groups(game: KiltCastleGame, members: int) -> tuple[int, ...]:
    """The orthogonally connected groups of the spaces in ``members``, as bitmasks (from
    the game's memo: the same few member sets recur from game to game). A group grows from
    its lowest space by shifting the mask a row up and down and a column left and right
    (never across the grid's edge columns) until it stops growing."""
    memo = game.area_memo
    found = memo.get(members)
    if found is not None:
        return found
    cols = game.board.cols
    not_last, not_first = game.inner_columns
    groups = []
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
        groups.append(area)
        rest &= ~area
    if len(memo) >= AREA_MEMO_LIMIT:
        memo.clear()
    found = memo[members] = tuple(groups)
    return found


def _areas(game: KiltCastleGame, members: int, one_crest: int, two_crests: int) -> list[int]:
    """The values of the orthogonally connected groups of ``members``, largest first: 1 a
    space plus the crests on top (roofed spaces are in no crest mask)."""
    values = [
        area.bit_count() + (area & one_crest).bit_count() + 2 * (area & two_crests).bit_count()
        for area in _groups(game, members)
    ]
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
    kinds = _kind_masks(game, towers)
    unroofed = ~roofed
    paid = [0] * game.num_players
    owner = game.owner
    memo = game.area_memo
    for colour in game.colours:
        base = colour * 3
        one = kinds[base + 1]
        two = kinds[base + 2]
        members = kinds[base] | one | two | roofed  # roofed tops belong to every colour
        one &= unroofed  # a roof covers the crests under it
        two &= unroofed
        if members:
            best = 0
            for area in memo.get(members) or _groups(game, members):
                value = area.bit_count() + (area & one).bit_count() + 2 * (area & two).bit_count()
                if value > best:
                    best = value
            paid[owner[colour]] += best
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

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


def area_values(game: KiltCastleGame, towers: Towers, roofed: int, colour: int) -> list[int]:
    """The value of each building area of ``colour``, largest first."""
    board = game.board
    member = [False] * len(towers)
    for space in board.spaces:
        tower = towers[space]
        if tower and (roofed >> space & 1 or (ord(tower[-1]) - 97) // 3 == colour):
            member[space] = True
    seen = [False] * len(towers)
    values = []
    neighbours = board.neighbours
    for start in board.spaces:
        if not member[start] or seen[start]:
            continue
        seen[start] = True
        stack = [start]
        value = 0
        while stack:
            space = stack.pop()
            if roofed >> space & 1:
                value += 1
            else:
                value += 1 + (ord(towers[space][-1]) - 97) % 3
            for q in neighbours[space]:
                if member[q] and not seen[q]:
                    seen[q] = True
                    stack.append(q)
        values.append(value)
    values.sort(reverse=True)
    return values


def best_area(game: KiltCastleGame, towers: Towers, roofed: int, colour: int) -> int:
    """What ``colour`` earns on a ducat day: its most valuable area (0 if it has none)."""
    values = area_values(game, towers, roofed, colour)
    return values[0] if values else 0


def ducat_day(game: KiltCastleGame, towers: Towers, roofed: int) -> tuple[int, ...]:
    """Each seat's ducats from a ducat day (a seat with two colours is paid for both)."""
    return tuple(
        sum(best_area(game, towers, roofed, c) for c in game.seat_colours[seat])
        for seat in range(game.num_players)
    )


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

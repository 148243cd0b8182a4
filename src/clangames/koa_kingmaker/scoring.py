"""The end of the game: court and hand points, and the winner.

Each house scores the court value of every card in its court and the hand value of every
card in its hand (values from the cards file). Only real players' houses still in the game
can win; the most points wins and a tie goes to the lower inheritance number. If no real
player's house is left, the real players whose houses lasted longest compete instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clangames.koa_kingmaker.state import KoaState


def house_points(s: KoaState, house: int) -> int:
    """What ``house`` scores with its court and hand as they stand."""
    return s.game.values.points(s.courts[house], s.hands[house])


def scores(s: KoaState) -> tuple[int, ...]:
    """Each seat's points (seat p owns house p)."""
    return tuple(house_points(s, p) for p in s.game.seats)


def contenders(s: KoaState) -> tuple[int, ...]:
    """The seats that may win: real houses still in the game; if there are none, the real
    houses put out in the latest round that put one out."""
    seats = s.game.seats
    alive = tuple(p for p in seats if s.alive >> p & 1)
    if alive:
        return alive
    last = max(s.out_round[p] for p in seats)
    return tuple(p for p in seats if s.out_round[p] == last)


def winners(s: KoaState) -> tuple[int, ...]:
    """The winning seat: most points among the contenders, then the lower inheritance
    number (numbers are distinct, so there is exactly one winner)."""
    points = scores(s)
    best = min(contenders(s), key=lambda p: (-points[p], s.inheritance[p]))
    return (best,)

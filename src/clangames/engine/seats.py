"""Seats and turn order, shared by every game.

Seats are 0..n-1 in clockwise order: the next player clockwise from seat s is the one on
s's left, ``(s + 1) % n``; the player on s's right, ``(s - 1) % n``, plays just before s.
Sets of seats (passed, eliminated) are bitmasks so that they are cheap to copy.
"""

from __future__ import annotations


def left_of(seat: int, n: int) -> int:
    """The seat on ``seat``'s left: the next one clockwise."""
    return (seat + 1) % n


def right_of(seat: int, n: int) -> int:
    """The seat on ``seat``'s right: the one who plays just before ``seat``."""
    return (seat - 1) % n


def next_seat(seat: int, n: int, skip: int = 0) -> int | None:
    """The next seat clockwise after ``seat`` not in bitmask ``skip`` (may be ``seat``
    itself); None when every seat is skipped."""
    for step in range(1, n + 1):
        s = (seat + step) % n
        if not skip >> s & 1:
            return s
    return None


def clockwise_from(seat: int, n: int) -> tuple[int, ...]:
    """All seats clockwise, starting with ``seat``."""
    return tuple((seat + k) % n for k in range(n))


def seat_set(seats: tuple[int, ...] | list[int]) -> int:
    """A bitmask of seats."""
    mask = 0
    for s in seats:
        mask |= 1 << s
    return mask


def seats_in(mask: int, n: int) -> tuple[int, ...]:
    """The seats in bitmask ``mask``, in seat order."""
    return tuple(s for s in range(n) if mask >> s & 1)

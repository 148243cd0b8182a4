"""Small bitmask helpers: sets of seats or kinds kept as ints are cheap to copy and hash."""

from __future__ import annotations

import functools


@functools.cache
def bit_tables(kinds: int) -> tuple[tuple[int, ...], ...]:
    """For every mask below ``2**kinds``, the tuple of its set bits in increasing order."""
    return tuple(tuple(b for b in range(kinds) if m >> b & 1) for m in range(1 << kinds))


def bits_of(mask: int) -> tuple[int, ...]:
    """The set bits of ``mask``, in increasing order."""
    out = []
    b = 0
    while mask:
        if mask & 1:
            out.append(b)
        mask >>= 1
        b += 1
    return tuple(out)


def mask_of(items: tuple[int, ...] | list[int]) -> int:
    """The mask with the listed bits set."""
    mask = 0
    for b in items:
        mask |= 1 << b
    return mask

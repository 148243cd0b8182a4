"""The pyramid's geometry, precomputed once per size.

Rows are numbered 1 (bottom, ``width`` spaces) to ``width`` (top, 1 space). Space (r, i)
has 0 <= i <= width - r and rests on (r-1, i) and (r-1, i+1). Spaces are stored flat, row
1 first, so a pyramid is a tuple of clan indices (-1 for an empty space).
"""

from __future__ import annotations

import functools

import attrs

EMPTY = -1


@attrs.frozen(slots=True, eq=False)
class Pyramid:
    """Position tables for a pyramid whose bottom row has ``width`` spaces."""

    width: int
    size: int
    row: tuple[int, ...]
    index: tuple[int, ...]
    at: dict[tuple[int, int], int]
    left: tuple[int, ...]
    right: tuple[int, ...]
    up_left: tuple[int, ...]
    up_right: tuple[int, ...]
    beneath: tuple[tuple[int, int], ...]
    neighbours: tuple[tuple[int, ...], ...]

    @property
    def king_row(self) -> int:
        """The top row: the King."""
        return self.width

    @property
    def guardian_row(self) -> int:
        """Second from the top: the Guardians."""
        return self.width - 1

    @property
    def nobleman_row(self) -> int:
        """Third from the top: the Noblemen."""
        return self.width - 2

    def label(self, pos: int) -> str:
        """``"row.index"``, e.g. ``"2.3"``."""
        return f"{self.row[pos]}.{self.index[pos]}"

    def row_positions(self, r: int) -> tuple[int, ...]:
        """The positions of row ``r``, left to right."""
        return tuple(self.at[(r, i)] for i in range(self.width - r + 1))


@functools.cache
def pyramid(width: int) -> Pyramid:
    """The geometry of a pyramid with a bottom row of ``width`` spaces."""
    at: dict[tuple[int, int], int] = {}
    rows: list[int] = []
    cols: list[int] = []
    for r in range(1, width + 1):
        for i in range(width - r + 1):
            at[(r, i)] = len(rows)
            rows.append(r)
            cols.append(i)

    def get(r: int, i: int) -> int:
        return at.get((r, i), EMPTY)

    size = len(rows)
    positions = range(size)
    return Pyramid(
        width=width,
        size=size,
        row=tuple(rows),
        index=tuple(cols),
        at=at,
        left=tuple(get(rows[p], cols[p] - 1) for p in positions),
        right=tuple(get(rows[p], cols[p] + 1) for p in positions),
        up_left=tuple(get(rows[p] + 1, cols[p] - 1) for p in positions),
        up_right=tuple(get(rows[p] + 1, cols[p]) for p in positions),
        beneath=tuple(
            (get(rows[p] - 1, cols[p]), get(rows[p] - 1, cols[p] + 1)) for p in positions
        ),
        neighbours=tuple(
            tuple(
                q
                for q in (
                    get(rows[p], cols[p] - 1),
                    get(rows[p], cols[p] + 1),
                    get(rows[p] + 1, cols[p] - 1),
                    get(rows[p] + 1, cols[p]),
                    get(rows[p] - 1, cols[p]),
                    get(rows[p] - 1, cols[p] + 1),
                )
                if q != EMPTY
            )
            for p in positions
        ),
    )

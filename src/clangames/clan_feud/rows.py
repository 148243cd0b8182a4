"""Rows of a Clan Feud state, read and replaced: the territories a seat controls, a troop
row's totals and occupied territories (remembered per row), and tuples with one item
changed. The rules call these at most steps; kept apart from :mod:`board` (which defines
attrs classes and re-exports them) so that the compiled build (setup.py) compiles them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from clangames.engine.data import plus as plus  # the rules' rows change by it too

AMOUNT_CAP = 999
"""The most £, Feud tokens or VP a seat holds: a gain past it is lost. The rulebook sets no
limit, and no game of the bundled cards comes near one (the observation encoding and the
saved-state check declare this bound); a user's cards or events file can give any amount,
and a seat's total above the declared bound would write a state that does not read back."""


def gain(row: Sequence[int], i: int, n: int) -> tuple[int, ...]:
    """:func:`plus` for a seat's £, Feud or VP, never above :data:`AMOUNT_CAP`."""
    room = AMOUNT_CAP - row[i]
    return plus(row, i, n if n <= room else room)


def held(controller: Sequence[int], p: int) -> list[int]:
    """The territories ``p`` controls (``controller`` is each territory's seat), in order.
    A clan holds a handful of the board's territories: counting and finding them in C
    costs half a loop over the board."""
    out = []
    t = -1
    for _ in range(controller.count(p)):
        t = controller.index(p, t + 1)
        out.append(t)
    return out


_OWNED: dict[int, tuple[tuple[int, ...], dict[int, tuple[int, ...]]]] = {}
"""Per controller tuple (by identity; the tuple is kept alive beside its entry, so its id
is not reused while the entry stands): each seat's territories, as they are asked for."""
MEMO_LIMIT = 1 << 12
"""Entries a memo by identity (:func:`owned_by`, :func:`troop_totals`) keeps before it
starts again: a playout makes a few dozen controller tuples and some hundred rows."""


def owned_by(controller: Sequence[int], p: int) -> tuple[int, ...]:
    """:func:`held` as a tuple, remembered per controller tuple: control changes at a few
    steps of a game while the rules ask at most steps (a Build, a recruit, the dice a clan
    owns), so the board is searched once per change and seat. A controller that is not a
    tuple (a draft's, being written) is searched each time."""
    entry = _OWNED.get(id(controller))
    if entry is None:
        if type(controller) is not tuple:
            return tuple(held(controller, p))
        if len(_OWNED) >= MEMO_LIMIT:
            _OWNED.clear()
        entry = _OWNED[id(controller)] = (controller, {})
    seats = entry[1]
    found = seats.get(p)
    if found is None:
        found = seats[p] = tuple(held(controller, p))
    return found


_TOTALS: dict[int, tuple[tuple[int, ...], tuple[int, int, int]]] = {}
"""Per troop row tuple (by identity; the row is kept beside its entry, so its id is not
reused while the entry stands): its totals by troop type."""


def troop_totals(row: Sequence[int]) -> tuple[int, int, int]:
    """The infantry, cavalry and artillery in a row of counts (``3 * territory + type``).
    Remembered per row tuple: a clan's row changes at a few steps while its totals are
    asked at most (supply limits, upkeep, whether it can move), and each sum runs over
    the whole board. A row being written (a draft's list) is summed each time."""
    entry = _TOTALS.get(id(row))
    if entry is not None:
        return entry[1]
    totals = (sum(row[0::3]), sum(row[1::3]), sum(row[2::3]))
    if type(row) is tuple:
        if len(_TOTALS) >= MEMO_LIMIT:
            _TOTALS.clear()
        _TOTALS[id(row)] = (row, totals)
    return totals


T = TypeVar("T")


def put(values: Sequence[T], i: int, value: T) -> tuple[T, ...]:
    """``values`` with ``value`` at ``i``, as a new tuple. A rule that writes a field once
    in a move replaces it whole this way: half the cost of making it writable
    (``rules.W.m``) and turning it back into a tuple when the draft freezes."""
    out = list(values)
    out[i] = value
    return tuple(out)


NONZERO = bytes([0] + [1] * 255)
"""A ``bytes.translate`` table: every count but 0 becomes 1."""


def occupied(counts: Sequence[int]) -> list[int]:
    """The territories with a troop in a row of counts (``3 * territory + type``), in order.
    The row is searched as bytes, in C: counts are small and never negative (supply
    limits), and a Python loop over the board's 132 counts costs more than a whole rule."""
    marks = bytes(counts).translate(NONZERO)
    out = []
    i = marks.find(1)
    while i >= 0:
        t = i // 3
        out.append(t)
        i = marks.find(1, 3 * t + 3)
    return out


_OCCUPIED: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
"""Per troop row tuple (by identity, as :data:`_TOTALS`): the territories it occupies."""


def occupied_by(row: Sequence[int]) -> tuple[int, ...]:
    """:func:`occupied` as a tuple, remembered per row tuple (as :func:`troop_totals`):
    England's march looks for every clan's armies at each of its steps."""
    entry = _OCCUPIED.get(id(row))
    if entry is not None:
        return entry[1]
    found = tuple(occupied(row))
    if type(row) is tuple:
        if len(_OCCUPIED) >= MEMO_LIMIT:
            _OCCUPIED.clear()
        _OCCUPIED[id(row)] = (row, found)
    return found


def plus_troops(row: Sequence[int], i: int, delta: int) -> tuple[int, ...]:
    """:func:`plus` for a troop row (``delta`` troops at index ``3 * territory + type``),
    passing on what the memos know of the old row (:func:`troop_totals`,
    :func:`occupied_by`) to the new one: upkeep removes troops one at a time and asks
    both of every row it makes."""
    new = plus(row, i, delta)
    entry = _TOTALS.get(id(row))
    if entry is not None:
        totals = list(entry[1])
        totals[i % 3] += delta
        if len(_TOTALS) >= MEMO_LIMIT:
            _TOTALS.clear()
        _TOTALS[id(new)] = (new, (totals[0], totals[1], totals[2]))
    place = _OCCUPIED.get(id(row))
    if place is not None:
        t = i - i % 3
        was, now = any(row[t : t + 3]), any(new[t : t + 3])
        found = place[1]
        if now and not was:
            found = tuple(sorted((*found, t // 3)))
        elif was and not now:
            found = tuple([x for x in found if x != t // 3])
        if len(_OCCUPIED) >= MEMO_LIMIT:
            _OCCUPIED.clear()
        _OCCUPIED[id(new)] = (new, found)
    return new

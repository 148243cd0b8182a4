"""Clan Feud's facts and row edits of a draft, as plain functions of the draft.

These were :class:`working.W`'s methods; W stays interpreted in the compiled build (it
takes the state's class as its base at run time), so the optional build compiles them here
(setup.py) and the compiled rules call them directly (``drafts.army(w, p, t)``); W's
methods of the same names call them for interpreted callers. ``w`` is a draft
(:class:`working.W`), typed ``Any`` because this module cannot import W (working.py builds
on it). Nothing here needs the state module, so the rules loaded before it may use it.
"""

from __future__ import annotations

from typing import Any, Final

from clangames.clan_feud.rows import plus_troops, put, troop_totals

NO_TROOPS: Final = (0, 0, 0)
"""A row's troop totals when it holds none."""

NESTED: Final = ("troops", "pool", "hands")
"""The tuple-of-rows fields: written row by row, made tuples again row by row."""
_NESTED_SET: Final = frozenset(NESTED)


def writable(w: Any, name: str) -> list[int]:
    """The sequence field ``name``, made writable (copied from the state once)."""
    value = getattr(w, name)
    if type(value) is tuple:
        value = list(value)
        setattr(w, name, value)
        names = w.options
        if names is None:
            w.options = [name]
        else:
            names.append(name)
    made: list[int] = value
    return made


def troop_row(w: Any, p: int) -> list[int]:
    """``p``'s troop row, made writable."""
    rows = w.troops
    if type(rows) is tuple:
        rows = w.troops = list(rows)
        names = w.options
        if names is None:
            w.options = ["troops"]
        else:
            names.append("troops")
    row = rows[p]
    if type(row) is tuple:
        row = rows[p] = list(row)
    made: list[int] = row
    return made


def tuples_again(w: Any) -> None:
    """The sequences a draft made writable (named in its ``options`` while it is worked),
    tuples again; only those are visited: checking all 17 cost more than most rules."""
    for name in w.options or ():
        v = getattr(w, name)
        if name in _NESTED_SET:
            setattr(w, name, tuple(map(tuple, v)))  # a tuple row stays itself
        else:
            setattr(w, name, tuple(v))


def buildings(w: Any, t: int) -> int:
    """The buildings in territory ``t`` (its site's and its towers)."""
    site: int = w.site[t]
    towers: int = w.towers[t]
    return (site > 0) + towers


def army(w: Any, p: int, t: int) -> tuple[int, int, int]:
    """``p``'s troops in territory ``t`` (infantry, cavalry, artillery)."""
    row = w.troops[p]
    return (row[3 * t], row[3 * t + 1], row[3 * t + 2])


def troop_total(w: Any, p: int, kind: int | None = None) -> int:
    """``p``'s troops on the board (of one type), a battle's attackers included."""
    totals = troop_totals(w.troops[p])
    n: int = sum(totals) if kind is None else totals[kind]
    b = w.battle
    if b is not None and b.owners[0] == p:
        n += sum(b.attackers) if kind is None else b.attackers[kind]
    return n


def has_troops(w: Any, p: int) -> bool:
    """Whether ``p`` has troops on the board (``troop_total(p) > 0``, sooner)."""
    if troop_totals(w.troops[p]) != NO_TROOPS:
        return True
    b = w.battle
    return b is not None and b.owners[0] == p and any(b.attackers)


def occupant(w: Any, t: int, other_than: int) -> int:
    """A seat other than ``other_than`` with troops in ``t``, or -1."""
    troops = w.troops
    for q in range(len(troops)):
        if q != other_than:
            row = troops[q]
            if row[3 * t] or row[3 * t + 1] or row[3 * t + 2]:
                return q
    return -1


def remove_troop(w: Any, p: int, t: int, kind: int) -> None:
    """One of ``p``'s troops of type ``kind`` leaves territory ``t``."""
    w.troops = put(w.troops, p, plus_troops(w.troops[p], 3 * t + kind, -1))

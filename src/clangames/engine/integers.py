"""Integers of any type where the API takes an int (a seat, an action id, a parameter)."""

from __future__ import annotations

from operator import index

from clangames.engine.errors import InvalidArgumentError


def as_integer(value: object) -> int | None:
    """``value`` as an ``int`` if it is an integer of any type other than a bool (an
    ``int``, a NumPy integer, anything with ``__index__``), else None. Learning frameworks
    and array code hand over NumPy integers where the API says ``int``; the compiled
    build's rules accept only a real ``int``, so the kernel converts at its entry points."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    try:
        return index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def count_argument(caller: str, name: str, value: object) -> int:
    """``value`` as a count for ``caller``'s argument ``name``: an int from 0 up, of any
    integer type; else InvalidArgumentError naming both (a count of -1 or 1.5 would
    otherwise fail part way, or be reported as played)."""
    count = as_integer(value)
    if count is None or count < 0:
        raise InvalidArgumentError(f"{caller}: {name} must be an int from 0 up, got {value!r:.80}")
    return count

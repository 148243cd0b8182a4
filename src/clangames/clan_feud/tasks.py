"""Clan Feud's interned tasks and the edits of a draft's top task, as plain functions.

The rules push and edit tasks at most steps. These functions were :class:`working.W`'s
methods; W stays interpreted in the compiled build (it takes the state's class as its
base at run time), so here they are functions of the draft, which the optional build
compiles (setup.py) and the compiled rules (``rules``, ``playing``) call directly. W's
methods call them for the other callers: ``interpret``, ``military`` and ``war`` are
loaded before the state module, which this one needs (its ``new_task``), and the state
module loads the rules. ``w`` is a draft (:class:`working.W`), typed ``Any``
because this module cannot import W (working.py builds on it).
"""

from __future__ import annotations

from typing import Any, Final

from clangames.clan_feud.state import Task, new_task

_TASKS: dict[tuple[str, int, int, int, int], Task] = {}
"""Tasks without data, interned by their fields."""
_TASKS_MAX: Final = 1 << 14
"""Beyond this many interned tasks (never reached by the bundled game), build new ones."""


def interned(kind: str, player: int = -1, a: int = 0, b: int = 0, c: int = 0) -> Task:
    """The task with these fields and no data. Tasks are values, so equal ones are shared:
    a frozen attrs constructor costs more than most rules that push a task."""
    key = (kind, player, a, b, c)
    found = _TASKS.get(key)
    if found is None:
        found = new_task(kind, player, a, b, c)
        if len(_TASKS) < _TASKS_MAX:
            _TASKS[key] = found
    return found


def update_top(
    w: Any,
    *,
    player: int | None = None,
    a: int | None = None,
    b: int | None = None,
    c: int | None = None,
    data: tuple[int, ...] | None = None,
) -> None:
    """Change fields of the draft's top task."""
    tasks: list[Task] = w.tasks
    t = tasks[-1]
    if data is None:
        data = t.data
    kind: str = t.kind
    seat: int = t.player if player is None else player
    new_a: int = t.a if a is None else a
    new_b: int = t.b if b is None else b
    new_c: int = t.c if c is None else c
    if data:
        tasks[-1] = new_task(kind, seat, new_a, new_b, new_c, data)
        return
    found = _TASKS.get((kind, seat, new_a, new_b, new_c))  # interned, without its call
    tasks[-1] = found if found is not None else interned(kind, seat, new_a, new_b, new_c)


def set_top_data(w: Any, data: tuple[int, ...]) -> None:
    """Replace the top task's data (:func:`update_top` with ``data`` alone, shorter)."""
    tasks: list[Task] = w.tasks
    t = tasks[-1]
    if data:
        tasks[-1] = new_task(t.kind, t.player, t.a, t.b, t.c, data)
        return
    key = (t.kind, t.player, t.a, t.b, t.c)
    found = _TASKS.get(key)  # interned, without its call
    tasks[-1] = found if found is not None else interned(*key)


def set_top_a(w: Any, a: int) -> None:
    """Replace the top task's ``a`` (:func:`update_top` with ``a`` alone, shorter)."""
    tasks: list[Task] = w.tasks
    t = tasks[-1]
    if t.data:
        tasks[-1] = new_task(t.kind, t.player, a, t.b, t.c, t.data)
        return
    key = (t.kind, t.player, a, t.b, t.c)
    found = _TASKS.get(key)  # interned, without its call
    tasks[-1] = found if found is not None else interned(*key)

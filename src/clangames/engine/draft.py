"""Drafts: the fast way for a game to build the state after a move.

States are frozen attrs classes, and a frozen class sets each field through
``object.__setattr__`` in its ``__init__``: for a state of twenty fields that costs more
than a whole rule. A move instead :func:`thaw`\\ s the old state into a *draft*, a mutable
copy whose class is a slot-compatible subclass of the state's class that allows ordinary
attribute assignment, edits it with the rules, and :func:`freeze`\\ s it. Freezing swaps
the object's class back to the frozen one in place: no copy, no constructor, and any later
assignment through a stale reference raises ``FrozenInstanceError`` as on any state.

Fields marked ``metadata={"cache": True}`` (memos kept outside equality and JSON) are
reset to their defaults by :func:`thaw`, since a cache of the old state says nothing
about the new one. Replace containers (tuples, multisets) rather than mutating them: the
draft shares them with the state it came from.

A game's move, run at every step of every playout, binds its state class's pair once at
import time with :func:`drafting`: the copier itself and a freezer for that one class,
which spares each move the lookups and checks :func:`thaw` and :func:`freeze` make.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from clangames.engine.state import State

S = TypeVar("S", bound=State)

_THAW: dict[type, Callable[[Any], Any]] = {}
_FROZEN: dict[type, type] = {}
"""Each draft class's frozen state class."""


def _draft_class(cls: type[State]) -> type:
    """The mutable twin of a frozen state class: it adds no slots (so an object may switch
    between the two classes) and restores plain attribute assignment and deletion (both,
    so that CPython keeps its fast path for storing into slots). Its ``__init__`` is
    object's, so ``twin()`` makes an empty draft (cheaper than ``object.__new__(twin)``)."""
    twin = type(
        f"{cls.__name__}Draft",
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__init__": object.__init__,
            "__module__": cls.__module__,
            "__doc__": f"A mutable draft of a {cls.__name__} (see clangames.engine.draft).",
        },
    )
    _FROZEN[twin] = cls
    return twin


def _all_slots(cls: type) -> set[str]:
    """Every slot name declared by ``cls`` and its bases."""
    return {name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())}


def _make_thaw(cls: type[State]) -> Callable[[Any], Any]:
    """Generate (once per class) a function copying every field of a ``cls`` state into
    a new draft, resetting the cache fields: straight-line code, no loop over fields."""
    if cls in _FROZEN:
        raise TypeError(f"{cls.__name__} is a draft already; freeze it before thawing it")
    twin = _draft_class(cls)
    # The class is a default argument: a fast local rather than a global lookup.
    lines = ["def thaw(s, twin=twin):", "    d = twin()"]
    for field in attrs.fields(cls):
        if field.metadata.get("cache"):
            if not isinstance(field.default, (type(None), bool, int)):
                raise TypeError(
                    f"{cls.__name__}.{field.name}: a cache field needs a constant default"
                    f" (None, a bool or an int), not {field.default!r}"
                )
            lines.append(f"    d.{field.name} = {field.default!r}")
        else:
            lines.append(f"    d.{field.name} = s.{field.name}")
    if "_attrs_cached_hash" in _all_slots(cls):  # attrs' cache_hash=True: no hash yet
        lines.append("    d._attrs_cached_hash = None")
    lines.append("    return d")
    namespace: dict[str, Any] = {"twin": twin}
    exec(compile("\n".join(lines), f"<draft of {cls.__qualname__}>", "exec"), namespace)
    thaw: Callable[[Any], Any] = namespace["thaw"]
    return thaw


def _copier(cls: type[State]) -> Callable[[Any], Any]:
    """The (cached) generated copier of a ``cls`` state into its draft."""
    copier = _THAW.get(cls)
    if copier is None:
        copier = _THAW[cls] = _make_thaw(cls)
    return copier


def _make_freeze(cls: type[State]) -> Callable[[Any], Any]:
    """Generate a function that turns a draft of ``cls`` back into a ``cls`` in place."""
    namespace: dict[str, Any] = {}
    source = "def freeze(d, frozen=frozen):\n    d.__class__ = frozen\n    return d\n"
    exec(compile(source, f"<freeze of {cls.__qualname__}>", "exec"), {"frozen": cls}, namespace)
    freezer: Callable[[Any], Any] = namespace["freeze"]
    return freezer


def drafting(state_type: type[S]) -> tuple[Callable[[S], Any], Callable[[Any], S]]:
    """The ``(thaw, freeze)`` pair specialised to ``state_type``: what :func:`thaw` and
    :func:`freeze` do for its states, without their per-call lookups and checks. A game
    binds it once at import time for the move that runs at every step.

    The pair is for exactly ``state_type`` (not subclasses): its thaw makes the same draft
    class as :func:`thaw`, and its freeze trusts that it gets one of those drafts (a state
    of ``state_type`` passes through unchanged; an object of another layout is refused by
    Python's class assignment with a ``TypeError``)."""
    if not (isinstance(state_type, type) and issubclass(state_type, State)):
        raise TypeError(f"drafting needs a State class, got {state_type!r}")
    return _copier(state_type), _make_freeze(state_type)


def thaw(state: State) -> Any:
    """A mutable copy of ``state`` (same fields, caches reset), to edit and then
    :func:`freeze`. Typed ``Any``: a game describes its drafts with a Protocol."""
    copier = _THAW.get(type(state))
    if copier is None:
        copier = _copier(type(state))
    return copier(state)


def freeze(draft: Any, state_type: type[S]) -> S:
    """Turn ``draft`` (from :func:`thaw` of a ``state_type`` state) into that immutable
    state, in place, and return it."""
    if _FROZEN.get(type(draft)) is not state_type:
        raise TypeError(f"{type(draft).__name__} is not a draft of {state_type.__name__}")
    draft.__class__ = state_type
    state: S = draft
    return state

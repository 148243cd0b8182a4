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

A game whose rules work through helper methods on the draft (a task stack, rows made
writable on demand) gives :func:`drafting` its own draft class, a subclass of the state
class with those methods and no slots of its own: every thaw of that state class then
makes one of those directly, so a move switches class once each way, never through a
second twin of the state. The same twin serves a game's small frozen value objects that
change at every step (a battle, an army): :func:`evolver` makes their ``attrs.evolve``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs

from clangames.engine.state import State, _layout

S = TypeVar("S", bound=State)
T = TypeVar("T")

_THAW: dict[type, Callable[[Any], Any]] = {}
_FROZEN: dict[type, type] = {}
"""Each draft class's frozen state class."""


def mutable_twin(cls: type) -> type:
    """The mutable twin of a frozen slotted attrs class: it adds no slots (so an object may
    switch between the two classes) and restores plain attribute assignment and deletion
    (both, so that CPython keeps its fast path for storing into slots). Its ``__init__`` is
    object's, so ``twin()`` makes an empty draft (cheaper than ``object.__new__(twin)``)."""
    return type(
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


def _draft_class(cls: type[State]) -> type:
    """A state class's own twin (:func:`mutable_twin`), noted as freezing back to it."""
    twin = mutable_twin(cls)
    _FROZEN[twin] = cls
    return twin


def evolver(cls: type[T]) -> Callable[..., T]:
    """``attrs.evolve`` for one frozen slotted attrs class without validators (a game's
    small value objects that change at every step, e.g. a battle): the returned
    ``replace(obj, **changes)`` copies every field into the class's
    :func:`mutable_twin` and freezes it in place; ``attrs.evolve`` goes through the
    constructor and costs several times as much. The copy is generated from the class's
    fields once, so a field added later is copied too."""
    twin = mutable_twin(cls)
    lines = ["def replace(o, **changes):", "    d = twin()"]
    lines += [f"    d.{f.name} = o.{f.name}" for f in attrs.fields(cast(Any, cls))]
    lines += ["    for name, value in changes.items():", "        setattr(d, name, value)"]
    lines += ["    d.__class__ = cls", "    return d"]
    namespace: dict[str, Any] = {"twin": twin, "cls": cls}
    exec(compile("\n".join(lines), f"<evolver of {cls.__qualname__}>", "exec"), namespace)
    replace: Callable[..., T] = namespace["replace"]
    return replace


def maker(cls: type[T]) -> Callable[[Any], T]:
    """``cls(value)`` for a frozen slotted attrs class of one field with no validator or
    converter (a pile's counts, a table of commitments: small values the rules remake at
    every step of a playout): the value is set through the field's slot, without attrs'
    ``__init__`` and the frozen ``__setattr__`` it goes through. Only for values the rules
    know are good. ``TypeError`` for any other class (a second field or a cached hash
    would be left unset, a validator skipped)."""
    fields: list[Any] = list(attrs.fields(cast(Any, cls))) if attrs.has(cls) else []
    field = fields[0] if len(fields) == 1 else None
    if (
        field is None
        or field.validator is not None
        or field.converter is not None
        or _all_slots(cls) - {field.name, "__weakref__"}
    ):
        raise TypeError(f"maker needs a frozen slotted attrs class of one plain field, got {cls!r}")
    new = object.__new__
    put: Callable[[Any, Any], None] = getattr(cls, field.name).__set__

    def make(value: Any) -> T:
        made: T = new(cls)
        put(made, value)
        return made

    make.__doc__ = f"A {cls.__name__} of the value given, unchecked (see draft.maker)."
    return make


def _adopt_draft_class(cls: type[State], draft_class: type) -> None:
    """Check that a game's ``draft_class`` can stand for ``cls``'s twin, and note it as
    ``cls``'s draft class. Refused (``TypeError``): a class that is not a subclass of
    ``cls``, one that adds slots or a ``__dict__`` (the object could not switch classes),
    one that keeps the frozen ``__setattr__``, or a state class that has a draft class
    already (its earlier drafts would freeze through another class)."""
    if not (isinstance(draft_class, type) and issubclass(draft_class, cls)):
        raise TypeError(f"a draft class of {cls.__name__} must subclass it, got {draft_class!r}")
    own = draft_class.__mro__[: draft_class.__mro__.index(cls)]
    if any(klass.__dict__.get("__slots__", None) != () for klass in own):
        raise TypeError(
            f"{draft_class.__name__} must declare __slots__ = () in every class above"
            f" {cls.__name__}: a draft switches class with its state, so it adds no slots"
        )
    if (
        draft_class.__setattr__ is not object.__setattr__
        or draft_class.__delattr__ is not object.__delattr__
    ):
        raise TypeError(
            f"{draft_class.__name__} must set __setattr__ and __delattr__ to object's:"
            " a draft is edited by plain assignment"
        )
    if cls in _THAW:
        current = _draft_of(cls)
        if current is not draft_class:
            raise TypeError(
                f"{cls.__name__} has the draft class {current.__name__} already: give"
                f" {draft_class.__name__} to drafting before the first thaw"
            )
        return
    _FROZEN[draft_class] = cls
    _THAW[cls] = _make_thaw(cls, draft_class)


def _draft_of(cls: type[State]) -> type:
    """The draft class the copier of ``cls`` makes."""
    return next(draft for draft, frozen in _FROZEN.items() if frozen is cls)


def _all_slots(cls: type) -> set[str]:
    """Every slot name declared by ``cls`` and its bases."""
    return {name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())}


def _make_thaw(cls: type[State], twin: type | None = None) -> Callable[[Any], Any]:
    """Generate (once per class) a function copying every field of a ``cls`` state into
    a new draft (of ``twin``, the kernel's own twin if None), resetting the cache fields:
    straight-line code, no loop over fields."""
    if cls in _FROZEN:
        raise TypeError(f"{cls.__name__} is a draft already; freeze it before thawing it")
    # The classes are default arguments: fast locals rather than global lookups. A game's
    # draft class may construct itself otherwise (from a state, say): made bare.
    make = "    d = new(twin)"
    if twin is None:
        twin = _draft_class(cls)
        make = "    d = twin()"
    lines = ["def thaw(s, twin=twin, new=new):", make]
    lines += [
        f"    d.{field.name} = s.{field.name}"
        for field in attrs.fields(cls)
        if not field.metadata.get("cache")
    ]
    lines += cache_resets(cls, "d")
    lines.append("    return d")
    namespace: dict[str, Any] = {"twin": twin, "new": object.__new__}
    exec(compile("\n".join(lines), f"<draft of {cls.__qualname__}>", "exec"), namespace)
    thaw: Callable[[Any], Any] = namespace["thaw"]
    return thaw


def cache_resets(cls: type[State], name: str) -> list[str]:
    """Lines of generated code (indented once) that reset the cache fields of the ``cls``
    state or draft called ``name`` to their defaults, and attrs' cached hash if the class
    keeps one: what a move must do before it edits a state, since a cache of the old state
    says nothing about the new one. The kernel's one list of them (the state module's
    layout, which unpickling resets too), for every generated copier."""
    return [f"    {name}.{field} = {value!r}" for field, value in _layout(cls)[1]]


def owned_apply(
    state_type: type[S], move: Callable[[Any, Any, int], object]
) -> Callable[[S, Any, int], S]:
    """``apply_owned(state, action, player)`` for a game whose moves edit a draft with
    ``move(draft, action, player)`` (its return value is not used): the state made its own
    draft in place (its class switched to the draft class :func:`drafting` gave
    ``state_type``, made now if it has none; its cache fields reset; none of its other
    fields copied), edited by ``move``, then frozen back in place. One generated
    function, so a step of the fast path pays for no call of its own to thaw or to freeze
    (see :mod:`clangames.engine.rollout`). The state given is gone, become its successor:
    nothing may keep it (a memo keyed by the state object would see it change).
    ``TypeError`` for anything but a state class that is not a draft itself."""
    twin = _owned_draft_class(state_type, "owned_apply")
    lines = [
        "def apply_owned(s, action, player, twin=twin, set_attribute=set_attribute,"
        " move=move, frozen=frozen):"
    ]
    lines.append("    set_attribute(s, '__class__', twin)")
    lines += cache_resets(state_type, "s")
    lines += ["    move(s, action, player)", "    s.__class__ = frozen", "    return s"]
    apply_owned: Callable[[S, Any, int], S] = _generated(
        "apply_owned", lines, state_type, twin, move, f"<owned apply of {state_type.__qualname__}>"
    )
    return apply_owned


def kept_apply(
    state_type: type[S], move: Callable[[Any, Any, int], object]
) -> tuple[Callable[[S, Any, int], S], Callable[[Any], S]]:
    """The fast path's ``(apply_kept, kept_state)`` hooks (see
    :mod:`clangames.engine.rollout`) for a game whose moves edit a draft with
    ``move(draft, action, player)``: :func:`owned_apply`'s move without the freeze, so
    that one draft serves a whole playout. ``apply_kept`` switches a state it is given
    into its draft in place (a draft it made before stays one), resets the cache fields
    and runs ``move``; what it returns is that draft, which answers the rollout loop as
    the state would (its ``phase``, ``_legal``, ``_chance_weights``: the state class's own
    methods, inherited). ``kept_state`` freezes such a draft in place into the state it
    describes and hands a state back as it is. Each step is spared the two class switches
    of :func:`owned_apply`; the game's rules must not tell a draft from a state by its
    type, nor keep it by identity (it changes under them). ``TypeError`` as for
    :func:`owned_apply`."""
    twin = _owned_draft_class(state_type, "kept_apply")
    lines = [
        "def apply_kept(s, action, player, twin=twin, set_attribute=set_attribute, move=move):",
        "    if s.__class__ is not twin:",
        "        set_attribute(s, '__class__', twin)",
    ]
    lines += cache_resets(state_type, "s")
    lines += ["    move(s, action, player)", "    return s"]
    where = f"<kept apply of {state_type.__qualname__}>"
    apply_kept: Callable[[S, Any, int], S] = _generated(
        "apply_kept", lines, state_type, twin, move, where
    )
    finish = [
        "def kept_state(s, twin=twin, frozen=frozen):",
        "    if s.__class__ is twin:",
        "        s.__class__ = frozen",
        "    return s",
    ]
    where = f"<kept state of {state_type.__qualname__}>"
    kept_state: Callable[[Any], S] = _generated("kept_state", finish, state_type, twin, move, where)
    return apply_kept, kept_state


def _owned_draft_class(state_type: type[State], caller: str) -> type:
    """The draft class a move in place switches ``state_type``'s states into (settled
    now, before the first thaw, as :func:`drafting` settles it); ``TypeError`` for
    anything but a state class that is not a draft itself."""
    if not (isinstance(state_type, type) and issubclass(state_type, State)):
        raise TypeError(f"{caller} needs a State class, got {state_type!r}")
    if state_type in _FROZEN:
        raise TypeError(f"{state_type.__name__} is a draft already; freeze it before thawing it")
    _copier(state_type)
    return _draft_of(state_type)


def _generated(
    name: str,
    lines: list[str],
    state_type: type[State],
    twin: type,
    move: Callable[[Any, Any, int], object],
    where: str,
) -> Any:
    """The function ``name`` defined by the generated ``lines``, which may use ``twin``,
    ``frozen`` (``state_type``), ``move`` and ``set_attribute`` (object's)."""
    namespace: dict[str, Any] = {
        "twin": twin,
        "set_attribute": object.__setattr__,
        "move": move,
        "frozen": state_type,
    }
    exec(compile("\n".join(lines), where, "exec"), namespace)
    return namespace[name]


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


def drafting(
    state_type: type[S], draft_class: type | None = None
) -> tuple[Callable[[S], Any], Callable[[Any], S]]:
    """The ``(thaw, freeze)`` pair specialised to ``state_type``: what :func:`thaw` and
    :func:`freeze` do for its states, without their per-call lookups and checks. A game
    binds it once at import time for the move that runs at every step.

    ``draft_class``, if given, is the game's own draft class for ``state_type`` (see the
    module's description): a subclass of it with ``__slots__ = ()`` in every class it adds,
    ``__setattr__`` and ``__delattr__`` set to object's; from then on every thaw of a
    ``state_type`` state makes one. It must be given before the first thaw of the class
    (``TypeError`` otherwise, as for a class that does not fit).

    The pair is for exactly ``state_type`` (not subclasses): its thaw makes the same draft
    class as :func:`thaw`, and its freeze trusts that it gets one of those drafts (a state
    of ``state_type`` passes through unchanged; an object of another layout is refused by
    Python's class assignment with a ``TypeError``)."""
    if not (isinstance(state_type, type) and issubclass(state_type, State)):
        raise TypeError(f"drafting needs a State class, got {state_type!r}")
    if draft_class is not None:
        if state_type in _FROZEN:
            raise TypeError(f"{state_type.__name__} is a draft already; it has no draft class")
        _adopt_draft_class(state_type, draft_class)
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

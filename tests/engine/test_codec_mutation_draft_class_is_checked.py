"""A game's own draft class (``drafting(StateClass, DraftClass)``) is checked before it is
adopted, and the kernel's own drafts meet the same rules (pinned by the kernel's mutation
audit: none of these refusals had a test, so dropping any of them passed).

A draft class must subclass the state class, add no slots (``__slots__ = ()`` in every
class it adds), and use object's ``__setattr__`` and ``__delattr__``; it must be given
before the first thaw of its state class, and a draft class has no draft class of its own.
Each refusal is a TypeError saying what was wrong, and changes nothing.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from clangames.engine.draft import drafting, freeze, thaw
from testing import toys
from testing.toys import ToyState

GAME = toys.toy()


def fresh_state_class() -> type[ToyState]:
    """A state class no thaw has met yet (the draft registry is per class)."""

    @attrs.frozen(slots=True)
    class Fresh(ToyState):
        pass

    return Fresh


def a_state(cls: type[ToyState]) -> Any:
    state = GAME.initial_state()
    values = {f.name: getattr(state, f.name) for f in attrs.fields(ToyState) if f.init}
    return cls(**values)


def good_draft_class(cls: type) -> type:
    return type(
        "GoodDraft",
        (cls,),
        {"__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__},
    )


def test_a_good_draft_class_is_what_every_thaw_of_its_state_class_makes() -> None:
    cls = fresh_state_class()
    draft_class = good_draft_class(cls)
    fast_thaw, fast_freeze = drafting(cls, draft_class)
    state = a_state(cls)
    assert type(fast_thaw(state)) is draft_class and type(thaw(state)) is draft_class
    draft = thaw(state)
    draft.stake = 3
    frozen = freeze(draft, cls)
    assert type(frozen) is cls and frozen == attrs.evolve(state, stake=3)
    assert type(fast_freeze(fast_thaw(state))) is cls
    assert drafting(cls, draft_class)[0] is fast_thaw  # the same class again: accepted


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda cls: ToyState, "a draft class of Fresh must subclass it, got"),
        (lambda cls: int, "a draft class of Fresh must subclass it, got <class 'int'>"),
        (
            lambda cls: type(
                "Slotted",
                (cls,),
                {
                    "__slots__": ("extra",),
                    "__setattr__": object.__setattr__,
                    "__delattr__": object.__delattr__,
                },
            ),
            "Slotted must declare __slots__ = () in every class above Fresh",
        ),
        (
            lambda cls: type(
                "WithDict",
                (cls,),
                {"__setattr__": object.__setattr__, "__delattr__": object.__delattr__},
            ),
            "WithDict must declare __slots__ = () in every class above Fresh",
        ),
        (
            lambda cls: type("Frozen", (cls,), {"__slots__": ()}),
            "Frozen must set __setattr__ and __delattr__ to object's",
        ),
        (
            lambda cls: type(
                "SetOnly", (cls,), {"__slots__": (), "__setattr__": object.__setattr__}
            ),
            "SetOnly must set __setattr__ and __delattr__ to object's",
        ),
        (
            lambda cls: type(
                "DelOnly", (cls,), {"__slots__": (), "__delattr__": object.__delattr__}
            ),
            "DelOnly must set __setattr__ and __delattr__ to object's",
        ),
    ],
)
def test_a_draft_class_that_does_not_fit_is_refused_and_changes_nothing(
    make: Any, message: str
) -> None:
    cls = fresh_state_class()
    with pytest.raises(TypeError) as info:
        drafting(cls, make(cls))
    assert str(info.value).startswith(message), str(info.value)
    # Nothing was adopted: the class still takes a good draft class.
    draft_class = good_draft_class(cls)
    drafting(cls, draft_class)
    assert type(thaw(a_state(cls))) is draft_class


def test_a_draft_class_comes_before_the_first_thaw() -> None:
    cls = fresh_state_class()
    kernel_draft = type(thaw(a_state(cls)))
    late = good_draft_class(cls)
    with pytest.raises(TypeError) as info:
        drafting(cls, late)
    assert str(info.value) == (
        "Fresh has the draft class FreshDraft already: give GoodDraft to drafting before the"
        " first thaw"
    )
    assert type(thaw(a_state(cls))) is kernel_draft  # unchanged


def test_a_draft_class_has_no_draft_class_of_its_own() -> None:
    cls = fresh_state_class()
    draft_class = type(thaw(a_state(cls)))
    with pytest.raises(TypeError, match=r"^FreshDraft is a draft already; it has no draft class$"):
        drafting(draft_class, good_draft_class(draft_class))


def test_the_kernels_own_drafts_allow_plain_assignment_and_deletion() -> None:
    cls = fresh_state_class()
    draft = thaw(a_state(cls))
    assert type(draft).__setattr__ is object.__setattr__
    assert type(draft).__delattr__ is object.__delattr__
    draft.stake = 4
    del draft.stake
    with pytest.raises(AttributeError):
        _ = draft.stake

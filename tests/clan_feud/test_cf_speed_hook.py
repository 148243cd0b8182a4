"""The kernel's draft-class hook (``drafting(state_type, draft_class)``) that Clan Feud's
working copy uses: the game's class is what every thaw makes, it freezes back by one class
switch, and a class that could not switch with its state, or comes after the first thaw,
is refused."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import clangames
from clangames.clan_feud import rules
from clangames.clan_feud.state import ClanFeudState
from clangames.engine.draft import _copier, drafting, freeze, thaw
from clangames.engine.rng import Rng
from testing import toys
from testing.toys import ToyState


def fresh_state_class(name: str) -> type[ToyState]:
    """A state class no thaw has seen (the hook is once per class, for the process)."""
    made: type[ToyState] = attrs.frozen(slots=True)(type(name, (ToyState,), {}))
    return made


def toy_state(cls: type[ToyState]) -> Any:
    state = toys.toy().initial_state()
    return cls(**{f.name: getattr(state, f.name) for f in attrs.fields(ToyState) if f.init})


def test_every_thaw_of_clan_feud_makes_its_working_class_and_freezes_to_the_state() -> None:
    game = clangames.load("clan_feud", players=4)
    state, _, _ = clangames.rollout(game.initial_state(), Rng(3), max_steps=40)
    assert isinstance(state, ClanFeudState)
    assert type(thaw(state)) is rules.W
    assert rules._thaw_state is _copier(ClanFeudState)
    frozen = freeze(thaw(state), ClanFeudState)  # the generic freeze accepts a W too
    assert type(frozen) is ClanFeudState and frozen == state
    nxt = state.apply(state.legal_actions(state.to_move[0])[0], state.to_move[0])
    assert type(nxt) is ClanFeudState and type(nxt.tasks) is tuple


def test_a_game_draft_class_with_helpers_is_what_thaw_makes() -> None:
    cls = fresh_state_class("HookedState")

    class Working(cls):  # type: ignore[valid-type, misc]
        __slots__ = ()
        __setattr__ = object.__setattr__
        __delattr__ = object.__delattr__

        def raise_stake(self) -> None:
            self.stake += 1

    fast_thaw, fast_freeze = drafting(cls, Working)
    state = toy_state(cls)
    draft = fast_thaw(state)
    assert type(draft) is Working and type(thaw(state)) is Working
    draft.raise_stake()
    frozen = fast_freeze(draft)
    assert type(frozen) is cls and frozen.stake == state.stake + 1
    assert frozen == attrs.evolve(state, stake=state.stake + 1)
    assert drafting(cls, Working)[0] is fast_thaw  # given again: the same pair
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        frozen.stake = 0


def test_a_draft_class_that_cannot_switch_with_its_state_is_refused() -> None:
    cls = fresh_state_class("RefusedState")

    class WithSlots(cls):  # type: ignore[valid-type, misc]
        __slots__ = ("extra",)
        __setattr__ = object.__setattr__
        __delattr__ = object.__delattr__

    class Frozen(cls):  # type: ignore[valid-type, misc]
        __slots__ = ()

    with pytest.raises(TypeError, match="must subclass it"):
        drafting(cls, int)
    with pytest.raises(TypeError, match=r"must declare __slots__ = \(\)"):
        drafting(cls, WithSlots)
    with pytest.raises(TypeError, match="must set __setattr__ and __delattr__ to object's"):
        drafting(cls, Frozen)
    assert type(thaw(toy_state(cls))) is not Frozen  # nothing adopted by a refusal


def test_a_draft_class_comes_before_the_first_thaw() -> None:
    cls = fresh_state_class("ThawedState")
    thaw(toy_state(cls))

    class Late(cls):  # type: ignore[valid-type, misc]
        __slots__ = ()
        __setattr__ = object.__setattr__
        __delattr__ = object.__delattr__

    with pytest.raises(TypeError, match="has the draft class ThawedStateDraft already"):
        drafting(cls, Late)
    with pytest.raises(TypeError, match="is a draft already"):
        drafting(type(thaw(toy_state(cls))), Late)

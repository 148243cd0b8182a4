"""Clan Feud's working copy is the kernel's draft: its description stays the state's."""

from __future__ import annotations

import attrs
import pytest

import clangames
from clangames.clan_feud.rules import W, working
from clangames.clan_feud.state import ClanFeudState
from clangames.engine.rng import Rng


def test_the_working_copy_restates_every_state_field() -> None:
    # W's annotations are what mypy checks the rules' edits against: a field added to the
    # state without them would be edited unchecked. (The kernel's own memo is no rule's.)
    names = [f.name for f in attrs.fields(ClanFeudState) if f.init]
    assert list(W.__annotations__) == names


def test_a_worked_draft_freezes_into_an_equal_state_and_leaves_the_old_one_alone() -> None:
    game = clangames.load("clan_feud", players=3)
    state, _, _ = clangames.rollout(game.initial_state(), Rng(5), max_steps=60)
    assert isinstance(state, ClanFeudState)
    w = W(state)
    assert type(w) is W and w.options is None and w.tasks == list(state.tasks)
    w.m("money")[0] += 7
    w.trow(1)[0] += 1
    frozen = w.freeze(state.phase, state.options)
    assert type(frozen) is ClanFeudState
    assert frozen.money == (state.money[0] + 7, *state.money[1:])
    assert frozen.troops[1][0] == state.troops[1][0] + 1
    assert frozen.troops[0] is state.troops[0]  # rows nobody wrote stay shared
    assert attrs.evolve(frozen, money=state.money, troops=state.troops) == state
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        frozen.turn = 0  # type: ignore[misc]


def test_working_thaws_like_the_constructor() -> None:
    game = clangames.load("clan_feud", players=2)
    state = game.initial_state()
    assert isinstance(state, ClanFeudState)
    a, b = working(state), W(state)
    assert type(a) is type(b) is W
    assert all(getattr(a, f.name) == getattr(b, f.name) for f in attrs.fields(ClanFeudState))


def test_occupied_lists_each_territory_with_a_troop_once_in_order() -> None:
    from clangames.clan_feud.state import occupied

    row = [0] * (3 * 44)
    row[3 * 0 + 2] = 1  # artillery only, in the first territory
    row[3 * 5] = 10  # infantry and cavalry together count once
    row[3 * 5 + 1] = 4
    row[3 * 43 + 1] = 2  # the last territory
    assert occupied(row) == [0, 5, 43]
    assert occupied(tuple(row)) == [0, 5, 43]
    assert occupied([0] * (3 * 44)) == []

"""The harness checks a tuple of legal actions once per run (issue 11's cost per step): a
game that hands out the same tuple again (KOA Kingmaker keeps the other seats' tuples when
one seat commits) is not hashed and compared again at every state. The tuple is remembered
by identity only, so a new tuple, equal or not, is checked in full, and a list (which may
change) is never remembered."""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.testing import ConformanceError, check_game, conformance
from testing import toys


def context(game: clangames.Game) -> conformance._Context:
    return conformance._Context(game, 1, None, 64)


def stake_states(game: clangames.Game) -> list[Any]:
    """States at the stake, after different deals: all hand out the game's shared tuple."""
    states = []
    for first, second in ((0, 1), (2, 1), (1, 2)):
        state = game.initial_state()
        for kind in (first, second):
            state = state.apply(game.draw_actions[kind])
        assert state.phase.name == "stake"
        states.append(state)
    return states


def test_a_shared_tuple_is_checked_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    game = toys.toy()
    looked_up: list[Any] = []
    real = conformance._sorted_ids

    def sorted_ids(ctx: conformance._Context, legal: Any, p: int) -> list[int]:
        looked_up.append(legal)
        return real(ctx, legal, p)

    monkeypatch.setattr(conformance, "_sorted_ids", sorted_ids)
    states = stake_states(game)
    ctx = context(game)
    for state in states:
        conformance._check_cheap(ctx, state)
    assert looked_up == [game.stake_actions]
    # Another run remembers nothing of this one.
    conformance._check_cheap(context(game), states[0])
    assert looked_up == [game.stake_actions] * 2


def test_a_new_tuple_of_the_same_actions_out_of_order_is_caught() -> None:
    game = toys.toy()
    ctx = context(game)
    conformance._sorted_ids(ctx, game.stake_actions, 0)
    assert ctx.sorted_tuples == {id(game.stake_actions): game.stake_actions}
    with pytest.raises(ConformanceError) as info:
        conformance._sorted_ids(ctx, tuple(reversed(game.stake_actions)), 0)
    assert info.value.check == "legal-sorted"


def test_a_list_is_never_remembered() -> None:
    game = toys.toy()
    ctx = context(game)
    legal = list(game.stake_actions)
    conformance._sorted_ids(ctx, legal, 0)
    assert ctx.sorted_tuples == {}


def test_the_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conformance, "_SORTED_KEPT", 8)
    game = toys.toy()
    ctx = context(game)
    for _ in range(20):
        conformance._sorted_ids(ctx, tuple(list(game.stake_actions)), 0)
        assert 1 <= len(ctx.sorted_tuples) <= 8


def test_check_game_catches_unsorted_actions_after_the_shared_tuple_passed() -> None:
    game = toys.faulty("unsorted_anew")
    shared = game.stake_actions
    # The shared tuple is handed out (and remembered) in the games before the fault shows.
    first_low = next(i for i in range(60) if _first_card(game, Rng(Rng(11).fork(i).state)) == 0)
    assert first_low > 0
    with pytest.raises(ConformanceError) as info:
        check_game(game, playouts=60, seed=11, rate=0)
    err = info.value
    assert err.check == "legal-sorted"
    assert err.seed == Rng(11).fork(first_low).state
    assert err.record is not None
    state = err.record.final_state()
    assert state.phase.name == "stake"
    assert state.legal_actions(0) == tuple(reversed(shared))
    assert state.legal_actions(0) is not shared


def _first_card(game: clangames.Game, rng: Rng) -> int:
    """The first card the harness's playout from ``rng`` deals."""
    state = game.initial_state()
    action, _ = clangames.sample_chance(state, rng)
    kind: int = action.kind
    return kind

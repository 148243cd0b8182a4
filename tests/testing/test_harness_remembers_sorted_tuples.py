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


def test_a_shared_tuple_is_verified_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    game = toys.toy()
    ctx = context(game)
    looked_up: list[Any] = []
    real = conformance._verify_action

    def verify(ctx: conformance._Context, action: Any, p: int) -> int:
        looked_up.append(action)
        return real(ctx, action, p)

    monkeypatch.setattr(conformance, "_verify_action", verify)
    stakes = game.stake_actions
    ids = conformance._sorted_ids(ctx, stakes, 0)
    assert ids == tuple(game.action_id(a) for a in stakes)
    assert looked_up == list(stakes)
    ctx.ids.clear()  # a second look that reached the ids would verify them again
    assert conformance._sorted_ids(ctx, stakes, 0) == ids
    assert looked_up == list(stakes)
    # An equal tuple built anew is looked up in full.
    assert conformance._sorted_ids(ctx, tuple(list(stakes)), 0) == ids
    assert looked_up == [*stakes, *stakes]


def test_a_new_tuple_of_the_same_actions_out_of_order_is_caught() -> None:
    game = toys.toy()
    ctx = context(game)
    conformance._sorted_ids(ctx, game.stake_actions, 0)
    with pytest.raises(ConformanceError) as info:
        conformance._sorted_ids(ctx, tuple(reversed(game.stake_actions)), 0)
    assert info.value.check == "legal-sorted"


def test_a_list_is_never_remembered() -> None:
    game = toys.toy()
    ctx = context(game)
    legal = list(game.stake_actions)
    conformance._sorted_ids(ctx, legal, 0)
    legal.reverse()  # the same object, now out of order
    with pytest.raises(ConformanceError) as info:
        conformance._sorted_ids(ctx, legal, 0)
    assert info.value.check == "legal-sorted"


def test_the_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conformance, "_SORTED_KEPT", 8)
    game = toys.toy()
    ctx = context(game)
    for _ in range(20):
        conformance._sorted_ids(ctx, tuple(list(game.stake_actions)), 0)
        assert 1 <= len(ctx.sorted_lists) <= 8


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

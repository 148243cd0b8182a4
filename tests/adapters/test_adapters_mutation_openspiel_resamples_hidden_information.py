"""The OpenSpiel adapter's resampling deals the hidden information again, never hands
back the true state, keeps the resampling seat's information state, and draws its worlds
reproducibly from its seed (the ``openspiel`` extra).

Found by the adapters' mutation audit: a resample returning the true state, a resampled
state keeping seat 0's information state for every seat (or none), a
``resample_from_infostate`` ignoring the sampler, and a ``make_resampler`` dealing the
same world on every call all passed every test before.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from clangames import Rng  # noqa: E402
from clangames.adapters.openspiel import load_game, make_resampler  # noqa: E402


def _dealt(seed: int = 6) -> Any:
    """A three-player King's Kilt state after the deal and a few decisions."""
    game = load_game("kings_kilt", players=3)
    state = game.new_initial_state()
    rng = random.Random(seed)
    decisions = 0
    while decisions < 3:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return state


def test_a_resampled_state_is_the_kernel_s_resample_and_keeps_the_seat_s_view() -> None:
    state = _dealt()
    player = 1
    worlds = [state.resampled(player, Rng(seed)) for seed in range(8)]
    for seed, world in enumerate(worlds):
        assert world.clangames == state.clangames.resample(player, Rng(seed))
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.history() == []  # a fresh state, not a clone of the true one
    # the hidden hands are dealt again: some world is not the true state
    assert any(world.clangames != state.clangames for world in worlds)
    assert any(world.observation_tensor(0) != state.observation_tensor(0) for world in worlds)


def test_resample_from_infostate_draws_its_world_from_the_sampler() -> None:
    state = _dealt()
    draws = [0.1, 0.1, 0.7]
    worlds = [state.resample_from_infostate(2, lambda d=d: d) for d in draws]
    assert worlds[0].clangames == worlds[1].clangames
    assert worlds[0].clangames == state.clangames.resample(2, Rng(int(0.1 * 2.0**53)))
    assert worlds[2].clangames == state.clangames.resample(2, Rng(int(0.7 * 2.0**53)))
    assert worlds[2].information_state_string(2) == state.information_state_string(2)


def test_make_resampler_deals_a_new_world_each_call_and_repeats_for_its_seed() -> None:
    state = _dealt()
    first, again = make_resampler(4), make_resampler(4)
    worlds = [first(state, 0).clangames for _ in range(6)]
    assert worlds == [again(state, 0).clangames for _ in range(6)]
    assert len({repr(w.observation(1)) for w in worlds}) > 1  # not one world six times
    assert worlds != [make_resampler(5)(state, 0).clangames for _ in range(6)]

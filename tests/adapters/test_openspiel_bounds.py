"""OpenSpiel's size facts come from the games' declared length bounds (the ``openspiel``
extra): ``max_game_length`` counts decisions (a simultaneous round once, each commitment
in the sequential variant), ``max_chance_nodes_in_history`` the chance nodes, and
``max_history_length`` (OpenSpiel's) follows from both, so buffers sized by them hold
any game."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import clangames  # noqa: E402
from clangames.adapters.openspiel import load_game  # noqa: E402

CASES = [(spec.name, spec.min_players) for spec in clangames.games()] + [
    (spec.name, spec.max_players) for spec in clangames.games()
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_sizes_are_the_declared_bounds(name: str, players: int) -> None:
    game = load_game(name, players=players)
    bounds = game.clangames.interop.bounds
    assert game.max_game_length() == bounds.decisions
    assert game.max_chance_nodes_in_history() == bounds.chance
    # a simultaneous round writes one history entry per seat
    per_round = players if game.clangames.info.has_simultaneous_moves else 1
    assert game.max_history_length() == per_round * bounds.decisions + bounds.chance


def test_the_sequential_variant_counts_every_commitment() -> None:
    game = load_game("koa_kingmaker", sequential=True, players=5)
    bounds = game.clangames.interop.bounds
    assert game.max_game_length() == 5 * bounds.decisions
    assert game.max_chance_nodes_in_history() == bounds.chance


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker", "kilt_castle"])
def test_random_openspiel_games_fit_the_sizes(name: str) -> None:
    game = load_game(name, players=3)
    rng = random.Random(16)
    for _ in range(5):
        state = game.new_initial_state()
        decisions = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                chance += 1
            elif state.is_simultaneous_node():
                n = game.num_players()
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(n)])
                decisions += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        assert decisions <= game.max_game_length()
        assert chance <= game.max_chance_nodes_in_history()
        assert len(state.history()) <= game.max_history_length()

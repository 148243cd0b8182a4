"""Real states of every game and player count, from seeded random playouts (codec tests)."""

from __future__ import annotations

import functools

import clangames
from clangames import Game, State
from clangames.engine.registry import game_spec
from clangames.testing import random_playout

GAMES = ("kings_kilt", "koa_kingmaker", "kilt_castle")


def player_counts(name: str) -> range:
    """Every allowed player count of a built-in game."""
    spec = game_spec(name)
    return range(spec.min_players, spec.max_players + 1)


@functools.cache
def loaded(name: str, players: int) -> Game:
    """The game, loaded once per test session."""
    return clangames.load(name, players=players)


@functools.cache
def playout_states(name: str, players: int, seed: int) -> tuple[State, ...]:
    """Every state of one seeded random game, from the root to the end."""
    states: list[State] = []
    random_playout(loaded(name, players), clangames.Rng(seed), lambda s, _: states.append(s))
    return tuple(states)


@functools.cache
def sample_states(every: int = 9) -> tuple[State, ...]:
    """Every ``every``-th state of one game per game and player count (chance nodes,
    decisions, simultaneous nodes and the end included)."""
    found: list[State] = []
    for name in GAMES:
        for players in player_counts(name):
            states = playout_states(name, players, 1)
            found += states[::every]
            found.append(states[-1])
    return tuple(found)

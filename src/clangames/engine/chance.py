"""Sampling chance nodes with the kernel's Rng (drivers, bots and tests use these)."""

from __future__ import annotations

from clangames.engine.rng import Rng
from clangames.engine.state import Action, State


def sample_chance(state: State, rng: Rng) -> tuple[Action, Rng]:
    """One outcome of a chance node, drawn with its exact probability, and the next Rng."""
    weights = state.chance_weights()
    if not weights:
        raise ValueError(f"not a chance node: to_move is {state.to_move!r}")
    index, rng = rng.weighted([w for _, w in weights])
    return weights[index][0], rng


def play_chance(state: State, rng: Rng) -> tuple[State, Rng]:
    """Sample chance nodes until a player must decide or the game ends."""
    while state.is_chance:
        action, rng = sample_chance(state, rng)
        state = state.apply(action)
    return state, rng


def resolve_chance(state: State, rng: Rng) -> State:
    """The first decision (or terminal) state reached from ``state`` by sampling chance
    with ``rng``. Use :func:`play_chance` to keep the advanced Rng for later draws."""
    return play_chance(state, rng)[0]

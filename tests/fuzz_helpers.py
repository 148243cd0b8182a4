"""What the mutation fuzzers share: their example-count scale, paths into parsed data
(JSON or TOML), and random legal playouts that must end within the declared bound."""

from __future__ import annotations

import os
from typing import Any

from clangames.engine.chance import sample_chance
from clangames.engine.game import Game
from clangames.engine.rng import Rng
from clangames.engine.state import State

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"
SCALE = int(os.environ.get("CLANGAMES_FUZZ_SCALE", "20" if SOAK else "1"))
"""Multiplies the example counts (a soak hunts further)."""

DataPath = tuple[str | int, ...]
"""Keys and indexes from the root of parsed data down to one value."""


def paths(data: Any, prefix: DataPath = ()) -> list[DataPath]:
    """Every path into ``data`` (the root included)."""
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += paths(value, (*prefix, i))
    return out


def int_paths(data: Any) -> list[DataPath]:
    """The path of every integer (not bool) in ``data``, in :func:`paths`' order."""
    return [
        p
        for p in paths(data)
        if isinstance(get(data, p), int) and not isinstance(get(data, p), bool)
    ]


def get(data: Any, path: DataPath) -> Any:
    """The value at ``path`` in ``data``."""
    for key in path:
        data = data[key]
    return data


def random_step(state: State, rng: Rng) -> tuple[State, Rng]:
    """One random legal move (a chance outcome sampled with its probability)."""
    if state.is_chance:
        action, rng = sample_chance(state, rng)
        return state.apply(action), rng
    player, rng = rng.choice(state.to_move)
    legal = state.legal_actions(player)
    action, rng = rng.choice(legal)
    return state.apply(action, player), rng


def random_playout(game: Game, state: State, seed: int) -> State:
    """Random legal moves from ``state`` (from ``Rng(seed)``) until the game is over;
    fails if it outlasts the game's declared bound."""
    rng = Rng(seed)
    for _ in range(game.info.max_game_length + 1):
        if state.is_terminal:
            return state
        state, rng = random_step(state, rng)
    raise AssertionError(f"the game did not end within {game.info.max_game_length} steps")

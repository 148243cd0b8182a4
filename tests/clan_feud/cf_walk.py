"""The random walk the Clan Feud audits share: one step at a time, so that each test can
check what it audits between steps and stop where it wants."""

from __future__ import annotations

from typing import Any

import clangames
from clangames.engine.rng import Rng


def random_step(state: Any, rng: Rng) -> tuple[Any, Rng]:
    """One random step from a live ``state``: a chance outcome sampled with its
    probability, else a uniform seat among those to move and a uniform legal action."""
    if state.is_chance:
        action, rng = clangames.sample_chance(state, rng)
        return state.apply(action), rng
    k, rng = rng.below(len(state.to_move))
    player = state.to_move[k]
    legal = state.legal_actions(player)
    j, rng = rng.below(len(legal))
    return state.apply(legal[j], player), rng

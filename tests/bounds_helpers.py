"""Playing whole games under a policy while counting decisions and chance nodes the way the
kernel does (``clangames.engine.interop.LengthCount``), for the length-bound tests."""

from __future__ import annotations

from collections.abc import Callable
from statistics import fmean

import attrs

from clangames.engine.chance import sample_chance
from clangames.engine.game import Game
from clangames.engine.interop import LengthBounds, LengthCount
from clangames.engine.rng import Rng
from clangames.engine.state import State

Policy = Callable[[State, int, Rng], tuple[object, Rng]]
"""Picks the action of ``player`` at ``state`` (a decision node), with its Rng."""


def random_policy(state: State, player: int, rng: Rng) -> tuple[object, Rng]:
    """A uniformly random legal action."""
    return rng.choice(state.legal_actions(player))


def play(game: Game, policy: Policy, seed: int, limit: int = 1_000_000) -> LengthCount:
    """One whole game under ``policy`` (chance sampled from ``seed``): its counts."""
    return play_to_end(game, policy, seed, limit)[0]


def play_to_end(
    game: Game, policy: Policy, seed: int, limit: int = 1_000_000
) -> tuple[LengthCount, State]:
    """One whole game under ``policy`` (chance sampled from ``seed``): its counts and its
    final state."""
    rng = Rng(seed)
    state = game.initial_state()
    count = LengthCount()
    steps = 0
    while not state.is_terminal:
        count = count.step(state)
        if state.is_chance:
            action, rng = sample_chance(state, rng)
            state = state.apply(action)
        else:
            player = state.to_move[0]
            action, rng = policy(state, player, rng)
            state = state.apply(action, player)
        steps += 1
        if steps > limit:
            raise AssertionError(f"no end after {limit} steps")
    return count, state


@attrs.frozen
class Observed:
    """Longest and mean counts of several games against the declared bounds."""

    bounds: LengthBounds
    max_decisions: int
    max_chance: int
    mean_decisions: float
    mean_chance: float

    @property
    def decision_ratio(self) -> float:
        """Longest decisions observed / the bound."""
        return self.max_decisions / self.bounds.decisions

    @property
    def chance_ratio(self) -> float:
        """Most chance nodes observed / the bound."""
        return self.max_chance / self.bounds.chance


def observe(game: Game, policy: Policy, seeds: range) -> Observed:
    """Play one game per seed; every count must stay within the declared bounds."""
    bounds = game.interop.bounds
    counts = [play(game, policy, seed) for seed in seeds]
    for seed, count in zip(seeds, counts, strict=True):
        assert count.exceeds(bounds) is None, (seed, count.exceeds(bounds))
    return Observed(
        bounds,
        max(c.decisions for c in counts),
        max(c.chance for c in counts),
        fmean(c.decisions for c in counts),
        fmean(c.chance for c in counts),
    )

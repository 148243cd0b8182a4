"""Shared by the tests that hold every per-seat surface to the promise that hidden
information stays hidden: seeded random games, the states sampled from them, and for each
a seat and that seat's re-deal (``state.resample(seat, rng)``, a state the seat cannot tell
apart from the real one). A surface whose output for the seat differs between the two tells
the seat something it cannot know.

The default suite samples a few games per player count (a few seconds per test); with
``CLANGAMES_SOAK=1`` the ``soak`` twins sample 20 games per count and every state of three
more, as the brief of the leak hunt asked.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

import clangames
from clangames import Action, Game, Rng, State
from clangames.engine.registry import games
from clangames.testing import random_playout

COUNTS = [(spec.name, n) for spec in games() for n in range(spec.min_players, spec.max_players + 1)]
"""Every game with every player count it takes."""

COUNT_IDS = [f"{name}-{n}p" for name, n in COUNTS]


@attrs.frozen
class Sample:
    """How many seeded games to play and which of their states to look at: every
    ``every``-th state of the first ``games`` games (the last state, the end, always), and
    every state of ``whole`` games after them."""

    games: int
    every: int
    whole: int = 0


QUICK = Sample(games=2, every=9)
"""The default suite's sample: a few seconds per game and player count."""

SOAK_SAMPLE = Sample(games=20, every=3, whole=3)
"""The soak's sample (``CLANGAMES_SOAK=1``)."""


@attrs.frozen
class Step:
    """One step of a game: the state before it, the action, who took it, the state after."""

    before: State
    action: Action
    player: int
    after: State


def playout(game: Game, seed: int) -> list[Step]:
    """A seeded random game to its end, step by step, as the testing toolkit's
    ``random_playout`` plays it (simultaneous players commit in a random order, so
    half-committed rounds are met too)."""
    states: list[State] = []
    record, _, _ = random_playout(game, Rng(seed), lambda state, moves: states.append(state))
    return [
        Step(before, game.parse_action(move.action), move.player, after)
        for before, move, after in zip(states[:-1], record.moves, states[1:], strict=True)
    ]


def sampled_steps(name: str, players: int, sample: Sample) -> Iterator[tuple[int, Step]]:
    """``(seed, step)`` for the sampled steps of the sample's games (seeds 0 up)."""
    game = clangames.load(name, players=players)
    for seed in range(sample.games + sample.whole):
        every = sample.every if seed < sample.games else 1
        for i, step in enumerate(playout(game, seed)):
            if i % every == 0:
                yield seed, step


def sampled_states(name: str, players: int, sample: Sample) -> Iterator[tuple[str, State]]:
    """``(where, state)`` for the sampled states: chance nodes, decisions, simultaneous
    rounds and each game's end; ``where`` names the game's seed and the step."""
    game = clangames.load(name, players=players)
    for seed in range(sample.games + sample.whole):
        every = sample.every if seed < sample.games else 1
        steps = playout(game, seed)
        for i, step in enumerate(steps):
            if i % every == 0:
                yield f"seed {seed}, step {i}", step.before
        yield f"seed {seed}, the end", steps[-1].after


def redeals(name: str, players: int, sample: Sample) -> Iterator[tuple[str, int, State, State]]:
    """``(where, seat, state, re-deal)`` for every sampled state and every seat, each seat's
    re-deal drawn from a seed of its own."""
    for k, (where, state) in enumerate(sampled_states(name, players, sample)):
        for seat in range(players):
            other = state.resample(seat, Rng(7).fork(k * 8 + seat))
            yield f"{where}, seat {seat}", seat, state, other

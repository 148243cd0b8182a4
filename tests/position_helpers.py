"""Shared checks for the position notation tests of every game."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clangames
from clangames.engine.game import Game
from clangames.engine.position import PositionError
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.testing import random_playout
from clangames.testing.strategies import follow_path


def assert_round_trips(game: Game, seeds: range) -> int:
    """Every state of seeded random games writes a position that reads back equal (and
    writes the same text); returns how many states were checked."""
    checked = 0

    def check(state: State, _moves: object) -> None:
        nonlocal checked
        text = state.to_position()
        back = game.state_from_position(text)
        assert back == state, text
        assert back.to_position() == text
        assert type(back) is type(state) and back.to_move == state.to_move
        checked += 1

    for seed in seeds:
        random_playout(game, Rng(seed), check)
    return checked


def hypothesis_round_trip(name: str, max_examples: int = 15) -> None:
    """``state_from_position(state.to_position()) == state`` for Hypothesis-drawn states
    (any player count, any reachable state within 300 moves)."""
    spec = clangames.game_spec(name)

    @settings(
        max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    @given(
        players=st.integers(spec.min_players, spec.max_players),
        path=st.lists(st.integers(0, 2**16), max_size=300),
    )
    def run(players: int, path: list[int]) -> None:
        game = clangames.load(name, players=players)
        state, _ = follow_path(game, path)
        assert game.state_from_position(state.to_position()) == state

    run()


def refused(game: Game, text: str) -> str:
    """The message of the PositionError that ``text`` gets (it must get one)."""
    try:
        game.state_from_position(text)
    except PositionError as exc:
        message = str(exc)
        assert message
        return message
    raise AssertionError(f"accepted: {text!r}")

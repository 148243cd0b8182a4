"""Every game's seat-taking methods (``observation``, ``observation_tensor``, ``resample``)
refuse what is not a seat, and ``resample`` what is not a generator, with
InvalidArgumentError naming it, before the game's code runs: seat -1 used to index the
last seat's secrets in every game with hidden cards."""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames import InvalidArgumentError, Rng, rollout_moves
from clangames.engine.registry import games

np = pytest.importorskip("numpy")

GAMES = [
    (spec.name, players)
    for spec in games()
    if not spec.name.startswith("toy")
    for players in sorted({spec.min_players, spec.max_players})
]


def mid_game(name: str, players: int) -> clangames.State:
    game = clangames.load(name, players=players)
    state, _, _ = rollout_moves(game.initial_state(), Rng(5), max_steps=60)
    return state


@pytest.mark.parametrize(("name", "players"), GAMES)
@pytest.mark.parametrize("bad", [-1, "players", True, None, 1.0, "0"])
def test_a_value_that_is_not_a_seat_is_refused_by_name(name: str, players: int, bad: Any) -> None:
    state = mid_game(name, players)
    if bad == "players":
        bad = players
    expected = rf"is not a seat of {name} \(expected an int from 0 to {players - 1}\)"
    for call in (
        lambda: state.observation(bad),
        lambda: state.observation_tensor(bad),
        lambda: state.resample(bad, Rng(1)),
    ):
        with pytest.raises(InvalidArgumentError, match=expected) as info:
            call()
        assert repr(bad) in str(info.value)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_generator_that_is_not_an_rng_is_refused(name: str, players: int) -> None:
    state = mid_game(name, players)
    for bad in (12, None, "seed"):
        with pytest.raises(
            InvalidArgumentError, match=r"is not a generator \(expected a clangames Rng\)"
        ):
            state.resample(0, bad)
    with pytest.raises(InvalidArgumentError, match="is not a generator"):
        state.resample(player=0, rng=7)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_any_integer_type_is_a_seat(name: str, players: int) -> None:
    # NumPy integers come from frameworks' action and agent arrays; they mean the seat.
    state = mid_game(name, players)
    seat = players - 1
    assert state.observation(np.int64(seat)) == state.observation(seat)
    assert state.observation_tensor(np.int32(seat)) == state.observation_tensor(seat)
    assert state.resample(np.int64(seat), Rng(3)) == state.resample(seat, Rng(3))
    assert state.resample(player=seat, rng=Rng(3)) == state.resample(seat, Rng(3))


def test_a_third_party_game_gets_the_check_too() -> None:
    # The kernel checks the methods of every State subclass, not only the built-in games.
    from testing.toys import ToyState

    assert getattr(ToyState.observation, "_checks_seat", False)
    assert getattr(ToyState.resample, "_checks_seat", False)

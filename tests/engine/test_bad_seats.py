"""Every game's seat-taking methods (``observation``, ``observation_tensor``, ``resample``,
``explain_illegal``) refuse what is not a seat, and ``resample`` what is not a generator,
with InvalidArgumentError naming it, before the game's code runs: seat -1 used to index the
last seat's secrets in every game with hidden cards (and KOA's ``explain_illegal`` said
whether a card was in the last house's hand). Integers of any type (NumPy's) are accepted
wherever the API takes an int: seats, action ids, integer parameters."""

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
    action = state.game.action_from_id(0)
    for call in (
        lambda: state.observation(bad),
        lambda: state.observation_tensor(bad),
        lambda: state.resample(bad, Rng(1)),
        lambda: state.explain_illegal(action, bad),
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
    action = state.game.action_from_id(0)
    assert state.explain_illegal(action, np.int64(seat)) == state.explain_illegal(action, seat)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_numpy_integers_work_wherever_the_api_takes_an_int(name: str, players: int) -> None:
    # The compiled build's rules take only a real int: the kernel converts at its doors
    # (CI runs this file against the compiled build too).
    game = clangames.load(name, players=np.int64(players))
    assert game.num_players == players and type(game.params["players"]) is int
    assert game == clangames.load(name, players=players)
    state, _, _ = rollout_moves(game.initial_state(), Rng(5), max_steps=9)
    while state.is_chance:
        state = state.apply(state.chance_outcomes()[0][0])
    seat = state.to_move[0]
    action = state.legal_actions(seat)[-1]
    number = game.actions.id(action)
    assert game.action_from_id(np.int64(number)) is game.action_from_id(number)
    assert state.apply(action, np.int64(seat)) == state.apply(action, seat)
    assert state.is_legal(action, np.int32(seat))
    assert state.legal_actions(np.int64(seat)) == state.legal_actions(seat)
    assert state.legal_mask(np.int64(seat)) == state.legal_mask(seat)
    for bad in (True, 1.0, "1"):
        with pytest.raises(clangames.InvalidActionError, match="action id must be an int"):
            game.action_from_id(bad)
        with pytest.raises(clangames.InvalidParameterError, match="must be int"):
            clangames.load(name, players=bad)


def test_a_third_party_game_gets_the_check_too() -> None:
    # The kernel checks the methods of every State subclass, not only the built-in games.
    from testing.toys import ToyState

    assert getattr(ToyState.observation, "_checks_seat", False)
    assert getattr(ToyState.resample, "_checks_seat", False)


def test_koa_explain_illegal_no_longer_tells_the_last_houses_hand() -> None:
    state = mid_game("koa_kingmaker", 3)
    for card in range(3):
        with pytest.raises(InvalidArgumentError, match="is not a seat"):
            state.explain_illegal(state.game.action_from_id(card), -1)


def one_seat_to_move(name: str, players: int) -> tuple[clangames.State, int]:
    """A mid-game state of ``name`` where a seat (not chance) is to move, and that seat."""
    game = clangames.load(name, players=players)
    for steps in range(20, 400):
        state, _, _ = rollout_moves(game.initial_state(), Rng(5), max_steps=steps)
        if state.phase.to_move and state.phase.to_move[0] >= 0:
            return state, state.phase.to_move[0]
    raise AssertionError(f"no state of {name} with a seat to move")


@pytest.mark.parametrize(("name", "players"), GAMES)
@pytest.mark.parametrize("bad", [0.0, False, True, "0", 1.5])
@pytest.mark.parametrize("memoised", [False, True])
def test_the_step_by_step_api_refuses_a_player_that_is_no_integer(
    name: str, players: int, bad: Any, memoised: bool
) -> None:
    # 0.0 found seat 0's memoised actions once they were asked for (and False applied as
    # seat 0), while on a fresh state it reached the rules, which raised TypeError.
    state, seat = one_seat_to_move(name, players)
    fresh = state.game.state_from_json(state.to_json())
    if memoised:
        fresh.legal_actions(seat)
    action = state.legal_actions(seat)[0]
    before = fresh.to_json()
    for call in (
        lambda: fresh.legal_actions(bad),
        lambda: fresh.legal_mask(bad),
        lambda: fresh.is_legal(action, bad),
        lambda: fresh.apply(action, bad),
    ):
        with pytest.raises(
            InvalidArgumentError, match=r"is not a player \(expected an int"
        ) as info:
            call()
        assert repr(bad) in str(info.value)
    assert fresh.to_json() == before
    numpy_seat = np.int64(seat)
    assert fresh.legal_actions(numpy_seat) == state.legal_actions(seat)
    assert fresh.is_legal(action, numpy_seat)
    assert fresh.apply(action, numpy_seat) == state.apply(action, seat)

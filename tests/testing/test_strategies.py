"""clangames.testing.strategies: paths are legal records that replay to the same state."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import clangames
from clangames.engine.game import Game
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.testing import strategies
from testing import toys
from testing.toys import ToyState

TOY = toys.toy()


@settings(max_examples=150, deadline=None)
@given(strategies.action_paths(max_steps=12))
def test_follow_path_gives_a_legal_record_that_replays(path: list[int]) -> None:
    state, record = strategies.follow_path(TOY, path)
    states = list(record.replay())
    assert states[-1] == state
    assert len(states) == len(record.moves) + 1
    for before, move in zip(states[:-1], record.moves, strict=True):
        action = TOY.parse_action(move.action)
        if move.player == CHANCE:
            assert before.is_chance
            assert action in before.legal_actions(CHANCE)
        else:
            assert move.player in before.to_move
            assert before.is_legal(action, move.player)
    # A whole game is 6 steps; a path of n choices makes min(n, 6) moves unless a
    # simultaneous node used two choices (one for the seat, one for the bid).
    assert len(record.moves) <= min(len(path), 6)
    assert GameRecord.from_json(record.dumps()) == record


def test_follow_path_of_zeros_plays_first_options() -> None:
    state, record = strategies.follow_path(TOY, [0] * 20)
    assert [m.player for m in record.moves] == [CHANCE, CHANCE, 0, CHANCE, 0, 1]
    assert [m.action for m in record.moves] == [
        "draw low",
        "draw low",
        "stake 1",
        "draw mid",
        "bid 0",
        "bid 0",
    ]
    assert isinstance(state, ToyState)
    assert state.is_terminal and state.winners() == (0, 1)
    assert state.scores() == (1, 1)


def test_follow_path_picks_the_seat_at_a_simultaneous_node() -> None:
    # deal low, deal low, stake 1, flip mid, then choice 1 picks seat 1, which bids 1.
    state, record = strategies.follow_path(TOY, [0, 0, 0, 0, 1, 1])
    assert [(m.player, m.action) for m in record.moves[-1:]] == [(1, "bid 1")]
    assert state.to_move == (0,) and state.is_simultaneous


def test_follow_path_stops_at_the_end() -> None:
    state, record = strategies.follow_path(TOY, list(range(50)))
    assert state.is_terminal
    assert len(record.moves) == 6


@settings(max_examples=60, deadline=None)
@given(strategies.reachable_states(TOY, max_steps=8))
def test_reachable_states_are_consistent(state: State) -> None:
    state.check_consistency()
    assert TOY.state_from_json(state.to_json()) == state


@settings(max_examples=30, deadline=None)
@given(strategies.legal_action_sequences(TOY, max_steps=8))
def test_legal_action_sequences_replay(record: GameRecord) -> None:
    assert record.game == "toy_duel"
    assert len(list(record.replay())) == len(record.moves) + 1


@settings(max_examples=20, deadline=None)
@given(strategies.parameters("kings_kilt"))
def test_parameters_load_kings_kilt(params: dict[str, object]) -> None:
    assert set(params) == {"players", "betrayal_match"}
    game = clangames.load("kings_kilt", **params)
    assert game.num_players == params["players"]
    assert 2 <= game.num_players <= 4
    assert game.params["betrayal_match"] == params["betrayal_match"]


@settings(max_examples=10, deadline=None)
@given(strategies.loaded_games(toys.SPEC))
def test_loaded_games_are_games(game: Game) -> None:
    assert game == TOY  # the toy has one parameter set


@settings(max_examples=50, deadline=None)
@given(strategies.seeds())
def test_seeds_are_valid_rng_seeds(seed: int) -> None:
    assert Rng(seed).state == seed


def test_parameters_cover_every_choice() -> None:
    spec = clangames.game_spec("kings_kilt")
    seen = set()

    @settings(max_examples=60, deadline=None, database=None)
    @given(strategies.parameters(spec))
    def collect(params: dict[str, object]) -> None:
        seen.add((params["players"], params["betrayal_match"]))

    collect()
    assert {p for p, _ in seen} == {2, 3, 4}
    assert {b for _, b in seen} == {"traitor", "target"}


def test_unknown_game_in_strategies() -> None:
    with pytest.raises(clangames.UnknownGameError, match="no_such_game"):
        strategies.parameters("no_such_game")

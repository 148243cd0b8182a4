"""GameRecord: JSON round trips, replay of every state, and corrupt records."""

from __future__ import annotations

import json
from typing import Any

import pytest

import clangames
from clangames import CHANCE, GameRecord, Move, State, StateDecodeError
from testing import toys
from testing.toys import Bid, Draw, Stake

GAME = toys.toy(max_bid=3)

MOVES = (
    Move(CHANCE, "draw mid"),
    Move(CHANCE, "draw high"),
    Move(0, "stake 1"),
    Move(CHANCE, "draw low"),
    Move(1, "bid 3"),
    Move(0, "bid 0"),
)


def full_record() -> GameRecord:
    """A whole game of the toy, built move by move as a driver would."""
    record = GameRecord.start(GAME)
    state: State = GAME.initial_state()
    plan = [
        (None, Draw(1)),
        (None, Draw(2)),
        (0, Stake(1)),
        (None, Draw(0)),
        (1, Bid(3)),
        (0, Bid(0)),
    ]
    for player, action in plan:
        who = CHANCE if player is None else player
        record = record.with_move(state, action, who)
        state = state.apply(action, player)
    return record


def test_start_and_with_move() -> None:
    record = GameRecord.start(GAME)
    assert record.game == "toy_duel"
    assert record.params == {"players": 2, "max_bid": 3, "scoring": "standard"}
    assert record.moves == ()
    assert full_record().moves == MOVES


def test_to_json_and_back() -> None:
    record = full_record()
    data = record.to_json()
    assert data == {
        "game": "toy_duel",
        "params": {"players": 2, "max_bid": 3, "scoring": "standard"},
        "moves": [
            [-1, "draw mid"],
            [-1, "draw high"],
            [0, "stake 1"],
            [-1, "draw low"],
            [1, "bid 3"],
            [0, "bid 0"],
        ],
    }
    assert GameRecord.from_json(data) == record
    assert GameRecord.from_json(record.dumps()) == record
    assert GameRecord.from_json(record.dumps().encode()) == record
    assert json.loads(record.dumps()) == data


def test_replay_yields_every_state() -> None:
    states = list(full_record().replay())
    assert len(states) == 7
    assert states[0] == GAME.initial_state()
    assert [s.to_move for s in states] == [(CHANCE,), (CHANCE,), (0,), (CHANCE,), (0, 1), (0,), ()]
    expected: State = GAME.initial_state()
    for state, (player, action) in zip(
        states[1:],
        [
            (None, Draw(1)),
            (None, Draw(2)),
            (0, Stake(1)),
            (None, Draw(0)),
            (1, Bid(3)),
            (0, Bid(0)),
        ],
        strict=True,
    ):
        expected = expected.apply(action, player)
        assert state == expected
    final = full_record().final_state()
    assert final == states[-1] and final.is_terminal
    # Seat 0: mid (2) minus bid 0; seat 1: high (3) times stake 1 for out-bidding, minus 3.
    assert final.scores() == (2, 0) and final.winners() == (0,)


def test_empty_record_replays_to_the_initial_state() -> None:
    assert GameRecord.start(GAME).final_state() == GAME.initial_state()
    assert GameRecord.start(GAME).load_game() == GAME


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{oops", "record: not valid JSON"),
        ("[1]", "record: expected an object, got list"),
        ({"game": "toy_duel", "params": {}}, "record: missing field 'moves'"),
        ({"game": "toy_duel", "moves": []}, "record: missing field 'params'"),
        ({"params": {}, "moves": []}, "record: missing field 'game'"),
        ({"game": 3, "params": {}, "moves": []}, "record.game: expected a string, got 3"),
        ({"game": "toy_duel", "params": [], "moves": []}, "record.params: expected an object"),
        ({"game": "toy_duel", "params": {}, "moves": {}}, "record.moves: expected a list"),
        (
            {"game": "toy_duel", "params": {}, "moves": [[0, "stake 1"], [0]]},
            "record.moves[1]: expected [player, action text], got [0]",
        ),
        (
            {"game": "toy_duel", "params": {}, "moves": [["0", "stake 1"]]},
            "record.moves[0]: expected [player, action text]",
        ),
        (
            {"game": "toy_duel", "params": {}, "moves": [[True, "stake 1"]]},
            "record.moves[0]: expected [player, action text]",
        ),
        (
            {"game": "toy_duel", "params": {}, "moves": [[0, 5]]},
            "record.moves[0]: expected [player, action text], got [0, 5]",
        ),
        (
            {"game": "toy_duel", "params": {}, "moves": [[0, "stake 1", "extra"]]},
            "record.moves[0]: expected [player, action text]",
        ),
    ],
)
def test_corrupt_records_name_the_field(data: Any, message: str) -> None:
    with pytest.raises(StateDecodeError) as info:
        GameRecord.from_json(data)
    assert str(info.value).startswith(message), str(info.value)


def corrupt_moves(index: int, move: list[Any]) -> GameRecord:
    """The full record with move ``index`` replaced."""
    data = full_record().to_json()
    data["moves"][index] = move
    return GameRecord.from_json(data)


@pytest.mark.parametrize(
    ("index", "move", "message"),
    [
        (0, [-1, "draw purple"], "record.moves[0] ('draw purple'): 'draw purple' is not an action"),
        (2, [1, "stake 1"], "record.moves[2] ('stake 1'): player 1 is not to move"),
        (2, [0, "bid 0"], "record.moves[2] ('bid 0'): 'bid 0' is not allowed now"),
        (4, [0, "bid 3"], "record.moves[4] ('bid 3'): player 0 may bid at most 2, not 3"),
        (3, [0, "draw low"], "record.moves[3] ('draw low'): player 0 is not to move"),
        (5, [1, "bid 0"], "record.moves[5] ('bid 0'): player 1 is not to move"),
    ],
)
def test_replay_names_the_move_that_does_not_apply(
    index: int, move: list[Any], message: str
) -> None:
    record = corrupt_moves(index, move)
    replayed = []
    with pytest.raises(StateDecodeError) as info:
        for state in record.replay():
            replayed.append(state)
    assert str(info.value).startswith(message), str(info.value)
    assert len(replayed) == index + 1  # every state before the bad move was yielded


def test_move_after_the_end() -> None:
    data = full_record().to_json()
    data["moves"].append([0, "bid 0"])
    with pytest.raises(StateDecodeError, match=r"^record.moves\[6\] \('bid 0'\): the game is over"):
        GameRecord.from_json(data).final_state()


def test_unknown_game_or_bad_params_in_a_record() -> None:
    with pytest.raises(clangames.UnknownGameError, match="no game called 'nope'"):
        GameRecord.from_json({"game": "nope", "params": {}, "moves": []}).final_state()
    with pytest.raises(clangames.InvalidParameterError, match=r"'max_bid' must be in 1..3"):
        GameRecord.from_json(
            {"game": "toy_duel", "params": {"max_bid": 9}, "moves": []}
        ).final_state()

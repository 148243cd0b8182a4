"""GameMachine: it plays a correct game cleanly, and shrinks an injected rule bug in a toy
game to the shortest record, printed with a position that reads back."""

from __future__ import annotations

import pytest

from clangames.engine.record import GameRecord
from clangames.engine.state import State
from clangames.testing import GameMachine, MachineFailure
from clangames.testing.machine import run_machine
from testing import toys
from testing.toys import ToyState


def bids_within_rank(state: State) -> None:
    """The rule the bug breaks: nobody bids more than their card's rank."""
    assert isinstance(state, ToyState)
    game = state.game
    for seat, action_id in enumerate(state.commitments.ids):
        if action_id >= 0:
            amount = game.bid_amount[action_id]
            assert amount <= state.cards[seat] + 1, f"seat {seat} bid {amount}"


def test_a_correct_toy_game_passes() -> None:
    machine = GameMachine.for_game(toys.toy(), invariants=[bids_within_rank], full_checks=True)
    run_machine(machine, max_examples=30, steps=6)


def test_an_injected_rule_bug_shrinks_to_the_shortest_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The bug: the bid cap forgets the card (any bid up to max_bid is allowed).
    monkeypatch.setattr(ToyState, "bid_cap", lambda self, player: self.game.max_bid)
    game = toys.toy()
    machine = GameMachine.for_game(game, invariants=[bids_within_rank])
    with pytest.raises(MachineFailure) as caught:
        run_machine(machine, max_examples=300, steps=5, derandomize=True)
    failure = caught.value
    assert failure.check == "bids_within_rank"
    moves = failure.record.moves
    # Two deals, the stake, the community card and the one overbid: nothing shorter fails.
    assert len(moves) == 5
    assert [m.action.split()[0] for m in moves] == ["draw", "draw", "stake", "draw", "bid"]
    assert moves[-1].action == "bid 2"
    # The printed position is the failing state, and so is the record's replay.
    state = game.state_from_position(failure.position)
    assert state == GameRecord.from_json(failure.record.to_json()).final_state()
    with pytest.raises(AssertionError):
        bids_within_rank(state)
    assert failure.position in str(failure)
    assert "bid 2" in str(failure)


def test_a_broken_kernel_promise_is_reported_with_its_record() -> None:
    # Legal actions listed in decreasing id order: a cheap check, run after every move.
    game = toys.faulty("unsorted")
    with pytest.raises(MachineFailure) as caught:
        run_machine(GameMachine.for_game(game), max_examples=50, steps=5, derandomize=True)
    assert caught.value.check == "kernel contract"
    assert caught.value.record.game == game.name


def test_for_game_by_name_draws_parameters() -> None:
    machine = GameMachine.for_game("kings_kilt", name="KK")
    assert machine.__name__ == "KK" and issubclass(machine, GameMachine)
    run_machine(machine, max_examples=3, steps=3)


class CountingMachine(GameMachine):
    """Keeps history in its own attributes through the two hooks."""

    applied = 0
    checked = 0
    games_started = 0

    def apply_move(self, before: State, action: object, player: int) -> State:
        type(self).applied += 1
        return super().apply_move(before, action, player)

    def check_move(self, before: State | None, after: State) -> None:
        type(self).checked += 1
        if before is None:
            type(self).games_started += 1
            assert after == after.game.initial_state()


def test_subclass_hooks_see_every_move_and_every_new_game() -> None:
    machine = CountingMachine.for_game(toys.toy(), name="Counting")
    run_machine(machine, max_examples=10, steps=4)
    counts = machine.__dict__  # the counters live on the machine class for_game made
    assert counts["applied"] > 20
    # every applied move is checked, and so is each game's initial state
    assert counts["checked"] == counts["applied"] + counts["games_started"]
    assert counts["games_started"] >= 10

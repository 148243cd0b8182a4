"""GameMachine: it plays a correct game cleanly, and shrinks an injected rule bug in a toy
game to the shortest record, printed with a position that reads back."""

from __future__ import annotations

import pytest

from clangames.engine.errors import InvalidParameterError
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


def test_round_trip_every_checks_starts_ends_and_every_nth_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import clangames.testing.machine as machine_module

    round_tripped: list[State] = []
    checked = machine_module.position_failure

    def counting(state: State) -> tuple[str, str] | None:
        round_tripped.append(state)
        return checked(state)

    monkeypatch.setattr(machine_module, "position_failure", counting)
    seen: list[tuple[int, bool, bool]] = []

    class Sampling(GameMachine):
        def check_move(self, before: State | None, after: State) -> None:
            tripped = bool(round_tripped) and round_tripped[-1] is after
            seen.append((len(self.moves), after.is_terminal, tripped))

    run_machine(Sampling.for_game(toys.toy(), round_trip_every=3), max_examples=10, steps=4)
    assert all(tripped == (moves % 3 == 0 or end) for moves, end, tripped in seen)
    assert any(not tripped for _, _, tripped in seen)
    assert any(moves > 0 and tripped for moves, _, tripped in seen)


@pytest.mark.parametrize("every", [0, -2, 1.5, True])
def test_round_trip_every_rejects_anything_but_a_positive_whole_number(every: object) -> None:
    with pytest.raises(InvalidParameterError, match="round_trip_every"):
        GameMachine.for_game(toys.toy(), round_trip_every=every)  # type: ignore[arg-type]


class OneGameMachine(GameMachine):
    """Ends each run's play with its first game."""

    most_games = 0
    ended = 0

    def __init__(self) -> None:
        super().__init__()
        self.started = 0

    def play_on(self) -> bool:
        return False

    def check_move(self, before: State | None, after: State) -> None:
        if before is None:
            self.started += 1
            type(self).most_games = max(type(self).most_games, self.started)
        if after.is_terminal:
            type(self).ended += 1


def test_play_on_false_ends_the_run_with_its_first_game() -> None:
    machine = OneGameMachine.for_game(toys.toy(), name="OneGame")
    run_machine(machine, max_examples=10, steps=8)
    counts = machine.__dict__
    assert counts["ended"] > 0 and counts["most_games"] == 1


class ManyGamesMachine(OneGameMachine):
    def play_on(self) -> bool:
        return True


def test_play_on_true_goes_on_with_new_games() -> None:
    machine = ManyGamesMachine.for_game(toys.toy(), name="ManyGames")
    run_machine(machine, max_examples=10, steps=8)
    assert machine.__dict__["most_games"] > 1

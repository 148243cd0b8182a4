"""GameMachine keeps each of its promises (the harness's mutation audit): ``full_checks``
runs the harness's full checks, transitions and invariants are called and named, a legal
action that does not apply is reported as such, ``starts`` replaces the first game's start
and the failure says where it began, and ``play`` lets either sealed bidder commit first."""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest
from hypothesis import Phase
from hypothesis import strategies as st

from clangames.engine.state import State
from clangames.testing import GameMachine, MachineFailure
from clangames.testing.machine import run_machine
from testing import toys
from testing.toys import ToyState

NO_SHRINK = {"phases": [Phase.explicit, Phase.reuse, Phase.generate], "derandomize": True}
"""A failing run is reported as found: these tests check what is reported, not how far
Hypothesis shrinks it (test_machine.py does)."""


def test_full_checks_catch_what_the_cheap_checks_cannot() -> None:
    # A leaked card shows only under resample (a full check): without full_checks the
    # machine plays the game cleanly.
    game = toys.faulty("leak_card")
    run_machine(GameMachine.for_game(game), max_examples=5, steps=4, derandomize=True)
    with pytest.raises(MachineFailure) as caught:
        run_machine(
            GameMachine.for_game(game, full_checks=True),
            max_examples=30,
            steps=4,
            **NO_SHRINK,
        )
    assert caught.value.check == "kernel contract"
    assert "[resample-leak]" in str(caught.value)


def stake_is_never_chosen(before: State, after: State) -> None:
    """A transition check that every stake breaks."""
    assert before.phase.name != "stake", f"the stake became {after.stake}"  # type: ignore[attr-defined]


def test_a_broken_transition_is_named_with_the_move_that_broke_it() -> None:
    machine = GameMachine.for_game(toys.toy(), transitions=[stake_is_never_chosen])
    with pytest.raises(MachineFailure) as caught:
        run_machine(machine, max_examples=30, steps=4, **NO_SHRINK)
    failure = caught.value
    assert failure.check == "stake_is_never_chosen"
    assert failure.record.moves[-1].action.startswith("stake ")
    assert "the stake became" in str(failure)


def test_a_legal_action_that_does_not_apply_is_reported_as_such() -> None:
    machine = GameMachine.for_game(toys.faulty("lists_rejected"))
    with pytest.raises(MachineFailure) as caught:
        run_machine(machine, max_examples=100, steps=4, **NO_SHRINK)
    failure = caught.value
    assert failure.check == "legal-applies"
    assert "is above the cap" in str(failure)
    assert failure.record.moves[-1].action.startswith("bid ")


def dealt() -> ToyState:
    """Both cards dealt (mid to seat 0, low to seat 1), the stake to choose."""
    state = toys.toy().initial_state()
    for text in ("draw mid", "draw low"):
        state = state.apply_text(text)
    assert isinstance(state, ToyState)
    return state


class FirstStates(GameMachine):
    """Remembers each run's first state."""

    firsts: ClassVar[list[State]] = []

    def check_move(self, before: State | None, after: State) -> None:
        if before is None and self.finished == 0:
            type(self).firsts.append(after)


def never_bid(state: State) -> None:
    """An invariant that every bid breaks."""
    assert isinstance(state, ToyState)
    assert state.commitments.committed() == (False, False), "someone bid"


def test_starts_replace_the_first_games_start_and_failures_say_so() -> None:
    start = dealt()
    FirstStates.firsts = []
    machine = FirstStates.for_game(toys.toy(), starts=st.just(start), name="Starts")
    run_machine(machine, max_examples=5, steps=2)
    assert FirstStates.firsts and all(s == start for s in FirstStates.firsts)
    with pytest.raises(MachineFailure) as caught:
        run_machine(
            GameMachine.for_game(toys.toy(), starts=st.just(start), invariants=[never_bid]),
            max_examples=30,
            steps=4,
            **NO_SHRINK,
        )
    failure = caught.value
    assert failure.check == "never_bid"
    assert failure.start == start.to_position()
    assert f"replay: the moves from the start position {start.to_position()}" in str(failure)
    assert failure.record.moves[0].action.startswith("stake ")  # no deal: it began dealt


class FirstBidder(GameMachine):
    """Records which seat commits its sealed bid first, playing by ``play`` alone (its
    ``jump`` is no rule here: jump draws the mover itself)."""

    def jump(self, steps: int, seed: int) -> None:  # type: ignore[override]
        raise AssertionError("not a rule of this machine")

    first: ClassVar[set[int]] = set()

    def check_move(self, before: State | None, after: State) -> None:
        if (
            before is not None
            and isinstance(after, ToyState)
            and after.phase.name == "bid"
            and len(after.to_move) == 1
        ):
            type(self).first.add(1 - after.to_move[0])


def test_play_lets_either_sealed_bidder_commit_first() -> None:
    machine = FirstBidder.for_game(toys.toy(), name="FirstBidder")
    FirstBidder.first = set()
    run_machine(machine, max_examples=40, steps=4, **NO_SHRINK)
    assert FirstBidder.first == {0, 1}


def test_the_end_of_every_game_is_round_tripped_whatever_the_spacing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every 4th move: the toy's 6-move games end between two round trips.
    import clangames.testing.machine as machine_module

    tripped: list[State] = []
    real = machine_module.position_failure

    def counting(state: State) -> tuple[str, str] | None:
        tripped.append(state)
        return real(state)

    monkeypatch.setattr(machine_module, "position_failure", counting)
    seen: list[tuple[int, bool, bool]] = []

    class Spaced(GameMachine):
        def check_move(self, before: State | None, after: State) -> None:
            seen.append(
                (len(self.moves), after.is_terminal, bool(tripped) and tripped[-1] is after)
            )

    run_machine(Spaced.for_game(toys.toy(), round_trip_every=4), max_examples=10, steps=4)
    assert any(end for _, end, _ in seen)
    assert all(was == (moves % 4 == 0 or end) for moves, end, was in seen)


@attrs.frozen(slots=True)
class Unwritable(ToyState):
    """A state whose position cannot be written once the stake is chosen."""

    def to_position(self) -> str:
        if self.stake:
            raise RuntimeError("no pen")
        return ToyState.to_position(self)


class UnwritableToy(toys.ToyGame):
    @property
    def state_type(self) -> type[ToyState]:
        return Unwritable


def test_a_failure_whose_position_cannot_be_written_still_reports_the_record() -> None:
    game = UnwritableToy(toys.SPEC, toys.SPEC.resolve({}))
    with pytest.raises(MachineFailure) as caught:
        run_machine(GameMachine.for_game(game), max_examples=30, steps=4, **NO_SHRINK)
    failure = caught.value
    assert failure.check == "kernel contract"
    assert failure.position == "(to_position failed: RuntimeError: no pen)"
    assert failure.record.moves[-1].action.startswith("stake ")
    assert f"'0:{failure.record.moves[-1].action}'" in str(failure)  # seat:action

"""``check_playable`` refuses a state whose rules offer an action the game's table does not
have, or list a chance outcome twice, on its quick path and its full one alike (an equal
action built apart from the table's is fine), and a finished state whose scores are not
one integer per seat or whose returns are not one per seat.

Found by the kernel's mutation audit: a quick path that skipped the table test of the
legal actions, a full check without its test for an outcome listed twice, and a terminal
check that let non-integer scores or short returns through passed every test before.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from clangames import StateDecodeError
from clangames.engine import check_playable
from testing import toys
from testing.toys import Bid, Draw, Stake, ToyAction, ToyState

GAME = toys.toy()


def recast(state: ToyState, cls: type[ToyState]) -> Any:
    return cls(**{f.name: getattr(state, f.name) for f in attrs.fields(ToyState) if f.init})


def at_stake() -> ToyState:
    state = GAME.initial_state().apply(Draw(2)).apply(Draw(0))
    assert isinstance(state, ToyState)
    return state


@attrs.frozen(slots=True)
class ForeignStake(ToyState):
    """Rules offering a stake the game's table does not have."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        return (*self.game.stake_actions, Stake(3))


@attrs.frozen(slots=True)
class RebuiltStakes(ToyState):
    """Rules offering equal stakes built apart from the table's own objects."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        return (Stake(1), Stake(2))


@attrs.frozen(slots=True)
class ForeignBid(ToyState):
    """A simultaneous step where seat 1's rules offer a bid beyond the table."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        legal = super()._legal(player)
        return (*legal, Bid(9)) if player == 1 else legal


@attrs.frozen(slots=True)
class DrawTwice(ToyState):
    """A chance node listing one outcome twice (weights still summing to the total)."""

    def _chance_weights(self) -> tuple[tuple[ToyAction, int], ...]:
        draws = self.game.draw_actions
        return ((draws[0], 1), (draws[0], 1), (draws[1], 2), (draws[2], 1))


def test_a_foreign_legal_action_is_refused_by_name() -> None:
    with pytest.raises(
        StateDecodeError,
        match=r"'stake' step: the rules offer Stake\(amount=3\), which is not an action",
    ):
        check_playable(recast(at_stake(), ForeignStake))


def test_a_foreign_action_of_one_simultaneous_seat_is_refused() -> None:
    state: Any = at_stake().apply(Stake(1)).apply(Draw(1))
    assert state.is_simultaneous
    check_playable(state)
    with pytest.raises(StateDecodeError, match=r"the rules offer Bid\(amount=9\)"):
        check_playable(recast(state, ForeignBid))


def test_equal_actions_built_apart_are_playable() -> None:
    check_playable(recast(at_stake(), RebuiltStakes))


def test_a_chance_outcome_listed_twice_is_refused() -> None:
    with pytest.raises(StateDecodeError, match="'deal' step: a chance outcome is listed twice"):
        check_playable(recast(GAME.initial_state(), DrawTwice))


def over() -> ToyState:
    state: Any = at_stake().apply(Stake(1)).apply(Draw(1))
    state = state.apply(Bid(0), 0).apply(Bid(0), 1)
    assert isinstance(state, ToyState) and state.is_terminal
    return state


@attrs.frozen(slots=True)
class HalfPoints(ToyState):
    """A finished game scoring in halves (scores are the game's own integer points)."""

    def scores(self) -> tuple[int, ...]:
        return (1.5, 0)  # type: ignore[return-value]


@attrs.frozen(slots=True)
class BoolPoints(ToyState):
    """A finished game scoring with booleans (an int subclass, still not a score)."""

    def scores(self) -> tuple[int, ...]:
        return (True, False)


@attrs.frozen(slots=True)
class ShortReturns(ToyState):
    """A finished game whose returns leave out a seat."""

    def returns(self) -> tuple[float, ...]:
        return (1.0,)


def test_a_finished_game_needs_integer_scores_and_a_return_per_seat() -> None:
    check_playable(over())
    for cls, shown in ((HalfPoints, r"\(1\.5, 0\)"), (BoolPoints, r"\(True, False\)")):
        expected = rf"'over' step: the game is over but its scores are {shown}"
        with pytest.raises(StateDecodeError, match=expected):
            check_playable(recast(over(), cls))
    with pytest.raises(StateDecodeError, match=r"the game is over but its returns are \(1\.0,\)"):
        check_playable(recast(over(), ShortReturns))

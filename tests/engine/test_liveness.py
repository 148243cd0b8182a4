"""The kernel's liveness check: a decoded state must be one the rules can play on."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from clangames import CHANCE, Phase, StateDecodeError
from clangames.engine import check_playable
from clangames.testing.strategies import follow_path
from testing import toys
from testing.toys import ToyAction, ToyState

GAME = toys.toy()


def play(*texts: str) -> Any:
    """The toy state after the given moves (a bid names its player: "0:bid 1")."""
    state: Any = GAME.initial_state()
    for text in texts:
        player, _, action = text.rpartition(":")
        state = state.apply_text(action, int(player) if player else None)
    return state


AT_STAKE = ("draw high", "draw low")
AT_BID = (*AT_STAKE, "stake 2", "draw mid")
OVER = (*AT_BID, "1:bid 1", "0:bid 2")


def with_phase(state: ToyState, name: str, to_move: tuple[int, ...], together: bool) -> Any:
    return attrs.evolve(state, phase=Phase(name, to_move, together))


def test_every_state_of_real_play_is_playable() -> None:
    for path in ([], [1, 2, 3, 4, 5, 6, 7], [5, 0, 1, 0, 1, 1, 0, 2]):
        state, _ = follow_path(GAME, path * 3)
        check_playable(state)
        assert GAME.state_from_json(json.dumps(state.to_json())) == state


@pytest.mark.parametrize(
    ("to_move", "together", "message"),
    [
        ((5,), False, "to_move entry 5 is neither a seat 0..1 nor chance"),
        ((0, 0), True, "lists a player twice in to_move [0, 0]"),
        ((CHANCE, 0), True, "chance moves alone"),
        ((0, 1), False, "is not simultaneous, so one player moves"),
        ((), True, "is marked simultaneous but to_move [] names no seats"),
        ((CHANCE,), True, "is marked simultaneous but to_move [-1] names no seats"),
    ],
)
def test_to_move_names_valid_seats(to_move: tuple[int, ...], together: bool, message: str) -> None:
    state = with_phase(play(*AT_BID), "bid", to_move, together)
    with pytest.raises(StateDecodeError, match=message.replace("[", r"\[").replace("]", r"\]")):
        check_playable(state)


def test_decoding_ends_with_the_liveness_check() -> None:
    data = play(*AT_BID).to_json()
    data["state"]["phase"] = {"name": "bid", "to_move": [0, 1], "simultaneous": False}
    with pytest.raises(StateDecodeError, match="'bid' step is not simultaneous"):
        GAME.state_from_json(json.dumps(data))


def test_a_chance_node_needs_outcomes_with_positive_weights_summing_to_one() -> None:
    # The toy's deck is exhausted for kinds that were drawn: a faulty variant lists them
    # with weight 0, another divides by the wrong total.
    zero = toys.faulty("zero_weight")
    state: Any = zero.initial_state().apply_text("draw high")
    with pytest.raises(StateDecodeError, match="has weight 0, expected an int > 0"):
        check_playable(state)
    wrong_sum = toys.faulty("chance_sum")
    with pytest.raises(StateDecodeError, match="chance probabilities sum to 5/6, expected 1"):
        check_playable(wrong_sum.initial_state())


@attrs.frozen(slots=True)
class NoOutcomes(ToyState):
    """A chance node whose rules find nothing to draw."""

    def _chance_weights(self) -> tuple[tuple[ToyAction, int], ...]:
        return ()


@attrs.frozen(slots=True)
class RulesRaise(ToyState):
    """Rules that fail on the data (as a corrupt but well-typed state can make them)."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        raise IndexError("tuple index out of range")

    def scores(self) -> tuple[int, ...]:
        raise KeyError(7)


@attrs.frozen(slots=True)
class NothingLegal(ToyState):
    """A player to move with no legal action."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        return ()


def recast(state: ToyState, cls: type[ToyState]) -> Any:
    return cls(**{f.name: getattr(state, f.name) for f in attrs.fields(ToyState) if f.init})


def test_a_chance_node_without_outcomes_is_refused() -> None:
    with pytest.raises(StateDecodeError, match="'deal' step is a chance node with no outcomes"):
        check_playable(recast(GAME.initial_state(), NoOutcomes))


def test_a_player_to_move_needs_a_legal_action() -> None:
    with pytest.raises(StateDecodeError, match="player 0 is to move but has no legal action"):
        check_playable(recast(play(*AT_STAKE), NothingLegal))


def test_an_exception_from_the_rules_becomes_a_decode_error_naming_the_step() -> None:
    with pytest.raises(StateDecodeError) as info:
        check_playable(recast(play(*AT_STAKE), RulesRaise))
    assert str(info.value) == (
        "state.phase: the 'stake' step cannot be played: the rules raised IndexError:"
        " tuple index out of range"
    )
    assert isinstance(info.value.__cause__, IndexError)
    with pytest.raises(StateDecodeError, match=r"'over' step cannot be played.*KeyError"):
        check_playable(recast(play(*OVER), RulesRaise))


def test_a_terminal_state_needs_one_score_per_seat_and_valid_winners() -> None:
    check_playable(play(*OVER))
    with pytest.raises(StateDecodeError, match=r"its winners are \(0, 0\)"):
        check_playable(recast(play(*OVER), TwiceWinner))


@attrs.frozen(slots=True)
class TwiceWinner(ToyState):
    """Names a winner twice."""

    def winners(self) -> tuple[int, ...]:
        return (0, 0)


@attrs.frozen(slots=True)
class SecondSeatStuck(ToyState):
    """A simultaneous step where the second seat to move has no legal action."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        return () if player == 1 else super()._legal(player)


def test_every_seat_of_a_simultaneous_step_needs_a_legal_action() -> None:
    at_bid = play(*AT_BID)
    assert at_bid.phase.simultaneous and at_bid.phase.to_move == (0, 1)
    check_playable(at_bid)  # the quick path for several seats accepts real play
    assert at_bid._memo is not None and set(at_bid._memo) == {0, 1}  # kept for later calls
    with pytest.raises(StateDecodeError, match="player 1 is to move but has no legal action"):
        check_playable(recast(at_bid, SecondSeatStuck))
    with pytest.raises(StateDecodeError, match=r"'bid' step cannot be played.*IndexError"):
        check_playable(recast(at_bid, RulesRaise))
    with pytest.raises(StateDecodeError, match="to_move entry 2 is neither a seat"):
        check_playable(with_phase(at_bid, "bid", (1, 2), True))


class _NoTable(toys.ToyGame):
    """A game whose action table cannot be read (a third-party game's bug)."""

    @property
    def actions(self) -> Any:
        raise RuntimeError("the table is not built yet")


def test_a_game_that_cannot_list_its_actions_gives_a_decode_error() -> None:
    broken = _NoTable(toys.SPEC, toys.SPEC.resolve({}))
    state = attrs.evolve(play(*AT_STAKE), game=broken)
    with pytest.raises(StateDecodeError) as info:
        check_playable(state)
    assert "cannot list its players and actions" in str(info.value)
    assert "RuntimeError: the table is not built yet" in str(info.value)
    assert isinstance(info.value.__cause__, RuntimeError)


SHARED: dict[str, tuple[ToyAction, ...]] = {}
"""Tuples the rules below hand out again and again (as KOA Kingmaker's tables do)."""


@attrs.frozen(slots=True)
class SharedBids(ToyState):
    """Hands both seats of the bid step the same tuple object each time."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        return SHARED.setdefault("table", self.game.bid_actions[:2])


@attrs.frozen(slots=True)
class SharedForeign(ToyState):
    """Hands the second seat a shared tuple holding an action of no table."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        if player == 0:
            return SHARED.setdefault("table", self.game.bid_actions[:2])
        return SHARED.setdefault("foreign", (toys.Bid(7),))


def test_a_simultaneous_step_tests_a_shared_tuple_once_and_a_new_one_again() -> None:
    """The seats of a simultaneous step: a tuple of the table's actions the rules hand out
    again is found by identity (not tested item by item again), and that never lets a
    different tuple through: one holding an action of no table is refused as before."""
    from clangames.engine import liveness

    at_bid = play(*AT_BID)
    check_playable(recast(at_bid, SharedBids))
    verified = liveness._FACTS[id(GAME)][3]
    assert verified[id(SHARED["table"])] is SHARED["table"]
    check_playable(recast(at_bid, SharedBids))  # again, found at once
    with pytest.raises(StateDecodeError, match=r"the rules offer .*7.*not an action of the game"):
        check_playable(recast(at_bid, SharedForeign))
    assert id(SHARED["foreign"]) not in verified
    # The memo is bounded: rules that build a new tuple each time never grow it past that.
    for _ in range(2 * liveness._VERIFIED_MOST):
        assert liveness._in(liveness._FACTS[id(GAME)][2], verified, (*GAME.bid_actions,))
    assert len(verified) <= liveness._VERIFIED_MOST

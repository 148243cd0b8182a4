"""``apply`` lets only a player to move act, whatever the state has memoised, refuses a
non-outcome at a chance node with IllegalActionError, and hands the rules a plain int seat.

Found by the kernel's mutation audit: ``apply``'s fast path (legal actions already
memoised) looking up the one player to move instead of the seat given, a chance node
refusing through ``explain_illegal`` (which takes seats only), and ``apply`` passing a
NumPy seat on to the rules (the compiled build's rules take an int) all passed every test
before.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import clangames
from clangames import CHANCE, IllegalActionError, Rng
from clangames.engine.rollout import rollout_moves
from testing import toys
from testing.toys import Bid, Draw, Stake, ToyState

GAME = toys.toy()


def at_stake() -> ToyState:
    state: Any = GAME.initial_state()
    state = state.apply(Draw(2)).apply(Draw(0))
    assert isinstance(state, ToyState) and state.to_move == (0,)
    return state


def test_a_memoised_state_still_refuses_a_player_not_to_move() -> None:
    state = at_stake()
    legal = state.legal_actions()  # fills the memo that apply's fast path reads
    assert legal[0] is state.legal_actions(0)[0]
    for player in (1, CHANCE):
        with pytest.raises(IllegalActionError, match=rf"player {player} is not to move"):
            state.apply(legal[0], player)
    assert state.apply(legal[0], 0) == state.apply(Stake(1))


def test_a_memoised_simultaneous_node_refuses_the_other_seats_action() -> None:
    state: Any = at_stake().apply(Stake(1)).apply(Draw(1))
    assert state.to_move == (0, 1)
    low_bids = state.legal_actions(0)  # seat 0 holds the high card: bids 0..max
    state.legal_actions(1)
    high = low_bids[-1]
    assert high not in state.legal_actions(1)
    with pytest.raises(IllegalActionError, match="player 1 may bid at most"):
        state.apply(high, 1)


@pytest.mark.parametrize("player", [None, CHANCE])
def test_a_non_outcome_at_a_chance_node_is_illegal(player: int | None) -> None:
    state = GAME.initial_state()
    for memoised in (False, True):
        if memoised:
            state.chance_outcomes()
        with pytest.raises(IllegalActionError, match="is not an outcome of this chance node"):
            state.apply(Bid(0), player)
        assert not state.is_legal(Stake(1), player)


class _SeatTypes(ToyState):
    """The toy whose rules note the type of every seat they are handed."""

    seen: list[type] = []  # noqa: RUF012 - a test's notebook, shared on purpose

    def _apply(self, action: Any, player: int) -> ToyState:
        _SeatTypes.seen.append(type(player))
        return super()._apply(action, player)


def test_the_rules_get_an_int_seat_when_apply_gets_a_numpy_one() -> None:
    np = pytest.importorskip("numpy")
    base = at_stake()
    values = {f.name: getattr(base, f.name) for f in attrs.fields(ToyState) if f.init}
    _SeatTypes.seen = []
    for memoised in (False, True):
        state = _SeatTypes(**values)
        if memoised:
            state.legal_actions(0)
        state.apply(Stake(2), np.int64(0))
    assert _SeatTypes.seen == [int, int]


def test_every_game_takes_a_numpy_seat_to_an_equal_plain_state() -> None:
    np = pytest.importorskip("numpy")
    for spec in clangames.games():
        if spec.name.startswith("toy"):
            continue
        game = clangames.load(spec.name, players=spec.min_players)
        state, _, _ = rollout_moves(game.initial_state(), Rng(3), max_steps=12)
        while state.is_chance:
            state = state.apply(state.chance_outcomes()[0][0])
        seat = state.to_move[0]
        action = state.legal_actions(seat)[0]
        after = state.apply(action, np.int64(seat))
        assert after == state.apply(action, seat)
        assert after.to_json() == state.apply(action, seat).to_json()

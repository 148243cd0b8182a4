"""KOA Kingmaker on the public GameMachine: random legal play (any commit order, any
chance outcome), the kernel's checks and the position round trip after every move, and the
game's invariants; a failure shrinks to a short record.

Invariants: each house's 14 cards (10 for an automated household) are each in exactly one
place among hand, court, discard pile, centre pile and table; houses that are out never
act; the JSON round trip and a player's resample keep the state's public facts.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from clangames import Rng
from clangames.engine.state import State
from clangames.koa_kingmaker import KoaState
from clangames.testing import GameMachine

from .helpers import card_invariant, load

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"


def cards_accounted_for(state: State) -> None:
    card_invariant(state)


def only_houses_in_the_game_act(state: State) -> None:
    assert isinstance(state, KoaState)
    if not state.is_chance:
        for house in state.to_move:
            assert state.is_in(house), f"house {house} is out but is to act"


def json_and_resample_agree(state: State) -> None:
    back = state.game.state_from_json(state.to_json())
    assert back == state
    for p in range(state.game.num_players):
        other = state.resample(p, Rng(p + 11))
        assert other.observation(p) == state.observation(p)
        card_invariant(other)


def over_means_two_or_fewer_houses(state: State) -> None:
    assert isinstance(state, KoaState)
    if state.is_terminal:
        assert state.alive.bit_count() <= 2
        assert len(state.winners()) == 1
        assert sum(state.returns()) == 1.0
    elif state.phase.name in ("seal", "commit"):
        assert state.alive.bit_count() >= 3


def houses_never_return(before: State, after: State) -> None:
    """Houses never come back, rounds never go backwards."""
    assert isinstance(before, KoaState) and isinstance(after, KoaState)
    assert after.alive & ~before.alive == 0
    assert after.round >= before.round


Machine = GameMachine.for_game(
    st.integers(2, 5).map(load),
    invariants=[
        cards_accounted_for,
        only_houses_in_the_game_act,
        json_and_resample_agree,
        over_means_two_or_fewer_houses,
    ],
    transitions=[houses_never_return],
    name="KoaGameMachine",
)
Machine.TestCase.settings = settings(
    max_examples=200 if SOAK else 20,
    stateful_step_count=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestKoaMachine = Machine.TestCase

"""A Hypothesis state machine: random legal play (any commit order, any chance outcome)
keeps the game's invariants at every step, and a failure shrinks to a short move list.

Invariants: each house's 14 cards (10 for an automated household) are each in exactly one
place among hand, court, discard pile, centre pile and table; houses that are out never
act; the JSON round trip and a player's resample keep the state's public facts.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from clangames import Rng
from clangames.engine.phases import CHANCE
from clangames.koa_kingmaker import KoaState

from .helpers import card_invariant, load

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"


class KoaMachine(RuleBasedStateMachine):
    """Plays one game of a random player count, one step per rule call."""

    state: KoaState

    @initialize(players=st.integers(2, 5))
    def begin(self, players: int) -> None:
        state = load(players).initial_state()
        self.state = state

    @precondition(lambda self: not self.state.is_terminal)
    @rule(who=st.integers(0, 4), pick=st.integers(0, 2**16))
    def step(self, who: int, pick: int) -> None:
        state = self.state
        movers = state.to_move
        player = movers[who % len(movers)]
        legal = state.legal_actions(player)
        action = legal[pick % len(legal)]
        nxt = state.apply(action, None if player == CHANCE else player)
        assert isinstance(nxt, KoaState)
        # Houses never come back, rounds never go backwards.
        assert nxt.alive & ~state.alive == 0
        assert nxt.round >= state.round
        if player != CHANCE:
            assert state.is_in(player), f"house {player} is out but acted"
        self.state = nxt

    @precondition(lambda self: self.state.is_terminal)
    @rule(players=st.integers(2, 5))
    def next_game(self, players: int) -> None:
        self.begin(players)

    @invariant()
    def cards_accounted_for(self) -> None:
        card_invariant(self.state)

    @invariant()
    def json_and_resample_agree(self) -> None:
        state = self.state
        back = state.game.state_from_json(state.to_json())
        assert back == state
        for p in range(state.game.num_players):
            other = state.resample(p, Rng(p + 11))
            assert other.observation(p) == state.observation(p)
            card_invariant(other)

    @invariant()
    def over_means_two_or_fewer_houses(self) -> None:
        state = self.state
        if state.is_terminal:
            assert state.alive.bit_count() <= 2
            assert len(state.winners()) == 1
            assert sum(state.returns()) == 1.0
        elif state.phase.name in ("seal", "commit"):
            assert state.alive.bit_count() >= 3


KoaMachine.TestCase.settings = settings(
    max_examples=200 if SOAK else 25,
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestKoaMachine = KoaMachine.TestCase

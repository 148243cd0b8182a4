"""A Hypothesis state machine that plays Kilt Castle with drawn choices and checks the
game's invariants after every step: floors conserved per colour, ducats conserved between
players and bank flows and never negative, roofed towers never overbuilt."""

from __future__ import annotations

import os

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from clangames.kilt_castle import KiltCastleState

from .kc_helpers import invariant as check
from .kc_helpers import load

EXAMPLES = 200 if os.environ.get("CLANGAMES_SOAK") == "1" else 25


class KiltCastleMachine(RuleBasedStateMachine):
    """Steps through games; each step takes the drawn option (legal action or outcome)."""

    def __init__(self) -> None:
        super().__init__()
        self.state: KiltCastleState | None = None
        self.before: KiltCastleState | None = None

    @initialize(players=st.sampled_from([2, 3, 4]))
    def start(self, players: int) -> None:
        state = load(players).initial_state()
        assert isinstance(state, KiltCastleState)
        self.state = state

    @rule(choice=st.integers(min_value=0, max_value=2**16))
    def step(self, choice: int) -> None:
        assert self.state is not None
        if self.state.is_terminal:
            state = self.state.game.initial_state()  # a new game
            assert isinstance(state, KiltCastleState)
            self.before, self.state = None, state
            return
        player = self.state.to_move[0]
        legal = self.state.legal_actions(player)
        action = legal[choice % len(legal)]
        nxt = self.state.apply(action, None if self.state.is_chance else player)
        assert isinstance(nxt, KiltCastleState)
        self.before, self.state = self.state, nxt

    @invariant()
    def game_invariants(self) -> None:
        if self.state is not None:
            check(self.state)

    @invariant()
    def roofed_towers_are_never_overbuilt(self) -> None:
        before, after = self.before, self.state
        if before is None or after is None:
            return
        for space, tower in enumerate(before.towers):
            if before.roofed >> space & 1:
                assert after.towers[space] == tower, f"roofed space {space} was overbuilt"

    @invariant()
    def floors_are_never_removed_and_bank_only_pays(self) -> None:
        before, after = self.before, self.state
        if before is None or after is None:
            return
        grown = [len(b) for b in before.towers] != [len(a) for a in after.towers]
        for b, a in zip(before.towers, after.towers, strict=True):
            assert a[: len(b)] == b, "a placed floor was removed or moved"
        assert after.from_bank >= before.from_bank
        if not grown and after.from_bank == before.from_bank:
            assert after.money == before.money, "ducats changed hands without a build"


KiltCastleMachine.TestCase.settings = settings(
    max_examples=EXAMPLES, stateful_step_count=150, deadline=None
)
TestKiltCastleMachine = KiltCastleMachine.TestCase

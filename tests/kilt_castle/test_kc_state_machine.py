"""Kilt Castle on the public GameMachine: random legal play, the kernel's checks and the
position round trip after every move, and the game's invariants: floors conserved per
colour, ducats conserved between players and bank flows and never negative, roofed towers
never overbuilt."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from clangames.engine.state import State
from clangames.kilt_castle import KiltCastleState
from clangames.testing import GameMachine

from .kc_helpers import invariant as check
from .kc_helpers import load

EXAMPLES = 200 if os.environ.get("CLANGAMES_SOAK") == "1" else 20


def roofed_towers_are_never_overbuilt(before: State, after: State) -> None:
    assert isinstance(before, KiltCastleState) and isinstance(after, KiltCastleState)
    for space, tower in enumerate(before.towers):
        if before.roofed >> space & 1:
            assert after.towers[space] == tower, f"roofed space {space} was overbuilt"


def floors_are_never_removed_and_bank_only_pays(before: State, after: State) -> None:
    assert isinstance(before, KiltCastleState) and isinstance(after, KiltCastleState)
    grown = [len(b) for b in before.towers] != [len(a) for a in after.towers]
    for b, a in zip(before.towers, after.towers, strict=True):
        assert a[: len(b)] == b, "a placed floor was removed or moved"
    assert after.from_bank >= before.from_bank
    if not grown and after.from_bank == before.from_bank:
        assert after.money == before.money, "ducats changed hands without a build"


Machine = GameMachine.for_game(
    st.sampled_from([2, 3, 4]).map(load),
    invariants=[check],
    transitions=[roofed_towers_are_never_overbuilt, floors_are_never_removed_and_bank_only_pays],
    name="KiltCastleGameMachine",
)
Machine.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestKiltCastleMachine = Machine.TestCase

"""Clan Feud on the public GameMachine: random legal play from the start and from a
skirmish set up with the scenario builder, the kernel's checks and the position round trip
after every move, and the game's invariants on every state.

The game's own machine (test_cf_state_machine.py) is a GameMachine too, with a per-rule
ledger around each move and the round trip checked every 50th move; this one checks it on
every move.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from clangames.clan_feud import ClanFeudState
from clangames.engine.state import State
from clangames.testing import GameMachine

from .cf_rules_helpers import invariant, load

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"


def game_invariants(state: State) -> None:
    assert isinstance(state, ClanFeudState)
    invariant(state)
    state.check_consistency()


def money_and_tokens_never_negative(before: State, after: State) -> None:
    assert isinstance(after, ClanFeudState)
    assert min(after.money) >= 0 and min(after.feud) >= 0


def skirmish() -> State:
    """Two strong armies face each other across the Moray border, cards in hand."""
    return load(2).position(
        troops=[
            ["moray.infantry*5", "moray.cavalry*3", "moray.artillery"],
            ["inverness.infantry*4", "inverness.cavalry*2", "inverness.artillery"],
        ],
        controller=["moray:0", "inverness:1", "loch_ness:1"],
        hands=[["AC10", "AC11"], ["AC02", "AC01"]],
        feud=[3, 3],
    )


STARTS = st.one_of(
    st.sampled_from([2, 3, 4, 5]).map(lambda n: load(n).initial_state()),
    st.builds(skirmish),
)

Machine = GameMachine.for_game(
    st.sampled_from([2, 3, 4, 5]).map(load),
    starts=STARTS,
    invariants=[game_invariants],
    transitions=[money_and_tokens_never_negative],
    name="ClanFeudGameMachine",
)
Machine.TestCase.settings = settings(
    max_examples=200 if SOAK else 12,
    stateful_step_count=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestClanFeudGameMachine = Machine.TestCase

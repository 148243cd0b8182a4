"""A Hypothesis state machine that plays Clan Feud with drawn choices and checks the game's
invariants after every step: troops within supply, buildings at most 2 a territory and one
castle-or-city, the 50 action cards conserved, no territory with two clans' armies outside
a battle, the King with his regent's army or alone; pounds and feud tokens never negative
and VP only rising before the final count; every state consistent."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from clangames.clan_feud import ClanFeudState
from clangames.clan_feud.state import Task

from .cf_rules_helpers import invariant as check
from .cf_rules_helpers import load, position

EXAMPLES = 100 if os.environ.get("CLANGAMES_SOAK") == "1" else 12


class ClanFeudMachine(RuleBasedStateMachine):
    """Steps through games; each step takes the drawn option (legal action or outcome).
    Half the runs start at a hand-made position where two clans' armies stand side by
    side, so battles happen (random play from the set-up rarely meets)."""

    def __init__(self) -> None:
        super().__init__()
        self.state: ClanFeudState | None = None
        self.before: ClanFeudState | None = None

    @initialize(players=st.sampled_from([2, 3, 4, 5]), skirmish=st.booleans())
    def start(self, players: int, skirmish: bool) -> None:
        game = load(players)
        if skirmish:
            state = position(
                game,
                [Task("move", 0, 3)],
                troops={(0, "moray"): (5, 3, 1), (1, "inverness"): (4, 2, 1)},
                control={"moray": 0, "inverness": 1, "loch_ness": 1},
                feud=(3,) * players,
                hands={0: {"AC10": 1, "AC11": 1}, 1: {"AC02": 1, "AC01": 1}},
            )
        else:
            state = game.initial_state()
        assert isinstance(state, ClanFeudState)
        self.state = state

    @rule(choice=st.integers(min_value=0, max_value=2**16))
    def step(self, choice: int) -> None:
        assert self.state is not None
        if self.state.is_terminal:
            return  # a finished game (or a skirmish whose sentinel decision was taken)
        movers = self.state.to_move
        player = movers[choice % len(movers)]
        legal = self.state.legal_actions(player)
        action = legal[choice % len(legal)]
        nxt = self.state.apply(action, player)
        assert isinstance(nxt, ClanFeudState)
        self.before, self.state = self.state, nxt

    @invariant()
    def game_invariants(self) -> None:
        if self.state is not None:
            check(self.state)
            self.state.check_consistency()

    @invariant()
    def vp_only_rise_before_the_final_count(self) -> None:
        before, after = self.before, self.state
        if before is None or after is None or after.is_terminal:
            return
        assert all(a >= b for a, b in zip(after.vp, before.vp, strict=True))


ClanFeudMachine.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_clan_feud_machine = ClanFeudMachine.TestCase

"""King's Kilt on the public GameMachine: random legal play (chance outcomes chosen by
Hypothesis too), the kernel's checks and the position round trip after every move, plus
the game's invariants, including ones that need the history of the game."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from clangames.engine.state import State
from clangames.kings_kilt import KingsKiltState
from clangames.testing import GameMachine

from .helpers import check_invariants, load

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"

GAMES = st.builds(
    lambda players, match, first: load(players, betrayal_match=match, first_player=first % players),
    st.integers(2, 4),
    st.sampled_from(["traitor", "target"]),
    st.integers(0, 3),
)


def cards_and_rules(state: State) -> None:
    assert isinstance(state, KingsKiltState)
    check_invariants(state)


def revealed_within_family(state: State) -> None:
    assert isinstance(state, KingsKiltState)
    for p in range(state.game.num_players):
        assert state.revealed[p] & ~state.families[p] == 0


def game_over(state: State) -> None:
    """The end: everyone passed, the winners have the best score."""
    assert isinstance(state, KingsKiltState)
    if not state.is_terminal:
        return
    assert state.passed == (1 << state.game.num_players) - 1
    winners, scores = state.winners(), state.scores()
    assert winners and all(scores[w] == max(scores) for w in winners)
    assert sum(state.returns()) == 1.0


def monotone(before: State, after: State) -> None:
    """After setup hands only shrink, reveals and removals only grow, the crown stays."""
    assert isinstance(before, KingsKiltState) and isinstance(after, KingsKiltState)
    if before.actor >= 0:
        for p in range(after.game.num_players):
            assert len(after.hands[p]) <= len(before.hands[p])
            assert after.revealed[p] & before.revealed[p] == before.revealed[p]
            assert after.families[p] == before.families[p]
        assert len(after.removed) >= len(before.removed)
        assert after.passed & before.passed == before.passed
        assert after.crowned or not before.crowned
        assert after.nobles_triggered or not before.nobles_triggered
        assert after.guardians_triggered or not before.guardians_triggered
    assert after.turns >= before.turns


class KingsKiltMachine(GameMachine):
    """Adds the support rule, which holds until the draw pile first runs out in a game."""

    pile_ran_out = False

    def check_move(self, before: State | None, after: State) -> None:
        assert isinstance(after, KingsKiltState)
        if before is None:
            self.pile_ran_out = False
        if after.actor >= 0 and after.draw_pile_size == 0 and not after.discards:
            self.pile_ran_out = True
        if self.pile_ran_out:
            return
        geo = after.game.geo
        for p in range(geo.size):
            if after.pyramid[p] < 0 or geo.row[p] == 1:
                continue
            below = geo.beneath[p]
            if after.vacancy in below:
                continue  # mid-cascade: the card just moved off the space beneath
            assert all(after.pyramid[q] >= 0 for q in below), (geo.label(p), after.pyramid)


Machine = KingsKiltMachine.for_game(
    GAMES,
    invariants=[cards_and_rules, revealed_within_family, game_over],
    transitions=[monotone],
    name="KingsKiltGameMachine",
)
Machine.TestCase.settings = settings(
    max_examples=1000 if SOAK else 25,
    stateful_step_count=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestKingsKiltMachine = Machine.TestCase

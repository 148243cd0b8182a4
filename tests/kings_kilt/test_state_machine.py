"""A Hypothesis state machine that plays King's Kilt with random legal moves (chance
outcomes chosen by Hypothesis too) and checks the game's invariants after every step,
including ones that need the history of the game."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from clangames.kings_kilt import KingsKiltGame, KingsKiltState

from .helpers import check_invariants, load

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"


class KingsKiltMachine(RuleBasedStateMachine):
    """Random play with history-aware checks."""

    def __init__(self) -> None:
        super().__init__()
        self.game: KingsKiltGame | None = None
        self.state: KingsKiltState | None = None
        self.pile_ran_out = False
        self.hand_sizes: tuple[int, ...] | None = None
        self.previous: KingsKiltState | None = None
        self.games_finished = 0

    @initialize(
        players=st.integers(2, 4),
        match=st.sampled_from(["traitor", "target"]),
        first=st.integers(0, 3),
    )
    def start(self, players: int, match: str, first: int) -> None:
        self.game = load(players, betrayal_match=match, first_player=first % players)
        state = self.game.initial_state()
        assert isinstance(state, KingsKiltState)
        self.state = state

    @rule(choices=st.lists(st.integers(0, 2**16), min_size=1, max_size=40))
    def play(self, choices: list[int]) -> None:
        """Up to 40 moves, each checked; a finished game is checked and started afresh."""
        for choice in choices:
            if self.state is None:
                return
            if self.state.is_terminal:
                self.game_over()
            else:
                self.step(choice)
            self.check_all()

    def step(self, choice: int) -> None:
        """One legal move (or chance outcome) picked by ``choice``."""
        assert self.state is not None
        legal = self.state.legal_actions()  # at a chance node: its outcomes
        action = legal[choice % len(legal)]
        self.previous = self.state
        nxt = self.state.apply(action)
        assert isinstance(nxt, KingsKiltState)
        self.state = nxt

    def game_over(self) -> None:
        """The end: everyone passed, the winners have the best score; then a new game."""
        s = self.state
        assert s is not None and self.game is not None
        assert s.passed == (1 << s.game.num_players) - 1
        winners = s.winners()
        scores = s.scores()
        best = max(scores)
        assert winners and all(scores[w] == best for w in winners)
        assert sum(s.returns()) == 1.0
        self.games_finished += 1
        fresh = self.game.initial_state()
        assert isinstance(fresh, KingsKiltState)
        self.state, self.previous, self.pile_ran_out = fresh, None, False

    def check_all(self) -> None:
        """Every check below, after each single move."""
        self.cards_and_rules()
        self.supports()
        self.monotone()
        self.revealed_within_family()

    def teardown(self) -> None:
        """Report how deep the run went (shown by --hypothesis-show-statistics)."""
        s = self.state
        if s is not None:
            event(f"finished games: {self.games_finished}")
            event(f"last state crowned: {s.crowned}")

    @invariant()
    def cards_and_rules(self) -> None:
        assert self.state is not None
        check_invariants(self.state)

    @invariant()
    def supports(self) -> None:
        s = self.state
        assert s is not None
        if s.actor >= 0 and s.draw_pile_size == 0 and not s.discards:
            self.pile_ran_out = True
        if self.pile_ran_out:
            return
        geo = s.game.geo
        for p in range(geo.size):
            if s.pyramid[p] < 0 or geo.row[p] == 1:
                continue
            below = geo.beneath[p]
            if s.vacancy in below:
                continue  # mid-cascade: the card just moved off the space beneath
            assert all(s.pyramid[q] >= 0 for q in below), (geo.label(p), s.pyramid)

    @invariant()
    def monotone(self) -> None:
        s, before = self.state, self.previous
        assert s is not None
        if before is None:
            return
        if before.actor >= 0:
            # after setup: hands only shrink, reveals and removals only grow, the crown stays
            for p in range(s.game.num_players):
                assert len(s.hands[p]) <= len(before.hands[p])
                assert s.revealed[p] & before.revealed[p] == before.revealed[p]
                assert s.families[p] == before.families[p]
            assert len(s.removed) >= len(before.removed)
            assert s.passed & before.passed == before.passed
            assert s.crowned or not before.crowned
            assert s.nobles_triggered or not before.nobles_triggered
            assert s.guardians_triggered or not before.guardians_triggered
        assert s.turns >= before.turns

    @invariant()
    def revealed_within_family(self) -> None:
        s = self.state
        assert s is not None
        for p in range(s.game.num_players):
            assert s.revealed[p] & ~s.families[p] == 0


KingsKiltMachine.TestCase.settings = settings(
    max_examples=2000 if SOAK else 60,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestKingsKiltMachine = KingsKiltMachine.TestCase

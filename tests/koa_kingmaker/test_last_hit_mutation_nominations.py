"""Mutation-audit scenarios for where nominations go at the end of a round (rulings, step
8): only the round's last hits put a nomination in court, and a Marshals counter-attack by
an automated household, which holds no nominations, puts nothing anywhere."""

from __future__ import annotations

from clangames.koa_kingmaker import Discard
from clangames.koa_kingmaker.cards import ROYAL

from .helpers import ROYALS, apply, arrange, names, play_round, start


def test_a_last_hit_scores_only_in_its_own_round() -> None:
    """House 0 puts house 2 out in round 1 (its nomination of house 2 goes to court); its
    nomination of house 1 in round 2 hits without putting anyone out and goes back to hand.
    (Fails if the mark of round 1's last hit carried over to round 2.)"""
    state = arrange(start(), 2, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 2, 1: "Gold", 2: "Thief", 3: "Seer", 4: "Fanatic"})
    assert names(state, "courts", 0) == ROYALS | {"nom 2"}
    state = play_round(state, {0: 1, 1: "Banner", 3: "Fanatic", 4: "Jester"})
    assert state.hits == ((1, -1),)
    state = apply(state, Discard(ROYAL), 1)
    assert state.round == 3 and state.alive == 0b11011
    assert names(state, "courts", 0) == ROYALS | {"nom 2"}
    assert "nom 1" in names(state, "hands", 0)
    assert state.scored == 0


def test_an_automated_marshals_last_hit_places_no_nomination() -> None:
    """Three players: house 0 (one Royal) nominates house 3, an automated household whose
    Marshals hit back and put house 0 out. House 3 has no nomination cards, so its court
    keeps only its Royals; house 0's nomination goes back to its hand."""
    state = arrange(start(3), 0, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 3, 1: "Seer", 2: "Gold", 3: "Marshals", 4: "Jester"})
    assert not state.is_in(0) and state.round == 2
    assert names(state, "courts", 3) == ROYALS
    assert names(state, "hands", 3) == {"Jester", "Seer", "Gold", "Thief", "Banner", "Fanatic"}
    assert "nom 3" in names(state, "hands", 0)

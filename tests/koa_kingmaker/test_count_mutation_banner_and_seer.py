"""Mutation-audit scenarios for the count of a round (rulings, steps 2 to 4): a Banner
makes a nomination count exactly two, and a Seer house tied at the top count is never hit.
Each test fails on a small bug that the older scenarios let through (named in its
docstring)."""

from __future__ import annotations

from clangames.koa_kingmaker import Discard
from clangames.koa_kingmaker.cards import ROYAL

from .helpers import ROYALS, apply, arrange, names, play_round, start


def test_a_banner_nomination_counts_two_and_ties_two_plain_ones() -> None:
    """House 0's Banner makes its nomination of house 2 count 2, exactly as much as the two
    plain nominations of house 4: both are hit. (Fails if a Banner counted 3, or 1.)"""
    state = arrange(start(), 0, "hands", "courts", "Banner")
    state = play_round(state, {0: 2, 1: 4, 2: "Gold", 3: 4, 4: "Thief"})
    assert state.hits == ((2, -1), (4, -1))


def test_a_seer_tied_at_the_top_count_is_not_hit() -> None:
    """Houses 2 (Seer) and 3 both have one nomination: the Seer's is removed and only house
    3 is hit. (Fails if a Seer house tied with the highest remaining count were hit.)"""
    state = play_round(start(), {0: 2, 1: 3, 2: "Seer", 3: "Gold", 4: "Thief"})
    assert state.hits == ((3, -1),)
    state = apply(state, Discard(ROYAL), 3)
    assert names(state, "courts", 2) == ROYALS
    assert names(state, "courts", 3) == {"Royal 2", "Royal 3"}
    assert state.round == 2

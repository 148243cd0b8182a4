"""Mutation-audit scenarios for the end of the game and the deal: when no real player's
house is left, only the players put out in the latest round compete (rulings, "End and
winner", and its decision in docs/games/koa-kingmaker.md); the inheritance cards are
numbered 1 to 5 even when only four houses play (rulings, "Components")."""

from __future__ import annotations

from fractions import Fraction

from clangames.koa_kingmaker import Inherit

from .helpers import apply, arrange, load, play_round, start


def test_only_the_players_out_in_the_latest_round_compete() -> None:
    """Two players: house 0 falls in round 1, house 1 in round 2 (to house 2's Marshals),
    leaving the two automated households. House 0 has more points, but house 1 lasted
    longer and wins. (Fails if every player competed, or those out first.)"""
    state = start(2)
    for h in (0, 1):
        state = arrange(state, h, "courts", "centre", "Royal 1", "Royal 2")
    state = arrange(state, 1, "hands", "discards", "Jester")
    state = play_round(state, {0: "Fanatic", 1: 0, 2: "Seer", 3: "Gold"})
    assert not state.is_terminal and state.out_round[:2] == (1, 0)
    state = play_round(state, {1: 2, 2: "Marshals", 3: "Seer"})
    assert state.is_terminal
    assert state.out_round == (1, 2, 0, 0, -1)
    # House 0: Jester 6, Seer 3, Marshals 3, Gold 2, Thief 2, Banner 3 in hand. House 1:
    # its nomination of house 0 in court (3), six characters without the Jester (15).
    assert state.scores() == (19, 18)
    assert state.winners() == (1,)
    assert state.returns() == (0.0, 1.0)


def test_two_players_deal_inheritance_numbers_from_one_to_five() -> None:
    """With four houses the numbers are still 1..5, one of them staying undealt."""
    state = load(2).initial_state()
    assert state.chance_outcomes() == tuple((Inherit(k), Fraction(1, 5)) for k in range(1, 6))
    for k in (5, 3, 1):
        state = apply(state, Inherit(k))
    assert state.chance_outcomes() == ((Inherit(2), Fraction(1, 2)), (Inherit(4), Fraction(1, 2)))
    state = apply(state, Inherit(4))
    assert state.inheritance == (5, 3, 1, 4, 0)
    assert state.phase.name == "seal"

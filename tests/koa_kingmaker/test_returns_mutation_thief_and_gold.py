"""Mutation-audit scenario for the returns of step 6 (rulings): each fed Thief decides on
its own, so one house declining its return leaves the next house's return to be asked."""

from __future__ import annotations

from clangames.koa_kingmaker import Recover, RecoverNothing
from clangames.koa_kingmaker.cards import SEER

from .helpers import apply, arrange, kind, names, play_round, start


def test_a_thief_declining_does_not_cancel_the_next_thiefs_return() -> None:
    """One Gold feeds the Thieves of houses 1 and 2; house 1 takes nothing back, house 2 is
    still asked and takes its Fanatic. (Fails if declining ended every pending return.)"""
    state = arrange(start(), 1, "hands", "discards", "Seer")
    state = arrange(state, 2, "hands", "discards", "Fanatic")
    state = play_round(state, {0: "Gold", 1: "Thief", 2: "Thief", 3: "Jester", 4: "Banner"})
    assert state.recovering == (1, 2) and state.to_move == (1,)
    assert state.legal_actions(1) == (Recover(SEER), RecoverNothing())
    state = apply(state, RecoverNothing(), 1)
    assert state.phase.name == "return" and state.to_move == (2,)
    state = apply(state, Recover(kind("Fanatic")), 2)
    assert state.round == 2
    assert names(state, "discards", 1) == {"Seer", "Thief"}
    assert names(state, "discards", 2) == {"Thief"}
    assert "Fanatic" in names(state, "hands", 2)

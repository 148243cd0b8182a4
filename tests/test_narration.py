"""Narration (clangames.rendering.text.identifiable / narrate): a step is told in full only to a
seat that could tell it apart from every alternative in every world it cannot rule out."""

from __future__ import annotations

from typing import Any

import clangames
from clangames import CHANCE
from clangames.rendering.text import identifiable, narrate, renderer_for


def _last_inheritance_deal() -> tuple[Any, Any, Any]:
    """5-player KOA at the last inheritance deal: (before, the one outcome, after)."""
    state: Any = clangames.load("koa_kingmaker", players=5).initial_state()
    rng = clangames.Rng(3)
    while len(state.chance_weights()) > 1:
        action, rng = clangames.sample_chance(state, rng)
        state = state.apply(action)
    ((action, _),) = state.chance_weights()
    return state, action, state.apply(action)


def test_a_deal_with_one_outcome_in_the_full_state_is_still_hidden_from_other_seats() -> None:
    before, action, after = _last_inheritance_deal()
    number = str(action.number)
    assert before.phase.name == "inherit" and after.inheritance[4] == action.number
    renderer = renderer_for(before.game)
    for viewer in range(4):  # they cannot see the other numbers: several outcomes for them
        assert not identifiable(before, action, CHANCE, after, viewer)
        told = narrate(renderer, before, action, CHANCE, after, viewer)
        assert number not in told, (viewer, told)
    # seat 4 sees its own number, so the deal is fully told to it
    assert identifiable(before, action, CHANCE, after, 4)
    assert number in narrate(renderer, before, action, CHANCE, after, 4)


def test_public_moves_and_your_own_are_told_in_full() -> None:
    state: Any = clangames.resolve_chance(
        clangames.load("kings_kilt", players=3).initial_state(), clangames.Rng(5)
    )
    player = state.to_move[0]
    advance = next(a for a in state.legal_actions(player) if type(a).__name__ == "Advance")
    after = state.apply(advance, player)
    for viewer in range(3):
        assert identifiable(state, advance, player, after, viewer)

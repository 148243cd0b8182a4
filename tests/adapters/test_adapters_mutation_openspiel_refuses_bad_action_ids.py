"""An OpenSpiel action id outside the game's numbering is refused with IllegalActionError
naming it and the range, and a refused move (or simultaneous round) changes nothing (the
``openspiel`` extra).

Found while auditing the adapter: a chance outcome id of -2 was taken as the second-last
outcome (Python's negative index) and went into the history as -2; an id past the last
was an IndexError; and a simultaneous round with one bad commitment had already applied
the seats before it, leaving the state half-way through the round.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from clangames import IllegalActionError  # noqa: E402
from clangames.adapters.openspiel import load_game  # noqa: E402


def _first_decision(game: Any) -> Any:
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    return state


@pytest.mark.parametrize("outcome", [-2, 8, 9999])
def test_a_chance_outcome_outside_the_numbering_is_refused(outcome: int) -> None:
    game = load_game("kings_kilt", players=3)
    state = game.new_initial_state()
    kernel = state.clangames
    with pytest.raises(IllegalActionError, match=rf"chance outcome {outcome} .* 0\.\.7"):
        state.apply_action(outcome)
    assert state.clangames is kernel and state.history() == []
    assert state.information_state_string(0) == game.new_initial_state().information_state_string(0)


@pytest.mark.parametrize("action", [-2, 10_000])
def test_a_decision_outside_the_numbering_is_refused(action: int) -> None:
    game = load_game("kings_kilt", players=3)
    state = _first_decision(game)
    kernel, history = state.clangames, state.history()
    last = game.num_distinct_actions() - 1
    with pytest.raises(
        IllegalActionError, match=rf"action {action} is not a decision id 0\.\.{last}"
    ):
        state.apply_action(action)
    assert state.clangames is kernel and state.history() == history


@pytest.mark.parametrize("bad", [-2, 10_000, "illegal"])
def test_a_simultaneous_round_with_a_bad_commitment_changes_nothing(bad: Any) -> None:
    game = load_game("koa_kingmaker", players=3)
    state = _first_decision(game)
    assert state.is_simultaneous_node()
    kernel, history = state.clangames, state.history()
    infos = [state.information_state_string(p) for p in range(3)]
    joint = [state.legal_actions(p)[0] for p in range(3)]
    if bad == "illegal":  # an id in range that the last seat may not take now
        joint[2] = next(a for a in range(24) if a not in state.legal_actions(2))
        error = "not legal"
    else:
        joint[2] = bad
        error = rf"action {bad} is not a decision id"
    with pytest.raises(IllegalActionError, match=error):
        state.apply_actions(joint)
    assert state.clangames is kernel and state.history() == history
    assert [state.information_state_string(p) for p in range(3)] == infos
    state.apply_actions([state.legal_actions(p)[0] for p in range(3)])  # still playable
    assert len(state.history()) == len(history) + 3

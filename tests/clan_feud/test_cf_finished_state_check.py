"""A finished Clan Feud game read from JSON keeps no trace of a pending task: no card's
modifiers, no troops marked as moved, no battle. The saved-state check returned as soon as
it saw no tasks, before these checks, so a finished state with any values there was
accepted; one with a moved count of 2**70 then wrote a position that could not be read
back (found by fuzzing saved states through every reader)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import clangames
from clangames import Rng, StateDecodeError
from fuzz_helpers import random_step


def _finished(players: int = 2) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """The game, a finished state's JSON, and a state's JSON that has a battle and one
    that has a card's modifiers (from the same seeded games)."""
    game = clangames.load("clan_feud", players=players)
    battle = mods = None
    for seed in range(20):
        state, rng = game.initial_state(), Rng(seed)
        while not state.is_terminal and not (battle and mods):
            state, rng = random_step(state, rng)
            data = state.to_json()["state"]
            battle = battle or data["battle"]
            mods = mods or data["mods"]
    end, _, _ = clangames.rollout(game.initial_state(), Rng(1))
    assert end.is_terminal and battle and mods
    return game, end.to_json(), {"battle": battle, "mods": mods}


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("moved", "state.moved: troops are marked as moved only during a Military move"),
        ("mods", "state.mods: expected a card's modifiers (its seat first) exactly while"),
        ("battle", "state.battle: a battle exists exactly while battle tasks are on the"),
    ],
)
def test_a_finished_state_with_a_pending_tasks_trace_is_refused(field: str, message: str) -> None:
    game, end, others = _finished()
    data = json.loads(json.dumps(end))
    if field == "moved":
        data["state"]["moved"][39] = 2**70
    else:
        data["state"][field] = others[field]
    with pytest.raises(StateDecodeError) as refused:
        game.state_from_json(data)
    assert str(refused.value).startswith(message)


def test_a_finished_state_reads_back() -> None:
    game, end, _ = _finished()
    state = game.state_from_json(json.dumps(end))
    assert state.to_json() == end
    assert game.state_from_position(state.to_position()) == state

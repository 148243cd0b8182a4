"""The saved-state check's quick path sums each troop type over whole counts. Its mask kept
only each count's lowest bit, so a seat with an even number of troops beyond the supply
in one territory (12 infantry, 6 cavalry, 4 artillery; 130 found by fuzzing) passed the
quick path, the detailed check never ran, and the state was accepted; playing on raised
IndexError (a Military die offered more troops than the action table holds)."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

import clangames
from clangames import Rng, StateDecodeError
from clangames.clan_feud import observation
from fuzz_helpers import random_step


def _seat_0_army(players: int = 2) -> tuple[Any, Any, int]:
    """The game, a state of a seeded game at rest, and a territory where seat 0 has an
    army."""
    game = clangames.load("clan_feud", players=players)
    state, rng = game.initial_state(), Rng(4)
    while True:
        state, rng = random_step(state, rng)
        if state.phase.name == "assign" and state.battle is None:
            row = state.troops[0]
            armies = [t for t in range(game.board.size) if any(row[3 * t : 3 * t + 3])]
            if armies:
                return game, state, armies[0]


@pytest.mark.parametrize(("kind", "count"), [(0, 12), (0, 130), (1, 6), (2, 4)])
def test_an_even_count_beyond_the_supply_is_refused(kind: int, count: int) -> None:
    game, state, t = _seat_0_army()
    data = json.loads(json.dumps(state.to_json()))
    data["state"]["troops"][0][3 * t + kind] = count
    with pytest.raises(StateDecodeError, match=f"troops of type {kind} exceed the supply"):
        game.state_from_json(data)
    # the quick path says no by itself (so that the detailed loops word the problem)
    row = list(state.troops[0])
    row[3 * t + kind] = count
    bad = attrs.evolve(state, troops=(tuple(row), *state.troops[1:]))
    size, designs = game.board.size, len(game.deck.designs)
    assert not observation._seats_and_board_look_consistent(bad, 2, size, designs)


def test_the_quick_path_still_accepts_the_states_of_a_game() -> None:
    game, state, _ = _seat_0_army()
    size, designs = game.board.size, len(game.deck.designs)
    assert observation._seats_and_board_look_consistent(state, 2, size, designs)

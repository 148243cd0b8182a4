"""A state's JSON carries a fresh copy of the game's parameters: editing it changes neither
the game nor what it accepts back.

Found by the kernel's mutation audit: ``Game.params_json`` handing out its cached dict
itself passed every test before; a caller editing one state's JSON would then have
changed every later state's JSON and made the game refuse its own states.
"""

from __future__ import annotations

import clangames
from clangames import Rng


def test_editing_a_states_json_params_changes_nothing_else() -> None:
    game = clangames.load("kilt_castle", players=2)
    state = clangames.resolve_chance(game.initial_state(), Rng(2))
    data = state.to_json()
    data["params"]["players"] = 4
    data["params"]["extra"] = "edited"
    assert game.params_json() == {**dict(game.params)}
    assert "extra" not in game.params_json()
    fresh = state.to_json()
    assert fresh["params"]["players"] == 2
    assert game.state_from_json(fresh) == state
    other = game.params_json()
    other["players"] = 3
    assert game.params_json()["players"] == 2

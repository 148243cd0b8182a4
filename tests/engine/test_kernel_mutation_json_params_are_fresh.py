"""A state's JSON carries a fresh, JSON-encoded copy of the game's parameters: editing it
changes neither the game nor what it accepts back, and a parameter that is not plain JSON
(a tuple) is written as JSON and read back.

Found by the kernel's mutation audit: ``Game.params_json`` handing out its cached dict (or
caching one holding lists), and ``to_json`` writing the parameters unencoded, passed every
test before; a caller editing one state's JSON would then have changed every later state's
JSON and made the game refuse its own states.
"""

from __future__ import annotations

import json

import clangames
from clangames import Rng
from testing import toys
from testing.toys import ToyGame


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


def with_params(**extra: object) -> ToyGame:
    """Toy Duel with extra parameters of other shapes (a third-party game may have them)."""
    return ToyGame(toys.SPEC, {"players": 2, "max_bid": 2, **extra})


def test_nested_params_are_copied_every_time() -> None:
    game = with_params(order=[1, 2], names={"a": [3]})
    first = game.params_json()
    first["order"].append(9)
    first["names"]["a"].append(9)
    assert game.params_json() == {"players": 2, "max_bid": 2, "order": [1, 2], "names": {"a": [3]}}
    data = game.initial_state().to_json()
    data["params"]["order"].append(9)
    assert game.params["order"] == [1, 2]
    assert game.initial_state().to_json()["params"]["order"] == [1, 2]


def test_a_tuple_param_is_written_as_json_and_read_back() -> None:
    game = with_params(order=(1, 2))
    state = game.initial_state()
    data = state.to_json()
    assert data["params"]["order"] == [1, 2]
    assert game.state_from_json(json.dumps(data)) == state

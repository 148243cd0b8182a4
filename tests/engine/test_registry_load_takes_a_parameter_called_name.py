"""``load(name, /, **params)``: the game's name is positional-only, so a game may declare
a parameter called ``name`` and load it like any other (by keyword, from its repr, by
unpickling). Before, ``load("g", name=...)`` was a TypeError ("multiple values for
argument 'name'"), and simulate had to check a run's parameters before calling load."""

from __future__ import annotations

import inspect
import pickle
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import clangames
from clangames import Game, GameSpec, InvalidParameterError, Parameter
from clangames.engine.registry import load, register, unregister
from testing import toys

NAMED = "toy_named"


@pytest.fixture(name="built")
def registered_named_toy() -> Iterator[list[Mapping[str, Any]]]:
    """Toy Duel registered as ``toy_named`` with a str parameter called ``name`` too; the
    parameters of each game built are noted."""
    built: list[Mapping[str, Any]] = []

    def factory(params: Mapping[str, Any]) -> Game:
        built.append(params)
        return toys.ToyGame(spec, params)

    spec = GameSpec(
        name=NAMED,
        title="Toy Duel with a laird",
        summary="",
        min_players=2,
        max_players=2,
        parameters=(*toys.SPEC.parameters, Parameter("name", "nobody", "the laird", str)),
        factory=factory,
    )
    register(spec)
    try:
        yield built
    finally:
        unregister(NAMED)


def test_a_parameter_called_name_is_loaded_like_any_other(
    built: list[Mapping[str, Any]],
) -> None:
    game = load(NAMED, name="Duncan", max_bid=3)
    assert isinstance(game, toys.ToyGame) and game.name == NAMED
    assert built[-1] == {"players": 2, "max_bid": 3, "scoring": "standard", "name": "Duncan"}
    assert game.params["name"] == "Duncan" and game.params["max_bid"] == 3
    assert load(NAMED).params["name"] == "nobody"  # the default when not given


def test_a_game_with_a_parameter_called_name_comes_back_from_its_repr_and_pickle(
    built: list[Mapping[str, Any]],
) -> None:
    game = load(NAMED, name="Duncan")
    assert "name='Duncan'" in repr(game)
    assert eval(repr(game), {"clangames": clangames}) == game
    assert pickle.loads(pickle.dumps(game)) == game


def test_a_game_without_it_refuses_name_as_an_unknown_parameter() -> None:
    with pytest.raises(InvalidParameterError, match="toy_duel: unknown parameter 'name'"):
        load("toy_duel", name="Duncan")


def test_the_game_name_is_positional_only() -> None:
    assert inspect.signature(load).parameters["name"].kind is inspect.Parameter.POSITIONAL_ONLY
    assert clangames.load is load

"""The registry: loading games by name, validating parameters, listing games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import clangames
from clangames import (
    ClanGamesError,
    Game,
    GameSpec,
    InvalidParameterError,
    Parameter,
    UnknownGameError,
)
from clangames.engine.registry import canonical_name, game_spec, games, load, register
from testing import toys


def test_load_returns_a_game_with_all_parameters() -> None:
    game = load("toy_duel")
    assert isinstance(game, toys.ToyGame)
    assert dict(game.params) == {"players": 2, "max_bid": 2, "scoring": "standard"}
    assert game.num_players == 2
    assert game.name == "toy_duel"
    with pytest.raises(TypeError):
        game.params["max_bid"] = 3  # type: ignore[index]


def test_loaded_games_compare_by_name_and_parameters() -> None:
    assert load("toy_duel") == load("toy_duel", max_bid=2)
    assert hash(load("toy_duel")) == hash(load("toy_duel", max_bid=2))
    assert load("toy_duel") != load("toy_duel", max_bid=3)
    assert load("toy_duel") != "toy_duel"
    assert repr(load("toy_duel", max_bid=3)) == (
        "clangames.load('toy_duel', players=2, max_bid=3, scoring='standard')"
    )


@pytest.mark.parametrize("name", ["kings-kilt", "Kings_Kilt", " KINGS KILT ", "kings_kilt"])
def test_canonical_names(name: str) -> None:
    assert canonical_name(name) == "kings_kilt"
    assert load(name, players=2).name == "kings_kilt"
    assert game_spec(name) is game_spec("kings_kilt")


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError) as info:
        load("kings_quilt")
    text = str(info.value)
    assert text.startswith("no game called 'kings_quilt'; registered games: ")
    known = text.split("registered games: ")[1].split(", ")
    assert "kings_kilt" in known and "toy_duel" in known
    assert known == sorted(known)
    assert isinstance(info.value, ClanGamesError) and isinstance(info.value, KeyError)


def test_game_name_must_be_a_string() -> None:
    with pytest.raises(UnknownGameError, match="a game name must be a string, got 3"):
        load(3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"colour": "red"},
            "kings_kilt: unknown parameter 'colour'; expected one of players, first_player,"
            " betrayal_match, components",
        ),
        ({"players": "3"}, "kings_kilt: parameter 'players' must be int, got '3'"),
        ({"players": True}, "kings_kilt: parameter 'players' must be int, got True"),
        ({"players": 3.0}, "kings_kilt: parameter 'players' must be int, got 3.0"),
        ({"players": 5}, "kings_kilt: parameter 'players' must be in 2..4, got 5"),
        ({"players": 1}, "kings_kilt: parameter 'players' must be in 2..4, got 1"),
        (
            {"betrayal_match": "victim"},
            "kings_kilt: parameter 'betrayal_match' must be one of 'traitor', 'target',"
            " got 'victim'",
        ),
        ({"components": 7}, "kings_kilt: parameter 'components' must be str, got 7"),
    ],
)
def test_bad_parameters(params: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidParameterError) as info:
        load("kings_kilt", **params)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_minimum_without_maximum() -> None:
    with pytest.raises(InvalidParameterError) as info:
        load("kings_kilt", first_player=-1)
    assert str(info.value).startswith("kings_kilt: parameter 'first_player' must be")
    assert str(info.value).endswith("got -1")


def test_minimum_without_maximum_is_worded_for_people() -> None:
    with pytest.raises(InvalidParameterError) as info:
        load("kings_kilt", first_player=-1)
    assert "None" not in str(info.value)


def test_parameter_bounds_of_the_toy() -> None:
    assert load("toy_duel", max_bid=1).params["max_bid"] == 1
    assert load("toy_duel", max_bid=3).params["max_bid"] == 3
    with pytest.raises(InvalidParameterError, match=r"'max_bid' must be in 1..3, got 4"):
        load("toy_duel", max_bid=4)
    with pytest.raises(InvalidParameterError, match=r"'players' must be in 2..2, got 3"):
        load("toy_duel", players=3)
    with pytest.raises(InvalidParameterError, match="must be one of 'standard', got 'fancy'"):
        load("toy_duel", scoring="fancy")


def test_none_default_accepts_none() -> None:
    assert load("kings_kilt", components=None).params["components"] is None
    param = Parameter("x", None, "optional", str)
    assert param.validate("g", None) is None
    assert param.validate("g", "y") == "y"


def test_spec_parameter_lookup_and_resolve() -> None:
    spec = game_spec("toy_duel")
    assert spec.parameter("max_bid").maximum == 3
    assert spec.resolve({"max_bid": 1}) == {"players": 2, "max_bid": 1, "scoring": "standard"}
    with pytest.raises(InvalidParameterError, match="unknown parameter 'bid'"):
        spec.parameter("bid")


def test_games_lists_specs_sorted_by_name() -> None:
    specs = games()
    names = [s.name for s in specs]
    assert names == sorted(names)
    assert {"kings_kilt", "toy_duel", "toy_duel_faulty"} <= set(names)
    assert all(isinstance(s, GameSpec) for s in specs)
    assert clangames.games() == specs
    kilt = game_spec("kings_kilt")
    assert (kilt.title, kilt.min_players, kilt.max_players) == ("King's Kilt", 2, 4)


def _other_factory(params: Mapping[str, Any]) -> Game:
    return toys.ToyGame(toys.SPEC, params)


def test_register_is_idempotent_but_refuses_a_different_game() -> None:
    assert register(toys.SPEC) is toys.SPEC
    same = GameSpec(
        name=toys.SPEC.name,
        title=toys.SPEC.title,
        summary=toys.SPEC.summary,
        min_players=2,
        max_players=2,
        parameters=toys.SPEC.parameters,
        factory=_other_factory,  # factories are not compared
    )
    assert register(same) is same
    register(toys.SPEC)  # put the original back
    different = GameSpec(
        name="Toy-Duel",
        title="Another game",
        summary="",
        min_players=2,
        max_players=2,
        parameters=toys.SPEC.parameters,
        factory=_other_factory,
    )
    with pytest.raises(ValueError, match="a different game is already registered as 'toy_duel'"):
        register(different)
    assert game_spec("toy_duel").title == "Toy Duel"

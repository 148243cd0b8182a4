"""The registry: loading games by name, validating parameters, listing games."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
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
from clangames.engine import registry
from clangames.engine.registry import (
    canonical_name,
    clear_load_cache,
    game_spec,
    games,
    load,
    register,
)
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


# -- the per-process cache of loaded games ----------------------------------------------------


def _counting_spec(name: str, title: str, calls: list[str]) -> GameSpec:
    """A Toy Duel spec registered as ``name`` whose factory notes each game it builds."""

    def factory(params: Mapping[str, Any]) -> Game:
        calls.append(title)
        return toys.ToyGame(spec, params)

    spec = GameSpec(
        name=name,
        title=title,
        summary="",
        min_players=2,
        max_players=2,
        parameters=toys.SPEC.parameters,
        factory=factory,
    )
    return spec


def test_the_same_name_and_parameters_give_the_same_game() -> None:
    game = load("kings_kilt", players=2)
    assert load("kings-kilt", players=2, first_player=0) is game
    assert load("Kings Kilt", players=2, components=None) is game
    assert load("kings_kilt", players=3) is not game
    assert load("kings_kilt", players=2, betrayal_match="target") is not game


def test_a_game_is_built_once_per_parameters() -> None:
    calls: list[str] = []
    register(_counting_spec("toy_counted", "counted", calls))
    try:
        first = load("toy_counted")
        assert load("toy_counted", max_bid=2) is first
        assert load("toy_counted", max_bid=3) is not first
        assert calls == ["counted", "counted"]
    finally:
        registry.unregister("toy_counted")


def test_a_failing_factory_caches_nothing() -> None:
    calls: list[str] = []
    attempts = 0

    def flaky(params: Mapping[str, Any]) -> Game:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise InvalidParameterError("toy_flaky: not this time")
        return good.factory(params)

    good = _counting_spec("toy_flaky", "flaky", calls)
    register(attrs.evolve(good, factory=flaky))
    try:
        with pytest.raises(InvalidParameterError, match="not this time"):
            load("toy_flaky")
        assert isinstance(load("toy_flaky"), toys.ToyGame)
        assert load("toy_flaky") is load("toy_flaky") and calls == ["flaky"]
    finally:
        registry.unregister("toy_flaky")


def test_another_spec_under_the_same_name_never_gets_the_old_game() -> None:
    calls: list[str] = []
    first = _counting_spec("toy_twice", "first", calls)
    register(first)
    try:
        old = load("toy_twice")
        registry.unregister("toy_twice")
        assert not [k for k in registry._LOADED if k[0] == "toy_twice"]
        register(_counting_spec("toy_twice", "second", calls))
        new = load("toy_twice")
        assert new is not old and new.spec.title == "second"
        assert calls == ["first", "second"]
        # Specs compare without their factories: an equal spec registered again (a new
        # object) builds its own games too.
        again = _counting_spec("toy_twice", "second", calls)
        assert register(again) is again
        assert load("toy_twice") is not new
        assert calls == ["first", "second", "second"]
        assert load("toy_twice").spec is again
    finally:
        registry.unregister("toy_twice")


def test_an_edited_data_file_is_read_again(tmp_path: Path) -> None:
    bundled = resources.files("clangames.kings_kilt").joinpath("components.toml")
    path = tmp_path / "box.toml"
    path.write_text(bundled.read_text("utf-8"), "utf-8")
    game = load("kings_kilt", players=2, components=str(path))
    assert load("kings_kilt", players=2, components=str(path)) is game
    assert "Stewart" in game.clans  # type: ignore[attr-defined]
    path.write_text(path.read_text("utf-8").replace('"Stewart"', '"Stuart"'), "utf-8")
    edited = load("kings_kilt", players=2, components=str(path))
    assert edited is not game
    assert "Stuart" in edited.clans and "Stewart" not in edited.clans  # type: ignore[attr-defined]
    assert load("kings_kilt", players=2, components=str(path)) is edited
    path.unlink()
    with pytest.raises(InvalidParameterError, match="cannot be read"):
        load("kings_kilt", players=2, components=str(path))


def test_a_relative_data_file_is_keyed_by_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundled = resources.files("clangames.kings_kilt").joinpath("components.toml").read_text()
    for folder, clan in (("a", "Stewart"), ("b", "Stuart")):
        (tmp_path / folder).mkdir()
        text = bundled.replace('"Stewart"', f'"{clan}"')
        (tmp_path / folder / "box.toml").write_text(text, "utf-8")
    monkeypatch.chdir(tmp_path / "a")
    in_a = load("kings_kilt", players=2, components="box.toml")
    monkeypatch.chdir(tmp_path / "b")
    in_b = load("kings_kilt", players=2, components="box.toml")
    assert in_a is not in_b
    assert "Stewart" in in_a.clans and "Stuart" in in_b.clans  # type: ignore[attr-defined]


def test_the_cache_is_bounded_and_keeps_the_recently_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    register(_counting_spec("toy_bounded", "bounded", calls))
    try:
        clear_load_cache()
        monkeypatch.setattr(registry, "LOAD_CACHE_SIZE", 2)
        one = load("toy_bounded", max_bid=1)
        two = load("toy_bounded", max_bid=2)
        assert load("toy_bounded", max_bid=1) is one  # now the most recently used
        load("toy_bounded", max_bid=3)  # pushes out max_bid=2, the least recently used
        assert len(registry._LOADED) == 2
        assert load("toy_bounded", max_bid=1) is one
        assert load("toy_bounded", max_bid=2) is not two
        assert len(calls) == 4
    finally:
        registry.unregister("toy_bounded")


def test_clear_load_cache_builds_games_again() -> None:
    game = load("toy_duel")
    clear_load_cache()
    again = load("toy_duel")
    assert again is not game and again == game
    assert load("toy_duel") is again

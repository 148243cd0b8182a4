"""What ``load`` keeps, and under which key (pinned by the kernel's mutation audit: a key
without the parameter's type, a data file keyed by its size only, and a registry that
forgot only some of a game's kept games all passed the earlier tests).

A loaded game is kept per canonical name and resolved parameters *with their types*; a
data file named by a parameter is keyed by its identity and version (an edit of the same
size is still read again); unregistering a game, or registering another spec object under
its name, drops every game kept for it.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from clangames import Parameter
from clangames.engine import registry
from clangames.engine.registry import load, register, unregister
from testing.toys import counting_spec


def kept(name: str) -> list[tuple[Any, ...]]:
    return [k for k in registry._LOADED if k[0] == name]


def test_equal_values_of_different_types_are_different_parameters() -> None:
    calls: list[object] = []
    register(counting_spec("toy_typed", calls, Parameter("style", None, "anything", object)))
    try:
        games = [load("toy_typed", style=value) for value in (1, True, 1.0)]
        assert len({id(g) for g in games}) == 3
        assert [type(c["style"]) for c in calls] == [int, bool, float]  # type: ignore[index]
        assert load("toy_typed", style=1) is games[0]
        assert load("toy_typed", style=True) is games[1]
    finally:
        unregister("toy_typed")


def test_unregistering_drops_every_game_kept_for_the_name() -> None:
    calls: list[object] = []
    register(counting_spec("toy_forgotten", calls))
    try:
        for bid in (1, 2, 3):
            load("toy_forgotten", max_bid=bid)
        assert len(kept("toy_forgotten")) == 3
    finally:
        unregister("toy_forgotten")
    assert kept("toy_forgotten") == []


def test_another_spec_object_drops_the_games_of_the_one_before() -> None:
    calls: list[object] = []
    register(counting_spec("toy_replaced", calls))
    try:
        for bid in (1, 2):
            load("toy_replaced", max_bid=bid)
        register(counting_spec("toy_replaced", calls))  # equal, another object
        assert kept("toy_replaced") == []
        load("toy_replaced", max_bid=1)
        assert len(calls) == 3
    finally:
        unregister("toy_replaced")


def test_an_edit_of_the_same_size_is_read_again(tmp_path: Path) -> None:
    bundled = resources.files("clangames.kings_kilt").joinpath("components.toml")
    path = tmp_path / "box.toml"
    path.write_text(bundled.read_text("utf-8"), "utf-8")
    game = load("kings_kilt", players=2, components=str(path))
    size = path.stat().st_size
    path.write_text(path.read_text("utf-8").replace('"Stewart"', '"Stuart_"'), "utf-8")
    assert path.stat().st_size == size
    later = path.stat().st_mtime_ns + 5_000_000_000  # coarse clocks: a visible change
    os.utime(path, ns=(later, later))
    edited = load("kings_kilt", players=2, components=str(path))
    assert edited is not game
    assert "Stuart_" in edited.clans  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _no_leftovers() -> Any:
    yield
    for name in ("toy_typed", "toy_forgotten", "toy_replaced"):
        unregister(name)

"""A game whose declared length does not fit OpenSpiel's integers is refused at load with
InvalidParameterError naming the bound and the limit (the ``openspiel`` extra).

Found by fuzzing Clan Feud's events files: nested ``repeat`` counts on an event are allowed,
and each repetition is a decision, so the game's length bound grows with their product; the
adapter handed it to ``pyspiel.GameInfo``, which raised a bare TypeError."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import clangames  # noqa: E402
from clangames import InvalidParameterError  # noqa: E402
from clangames.adapters.openspiel import load_game  # noqa: E402

OPENSPIEL_INT_MAX = 2**31 - 1  # a C++ int


def _events(tmp_path: Path, each_player: str) -> str:
    first = 'each_player = "pay_money(3) OR england_track(+1)"'
    text = resources.files("clangames.clan_feud").joinpath("events.toml").read_text("utf-8")
    assert first in text
    path = tmp_path / "long-events.toml"
    path.write_text(text.replace(first, f"each_player = {json.dumps(each_player)}"), "utf-8")
    return str(path)


def test_a_game_longer_than_openspiel_can_count_is_refused_clearly(tmp_path: Path) -> None:
    events = _events(tmp_path, "repeat(300) repeat(300) repeat(300) repeat(300) gain_money(1)")
    bound = clangames.load("clan_feud", players=2, events=events).interop.bounds.decisions
    assert bound > OPENSPIEL_INT_MAX  # the clangames game itself loads
    with pytest.raises(InvalidParameterError) as refused:
        load_game("clan_feud", players=2, events=events)  # was TypeError from pyspiel
    assert str(refused.value) == (
        f"clan_feud with these parameters allows up to {bound} decisions in a game;"
        f" OpenSpiel takes game lengths up to {OPENSPIEL_INT_MAX}"
    )


def test_a_long_game_that_fits_still_loads(tmp_path: Path) -> None:
    events = _events(tmp_path, "repeat(300) gain_money(1)")
    game = load_game("clan_feud", players=2, events=events)
    assert game.max_game_length() == game.clangames.interop.bounds.decisions

"""At a game's doors: ``load`` refuses None for a parameter that has a real default (only a
parameter whose default is None may be given None), and ``state_from_json`` and
``GameRecord.from_json`` read JSON given as UTF-8 bytes as they read it given as text.

Found by the kernel's mutation audit: a parameter check letting None through for any
parameter, and a ``state_from_json`` that took only ``str`` text, passed every test before.
"""

from __future__ import annotations

import json

import pytest

import clangames
from clangames import GameRecord, InvalidParameterError, Match, Rng
from clangames.bots import RandomBot


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker", "kilt_castle", "clan_feud"])
def test_none_is_not_a_player_count(name: str) -> None:
    with pytest.raises(InvalidParameterError, match=rf"{name}: parameter 'players' must be int"):
        clangames.load(name, players=None)


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker", "kilt_castle", "clan_feud"])
def test_json_may_come_as_utf8_bytes(name: str) -> None:
    game = clangames.load(name, players=2)
    state = clangames.resolve_chance(game.initial_state(), Rng(5))
    text = json.dumps(state.to_json())
    assert game.state_from_json(text.encode("utf-8")) == state
    match = Match(game, 5, {0: RandomBot(Rng(1)), 1: RandomBot(Rng(2))})
    match.run(20)
    record = match.record
    assert GameRecord.from_json(record.dumps().encode("utf-8")) == record

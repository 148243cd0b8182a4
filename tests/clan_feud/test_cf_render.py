"""The Clan Feud terminal renderer draws from observations only."""

from __future__ import annotations

from rich.console import Console

import clangames
from clangames.rendering.clan_feud import ClanFeudRenderer
from clangames.rendering.text import renderer_for

from .cf_rules_helpers import load, position


def _text(renderable: object) -> str:
    console = Console(width=160, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_renderer_is_found_and_draws_map_clans_and_track() -> None:
    game = load(2)
    renderer = renderer_for(game)
    assert isinstance(renderer, ClanFeudRenderer)
    state = clangames.resolve_chance(game.initial_state(), clangames.Rng(3))
    text = _text(renderer.board(state.observation(0)))
    assert "Moray" in text and "The Lennox" in text and "Edinburgh Castle" in text
    assert "King James" in text and "England 0/17" in text and "clan 1" in text


def test_secrets_show_only_the_viewers_hand() -> None:
    game = load(2)
    state = position(game, [], hands={0: {"AC10": 1}, 1: {"AC01": 2}})
    renderer = renderer_for(game)
    assert renderer.secrets(state.observation(0)) == [
        "hand: Salt Pans of the Forth (in battle +2 strength)"
    ]
    assert renderer.secrets(state.public_observation()) == []
    text = _text(renderer.board(state.observation(0)))
    assert "Raid of Ruthven" not in text
    # two copies of a card are counted, not listed twice with their effect
    assert renderer.secrets(state.observation(1)) == [
        "hand: Raid of Ruthven x2 (in battle cancels the other side's card)"
    ]

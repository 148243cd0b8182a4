"""The pictures show every part of the table a player needs, named as the game names it:
a KOA court's kept nominations (they score), the side England fights on in a Clan Feud
battle, a Clan Feud hand by its cards' names; and a mismatched observation or game is
refused with a clear error instead of a traceback or a picture of the wrong game."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

import clangames
from clangames.engine.bits import bits_of
from clangames.engine.errors import InvalidArgumentError
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout_moves
from clangames.engine.state import State
from clangames.koa_kingmaker.cards import NOMINATIONS
from clangames.rendering import render_observation
from clangames.rendering.plain import text_of
from clangames.rendering.svg import PictureError, picture, state_picture
from clangames.rendering.text import GenericRenderer, renderer_for
from test_svg import SVG, parse


def _played(name: str, players: int, seed: int) -> list[State]:
    """Every state of one seeded random game, the start first."""
    state = clangames.load(name, players=players).initial_state()
    _, _, moves = rollout_moves(state, Rng(seed))
    states = [state]
    for player, action in moves:
        states.append(states[-1].apply(action, player))
    return states


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(SVG + "text")]


def test_a_koa_court_shows_the_nominations_it_kept() -> None:
    final: Any = _played("koa_kingmaker", 4, 0)[-1]
    kept = {h: set(bits_of(final.courts[h] & NOMINATIONS)) for h in range(4)}
    assert any(kept.values())  # seed 0 ends with a nomination in a court
    root = parse(state_picture(final))
    drawn = [int(g.attrib["data-card"]) for g in root.iter(SVG + "g") if "data-card" in g.attrib]
    for h, noms in kept.items():
        for kind in noms:
            assert kind in drawn, (h, kind)
    # every court card is drawn, once for each house holding it
    courts = Counter(k for h in range(4) for k in bits_of(final.courts[h]))
    assert not courts - Counter(drawn), courts - Counter(drawn)


def test_a_clan_feud_battle_england_fights_names_england() -> None:
    for state in _played("clan_feud", 2, 3):
        battle: Any = state.public_observation().battle
        if battle is not None and min(battle.owners) < 0:
            break
    else:
        raise AssertionError("seed 3 has no battle with England")
    line = next(t for t in _texts(parse(state_picture(state))) if t.startswith("Battle at"))
    assert "clan -1" not in line, line
    attacker, defender = (
        "England" if p < 0 else f"clan {p}" for p in battle.owners
    )  # as the text screen says
    assert line.endswith(f": {attacker} attacks {defender}"), line


def test_a_clan_feud_hand_is_named_by_its_cards() -> None:
    game: Any = clangames.load("clan_feud", players=2)
    for state in _played("clan_feud", 2, 1):
        obs: Any = state.observation(0)
        if sum(obs.hand) >= 2:
            break
    designs = game.deck.designs
    line = next(t for t in _texts(parse(state_picture(state, 0))) if t.startswith("Your cards:"))
    names = [designs[d].name + (f" x{n}" if n > 1 else "") for d, n in enumerate(obs.hand) if n]
    assert line == "Your cards: " + ", ".join(names)
    assert "design" not in line


def test_render_observation_refuses_another_games_observation() -> None:
    feud = clangames.load("clan_feud", players=2)
    kilt = clangames.load("kings_kilt", players=3)
    kk_obs = kilt.initial_state().public_observation()
    cf_obs = feud.initial_state().public_observation()
    for game, obs, kind in ((feud, kk_obs, "KingsKiltObservation"), (kilt, cf_obs, "ClanFeud")):
        with pytest.raises(InvalidArgumentError, match=f"{kind}.* is not an observation of"):
            render_observation(game, obs)
    with pytest.raises(InvalidArgumentError, match=r"int 3 is not an observation of clan_feud"):
        render_observation(feud, 3)
    # its own observations still draw
    assert "Scotland" in render_observation(feud, cf_obs)


def test_the_clan_feud_renderer_draws_anything_else_generically() -> None:
    game = clangames.load("clan_feud", players=2)
    renderer = renderer_for(game)
    generic = GenericRenderer(game)
    other = ("not", "an", "observation")
    assert text_of(renderer.board(other), 80) == text_of(generic.board(other), 80)
    assert text_of(renderer.summary(other), 80) == text_of(generic.summary(other), 80)
    assert renderer.secrets(other) == []
    assert renderer.hidden_step(other, other, 1) == generic.hidden_step(other, other, 1)


def test_picture_with_something_that_is_not_a_game_says_so() -> None:
    obs = clangames.load("kings_kilt", players=3).initial_state().public_observation()
    with pytest.raises(PictureError, match=r"drawn with its own game \(kings_kilt\), not 3"):
        picture(obs, 3)  # type: ignore[arg-type]
    koa = clangames.load("koa_kingmaker", players=3)
    with pytest.raises(PictureError, match=r"own game \(kings_kilt\), not koa_kingmaker"):
        picture(obs, koa)

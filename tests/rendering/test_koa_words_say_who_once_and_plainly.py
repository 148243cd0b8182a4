"""KOA Kingmaker's words: the commit prompt is singular for the last house still choosing,
a narration line never names its mover twice (``[12] player 1: puts a card face down``),
and an inheritance deal a seat may know is said plainly (no "(here 1)")."""

from __future__ import annotations

import clangames
from clangames.engine.phases import CHANCE
from clangames.koa_kingmaker import Play
from clangames.koa_kingmaker.actions import Inherit
from clangames.koa_kingmaker.cards import SEER
from clangames.rendering.text import narrate, renderer_for, step_line


def test_the_last_house_choosing_is_prompted_in_the_singular() -> None:
    state = clangames.load("koa_kingmaker", players=2).initial_state()
    while state.is_chance:
        state = state.apply(state.chance_weights()[0][0], CHANCE)
    assert state.prompt() == "round 1: players 0, 1 put one card face down each"
    state = state.apply(Play(SEER), 1)
    assert state.prompt() == "round 1: player 0: put one card face down"


def test_a_narration_line_names_its_mover_once() -> None:
    assert (
        step_line(12, 1, "player 1 puts a card face down") == "[12] player 1: puts a card face down"
    )
    assert step_line(3, 0, "player 1 puts a card face down") == (
        "[3] player 0: player 1 puts a card face down"
    )
    assert step_line(0, CHANCE, "automated household 3 puts a card face down") == (
        "[0] chance: automated household 3 puts a card face down"
    )


def test_an_inheritance_deal_is_said_plainly_and_only_to_who_may_know() -> None:
    game = clangames.load("koa_kingmaker", players=2)
    state = game.initial_state()
    after = state.apply(Inherit(3), CHANCE)
    renderer = renderer_for(game)
    assert narrate(renderer, state, Inherit(3), CHANCE, after, 0) == (
        "house 0 is dealt inheritance number 3 face down"
    )
    told = narrate(renderer, state, Inherit(3), CHANCE, after, 1)
    assert "3" not in told and "here" not in told

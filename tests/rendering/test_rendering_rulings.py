"""The rendering layer's own rulings (docs/games/rendering.md), each pinned here."""

from __future__ import annotations

import attrs

import clangames
from clangames.engine import display
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout
from clangames.rendering.plain import status_line


@attrs.frozen
class _Word:
    """An action value of a toy game, worded by two loaded tables."""

    n: int


def test_an_action_worded_two_ways_prints_as_its_repr() -> None:
    display.register_action_texts([_Word(1), _Word(2)], ["one", "two"])
    assert str(_Word(1)) == "one"
    display.register_action_texts([_Word(1)], ["uno"])  # another table words it otherwise
    assert str(_Word(1)) == repr(_Word(1)) == "_Word(n=1)"
    assert str(_Word(2)) == "two"  # a value worded one way keeps its text


def test_a_final_picture_names_the_result_only_without_hidden_information() -> None:
    koa = clangames.load("koa_kingmaker", players=3)
    final, _, _ = rollout(koa.initial_state(), Rng(3))
    line = status_line(final)
    assert line == "Game over (the result: state.scores(), state.winners())"
    assert line in final.render(0)
    castle = clangames.load("kilt_castle", players=2)
    assert not castle.info.has_hidden_information
    done, _, _ = rollout(castle.initial_state(), Rng(3))
    scores = ", ".join(map(str, done.scores()))
    assert status_line(done).startswith("Game over; won by ")
    assert status_line(done).endswith(f"scores {scores}")

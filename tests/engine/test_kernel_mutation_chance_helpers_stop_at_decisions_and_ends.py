"""``resolve_chance`` and ``play_chance`` sample only chance nodes: at a decision node or a
finished game they return the state itself and leave the generator alone.

Found by the kernel's mutation audit: a ``resolve_chance`` that failed on a finished game
passed every test before (a driver calls it after every move, the last one included).
"""

from __future__ import annotations

import pytest

import clangames
from clangames import Rng
from clangames.engine.rollout import rollout


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker", "kilt_castle", "clan_feud"])
def test_nothing_is_sampled_at_a_decision_or_the_end(name: str) -> None:
    game = clangames.load(name, players=2)
    decision = clangames.resolve_chance(game.initial_state(), Rng(8))
    assert not decision.is_chance and not decision.is_terminal
    assert clangames.resolve_chance(decision, Rng(9)) is decision
    assert clangames.play_chance(decision, Rng(9)) == (decision, Rng(9))
    end, _, _ = rollout(game.initial_state(), Rng(8))
    assert end.is_terminal
    assert clangames.resolve_chance(end, Rng(9)) is end
    assert clangames.play_chance(end, Rng(9)) == (end, Rng(9))

"""The adapters' constructors take the game's name by position only, as ``load`` does, so a
keyword called ``name`` is a game parameter: refused by the game as unknown (a clear
InvalidParameterError naming it, or OpenSpiel's own SpielError), never Python's "got
multiple values" TypeError."""

from __future__ import annotations

import pytest

from clangames.engine.errors import InvalidParameterError

pytest.importorskip("pettingzoo")


def test_pettingzoo_envs_pass_a_name_keyword_to_the_game() -> None:
    from clangames.adapters.pettingzoo import aec_env, parallel_env

    with pytest.raises(InvalidParameterError, match="name"):
        aec_env("kings-kilt", name="kilt-castle")
    with pytest.raises(InvalidParameterError, match="name"):
        parallel_env("koa-kingmaker", name="kilt-castle")
    env = aec_env("kings-kilt", players=3)
    env.reset(seed=1)
    assert len(env.possible_agents) == 3


def test_openspiel_load_game_passes_a_name_keyword_to_the_game() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from clangames.adapters.openspiel import load_game

    # OpenSpiel checks parameters against the game's declared ones itself.
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'name'"):
        load_game("kings-kilt", name="kilt-castle")
    assert load_game("kings-kilt", players=3).num_players() == 3

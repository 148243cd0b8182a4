"""King's Kilt's ``hidden_pool`` is what the viewer cannot see, in every phase (a mutation
audit's gap).

The re-deal's pool: the others' face-down family cards and hands, the undealt family
deck, and the Clan Members only once the family deal is over (during it the member pool
is public and stays as it is). Counting the members during the deal changes no re-deal
(every clan's one hidden copy is enough there and no hand is dealt), so only a direct
check sees it; tests/kings_kilt/test_resample_exact.py compared the pool with its own
count on late positions only. Here: every state of seeded games, every viewer.
"""

from __future__ import annotations

import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState
from clangames.kings_kilt.posterior import hidden_pool

from .test_resample_exact import _pool


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_hidden_pool_is_what_the_viewer_cannot_see(players: int) -> None:
    game = clangames.load("kings_kilt", players=players)
    _, _, moves = clangames.rollout_moves(game.initial_state(), Rng(60 + players))
    state = game.initial_state()
    phases = set()
    for player, action in moves:
        assert isinstance(state, KingsKiltState)
        phases.add(state.phase.name)
        for viewer in range(players):
            pool = hidden_pool(state, viewer)
            assert pool == _pool(state, viewer), (state.phase.name, viewer)
            if state.phase.name == "deal_family":
                # one copy at most of a clan is hidden: its one-per-clan card
                assert max(pool) <= 1
        state = state.apply(action, player)
    assert {"deal_family", "deal_third", "turn"} <= phases

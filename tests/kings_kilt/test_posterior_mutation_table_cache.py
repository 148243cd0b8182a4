"""King's Kilt's cached posterior tables are the tables of their own key (a mutation
audit's gap).

``posterior`` keeps the tables of the last few keys; a re-deal must get the tables of
exactly what its viewer knows, never those of another position that only looks alike.
Positions one turn apart often differ in nothing but the hidden copies of each clan;
the other tests clear the cache or re-deal one position at a time, so a cache that
matched keys loosely went unseen (only the digests moved). Here the tables are made for
such a pair one after the other and compared with tables made afresh.
"""

from __future__ import annotations

import importlib
import itertools

import clangames
from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState
from clangames.kings_kilt.posterior import FamilyPosterior, Key, family_key, hidden_pool, posterior


def _pairs(limit: int) -> list[tuple[Key, Key]]:
    """Keys of one viewer at two turns of a seeded 3-player game that differ only in the
    hidden copies."""
    game = clangames.load("kings_kilt", players=3)
    _, _, moves = clangames.rollout_moves(game.initial_state(), Rng(5))
    state = game.initial_state()
    keys: list[Key] = []
    for player, action in moves:
        assert isinstance(state, KingsKiltState)
        if state.phase.name == "turn":
            keys.append(family_key(state, 0, hidden_pool(state, 0)))
        state = state.apply(action, player)
    pairs = [(a, b) for a, b in itertools.pairwise(keys) if a[:-1] == b[:-1] and a[-1] != b[-1]]
    return pairs[:limit]


def test_the_tables_of_a_key_are_its_own_whatever_was_made_before() -> None:
    tables = importlib.import_module("clangames.kings_kilt.posterior")._TABLES
    pairs = _pairs(3)
    assert pairs
    for first, second in pairs:
        tables.clear()
        posterior(first)
        got = posterior(second)
        fresh = FamilyPosterior(second)
        assert got.total == fresh.total
        assert list(got.deals()) == list(fresh.deals())
        assert posterior(first).total == FamilyPosterior(first).total

"""Clan Feud's fast-path moves (``rules.apply_owned``, ``rules.apply_kept``) are plain
functions of the rules (compiled in the optional build), not code generated from the
state's fields: they reset the state's cache fields by name, which must stay the kernel's
list of them, and they must leave no cache of the state before them in the draft."""

from __future__ import annotations

import pickle

import clangames
from clangames import Rng
from clangames.clan_feud import rules
from clangames.clan_feud.state import ClanFeudState
from clangames.engine.state import _layout


def test_the_moves_reset_exactly_the_kernels_cache_fields() -> None:
    # apply_owned and apply_kept set these two to None by name at every move.
    assert _layout(ClanFeudState)[1] == (("_memo", None), ("options", None))


def test_a_move_forgets_the_caches_of_the_state_before_it() -> None:
    game = clangames.load("clan_feud", players=3)
    state, _, _ = clangames.rollout(game.initial_state(), Rng(5), 40)
    player = state.to_move[0]
    action = state._chance_weights()[0][0] if state.is_chance else state.legal_actions(player)[0]
    expected = state.apply(action, player)
    for move in (rules.apply_owned, rules.apply_kept):
        mine = pickle.loads(pickle.dumps(state))
        sentinel: dict[int, tuple[object, ...]] = {}
        object.__setattr__(mine, "_memo", sentinel)
        made = rules.kept_state(move(mine, action, player))
        assert made == expected
        assert made._memo is not sentinel

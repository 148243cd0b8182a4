"""The speed work's shortcuts agree with the plain definitions they replace, on every seat
and level of states from seeded random games (2 and 5 players)."""

from __future__ import annotations

import pytest

import clangames
from clangames.clan_feud import rules
from clangames.clan_feud.state import ClanFeudState, occupied
from clangames.engine.rng import Rng


def states(players: int, games: int = 3) -> list[ClanFeudState]:
    game = clangames.load("clan_feud", players=players)
    out = []
    for seed in range(games):
        state, rng = game.initial_state(), Rng(seed)
        while not state.is_terminal:
            assert isinstance(state, ClanFeudState)
            out.append(state)
            if state.is_chance:
                action, rng = clangames.sample_chance(state, rng)
                state = state.apply(action)
            else:
                player = state.to_move[0]
                legal = state.legal_actions(player)
                k, rng = rng.below(len(legal))
                state = state.apply(legal[k], player)
    return out[::7]


@pytest.mark.parametrize("players", [2, 5])
def test_shortcuts_agree_with_their_definitions(players: int) -> None:
    checked = build_yes = military_yes = 0
    for state in states(players):
        w = rules.working(state)
        for p in range(players):
            row = w.troops[p]
            assert occupied(row) == [
                t for t in range(len(w.controller)) if any(row[3 * t : 3 * t + 3])
            ]
            assert rules.mine(w, p) == [t for t, c in enumerate(w.controller) if c == p]
            assert w.has_troops(p) == (w.troop_total(p) > 0)
            military = rules._military_possible(w, p)
            for level in (1, 2, 3):
                build = bool(rules.build_options(w, p, level, False))
                assert rules._build_possible(w, p, level) == build
                plain = w.troop_total(p) > 0 or rules.recruit_possible(w, p, level)
                assert military[level - 1] == plain
                build_yes += build
                military_yes += plain
                checked += 1
    # both answers occur, so the comparison means something
    assert 0 < build_yes < checked and 0 < military_yes < checked

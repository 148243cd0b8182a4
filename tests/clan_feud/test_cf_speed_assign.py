"""A die's assignment options (worked out over open slots, Build and Military levels that
cannot act closed first) are exactly the assignments the slow reading of the rules allows:
a die of that colour and value, an open slot at the level in that column, and for Build a
purchase to make, for Military a recruit or a move to make."""

from __future__ import annotations

import pytest

import clangames
from clangames.clan_feud import rules
from clangames.clan_feud.actions import Assign, PlayAction
from clangames.clan_feud.rules import BUILD, LEVEL_BITS, MILITARY, build_options, working
from clangames.clan_feud.state import ClanFeudState
from clangames.engine.rng import Rng


def slow_assign_options(state: ClanFeudState) -> list[object]:
    w = working(state)
    p = state.tasks[-1].player
    open_slots = rules.EXISTS & ~(w.covered[p] | w.filled[p])
    table = state.game.assign_table
    out: list[object] = []
    for i, count in enumerate(w.pool[p]):
        colour, v0 = divmod(i, 3)
        if not count:
            continue
        for column in range(5):
            if colour in rules.COLUMN_OF_COLOUR and rules.COLUMN_OF_COLOUR[colour] != column:
                continue
            for level in range(1, v0 + 2):
                if not open_slots & LEVEL_BITS[column][level]:
                    continue
                if column == BUILD and not build_options(w, p, level, False):
                    continue
                if column == MILITARY and not (
                    rules.recruit_possible(w, p, level) or w.has_troops(p)
                ):
                    continue
                out.append(table[colour][v0][column][level])
    return out or [state.game.words["pass"]]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_assignment_options_match_the_slow_reading(players: int) -> None:
    game = clangames.load("clan_feud", players=players)
    checked = 0
    for seed in range(3):
        state, rng = game.initial_state(), Rng(500 + seed)
        while not state.is_terminal:
            assert isinstance(state, ClanFeudState)
            if state.is_chance:
                action, rng = clangames.sample_chance(state, rng)
                state = state.apply(action)
                continue
            player = state.to_move[0]
            legal = state.legal_actions(player)
            if state.tasks[-1].kind == "assign" and not state.tasks[-1].a:
                # the dice's own options; action cards' plays (part 3) come after them
                dice = [a for a in legal if not isinstance(a, PlayAction)]
                assert dice == slow_assign_options(state)
                assert all(isinstance(a, Assign) for a in dice) or len(dice) == 1
                checked += 1
            k, rng = rng.below(len(legal))
            state = state.apply(legal[k], player)
    assert checked > 100

"""Issue 11's sixth Clan Feud speed round (cffast7): an assignment's plan, worked out once
per action at load, gives what the plain reading it replaced gives, and the move built on
it makes the same states, for the game's own actions and for equal copies of them, on
every state of seeded random games (the plain move kept here as the oracle, as it stood
before the round)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import clangames
from clangames.clan_feud import playing, rules
from clangames.clan_feud.actions import Assign, PlayAction, Word
from clangames.clan_feud.state import ClanFeudState, Task
from clangames.engine.data import plus

from .test_cf_speed_round4 import states


def plain_assign_apply(w: Any, task: Task, action: Any, player: int) -> None:
    """``rules._assign_apply`` as it stood before the round."""
    p = task.player
    if type(action) is PlayAction:
        playing.play_at_assign(w, task, action)
        return
    w.tasks.pop()
    if isinstance(action, Word):
        w.passed |= 1 << p
        return
    w.pool = rules.put(w.pool, p, plus(w.pool[p], 3 * action.colour + action.value - 1, -1))
    column, level = action.column, action.level
    filled = w.filled[p]
    taken = w.covered[p] | filled
    for slot in rules.SLOTS_AT[level]:
        bit = 1 << (5 * column + slot)
        if bit & rules.EXISTS and not taken & bit:
            break
    else:
        slot = -1
    w.filled = rules.put(w.filled, p, filled | 1 << (5 * column + slot))
    if task.a:
        playing.assign_with_card(w, p, task.a - 1, action, rules._COLUMN_TASKS[column][p][level])
        return
    w.tasks.append(rules._COLUMN_TASKS[column][p][level])


def plain_apply(state: ClanFeudState, action: Any, player: int) -> ClanFeudState:
    w = rules.working(state)
    plain_assign_apply(w, w.tasks[-1], action, player)
    return rules.settle(w)


@pytest.mark.parametrize("players", [2, 5])
def test_every_assignment_is_planned_as_its_fields_say(players: int) -> None:
    game = clangames.load("clan_feud", players=players)
    actions = [a for row in game.assign_candidates for _, a in row]
    assert len(game.assign_plans) == len(actions) > 50
    for action in actions:
        i, slots, after = game.assign_plans[id(action)]
        assert i == 3 * action.colour + action.value - 1
        column, level = action.column, action.level
        every = [1 << (5 * column + slot) for slot in rules.SLOTS_AT[level]]
        assert slots == tuple(b for b in every if b & rules.EXISTS) and slots
        assert after == tuple(
            rules.interned(rules.COLUMN_NAMES[column], p, level) for p in range(5)
        )
        assert rules.assign_plan(attrs.evolve(action)) == (i, slots, after)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_an_assignment_makes_the_state_the_plain_move_makes(players: int) -> None:
    """Every assignment offered in every phase-(2) decision (with and without a card),
    applied as the game's own action and as an equal copy the plans do not know."""
    seen = {"plain": 0, "card": 0}
    for state in states(players, games=2, seed=60):
        if state.is_terminal or state.is_chance or state.tasks[-1].kind != "assign":
            continue
        (player,) = state.to_move
        for action in state.legal_actions(player):
            if not isinstance(action, Assign):
                continue
            expected = plain_apply(state, action, player)
            for given in (action, attrs.evolve(action)):
                got = state.apply(given, player)
                assert got == expected and got.to_json() == expected.to_json()
            seen["card" if state.tasks[-1].a else "plain"] += 1
    assert seen["plain"] > 200 and seen["card"] > 0

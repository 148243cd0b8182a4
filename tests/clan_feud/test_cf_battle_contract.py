"""The kernel's contract checked where random play from the set-up seldom goes: battles.

Random walks start beside a battle (two clans' armies next door, cards in hand, feud
tokens) and every state is checked with the conformance harness's ``check_state``: the
sealed card and token commitments must not leak through observations, ``resample`` must
keep each player's view and legal actions, JSON must round-trip, illegal actions must
change nothing; the game's invariants hold throughout.
"""

from __future__ import annotations

import pytest

import clangames
from clangames.clan_feud.state import Task
from clangames.testing.conformance import check_state

from .cf_rules_helpers import invariant, load, position
from .cf_walk import random_step

WALKS = 25


@pytest.mark.parametrize("players", [2, 3])
def test_random_walks_through_battles(players: int) -> None:
    game = load(players)
    kinds: set[str] = set()
    for seed in range(WALKS):
        state = position(
            game,
            [Task("move", 0, 3)],
            troops={(0, "moray"): (6, 3, 1), (1, "inverness"): (6, 2, 1)},
            control={"moray": 0, "inverness": 1, "loch_ness": 1, "badenoch": 1},
            feud=(3,) * players,
            hands={0: {"AC10": 1, "AC11": 1, "AC17": 1}, 1: {"AC02": 1, "AC01": 1, "AC33": 1}},
        )
        rng = clangames.Rng(seed)
        checks = rng.fork(99)
        for _ in range(200):
            checks = check_state(state, checks, seed=seed, invariant=invariant)
            kinds.add(state.phase.name)
            if state.is_terminal or state.tasks[-1].kind == "order":
                break
            state, rng = random_step(state, rng)
    assert {
        "bcards",
        "btokens",
        "broll",
        "bhits",
        "bloss",
        "bdeclare",
        "bdefend",
        "bretreat",
    } <= kinds

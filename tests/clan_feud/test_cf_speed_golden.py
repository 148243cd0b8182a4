"""Speed work must not change a single game: seeded random games through the fast path and
through the step-by-step API, hashed, equal the digests pinned on the code before issue 12's
fourth pass (cfspeed4). The fast path's digest covers every move and the final state's JSON;
the step-by-step digest also covers each state's players to move, legal actions (in order)
and chance weights, and for the first seeds every state's JSON and public observation.

Rule fixes change games, speed work never: the digests were pinned again once, on the code
after the part-3 audit's rule fixes (AC23, AC24 and AC25 offered only where they change
something, AC30's first repetition unasked, a card's sure £ counted for its die; see
docs/games/clan-feud.md, part 3 rulings 4, 5 and 16) and before any later speed change.

Regenerate (only on the code *before* a speed change, never to make a failing test pass):
``python tests/clan_feud/test_cf_speed_golden.py``."""

from __future__ import annotations

import hashlib
import json

import pytest

import clangames
from clangames.engine.rng import Rng

SEEDS = 20
"""Seeded games per player count and API."""

FULL_STATES = 3
"""The first seeds whose every state's JSON and public observation are hashed too."""

PINNED: dict[str, str] = {
    "fast-2": "487dfc7af8414da06ffac8be46d6f9406e19fd1be87aa79df6d95e7ab2850ce4",
    "step-2": "01fa4982752e3c55bca2fac3e2dc63eeed41f69fa0fa2edee428cdfcc7875ebb",
    "fast-3": "ec57095fece2564998ede60614e50dea4bc8b0fc156afa599c9c2bbd42da02fb",
    "step-3": "3f809c33c64888fed8814b6a2e30ca43375dab1525c7587587d7a7ae47abda22",
    "fast-4": "c5e306416dbdf1e748d875600923a93fba95bdfcc448b31e53c5274ad0901297",
    "step-4": "d1144d2639d5331f652042beb806341bc1e8d1528b41169761f6bab2290642fe",
    "fast-5": "43cb5aef36ffea8e60a89db7c4ef9cf2c0aeb75cfb16bfecb957013e4da4ec55",
    "step-5": "b30b63cf5793d0ce4cbe3cd4330760eaf4469e56e912f5c6942067bc056fd8e7",
}


def _text(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr).encode()


def fast_digest(players: int) -> str:
    """Every move and final state of ``SEEDS`` fast-path games (``clangames.rollout_moves``,
    the benchmark's stream: the first player to move acts)."""
    game = clangames.load("clan_feud", players=players)
    h = hashlib.sha256()
    for seed in range(SEEDS):
        final, rng, moves = clangames.rollout_moves(
            game.initial_state(), Rng(seed), first_mover=True
        )
        h.update(_text([[p, game.action_id(a)] for p, a in moves]))
        h.update(_text(final.to_json()))
        h.update(_text([rng.state, final.scores(), final.returns()]))
    return h.hexdigest()


def step_digest(players: int) -> str:
    """``SEEDS`` games step by step (the benchmark's step loop), every state's decision or
    chance distribution hashed; the first ``FULL_STATES`` seeds hash each state whole."""
    game = clangames.load("clan_feud", players=players)
    action_id = game.action_id
    h = hashlib.sha256()
    for seed in range(SEEDS):
        state, rng = game.initial_state(), Rng(1000 + seed)
        full = seed < FULL_STATES
        while not state.is_terminal:
            if full:
                h.update(_text(state.to_json()))
                h.update(_text(repr(state.public_observation())))
            if state.is_chance:
                h.update(_text([[action_id(a), w] for a, w in state.chance_weights()]))
                action, rng = clangames.sample_chance(state, rng)
                state = state.apply(action)
            else:
                to_move = state.to_move
                player = to_move[0]
                legal = state.legal_actions(player)
                h.update(_text([list(to_move), [action_id(a) for a in legal]]))
                k, rng = rng.below(len(legal))
                state = state.apply(legal[k], player)
        h.update(_text(state.to_json()))
        h.update(_text([state.scores(), state.returns()]))
    return h.hexdigest()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fast_path_games_are_unchanged(players: int) -> None:
    assert fast_digest(players) == PINNED[f"fast-{players}"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_step_by_step_games_are_unchanged(players: int) -> None:
    assert step_digest(players) == PINNED[f"step-{players}"]


if __name__ == "__main__":
    for n in (2, 3, 4, 5):
        print(f'    "fast-{n}": "{fast_digest(n)}",')
        print(f'    "step-{n}": "{step_digest(n)}",')

"""Speed work must not change a single game: seeded random games through the fast path and
through the step-by-step API, hashed, equal the digests pinned on the code before issue 12's
fourth pass (cfspeed4). The fast path's digest covers every move and the final state's JSON;
the step-by-step digest also covers each state's players to move, legal actions (in order)
and chance weights, and for the first seeds every state's JSON and public observation.

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
    "fast-2": "79b2fddbb7a5b062a2cde1af214b0b9e57f3faa1542f17a94ff615678ff41d7c",
    "step-2": "7763c1c7408be0c038bf33355a1bdad9d3d75a8b1242554ec95816fcd9f06b56",
    "fast-3": "258231dae49a28cabed56da26cc789fb7194c8e5d4e1aa5f74511ed527bae328",
    "step-3": "f1dcb785ebc86b5fe098bd0570e02d21266e5537e0e05e2608f538cbd77c483b",
    "fast-4": "b3036829183df8cfbe3069000af2b5cfb7dd1330a6fd983cd5896c9519536098",
    "step-4": "83be3e86130bbb68eac8f0196ccfdb0e1d6ecdb9e26919c1afc85fb5ce7c0a31",
    "fast-5": "67043d887df7dfd3e1dd5e401dfe30be927426402b2e747baf607efc4b1ebfce",
    "step-5": "edf4ca6c1dc011ba21bbacd8a098ecc37fc5aa693c3cde5995860a2d0fecdfe8",
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

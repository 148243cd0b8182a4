"""King's Kilt ``resample``: the re-deals themselves, pinned by digest.

Speed work on the sampler (issue 11) must not change a single draw: for the same state,
viewer and generator, a re-deal is the same state, byte for byte. These digests were
computed on the sampler before that work; a change of the sampler's stream (a new
distribution or a new way of drawing it) must rewrite them on purpose, with the golden
entries of the searches that re-deal.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from importlib import resources
from pathlib import Path

import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState

DIGESTS = {
    2: "485a41808d636f5382bc82555dc84be6e08f5114b2c82680b69860f05ccf7fd8",
    3: "634212d591a3f8d2fbe340bbdeb2324f77ed00499fb2807ca7dd1e706b3c8c13",
    4: "ecb8c941d84162739226b3e9c9beed9abab11ac5aa1dd346662125886e0a78bf",
    0: "621465917f8cca81c8501ddeb23b691e8d1340b4eda020ed39ece6050faf3f6e",
}
"""SHA-256 of every re-deal's JSON (see :func:`redeal_digest`), by player count (0: two
players with families of four, two thirds each, whose tables draw orders of thirds)."""


def _game(players: int) -> clangames.Game:
    """The usual game for ``players``; for 0, two players with two thirds each."""
    if players:
        return clangames.load("kings_kilt", players=players)
    text = resources.files("clangames.kings_kilt").joinpath("components.toml").read_text()
    path = Path(tempfile.mkdtemp()) / "big-families.toml"
    path.write_text(text.replace("family_size = 3", "family_size = 4"), "utf-8")
    return clangames.load("kings_kilt", players=2, components=str(path))


def _states(game: clangames.Game, games: int, seed: int) -> list[KingsKiltState]:
    """Every state of ``games`` seeded random games, the deal's included."""
    rng = Rng(seed)
    states: list[KingsKiltState] = []
    for _ in range(games):
        _, rng, moves = clangames.rollout_moves(game.initial_state(), rng)
        state = game.initial_state()
        for player, action in moves:
            assert isinstance(state, KingsKiltState)
            states.append(state)
            state = state.apply(action, player)
    return states


def redeal_digest(players: int) -> str:
    """Re-deal every state of two seeded games for every seat (a first re-deal), and every
    seventh state six times more for its player to move (the repeat path, and the quick
    draw's flat list after four); hash the re-deals' JSON in order (the state's part: the
    game's parameters may name a temporary file)."""
    digest = hashlib.sha256()
    rng = Rng(1100 + players)
    game = _game(players)
    for i, state in enumerate(_states(game, 2, 31 * players + 5)):
        for viewer in range(game.num_players):
            redealt = state.resample(viewer, rng.fork(i * 8 + viewer))
            assert type(redealt) is KingsKiltState
            digest.update(json.dumps(redealt.to_json()["state"], sort_keys=True).encode())
        if i % 7 == 0:
            viewer = state.to_move[0] if state.to_move and state.to_move[0] >= 0 else 0
            for r in range(6):
                redealt = state.resample(viewer, rng.fork(100_000 + i * 8 + r))
                digest.update(json.dumps(redealt.to_json()["state"], sort_keys=True).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("players", [2, 3, 4, 0])
def test_redeals_are_the_pinned_ones(players: int) -> None:
    assert redeal_digest(players) == DIGESTS[players]

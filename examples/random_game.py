"""Play one random game of King's Kilt with the kernel API directly.

    python examples/random_game.py [--players N] [--seed S]

Everything random comes from one seeded ``clangames.Rng``: chance nodes (shuffles and
deals) are sampled with their exact probabilities by ``clangames.sample_chance``, and each
decision picks a legal action uniformly. The same seed always plays the same game.
"""

from __future__ import annotations

import argparse

import clangames


def play(players: int, seed: int) -> clangames.State:
    """One random game from ``seed``; returns the final state."""
    game = clangames.load("kings_kilt", players=players)
    rng = clangames.Rng(seed)  # immutable: every draw returns (value, next rng)
    state = game.initial_state()  # the root is a chance node: the cards are dealt first
    while not state.is_terminal:
        if state.is_chance:
            action, rng = clangames.sample_chance(state, rng)
            state = state.apply(action)
        else:
            player = state.to_move[0]
            legal = state.legal_actions(player)
            index, rng = rng.below(len(legal))
            state = state.apply(legal[index], player)
    return state


def main() -> None:
    """Parse the arguments, play, print the result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    final = play(args.players, args.seed)
    print(f"King's Kilt, {args.players} players, seed {args.seed}")
    print("scores:", " ".join(f"P{p}={s}" for p, s in enumerate(final.scores())))
    print("winners:", " ".join(f"P{p}" for p in final.winners()))


if __name__ == "__main__":
    main()

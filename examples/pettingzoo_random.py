"""A random-agent loop over a clangames game in PettingZoo's AEC API.

    python examples/pettingzoo_random.py [--game NAME] [--players N] [--seed S]

Needs the ``pettingzoo`` extra (``pip install clangames[pettingzoo]``). Each agent picks a
legal action uniformly from its ``action_mask``; chance is resolved inside the environment
from ``reset(seed=...)``, so the same seed plays the same game.
"""

from __future__ import annotations

import argparse

import numpy as np

from clangames.adapters.pettingzoo import aec_env


def play(name: str, players: int, seed: int) -> tuple[int, dict[str, float]]:
    """One random game: the number of actions taken and each agent's total reward."""
    env = aec_env(name, players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)  # a finished agent leaves
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    env.close()
    return steps, totals


def main() -> None:
    """Parse the arguments, play, print the result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kings_kilt")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    steps, totals = play(args.game, args.players, args.seed)
    print(f"{args.game}, {args.players} players, seed {args.seed}: {steps} actions")
    print("rewards: " + " ".join(f"{agent}={r:.3g}" for agent, r in totals.items()))


if __name__ == "__main__":
    main()

"""Play KOA Kingmaker in OpenSpiel: its own ISMCTS bot against random players.

    python examples/openspiel_ismcts.py [--games N] [--players P] [--simulations K] [--seed S]

Needs the ``openspiel`` extra (``pip install clangames[openspiel]``). The game is loaded
through ``pyspiel.load_game`` like any OpenSpiel game; ISMCTS (OpenSpiel's Python
implementation) deals the hidden cards again with the adapter's resampler, which is built
on the kernel's ``State.resample``. Seat 0 is ISMCTS, the others play uniformly at random;
the same seed plays the same games.
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from clangames.adapters.openspiel import make_resampler, register_games


def play(games: int, players: int, simulations: int, seed: int) -> list[float]:
    """Seat 0's return in each of ``games`` seeded games."""
    register_games()
    game = pyspiel.load_game(f"clangames_koa_kingmaker_sequential(players={players})")
    shares = []
    for i in range(games):
        rng = random.Random(seed * 1000 + i)  # chance and the random seats
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + i))
        bot = ismcts.ISMCTSBot(
            game, evaluator, 2.0, simulations, random_state=np.random.RandomState(seed + i)
        )
        bot.set_resampler(make_resampler(seed + i))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        shares.append(state.returns()[0])
    return shares


def main() -> None:
    """Parse the arguments, play, print seat 0's win share."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    shares = play(args.games, args.players, args.simulations, args.seed)
    print(
        f"KOA Kingmaker in OpenSpiel, {args.players} players, {args.games} games, seed"
        f" {args.seed}: ISMCTS ({args.simulations} simulations) in seat 0"
    )
    print("returns: " + " ".join(f"{s:.3g}" for s in shares))
    print(f"ISMCTS win share: {sum(shares):.3g} of {args.games} (a random seat: 1/{args.players})")


if __name__ == "__main__":
    main()

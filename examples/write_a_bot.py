"""Write your own bot: a one-ply greedy King's Kilt player, matched against RandomBot.

    python examples/write_a_bot.py [--games N] [--players P] [--seed S]

A bot is any object with a method ``act(state, player) -> action`` (the
``clangames.Policy`` protocol). ``clangames.Match`` asks each seat's bot for its moves and
samples chance itself, so a whole game is a single ``match.run()``.
"""

from __future__ import annotations

import argparse

import clangames
from clangames.bots import RandomBot


class GreedyBot:
    """Looks one decision ahead: plays the legal action after which its own family scores
    the most points, breaking ties at random.

    It only reads its *own* score (``state.scores()[player]``): that depends on the public
    pyramid and on the bot's own Clan Family, which it may know, so it does not cheat by
    peeking at the other players' hidden cards.
    """

    def __init__(self, rng: clangames.Rng) -> None:
        # The kernel's Rng is immutable: each draw returns (value, next rng). The bot keeps
        # the advancing one, so the same seed always makes the same choices.
        self.rng = rng

    def act(self, state: clangames.State, player: int) -> clangames.Action:
        """The best legal action by the bot's own score after it."""
        best_value: int | None = None
        best: list[clangames.Action] = []
        for action in state.legal_actions(player):
            # States are immutable: trying a move is just applying it and looking.
            value = state.apply(action, player).scores()[player]
            if best_value is None or value > best_value:
                best_value, best = value, [action]
            elif value == best_value:
                best.append(action)
        index, self.rng = self.rng.below(len(best))
        return best[index]


def main() -> None:
    """Play seeded games of GreedyBot against RandomBots, rotating GreedyBot's seat."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = clangames.load("kings_kilt", players=args.players)
    root = clangames.Rng(args.seed)
    won = 0.0  # ties split the win: a returns() share of 1/k for each of k winners
    for i in range(args.games):
        seed = root.fork(i)  # an independent stream per game...
        greedy_seat = i % args.players
        policies: dict[int, clangames.Policy] = {
            # ...and one per seat; the Match draws chance from `seed` itself.
            seat: (GreedyBot if seat == greedy_seat else RandomBot)(seed.fork(seat + 1))
            for seat in range(args.players)
        }
        match = clangames.Match(game, seed, policies)
        final = match.run()  # chance and every bot's decisions until the game ends
        won += final.returns()[greedy_seat]

    rate = won / args.games
    print(f"GreedyBot vs {args.players - 1} RandomBots, {args.games} games, seed {args.seed}")
    print(
        f"GreedyBot wins: {won:g} of {args.games} ({rate:.0%}; a random seat: "
        f"{1 / args.players:.0%})"
    )


if __name__ == "__main__":
    main()

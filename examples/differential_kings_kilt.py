"""Differential testing: find where another King's Kilt implementation breaks a rule.

    python examples/differential_kings_kilt.py [--games N] [--players P] [--seed S]

``clangames.testing.differential.compare`` plays seeded random games with the library and
another implementation side by side (the library samples chance, both apply every move
by its text) and reports the first state where they disagree: legal actions, players to
move, scores or observations.

The "other implementation" here is a deliberately wrong toy: it wraps the library (a
stand-in for your own engine behind the same small protocol) and gets one rule wrong: it
only lets a player betray a card in the bottom row of the pyramid. The report names the
move where a betrayal higher up first became legal, the betrayals it missed, the last
moves and the position there (paste it into ``game.state_from_position`` to investigate).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import clangames
from clangames.testing.differential import LibraryImplementation, compare


class BottomRowBetrayalsOnly(LibraryImplementation):
    """A King's Kilt that wrongly allows betrayals only in row 1 (``betray 1.x ...``)."""

    def legal_actions(self, player: int) -> Sequence[str]:
        return [
            text
            for text in super().legal_actions(player)
            if not text.startswith("betray ") or text.startswith("betray 1.")
        ]

    def scores(self) -> Sequence[int] | None:
        return None  # this toy does not score: only its legal actions are compared

    def observation(self, player: int) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = clangames.load("kings_kilt", players=args.players)
    print("the library against itself:")
    print(compare(LibraryImplementation(), game, games=2, seed=args.seed))
    print("the wrong toy:")
    print(compare(BottomRowBetrayalsOnly(), game, games=args.games, seed=args.seed))


if __name__ == "__main__":
    main()

"""The ``clangames`` command: watch bots play a game, list the games.

``clangames demo kings-kilt --players 3 --seed 7`` narrates a whole game played by bots;
``clangames list`` shows every registered game with its parameters. The command uses only
the public kernel API, so every registered game works with it unchanged.
"""

from clangames.cli.main import build_parser, main

__all__ = ["build_parser", "main"]

"""The ``clangames`` command: demo, list, play, replay and simulate.

``clangames demo kings-kilt --players 3 --seed 7`` narrates a whole game played by bots;
``clangames list`` shows every registered game with its parameters; ``play`` (autosaved,
``--resume`` continues), ``replay`` and ``simulate`` are the terminal front-ends. The command
uses only the public kernel API, so every registered game works with it unchanged. Every
failure ends in one ``clangames: error: ...`` line; the error classes below decide the exit
status (2 usage, 1 failure, 130 Ctrl-C).
"""

from clangames.cli.errors import CommandFailure, Interrupted, UsageError, exit_code
from clangames.cli.main import build_parser, main

__all__ = ["CommandFailure", "Interrupted", "UsageError", "build_parser", "exit_code", "main"]

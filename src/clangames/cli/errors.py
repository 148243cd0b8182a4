"""The command's errors and exit codes: every way a command can end has one line and a code.

``main`` prints ``clangames: error: MESSAGE`` for each; the class decides the exit status:
2 for usage (the command line asked for something impossible: nothing was done), 1 for a
failure while working (a file that cannot be read, a game that misbehaves), 130 for Ctrl-C.
"""

from __future__ import annotations

from clangames.bots.registry import UnknownBotError
from clangames.engine.errors import ClanGamesError, InvalidParameterError, UnknownGameError

USAGE_EXIT = 2
FAILURE_EXIT = 1
INTERRUPTED_EXIT = 130
"""128 + SIGINT, what shells report for a command stopped by Ctrl-C."""


class UsageError(ClanGamesError):
    """A command line that asks for something impossible (exit status 2); nothing was done."""


class CommandFailure(ClanGamesError):
    """A command that could not finish its work (exit status 1)."""


class Interrupted(ClanGamesError):
    """The user pressed Ctrl-C (exit status 130); the message says what was kept."""


_USAGE = (UsageError, UnknownGameError, InvalidParameterError, UnknownBotError)


def exit_code(error: ClanGamesError) -> int:
    """The exit status for ``error``: 130 interrupted, 2 usage, 1 any other failure."""
    if isinstance(error, Interrupted):
        return INTERRUPTED_EXIT
    return USAGE_EXIT if isinstance(error, _USAGE) else FAILURE_EXIT


def one_line(text: str, limit: int = 400) -> str:
    """``text`` on one line (whitespace runs collapsed), cut to ``limit`` characters, so an
    error message never spills over several lines whatever it quotes."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."

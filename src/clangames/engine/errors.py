"""Typed errors. Every message names the offending value and says what was expected."""

from __future__ import annotations


class ClanGamesError(Exception):
    """Base class of every error raised on purpose by clangames."""


class UnknownGameError(ClanGamesError, KeyError):
    """A game name that is not in the registry."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else ""


class InvalidParameterError(ClanGamesError, ValueError):
    """A game parameter with an unknown name, a wrong type or an out-of-range value."""


class InvalidActionError(ClanGamesError, ValueError):
    """A malformed action: not an action of this game, or text that does not parse."""


class IllegalActionError(ClanGamesError, ValueError):
    """A well-formed action that the rules do not allow here (or from that player)."""


class InvalidArgumentError(ClanGamesError, ValueError):
    """An argument of a state's method that is not what it takes: a seat number that is not
    one of the game's players, or a generator that is not an ``Rng``."""


class StateDecodeError(ClanGamesError, ValueError):
    """A saved state or record that is corrupt; the message names the field."""


class UndoError(ClanGamesError):
    """An undo that would go back across hidden information or past the start."""

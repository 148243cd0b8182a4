"""Phases: who owes a decision now, as data the kernel can read for every game.

A state holds a :class:`Phase`: a name (``"turn"``, ``"fill"``, ``"deal"``) and the players
to move. The kernel derives ``to_move``, ``is_chance``, ``is_terminal`` and
``is_simultaneous`` from it, so every game's flow is described the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

CHANCE = -1
"""The chance pseudo-player: it 'moves' at chance nodes by sampling an outcome."""


@attrs.frozen(slots=True, cache_hash=True)
class Phase:
    """A named step of the game and the players who must act in it."""

    name: str
    to_move: tuple[int, ...]
    simultaneous: bool = False

    @classmethod
    def turn(cls, name: str, player: int) -> Phase:
        """One player decides (shared instance: phases are created on the hot path)."""
        key = (name, player)
        phase = _TURNS.get(key)
        if phase is None:
            phase = _TURNS[key] = cls(name, (player,))
        return phase

    @classmethod
    def chance(cls, name: str) -> Phase:
        """A chance node: outcomes are sampled, nobody decides."""
        phase = _TURNS.get((name, CHANCE))
        if phase is None:
            phase = _TURNS[(name, CHANCE)] = cls(name, (CHANCE,))
        return phase

    @classmethod
    def together(cls, name: str, players: tuple[int, ...]) -> Phase:
        """A simultaneous node: each listed player commits, in any order."""
        if not players:
            raise ValueError(f"simultaneous phase {name!r} needs at least one player")
        return cls(name, tuple(sorted(players)), True)

    @classmethod
    def over(cls) -> Phase:
        """The game has ended."""
        return _OVER

    @property
    def is_chance(self) -> bool:
        """True at a chance node."""
        return self.to_move == (CHANCE,)

    @property
    def is_terminal(self) -> bool:
        """True once nobody is to move."""
        return not self.to_move


_TURNS: dict[tuple[str, int], Phase] = {}
_OVER = Phase("over", ())


def phase_in_words(name: str, words: Mapping[str, str]) -> str:
    """The step ``name`` as a game's table ``words`` says it; a name the table lacks still
    reads as words (underscores as spaces), so a picture or a status line never fails on
    a phase added to the rules before its words."""
    return words.get(name, name.replace("_", " "))

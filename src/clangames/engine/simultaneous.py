"""Sealed commitments for simultaneous decisions.

At a simultaneous node every listed player commits one action, in any order. The
commitments are kept as action ids in a :class:`Commitments` value inside the state; an
observation shows only *who* has committed (and a player's own choice), never what the
others chose, until the last one is in and the game resolves them together.
"""

from __future__ import annotations

import attrs

NOT_COMMITTED = -1


@attrs.frozen(slots=True)
class Commitments:
    """One slot per seat: the committed action id, or -1."""

    ids: tuple[int, ...]

    @classmethod
    def open(cls, players: int) -> Commitments:
        """Nobody has committed yet."""
        return cls((NOT_COMMITTED,) * players)

    def commit(self, seat: int, action_id: int) -> Commitments:
        """A copy with ``seat``'s commitment sealed; ValueError if it already committed."""
        if action_id < 0:
            raise ValueError(f"an action id is >= 0, got {action_id}")
        if self.ids[seat] != NOT_COMMITTED:
            raise ValueError(f"seat {seat} has already committed")
        ids = list(self.ids)
        ids[seat] = action_id
        return Commitments(tuple(ids))

    def has_committed(self, seat: int) -> bool:
        """True once ``seat`` has committed."""
        return self.ids[seat] != NOT_COMMITTED

    def waiting(self, required: tuple[int, ...]) -> tuple[int, ...]:
        """The seats of ``required`` that still owe a commitment."""
        return tuple(s for s in required if self.ids[s] == NOT_COMMITTED)

    def is_complete(self, required: tuple[int, ...]) -> bool:
        """True when every seat of ``required`` has committed."""
        return all(self.ids[s] != NOT_COMMITTED for s in required)

    def committed(self) -> tuple[bool, ...]:
        """Who has committed: the public part of the commitments."""
        return tuple(i != NOT_COMMITTED for i in self.ids)

    def seen_by(self, seat: int) -> tuple[int, ...]:
        """What ``seat`` may know: its own commitment, -1 for others (committed or not)."""
        return tuple(i if s == seat else NOT_COMMITTED for s, i in enumerate(self.ids))

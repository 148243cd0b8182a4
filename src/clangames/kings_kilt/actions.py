"""King's Kilt actions: small frozen values with a valid-Python ``repr``.

Clans are indices into the game's clan list; positions are (row, index) as in the
rulings (row 1 at the bottom, index 0 on the left).
"""

from __future__ import annotations

from typing import Literal

import attrs

from clangames.engine.actions import ActionTable
from clangames.kings_kilt.pyramid import Pyramid


@attrs.frozen(slots=True, cache_hash=True)
class Draw:
    """Chance: the card that comes up is of clan ``clan`` (deals, pyramid base, pile top)."""

    clan: int


@attrs.frozen(slots=True, cache_hash=True)
class Advance:
    """Move the card at (row, index) diagonally up to the left or right."""

    row: int
    index: int
    direction: Literal["left", "right"]


@attrs.frozen(slots=True, cache_hash=True)
class Fill:
    """Fill the vacancy above with the card at (row, index), one of the two beneath it."""

    row: int
    index: int


@attrs.frozen(slots=True, cache_hash=True)
class Betray:
    """Discard an Influence card of clan ``influence`` so that a neighbour of the card at
    (row, index) betrays it: that card leaves the game."""

    influence: int
    row: int
    index: int


@attrs.frozen(slots=True, cache_hash=True)
class Reveal:
    """Turn your face-down Clan Family card of clan ``clan`` face up."""

    clan: int


@attrs.frozen(slots=True, cache_hash=True)
class Pass:
    """Stop for the rest of the game (only once a King is crowned)."""


KingsKiltAction = Draw | Advance | Fill | Betray | Reveal | Pass
ACTION_TYPES = (Draw, Advance, Fill, Betray, Reveal, Pass)


def build_action_table(clans: tuple[str, ...], geo: Pyramid) -> ActionTable[KingsKiltAction]:
    """Every distinct action, in id order: draws, advances, fills, betrayals, reveals, pass.

    Betrayals are ordered by target space, then clan, so a turn's legal actions come out
    sorted by id without sorting.
    """
    movable = [p for p in range(geo.size) if geo.row[p] < geo.width]
    actions: list[KingsKiltAction] = [Draw(c) for c in range(len(clans))]
    for p in movable:
        actions.append(Advance(geo.row[p], geo.index[p], "left"))
        actions.append(Advance(geo.row[p], geo.index[p], "right"))
    actions += [Fill(geo.row[p], geo.index[p]) for p in movable]
    actions += [
        Betray(c, geo.row[p], geo.index[p]) for p in range(geo.size) for c in range(len(clans))
    ]
    actions += [Reveal(c) for c in range(len(clans))]
    actions.append(Pass())

    def text(a: KingsKiltAction) -> str:
        if isinstance(a, Draw):
            return f"draw {clans[a.clan]}"
        if isinstance(a, Advance):
            return f"advance {a.row}.{a.index} up-{a.direction}"
        if isinstance(a, Fill):
            return f"fill from {a.row}.{a.index}"
        if isinstance(a, Betray):
            return f"betray {a.row}.{a.index} with {clans[a.influence]}"
        if isinstance(a, Reveal):
            return f"reveal {clans[a.clan]}"
        return "pass"

    return ActionTable(actions, text)

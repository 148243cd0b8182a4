"""KOA Kingmaker actions: small frozen values with a valid-Python ``repr``.

Ids are laid out so that the card a house commits has the same number as its action:
``Play(k)`` has id ``k`` for the characters 0..6 and ``Nominate(t)`` has id ``7 + t``. The
sealed commitments of a round are therefore stored as card kinds and action ids at once.
"""

from __future__ import annotations

import attrs

from clangames.engine.actions import ActionTable
from clangames.koa_kingmaker.cards import (
    CHARACTER_NAMES,
    JESTER,
    MAX_HOUSES,
    ROYAL,
    card_name,
)


@attrs.frozen(slots=True, cache_hash=True)
class Play:
    """Commit character ``card`` (0..6) face down for this round."""

    card: int


@attrs.frozen(slots=True, cache_hash=True)
class Nominate:
    """Commit the attack nomination against ``house`` face down for this round."""

    house: int


@attrs.frozen(slots=True, cache_hash=True)
class Seal:
    """Chance: the automated household due now commits character ``card`` face down."""

    card: int


@attrs.frozen(slots=True, cache_hash=True)
class Inherit:
    """Chance: the house due now is dealt inheritance card ``number`` (1..5)."""

    number: int


@attrs.frozen(slots=True, cache_hash=True)
class Recover:
    """Return own character ``card`` from the discard pile to the hand (Gold or Thief)."""

    card: int


@attrs.frozen(slots=True, cache_hash=True)
class RecoverNothing:
    """Decline the return that a Gold or a fed Thief allows."""


@attrs.frozen(slots=True, cache_hash=True)
class Discard:
    """Give up ``card`` for a hit: a Royal (kinds 12..14) or the Jester (kind 0) in court."""

    card: int


KoaAction = Play | Nominate | Seal | Inherit | Recover | RecoverNothing | Discard

DISCARDABLE = (JESTER, ROYAL, ROYAL + 1, ROYAL + 2)


def build_action_table() -> ActionTable[KoaAction]:
    """Every distinct action, in id order: plays, nominations, seals, inheritance deals,
    recoveries, declining a recovery, discards."""
    actions: list[KoaAction] = [Play(c) for c in range(len(CHARACTER_NAMES))]
    actions += [Nominate(h) for h in range(MAX_HOUSES)]
    actions += [Seal(c) for c in range(len(CHARACTER_NAMES))]
    actions += [Inherit(k) for k in range(1, MAX_HOUSES + 1)]
    actions += [Recover(c) for c in range(len(CHARACTER_NAMES))]
    actions.append(RecoverNothing())
    actions += [Discard(c) for c in DISCARDABLE]

    def text(a: KoaAction) -> str:
        if isinstance(a, Play):
            return f"play {CHARACTER_NAMES[a.card]}"
        if isinstance(a, Nominate):
            return f"nominate house {a.house}"
        if isinstance(a, Seal):
            return f"household plays {CHARACTER_NAMES[a.card]}"
        if isinstance(a, Inherit):
            return f"inheritance {a.number}"
        if isinstance(a, Recover):
            return f"recover {CHARACTER_NAMES[a.card]}"
        if isinstance(a, RecoverNothing):
            return "recover nothing"
        return f"discard {card_name(a.card)}"

    return ActionTable(actions, text)


__all__ = [
    "DISCARDABLE",
    "Discard",
    "Inherit",
    "KoaAction",
    "Nominate",
    "Play",
    "Recover",
    "RecoverNothing",
    "Seal",
    "build_action_table",
]

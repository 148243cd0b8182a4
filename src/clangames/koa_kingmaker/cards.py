"""KOA Kingmaker cards: the kinds every house owns, and their point values from TOML.

Every house owns at most one card of each kind, so a set of one house's cards is a
bitmask over the 15 kinds below:

* 0..6: the seven characters (Jester, Seer, Marshals, Gold, Thief, Banner, Fanatic);
* 7..11: attack nominations, kind ``7 + t`` names house ``t`` as the target;
* 12..14: the three Royalty cards.

The bundled ``cards.toml`` marks each value ``rulebook`` or ``reconstructed``; a player
who owns the physical game can load their own file through the ``cards`` parameter. A bad
file raises InvalidParameterError naming the file and the field.
"""

from __future__ import annotations

from typing import Any

import attrs

from clangames.engine.data import load_data
from clangames.engine.errors import InvalidParameterError

JESTER, SEER, MARSHALS, GOLD, THIEF, BANNER, FANATIC = range(7)
NOMINATION = 7
"""Kind of the nomination against house 0; house ``t``'s is ``NOMINATION + t``."""
ROYAL = 12
"""Kind of the first Royalty card; the three are 12, 13, 14."""
KINDS = 15
MAX_HOUSES = 5

CHARACTER_NAMES = ("Jester", "Seer", "Marshals", "Gold", "Thief", "Banner", "Fanatic")
ROYAL_NAMES = ("Royal 1", "Royal 2", "Royal 3")

CHARACTERS = (1 << 7) - 1
"""Bitmask of the seven character kinds."""
NOMINATIONS = ((1 << MAX_HOUSES) - 1) << NOMINATION
"""Bitmask of the five nomination kinds."""
ROYALTY = 0b111 << ROYAL
"""Bitmask of the three Royalty kinds."""
KEEPERS = ROYALTY | 1 << JESTER
"""What a hit can take from a court: a Royal or the Jester. A house without any is out."""

TABLE_KEYS = (
    "jester",
    "seer",
    "marshals",
    "gold",
    "thief",
    "banner",
    "fanatic",
    "nomination",
    "royal_1",
    "royal_2",
    "royal_3",
)
PROVENANCES = ("rulebook", "reconstructed")
MAX_VALUE = 1000
"""Upper bound on a card's points (a sanity bound: the printed values are single digits)."""


def card_name(kind: int) -> str:
    """A card kind in words: ``"Seer"``, ``"nomination of house 2"``, ``"Royal 1"``."""
    if kind < NOMINATION:
        return CHARACTER_NAMES[kind]
    if kind < ROYAL:
        return f"nomination of house {kind - NOMINATION}"
    return ROYAL_NAMES[kind - ROYAL]


def full_set(house: int, automated: bool, houses: int) -> int:
    """Every card a house brings to the game as a bitmask: its characters and Royalty,
    and (for a real player's house) a nomination against each other house of the
    ``houses`` in the game. An automated household has no nominations, and nobody has one
    against a house not at the table (with 2 players the fifth house's stay in the box):
    such a card could never be played."""
    cards = CHARACTERS | ROYALTY
    if not automated:
        cards |= NOMINATIONS & ((1 << (NOMINATION + houses)) - 1) & ~(1 << (NOMINATION + house))
    return cards


@attrs.frozen(slots=True)
class CardValues:
    """Points per card kind: in a court and in a hand, with each entry's provenance."""

    court: tuple[int, ...]
    """Court value per kind (15 entries)."""
    hand: tuple[int, ...]
    """Hand value per kind (15 entries)."""
    provenance: tuple[tuple[str, str], ...]
    """(table key, provenance) for each entry of the file."""
    source: str

    def points(self, court: int, hand: int) -> int:
        """What a house scores for a court and a hand (bitmasks of kinds)."""
        total = 0
        values = self.court
        k = 0
        while court:
            if court & 1:
                total += values[k]
            court >>= 1
            k += 1
        values = self.hand
        k = 0
        while hand:
            if hand & 1:
                total += values[k]
            hand >>= 1
            k += 1
        return total


def _int(table: dict[str, Any], key: str, where: str, source: str) -> int:
    if key not in table:
        raise InvalidParameterError(f"cards {source}: missing {where}.{key}")
    value = table[key]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_VALUE:
        raise InvalidParameterError(
            f"cards {source}: {where}.{key} must be an integer in 0..{MAX_VALUE}, got {value!r}"
        )
    return value


def parse_cards(data: dict[str, Any], source: str) -> CardValues:
    """Card values from parsed TOML data; every table, key, type and range is checked (the
    values are points only, so any file that passes serves every player count)."""
    unknown = sorted(set(data) - set(TABLE_KEYS))
    if unknown:
        raise InvalidParameterError(
            f"cards {source}: unknown table(s) {', '.join(unknown)}; expected {list(TABLE_KEYS)}"
        )
    court: dict[str, int] = {}
    hand: dict[str, int] = {}
    provenance = []
    for key in TABLE_KEYS:
        table = data.get(key)
        if not isinstance(table, dict):
            raise InvalidParameterError(f"cards {source}: missing table [{key}]")
        extra = sorted(set(table) - {"court", "hand", "provenance"})
        if extra:
            raise InvalidParameterError(
                f"cards {source}: unknown key(s) {', '.join(extra)} in [{key}];"
                " expected court, hand and provenance"
            )
        court[key] = _int(table, "court", key, source)
        hand[key] = _int(table, "hand", key, source)
        prov = table.get("provenance")
        if prov not in PROVENANCES:
            raise InvalidParameterError(
                f"cards {source}: {key}.provenance must be one of {PROVENANCES}, got {prov!r}"
            )
        provenance.append((key, str(prov)))
    by_kind = [*TABLE_KEYS[:7], *(["nomination"] * MAX_HOUSES), *TABLE_KEYS[8:]]
    return CardValues(
        court=tuple(court[k] for k in by_kind),
        hand=tuple(hand[k] for k in by_kind),
        provenance=tuple(provenance),
        source=source,
    )


def load_cards(path: str | None = None) -> CardValues:
    """The bundled card values (``path`` None) or those of a user's TOML file."""
    return load_data(__package__, "cards.toml", path, parse_cards, "cards")

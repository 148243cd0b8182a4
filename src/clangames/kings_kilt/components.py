"""King's Kilt component data: clans, card counts, setup sizes and scoring values.

The bundled ``components.toml`` marks each entry ``rulebook`` or ``reconstructed``; a
player who owns the physical game can load their own file through the ``components``
parameter. A bad file raises InvalidParameterError naming the file and the field.
"""

from __future__ import annotations

from typing import Any

import attrs

from clangames.engine.data import load_data
from clangames.engine.errors import InvalidParameterError

PROVENANCES = ("rulebook", "reconstructed")


@attrs.frozen(slots=True)
class Clan:
    """One clan: its name and where the name comes from."""

    name: str
    provenance: str


@attrs.frozen(slots=True)
class Components:
    """Everything in the box that the rules need, as data."""

    clans: tuple[Clan, ...]
    members_per_clan: int
    leaders_per_clan: int
    family_from_deck: int
    family_size: int
    base_width: int
    influence: dict[int, int] = attrs.field(eq=False, hash=False)
    king_points: int
    guardian_points: int
    nobleman_points: int
    source: str

    @property
    def clan_names(self) -> tuple[str, ...]:
        """Clan names, by clan index."""
        return tuple(c.name for c in self.clans)

    @property
    def cards_per_clan(self) -> int:
        """Members plus leaders of one clan."""
        return self.members_per_clan + self.leaders_per_clan

    def hand_size(self, players: int) -> int:
        """Influence cards dealt to each player."""
        return self.influence[players]


def _field(table: Any, key: str, kind: type, where: str, source: str) -> Any:
    if not isinstance(table, dict) or key not in table:
        raise InvalidParameterError(f"components {source}: missing {where}.{key}")
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidParameterError(
            f"components {source}: {where}.{key} must be {kind.__name__}, got {value!r}"
        )
    return value


def _provenance(table: Any, where: str, source: str) -> str:
    value = _field(table, "provenance", str, where, source)
    if value not in PROVENANCES:
        raise InvalidParameterError(
            f"components {source}: {where}.provenance must be one of {PROVENANCES}, got {value!r}"
        )
    return str(value)


def parse_components(data: dict[str, Any], source: str) -> Components:
    """Components from parsed TOML data; every field checked."""
    clans_data = data.get("clan")
    if not isinstance(clans_data, list) or not clans_data:
        raise InvalidParameterError(f"components {source}: expected a list of [[clan]] tables")
    clans = tuple(
        Clan(
            _field(c, "name", str, f"clan[{i}]", source),
            _provenance(c, f"clan[{i}]", source),
        )
        for i, c in enumerate(clans_data)
    )
    names = [c.name for c in clans]
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"components {source}: clan names repeat: {names}")
    if not 2 <= len(clans) <= 16:
        raise InvalidParameterError(f"components {source}: expected 2..16 clans, got {len(clans)}")
    cards = data.get("cards")
    setup = data.get("setup")
    scoring = data.get("scoring")
    for table, name in ((cards, "cards"), (setup, "setup"), (scoring, "scoring")):
        _provenance(table, name, source)
    members = _field(cards, "members_per_clan", int, "cards", source)
    leaders = _field(cards, "leaders_per_clan", int, "cards", source)
    from_deck = _field(setup, "family_from_deck", int, "setup", source)
    family = _field(setup, "family_size", int, "setup", source)
    width = _field(setup, "base_width", int, "setup", source)
    influence_data = _field(setup, "influence", dict, "setup", source)
    influence: dict[int, int] = {}
    for key, value in influence_data.items():
        if not key.isdigit() or not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidParameterError(
                f"components {source}: setup.influence entries map a player count to a hand"
                f" size, got {key!r} = {value!r}"
            )
        influence[int(key)] = value
    if members < 1 or leaders < 0 or not 1 <= from_deck <= family or width < 2:
        raise InvalidParameterError(
            f"components {source}: need members_per_clan >= 1, leaders_per_clan >= 0,"
            f" 1 <= family_from_deck <= family_size and base_width >= 2"
        )
    if family > len(clans):
        raise InvalidParameterError(
            f"components {source}: family_size {family} exceeds the {len(clans)} clans"
        )
    return Components(
        clans=clans,
        members_per_clan=members,
        leaders_per_clan=leaders,
        family_from_deck=from_deck,
        family_size=family,
        base_width=width,
        influence=influence,
        king_points=_field(scoring, "king", int, "scoring", source),
        guardian_points=_field(scoring, "guardian", int, "scoring", source),
        nobleman_points=_field(scoring, "nobleman", int, "scoring", source),
        source=source,
    )


def load_components(path: str | None = None) -> Components:
    """The bundled components (``path`` None) or a user's TOML file."""
    return load_data(__package__, "components.toml", path, parse_components, "components")

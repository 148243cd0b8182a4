"""King's Kilt component data: clans, card counts, setup sizes and scoring values.

The bundled ``components.toml`` marks each entry ``rulebook`` or ``reconstructed``; a
player who owns the physical game can load their own file through the ``components``
parameter. A bad file raises InvalidParameterError naming the file and the field.
"""

from __future__ import annotations

from typing import Any

import attrs

from clangames.engine.actions import normalize_text
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


PLAYER_COUNTS = (2, 3, 4)
"""Every player count the game allows: a file must serve each of them."""
MAX_COUNT = 100
"""Upper bound on card counts and hand sizes (keeps the tables and the game finite)."""
MAX_POINTS = 1000
WIDTHS = (4, 12)
"""The base row's allowed widths: the three scoring rows must lie above the base."""
KEYS = {
    "": ("clan", "cards", "setup", "scoring"),
    "clan": ("name", "provenance"),
    "cards": ("members_per_clan", "leaders_per_clan", "provenance"),
    "setup": ("family_from_deck", "family_size", "base_width", "influence", "provenance"),
    "scoring": ("king", "guardian", "nobleman", "provenance"),
}
"""The keys each table may hold ("" is the file's top level)."""


def _fail(source: str, message: str) -> InvalidParameterError:
    return InvalidParameterError(f"components {source}: {message}")


def _known_keys(table: dict[str, Any], kind: str, where: str, source: str) -> None:
    unknown = sorted(set(table) - set(KEYS[kind]))
    if unknown:
        raise _fail(
            source, f"unknown key(s) {', '.join(unknown)} in {where}; expected {list(KEYS[kind])}"
        )


def _table(data: dict[str, Any], key: str, source: str) -> dict[str, Any]:
    table = data.get(key)
    if not isinstance(table, dict):
        raise _fail(source, f"missing table [{key}]")
    _known_keys(table, key, key, source)
    return table


def _field(table: Any, key: str, kind: type, where: str, source: str) -> Any:
    if not isinstance(table, dict) or key not in table:
        raise _fail(source, f"missing {where}.{key}")
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _fail(source, f"{where}.{key} must be {kind.__name__}, got {value!r}")
    return value


def _count(table: Any, key: str, where: str, source: str, low: int, high: int) -> int:
    value: int = _field(table, key, int, where, source)
    if not low <= value <= high:
        raise _fail(source, f"{where}.{key} must be in {low}..{high}, got {value}")
    return value


def _provenance(table: Any, where: str, source: str) -> str:
    value = _field(table, "provenance", str, where, source)
    if value not in PROVENANCES:
        raise _fail(source, f"{where}.provenance must be one of {PROVENANCES}, got {value!r}")
    return str(value)


def _clans(data: dict[str, Any], source: str) -> tuple[Clan, ...]:
    clans_data = data.get("clan")
    if not isinstance(clans_data, list) or not clans_data:
        raise _fail(source, "expected a list of [[clan]] tables")
    if not 2 <= len(clans_data) <= 16:
        raise _fail(source, f"expected 2..16 clans, got {len(clans_data)}")
    clans = []
    seen: dict[str, int] = {}
    for i, c in enumerate(clans_data):
        where = f"clan[{i}]"
        if not isinstance(c, dict):
            raise _fail(source, f"{where} must be a table with a name and a provenance")
        _known_keys(c, "clan", where, source)
        name = _field(c, "name", str, where, source)
        # Action texts name clans ("draw Bruce") and are read back case- and
        # spacing-insensitively, so names must differ in that form too.
        key = normalize_text(name)
        if not key or name != name.strip():
            raise _fail(source, f"{where}.name must be a name without surrounding spaces")
        if key in seen:
            raise _fail(source, f"{where}.name {name!r} repeats clan[{seen[key]}]'s name")
        seen[key] = i
        clans.append(Clan(name, _provenance(c, where, source)))
    return tuple(clans)


def parse_components(data: dict[str, Any], source: str) -> Components:
    """Components from parsed TOML data: every table, key, type and range checked, and
    the setup checked to be dealable for every player count the game allows."""
    _known_keys(data, "", "the file", source)
    clans = _clans(data, source)
    k = len(clans)
    cards = _table(data, "cards", source)
    setup = _table(data, "setup", source)
    scoring = _table(data, "scoring", source)
    for table, name in ((cards, "cards"), (setup, "setup"), (scoring, "scoring")):
        _provenance(table, name, source)
    members = _count(cards, "members_per_clan", "cards", source, 1, MAX_COUNT)
    leaders = _count(cards, "leaders_per_clan", "cards", source, 0, MAX_COUNT)
    family = _count(setup, "family_size", "setup", source, 1, k)
    from_deck = _count(setup, "family_from_deck", "setup", source, 1, family)
    width = _count(setup, "base_width", "setup", source, *WIDTHS)
    influence_data = _field(setup, "influence", dict, "setup", source)
    expected = [str(n) for n in PLAYER_COUNTS]
    if sorted(influence_data) != expected:
        raise _fail(
            source,
            f"setup.influence must give a hand size for each player count {expected},"
            f" got keys {sorted(influence_data)}",
        )
    influence = {
        int(key): _count(influence_data, key, "setup.influence", source, 1, MAX_COUNT)
        for key in expected
    }
    comps = Components(
        clans=clans,
        members_per_clan=members,
        leaders_per_clan=leaders,
        family_from_deck=from_deck,
        family_size=family,
        base_width=width,
        influence=influence,
        king_points=_count(scoring, "king", "scoring", source, 0, MAX_POINTS),
        guardian_points=_count(scoring, "guardian", "scoring", source, 0, MAX_POINTS),
        nobleman_points=_count(scoring, "nobleman", "scoring", source, 0, MAX_POINTS),
        source=source,
    )
    for n in PLAYER_COUNTS:
        _check_dealable(comps, n, source)
    return comps


def _check_dealable(comps: Components, n: int, source: str) -> None:
    """Refuse components whose setup could run out of cards with ``n`` players: the deck
    deals every family its cards, the third family card always finds a clan the player
    lacks, the hands are dealt in full and the draw pile still holds the pyramid's base."""
    k = len(comps.clans)
    if comps.family_from_deck * n > k:
        raise _fail(
            source,
            f"setup.family_from_deck: {n} players need {comps.family_from_deck * n} cards from"
            f" the one-per-clan deck but there are only {k} clans",
        )
    extra = comps.family_size - comps.family_from_deck
    # A third-deal card goes to a player holding at most family_size - 1 clans; at least
    # members_per_clan - 1 of every other clan were there before the third deal began.
    outside = (comps.members_per_clan - 1) * (k - comps.family_size + 1)
    if outside < extra * n:
        raise _fail(
            source,
            f"cards.members_per_clan: with {n} players the Clan Members of a new clan may run"
            f" out while topping families up to {comps.family_size}",
        )
    hand = comps.hand_size(n)
    members_left = comps.members_per_clan * k - comps.family_size * n
    if members_left < hand * n:
        raise _fail(
            source,
            f"setup.influence.{n}: {n} hands of {hand} need {hand * n} Clan Members, only"
            f" {members_left} are left after the families",
        )
    pile = members_left - hand * n + comps.leaders_per_clan * k
    if pile < comps.base_width:
        raise _fail(
            source,
            f"setup.base_width: with {n} players the draw pile holds {pile} cards after the"
            f" deal, fewer than the {comps.base_width} of the pyramid's bottom row",
        )


def load_components(path: str | None = None) -> Components:
    """The bundled components (``path`` None) or a user's TOML file."""
    return load_data(__package__, "components.toml", path, parse_components, "components")

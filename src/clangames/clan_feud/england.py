"""The England track as data: its length, the war step, the flames, the army levels.

Kept in its own file (``england.toml``) rather than in ``board.toml``: the track's flames
are a separate guess (``clan-feud-cards.md`` section 4, guess 11) that is tuned on its own,
and a replacement map should not have to restate them. The army levels, England's troop
supply and the track's bounds come from the rulebook; the flame steps are reconstructed.
"""

from __future__ import annotations

from typing import Any

import attrs

from clangames.engine.data import load_data
from clangames.engine.errors import InvalidParameterError

PROVENANCES = ("rulebook", "reconstructed")
TROOPS = ("infantry", "cavalry", "artillery")


@attrs.frozen(slots=True)
class ArmyLevel:
    """One English army level: the troops it spawns with and its defeat bonus."""

    level: int
    troops: tuple[int, int, int]
    """Infantry, cavalry, artillery."""
    vp: int
    money: int
    steps_back: int
    provenance: str


@attrs.frozen(slots=True)
class Flame:
    """A flame on the track: crossing ``step`` in phase 3 spawns an army of ``level``."""

    step: int
    level: int
    provenance: str


@attrs.frozen(slots=True)
class EnglandTrack:
    """The track (steps 0..``last_step``), war from ``war_from``, flames in step order, the
    army levels (``levels[k - 1]`` is level k) and England's troop supply."""

    source: str
    last_step: int
    war_from: int
    flames: tuple[Flame, ...]
    levels: tuple[ArmyLevel, ...]
    supply: tuple[int, int, int]
    provenance: str

    def clamp(self, step: int) -> int:
        """``step`` held within the track, 0..``last_step``."""
        return min(max(step, 0), self.last_step)

    def at_war(self, step: int) -> bool:
        """Whether England is at war with the marker on ``step``."""
        return step >= self.war_from

    def level(self, level: int) -> ArmyLevel:
        """Army level ``level`` (1-based)."""
        return self.levels[level - 1]

    def flames_crossed(self, start: int, end: int) -> tuple[Flame, ...]:
        """The flames a phase 3 that began on ``start`` and ended on ``end`` crossed, in
        ascending order: those with ``start < step <= end`` (a net fall crosses none).
        Whether they spawn (war, England's supply) is the rules' call."""
        return tuple(f for f in self.flames if start < f.step <= end)


def _fail(source: str, message: str) -> InvalidParameterError:
    return InvalidParameterError(f"england {source}: {message}")


def _table(value: Any, where: str, source: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(source, f"{where} must be a table, got {value!r}")
    missing = sorted(keys - set(value))
    if missing:
        raise _fail(source, f"{where}: missing {', '.join(missing)}")
    unknown = sorted(set(value) - keys)
    if unknown:
        raise _fail(
            source, f"{where}: unknown key(s) {', '.join(unknown)}; expected {sorted(keys)}"
        )
    provenance = value["provenance"]
    if provenance not in PROVENANCES:
        raise _fail(source, f"{where}.provenance must be one of {PROVENANCES}, got {provenance!r}")
    return value


def _int(table: dict[str, Any], key: str, where: str, source: str, lo: int, hi: int) -> int:
    value = table[key]
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _fail(source, f"{where}.{key} must be an integer {lo}..{hi}, got {value!r}")
    return value


def _list(value: Any, where: str, source: str) -> list[Any]:
    if not isinstance(value, list) or not value:
        raise _fail(source, f"expected a non-empty list of [[{where}]] tables, got {value!r}")
    return value


def parse_england(data: dict[str, Any], source: str) -> EnglandTrack:
    """The England track from parsed TOML data; every field checked."""
    top = _table(
        data, "the file", source, {"source", "provenance", "track", "flame", "level", "supply"}
    )
    if not isinstance(top["source"], str) or not top["source"].strip():
        raise _fail(source, f"source must be a non-empty string, got {top['source']!r}")
    track = _table(top["track"], "track", source, {"last_step", "war_from", "provenance"})
    last = _int(track, "last_step", "track", source, 1, 100)
    war = _int(track, "war_from", "track", source, 1, last)
    level_keys = {"level", *TROOPS, "vp", "money", "steps_back", "provenance"}
    levels: list[ArmyLevel] = []
    for i, raw in enumerate(_list(top["level"], "level", source)):
        where = f"level[{i}]"
        table = _table(raw, where, source, level_keys)
        number = _int(table, "level", where, source, 1, 100)
        if number != i + 1:
            raise _fail(source, f"{where}.level must be {i + 1} (levels are listed 1, 2, ...)")
        troops = (
            _int(table, "infantry", where, source, 0, 100),
            _int(table, "cavalry", where, source, 0, 100),
            _int(table, "artillery", where, source, 0, 100),
        )
        if sum(troops) == 0:
            raise _fail(source, f"{where}: an army level needs at least one troop")
        levels.append(
            ArmyLevel(
                level=number,
                troops=troops,
                vp=_int(table, "vp", where, source, 0, 100),
                money=_int(table, "money", where, source, 0, 1000),
                steps_back=_int(table, "steps_back", where, source, 1, last),
                provenance=table["provenance"],
            )
        )
    flames: list[Flame] = []
    for i, raw in enumerate(_list(top["flame"], "flame", source)):
        where = f"flame[{i}]"
        table = _table(raw, where, source, {"step", "level", "provenance"})
        step = _int(table, "step", where, source, 1, last)
        if flames and step <= flames[-1].step:
            raise _fail(source, f"{where}.step {step} must be above the previous flame's step")
        level = _int(table, "level", where, source, 1, 100)
        if level > len(levels):
            raise _fail(source, f"{where}.level {level}: no such [[level]] (1..{len(levels)})")
        flames.append(Flame(step, level, table["provenance"]))
    supply_table = _table(top["supply"], "supply", source, {*TROOPS, "provenance"})
    supply = (
        _int(supply_table, "infantry", "supply", source, 0, 1000),
        _int(supply_table, "cavalry", "supply", source, 0, 1000),
        _int(supply_table, "artillery", "supply", source, 0, 1000),
    )
    return EnglandTrack(
        source=source,
        last_step=last,
        war_from=war,
        flames=tuple(flames),
        levels=tuple(levels),
        supply=supply,
        provenance=top["provenance"],
    )


def load_england(path: str | None = None) -> EnglandTrack:
    """The bundled England track (``path`` None) or a user's TOML file."""
    return load_data(__package__, "england.toml", path, parse_england, "england")

"""Clan Feud's map: territories, land edges, sea lanes, starts, as data and geometry.

The bundled ``board.toml`` is a reconstruction (``clan-feud-map.md``): every entry is marked
``reconstructed``, and a player with the real board can load their own file through the
game's ``board`` parameter. A bad file raises InvalidParameterError naming the file and the
entry, and nothing of it is used. :class:`Board` numbers territories 0, 1, ... in file order
and precomputes what the rules ask on the hot path: neighbour tuples and bitmasks (land, sea
and both) and the step distance between every two territories.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from typing import Any

import attrs

from clangames.clan_feud.effects import NUMERALS
from clangames.clan_feud.rows import _OWNED as _OWNED
from clangames.clan_feud.rows import _TOTALS as _TOTALS
from clangames.clan_feud.rows import MEMO_LIMIT as MEMO_LIMIT
from clangames.clan_feud.rows import NONZERO as NONZERO
from clangames.clan_feud.rows import held as held
from clangames.clan_feud.rows import occupied as occupied
from clangames.clan_feud.rows import occupied_by as occupied_by
from clangames.clan_feud.rows import owned_by as owned_by
from clangames.clan_feud.rows import plus as plus
from clangames.clan_feud.rows import plus_troops as plus_troops
from clangames.clan_feud.rows import put as put
from clangames.clan_feud.rows import troop_totals as troop_totals
from clangames.engine.data import load_data
from clangames.engine.errors import InvalidParameterError

PROVENANCES = ("rulebook", "reconstructed")
KINDS = ("plain", "city", "castle")
"""Territory kinds at set-up: empty, a neutral city, a neutral castle."""
PLAYER_COUNTS = (2, 3, 4, 5)

_ID = re.compile(r"[a-z][a-z0-9_]*\Z")
_TOP_KEYS = {"source", "provenance", "king_start", "starts", "adjacency", "territory"}
_TERRITORY_REQUIRED = {"id", "name", "kind", "mountain", "coast", "provenance"}
_TERRITORY_OPTIONAL = {"numeral", "rulebook_name", "covers"}


@attrs.frozen(slots=True)
class Territory:
    """One territory as the file gives it.

    ``kind`` is what stands there at set-up (``plain``, ``city``, ``castle``); ``numeral`` the
    red numeral of an English spawn territory (None for none); ``rulebook_name`` whether the
    rulebook itself names it; ``covers`` the historical districts it stands for.
    """

    id: str
    name: str
    kind: str
    mountain: bool
    coast: bool
    numeral: str | None
    rulebook_name: bool
    covers: str
    provenance: str


@attrs.frozen(slots=True)
class SeaLane:
    """A sea lane between two coastal territories (indices), crossed as one step."""

    a: int
    b: int
    crossing: str
    provenance: str


@attrs.frozen(slots=True, eq=False)
class Board:
    """The map and the geometry the rules need; territories are indices in file order."""

    source: str
    provenance: str
    territories: tuple[Territory, ...]
    land_edges: tuple[tuple[int, int], ...]
    """Each land edge once, as in the file."""
    sea_lanes: tuple[SeaLane, ...]
    edge_provenance: tuple[str, ...]
    """The provenance of each land edge, by position in ``land_edges``."""
    king_start: int
    """Where King James stands at set-up."""
    start_sets: dict[int, tuple[int, ...]] = attrs.field(eq=False, hash=False)
    """Starting territories by player count."""
    start_provenance: dict[int, str] = attrs.field(eq=False, hash=False)
    index: dict[str, int] = attrs.field(eq=False, hash=False)
    """Territory index by id."""
    spawns: dict[str, int] = attrs.field(eq=False, hash=False)
    """English spawn territory by numeral I..X."""
    land: tuple[tuple[int, ...], ...]
    """Land neighbours of each territory, ascending."""
    sea: tuple[tuple[int, ...], ...]
    """Sea-lane neighbours of each territory, ascending."""
    neighbours: tuple[tuple[int, ...], ...]
    """Land and sea neighbours (one step each), ascending."""
    land_mask: tuple[int, ...]
    sea_mask: tuple[int, ...]
    neighbour_mask: tuple[int, ...]
    mountain_mask: int
    coast_mask: int
    distances: tuple[tuple[int, ...], ...]
    """Fewest steps (land edges and sea lanes) between two territories."""

    @property
    def size(self) -> int:
        """How many territories."""
        return len(self.territories)

    def territory(self, ident: str) -> int:
        """The index of territory ``ident``; InvalidParameterError if there is none."""
        found = self.index.get(ident)
        if found is None:
            raise InvalidParameterError(f"board {self.source}: no territory {ident!r}")
        return found

    def starts(self, players: int) -> tuple[int, ...]:
        """The starting territories for ``players`` players."""
        found = self.start_sets.get(players)
        if found is None:
            raise InvalidParameterError(
                f"board {self.source}: no starting territories for {players!r} players;"
                f" expected one of {PLAYER_COUNTS}"
            )
        return found

    def steps(self, a: int, b: int) -> int:
        """Fewest steps from territory ``a`` to ``b`` over land edges and sea lanes."""
        return self.distances[a][b]

    def within(self, origin: int, steps: int) -> int:
        """Bitmask of the territories at most ``steps`` steps from ``origin`` (itself too)."""
        row = self.distances[origin]
        return sum(1 << t for t in range(len(row)) if row[t] <= steps)

    def toward(self, origin: int, target: int) -> tuple[int, ...]:
        """The neighbours of ``origin`` that start a shortest path to ``target`` (how an
        English army picks its step); empty when ``origin`` is ``target``."""
        goal = self.distances[origin][target] - 1
        return tuple(n for n in self.neighbours[origin] if self.distances[n][target] == goal)

    def is_mountain(self, t: int) -> bool:
        """Whether territory ``t`` is mountainous (a step into or out of it ends a move)."""
        return bool(self.mountain_mask >> t & 1)

    def land_components(self) -> tuple[frozenset[int], ...]:
        """The groups of territories joined by land alone, each listed from its lowest index."""
        return _components(self.land)


def _components(adjacent: tuple[tuple[int, ...], ...]) -> tuple[frozenset[int], ...]:
    seen: set[int] = set()
    groups: list[frozenset[int]] = []
    for first in range(len(adjacent)):
        if first in seen:
            continue
        group = {first}
        todo = [first]
        while todo:
            for n in adjacent[todo.pop()]:
                if n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        groups.append(frozenset(group))
    return tuple(groups)


def _bfs(adjacent: tuple[tuple[int, ...], ...], origin: int) -> list[int]:
    far = len(adjacent)  # more than any real distance: marks "not reached"
    dist = [far] * len(adjacent)
    dist[origin] = 0
    queue = deque([origin])
    while queue:
        t = queue.popleft()
        for n in adjacent[t]:
            if dist[n] == far:
                dist[n] = dist[t] + 1
                queue.append(n)
    return dist


# ---------------------------------------------------------------------------------------
# Parsing


class _Reader:
    """Field checks that name the file and the entry in every error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, message: str) -> InvalidParameterError:
        return InvalidParameterError(f"board {self.source}: {message}")

    def table(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(f"{where} must be a table, got {value!r}")
        return value

    def keys(
        self, table: dict[str, Any], where: str, required: set[str], optional: set[str]
    ) -> None:
        missing = sorted(required - set(table))
        if missing:
            raise self.fail(f"{where}: missing {', '.join(missing)}")
        unknown = sorted(set(table) - required - optional)
        if unknown:
            expected = ", ".join(sorted(required | optional))
            raise self.fail(f"{where}: unknown key(s) {', '.join(unknown)}; expected {expected}")

    def string(self, table: dict[str, Any], key: str, where: str, empty: bool = False) -> str:
        value = table[key]
        if not isinstance(value, str) or (not empty and not value.strip()):
            raise self.fail(f"{where}.{key} must be a non-empty string, got {value!r}")
        return value

    def boolean(self, table: dict[str, Any], key: str, where: str) -> bool:
        value = table[key]
        if not isinstance(value, bool):
            raise self.fail(f"{where}.{key} must be true or false, got {value!r}")
        return value

    def provenance(self, table: dict[str, Any], where: str) -> str:
        value = table["provenance"]
        if value not in PROVENANCES:
            raise self.fail(f"{where}.provenance must be one of {PROVENANCES}, got {value!r}")
        return str(value)

    def entries(self, value: Any, where: str) -> list[dict[str, Any]]:
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(f"{where} must be a list of tables, got {value!r}")
        return value


def _territory(reader: _Reader, i: int, raw: Any) -> Territory:
    where = f"territory[{i}]"
    table = reader.table(raw, where)
    if isinstance(table.get("id"), str):
        where = f"territory[{i}] ({table['id']!r})"
    reader.keys(table, where, _TERRITORY_REQUIRED, _TERRITORY_OPTIONAL)
    ident = reader.string(table, "id", where)
    if not _ID.match(ident):
        raise reader.fail(f"{where}.id must be lower case letters, digits and _, got {ident!r}")
    kind = table["kind"]
    if kind not in KINDS:
        raise reader.fail(f"{where}.kind must be one of {KINDS}, got {kind!r}")
    numeral = table.get("numeral", "")
    if numeral != "" and numeral not in NUMERALS:
        raise reader.fail(f'{where}.numeral must be one of I..X or "", got {numeral!r}')
    return Territory(
        id=ident,
        name=reader.string(table, "name", where),
        kind=kind,
        mountain=reader.boolean(table, "mountain", where),
        coast=reader.boolean(table, "coast", where),
        numeral=numeral or None,
        rulebook_name=reader.boolean(table, "rulebook_name", where)
        if "rulebook_name" in table
        else False,
        covers=reader.string(table, "covers", where, empty=True) if "covers" in table else "",
        provenance=reader.provenance(table, where),
    )


def _edges(
    reader: _Reader,
    raw: Any,
    which: str,
    index: dict[str, int],
    seen: dict[frozenset[int], str],
) -> list[tuple[int, int, str, str]]:
    """(a, b, provenance, crossing) per entry; ``seen`` collects every pair for duplicates."""
    out = []
    optional = {"crossing"} if which == "sea" else set()
    for i, entry in enumerate(reader.entries(raw, f"adjacency.{which}")):
        where = f"adjacency.{which}[{i}]"
        reader.keys(entry, where, {"a", "b", "provenance"}, optional)
        a_id, b_id = entry["a"], entry["b"]
        where = f"{where} ({a_id!r} - {b_id!r})"
        for end in (a_id, b_id):
            if not isinstance(end, str) or end not in index:
                raise reader.fail(f"{where}: {end!r} is not a territory of this board")
        if a_id == b_id:
            raise reader.fail(f"{where}: a territory cannot be joined to itself")
        a, b = index[a_id], index[b_id]
        pair = frozenset((a, b))
        if pair in seen:
            raise reader.fail(f"{where}: {a_id} and {b_id} are already joined by {seen[pair]}")
        seen[pair] = where
        crossing = (
            reader.string(entry, "crossing", where, empty=True) if "crossing" in entry else ""
        )
        out.append((a, b, reader.provenance(entry, where), crossing))
    return out


def _starts(
    reader: _Reader, raw: Any, index: dict[str, int], territories: tuple[Territory, ...]
) -> tuple[dict[int, tuple[int, ...]], dict[int, str]]:
    table = reader.table(raw, "starts")
    wanted = {str(p) for p in PLAYER_COUNTS}
    reader.keys(table, "starts", wanted, set())
    sets: dict[int, tuple[int, ...]] = {}
    provenance: dict[int, str] = {}
    for players in PLAYER_COUNTS:
        where = f"starts.{players}"
        entry = reader.table(table[str(players)], where)
        reader.keys(entry, where, {"territories", "provenance"}, set())
        names = entry["territories"]
        if not isinstance(names, list) or len(names) != players:
            raise reader.fail(
                f"{where}.territories must list {players} territories (one per player),"
                f" got {names!r}"
            )
        chosen = []
        for name in names:
            if not isinstance(name, str) or name not in index:
                raise reader.fail(f"{where}: {name!r} is not a territory of this board")
            t = index[name]
            if territories[t].kind != "plain":
                raise reader.fail(
                    f"{where}: {name!r} is a {territories[t].kind}; a start must be plain"
                    " (set-up builds the player's castle there)"
                )
            chosen.append(t)
        if len(set(chosen)) != len(chosen):
            raise reader.fail(f"{where}: a territory is listed twice in {names!r}")
        sets[players] = tuple(chosen)
        provenance[players] = reader.provenance(entry, where)
    return sets, provenance


def parse_board(data: dict[str, Any], source: str) -> Board:
    """A board from parsed TOML data; every field and every join checked."""
    reader = _Reader(source)
    top = reader.table(data, "the file")
    reader.keys(top, "the file", _TOP_KEYS, set())
    reader.string(top, "source", "the file")
    file_provenance = reader.provenance(top, "the file")
    raw_territories = reader.entries(top["territory"], "territory")
    if len(raw_territories) < 2:
        raise reader.fail(f"expected at least 2 [[territory]] tables, got {len(raw_territories)}")
    territories = tuple(_territory(reader, i, raw) for i, raw in enumerate(raw_territories))
    index: dict[str, int] = {}
    names: dict[str, str] = {}
    spawns: dict[str, int] = {}
    for t, territory in enumerate(territories):
        where = f"territory[{t}] ({territory.id!r})"
        if territory.id in index:
            raise reader.fail(f"{where}: id {territory.id!r} is used twice")
        if territory.name in names:
            raise reader.fail(f"{where}: name {territory.name!r} is used twice")
        if territory.numeral is not None:
            if territory.numeral in spawns:
                other = territories[spawns[territory.numeral]].id
                raise reader.fail(f"{where}: numeral {territory.numeral} is also on {other!r}")
            spawns[territory.numeral] = t
        index[territory.id] = t
        names[territory.name] = territory.id
    absent = [n for n in NUMERALS if n not in spawns]
    if absent:
        raise reader.fail(
            f"no territory carries numeral(s) {', '.join(absent)}; each of I..X must be on"
            " exactly one territory (the English spawn territories)"
        )
    adjacency = reader.table(top["adjacency"], "adjacency")
    reader.keys(adjacency, "adjacency", {"land", "sea"}, set())
    seen: dict[frozenset[int], str] = {}
    land_rows = _edges(reader, adjacency["land"], "land", index, seen)
    sea_rows = _edges(reader, adjacency["sea"], "sea", index, seen)
    for i, (a, b, _, _) in enumerate(sea_rows):
        for end in (a, b):
            if not territories[end].coast:
                raise reader.fail(
                    f"adjacency.sea[{i}] ({territories[a].id!r} - {territories[b].id!r}):"
                    f" {territories[end].id!r} is inland (coast = false); a sea lane joins two"
                    " coastal territories"
                )
    king = top["king_start"]
    if not isinstance(king, str) or king not in index:
        raise reader.fail(f"king_start: {king!r} is not a territory of this board")
    start_sets, start_provenance = _starts(reader, top["starts"], index, territories)

    size = len(territories)
    land = _adjacent(size, ((a, b) for a, b, _, _ in land_rows))
    sea = _adjacent(size, ((a, b) for a, b, _, _ in sea_rows))
    both = tuple(tuple(sorted(set(land[t]) | set(sea[t]))) for t in range(size))
    distances = tuple(tuple(_bfs(both, t)) for t in range(size))
    cut_off = [territories[t].id for t in range(size) if distances[0][t] == size]
    if cut_off:
        raise reader.fail(
            f"{', '.join(cut_off)} cannot be reached from {territories[0].id!r}; every"
            " territory must be reachable by land edges and sea lanes"
        )
    return Board(
        source=source,
        provenance=file_provenance,
        territories=territories,
        land_edges=tuple((a, b) for a, b, _, _ in land_rows),
        sea_lanes=tuple(SeaLane(a, b, crossing, p) for a, b, p, crossing in sea_rows),
        edge_provenance=tuple(p for _, _, p, _ in land_rows),
        king_start=index[king],
        start_sets=start_sets,
        start_provenance=start_provenance,
        index=index,
        spawns={n: spawns[n] for n in NUMERALS},
        land=land,
        sea=sea,
        neighbours=both,
        land_mask=_masks(land),
        sea_mask=_masks(sea),
        neighbour_mask=_masks(both),
        mountain_mask=sum(1 << t for t in range(size) if territories[t].mountain),
        coast_mask=sum(1 << t for t in range(size) if territories[t].coast),
        distances=distances,
    )


def _adjacent(size: int, pairs: Iterable[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    near: list[set[int]] = [set() for _ in range(size)]
    for a, b in pairs:
        near[a].add(b)
        near[b].add(a)
    return tuple(tuple(sorted(n)) for n in near)


def _masks(adjacent: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    return tuple(sum(1 << n for n in near) for near in adjacent)


def load_board(path: str | None = None) -> Board:
    """The bundled map (``path`` None) or a user's board TOML file."""
    return load_data(__package__, "board.toml", path, parse_board, "board")

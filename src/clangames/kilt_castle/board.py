"""Kilt Castle board data: the grid, the card positions, colours, floors, cards, limits.

The bundled ``board.toml`` marks each table ``rulebook`` or ``reconstructed``; a player who
owns the physical game can load their own file through the ``board`` parameter. A bad file
raises InvalidParameterError naming the file and the field. :class:`Board` also holds the
geometry the rules need, precomputed once (the line each position builds in, neighbours).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from clangames.engine.actions import normalize_text
from clangames.engine.data import load_data
from clangames.engine.errors import InvalidParameterError

PROVENANCES = ("rulebook", "reconstructed")
PLAYER_COUNTS = (2, 3, 4)
"""Every player count the game allows: a board file must serve each of them."""
MAX_SIZE = 16
"""Most rows or columns of the grid (keeps the tables small)."""
MAX_COUNT = 1000
"""Upper bound on the other counts of a file (positions, floors, roofs, ducats, limits)."""
KEYS = {
    "grid": ("rows", "cols", "water", "provenance"),
    "positions": ("order", "provenance"),
    "floors": ("plain", "one_crest", "two_crests", "provenance"),
    "supplies": ("roofs", "start_money", "provenance"),
    "limits": ("cards_per_row", "card_rows", "provenance"),
    "layout": (
        "single_position",
        "double_rows_four_colours",
        "double_rows_three_colours",
        "provenance",
    ),
    "layout_rule": ("max_same_colour", "provenance"),
    "colour": ("name", "provenance"),
    "card": ("colours", "provenance"),
}
"""The keys each table may hold."""
SIDES = ("north", "east", "south", "west")
TABLES = ("grid", "positions", "floors", "supplies", "limits", "layout", "layout_rule")
CREST_KINDS = 3
"""Floors carry 0, 1 or 2 crests."""


def floor_letter(floor: int) -> str:
    """The one-letter form of floor kind ``colour * 3 + crests`` in a tower string:
    ``a``, ``b``, ``c`` for the first colour with 0, 1, 2 crests, ``d``.. for the next."""
    return chr(97 + floor)


def letter_floor(letter: str) -> int:
    """The floor kind ``colour * 3 + crests`` of a tower string's letter."""
    return ord(letter) - 97


@attrs.frozen(slots=True, eq=False)
class Board:
    """Everything on and around the board that the rules need, as data and geometry.

    Spaces are numbered ``row * cols + col``; water spaces exist but are never built on.
    Colours and cards are indices into ``colours`` and ``cards``.
    """

    source: str
    rows: int
    cols: int
    water: frozenset[int]
    spaces: tuple[int, ...]
    """The building spaces (not water), in increasing order."""
    positions: tuple[tuple[str, int], ...]
    """Each card position as (side, index), clockwise."""
    lines: tuple[tuple[int, ...], ...]
    """For each position, its line's building spaces in order from the card's side."""
    neighbours: tuple[tuple[int, ...], ...]
    """For each space, its orthogonal neighbours that are building spaces."""
    colours: tuple[str, ...]
    floors: tuple[int, int, int]
    """Floors per colour with 0, 1 and 2 crests."""
    cards: tuple[tuple[int, ...], ...]
    """Each card's colours (one or two)."""
    roofs: int
    start_money: int
    cards_per_row: dict[int, int]
    card_rows: dict[int, int]
    single_position: int
    double_rows_four: tuple[int, ...]
    double_rows_three: tuple[int, ...]
    max_same_colour: int
    provenance: dict[str, str]
    """Where each table of the file comes from (``rulebook`` or ``reconstructed``)."""

    @property
    def num_positions(self) -> int:
        """How many card positions surround the grid."""
        return len(self.positions)

    @property
    def floors_per_colour(self) -> int:
        """All floors of one colour."""
        return sum(self.floors)

    def space(self, row: int, col: int) -> int:
        """The index of space (row, col)."""
        return row * self.cols + col

    def label(self, space: int) -> str:
        """``"row.col"``, e.g. ``"2.3"``."""
        return f"{space // self.cols}.{space % self.cols}"

    def picture(self, towers: tuple[str, ...] | None = None) -> str:
        """The grid in text: ``~`` water, ``.`` an empty space, else the tower height."""
        lines = []
        for r in range(self.rows):
            cells = []
            for c in range(self.cols):
                s = self.space(r, c)
                if s in self.water:
                    cells.append("~")
                elif towers is None or not towers[s]:
                    cells.append(".")
                else:
                    cells.append(str(len(towers[s])))
            lines.append(" ".join(cells))
        return "\n".join(lines)


def _fail(source: str, message: str) -> InvalidParameterError:
    return InvalidParameterError(f"board {source}: {message}")


def _int(
    table: Any, key: str, where: str, source: str, minimum: int = 0, maximum: int = MAX_COUNT
) -> int:
    if not isinstance(table, dict) or key not in table:
        raise _fail(source, f"missing {where}.{key}")
    value = table[key]
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise _fail(
            source,
            f"{where}.{key} must be an integer >= {minimum} and <= {maximum}, got {value!r}",
        )
    return value


def _int_list(table: Any, key: str, where: str, source: str) -> tuple[int, ...]:
    if not isinstance(table, dict) or key not in table:
        raise _fail(source, f"missing {where}.{key}")
    value = table[key]
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)
    ):
        raise _fail(source, f"{where}.{key} must be a list of positive integers, got {value!r}")
    return tuple(value)


def _by_players(table: Any, key: str, where: str, source: str) -> dict[int, int]:
    if not isinstance(table, dict) or not isinstance(table.get(key), dict):
        raise _fail(source, f"{where}.{key} must map player counts 2, 3, 4 to integers")
    if sorted(table[key]) != [str(n) for n in PLAYER_COUNTS]:
        raise _fail(source, f"{where}.{key} must map exactly the player counts 2, 3, 4")
    out: dict[int, int] = {}
    for players in PLAYER_COUNTS:
        value = table[key].get(str(players))
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_COUNT:
            raise _fail(source, f"{where}.{key}.{players} must be an integer in 1..{MAX_COUNT}")
        out[players] = value
    return out


def _provenance(table: Any, where: str, source: str) -> str:
    if not isinstance(table, dict):
        raise _fail(source, f"missing table [{where}]")
    kind = where.split("[")[0]
    unknown = sorted(set(table) - set(KEYS[kind]))
    if unknown:
        raise _fail(
            source, f"unknown key(s) {', '.join(unknown)} in {where}; expected {list(KEYS[kind])}"
        )
    value = table.get("provenance")
    if value not in PROVENANCES:
        raise _fail(source, f"{where}.provenance must be one of {PROVENANCES}, got {value!r}")
    return str(value)


def _line(side: str, index: int, rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    if side == "north":
        return tuple((r, index) for r in range(rows))
    if side == "south":
        return tuple((r, index) for r in reversed(range(rows)))
    if side == "west":
        return tuple((index, c) for c in range(cols))
    return tuple((index, c) for c in reversed(range(cols)))


def parse_board(data: dict[str, Any], source: str) -> Board:
    """A board from parsed TOML data: every table, key, type and range checked, and the
    start lay-out and the relocation limits checked for every player count, so a board
    that loads never stalls a game."""
    unknown = sorted(set(data) - {*TABLES, "colour", "card"})
    if unknown:
        raise _fail(source, f"unknown table(s) {', '.join(unknown)}")
    provenance = {name: _provenance(data.get(name), name, source) for name in TABLES}
    grid = data["grid"]
    rows = _int(grid, "rows", "grid", source, 1, MAX_SIZE)
    cols = _int(grid, "cols", "grid", source, 1, MAX_SIZE)
    water_data = grid.get("water", [])
    water: set[int] = set()
    if not isinstance(water_data, list):
        raise _fail(source, "grid.water must be a list of [row, col] pairs")
    for i, item in enumerate(water_data):
        ok = (
            isinstance(item, list)
            and len(item) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
            and 0 <= item[0] < rows
            and 0 <= item[1] < cols
        )
        if not ok:
            raise _fail(source, f"grid.water[{i}] must be a [row, col] on the grid, got {item!r}")
        water.add(item[0] * cols + item[1])
    spaces = tuple(s for s in range(rows * cols) if s not in water)
    if not spaces:
        raise _fail(source, "the grid has no building space")
    order = data["positions"].get("order")
    if not isinstance(order, list) or not 3 <= len(order) <= 4 * MAX_SIZE:
        raise _fail(source, f"positions.order must list 3..{4 * MAX_SIZE} [side, index] positions")
    positions: list[tuple[str, int]] = []
    lines: list[tuple[int, ...]] = []
    for i, item in enumerate(order):
        ok = (
            isinstance(item, list)
            and len(item) == 2
            and item[0] in SIDES
            and isinstance(item[1], int)
            and not isinstance(item[1], bool)
        )
        if ok:
            size = cols if item[0] in ("north", "south") else rows
            ok = 0 <= item[1] < size
        if not ok:
            raise _fail(
                source, f"positions.order[{i}] must be [side, index] on the grid, got {item!r}"
            )
        if (item[0], item[1]) in positions:
            raise _fail(source, f"positions.order[{i}] repeats the position {item!r}")
        positions.append((item[0], item[1]))
        cells = _line(item[0], item[1], rows, cols)
        lines.append(tuple(r * cols + c for r, c in cells if r * cols + c not in water))
    neighbours = []
    for s in range(rows * cols):
        r, c = divmod(s, cols)
        near = []
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and rr * cols + cc not in water:
                near.append(rr * cols + cc)
        neighbours.append(tuple(near))
    colour_data = data.get("colour")
    if not isinstance(colour_data, list) or len(colour_data) != 4:
        raise _fail(source, "expected exactly four [[colour]] tables")
    colours = []
    for i, table in enumerate(colour_data):
        _provenance(table, f"colour[{i}]", source)
        name = table.get("name")
        if not isinstance(name, str) or not name.strip() or "/" in name or name != name.strip():
            raise _fail(
                source, f"colour[{i}].name must be a non-empty name without '/' or outer spaces"
            )
        colours.append(name)
    # Action texts name colours and are read back case- and spacing-insensitively.
    if len({normalize_text(c) for c in colours}) != len(colours):
        raise _fail(source, f"colour names repeat (case and spacing aside): {colours}")
    floors = data["floors"]
    floor_counts = (
        _int(floors, "plain", "floors", source),
        _int(floors, "one_crest", "floors", source),
        _int(floors, "two_crests", "floors", source),
    )
    if sum(floor_counts) < 1:
        raise _fail(source, "each colour needs at least one floor")
    card_data = data.get("card")
    if not isinstance(card_data, list) or not card_data:
        raise _fail(source, "expected a list of [[card]] tables")
    cards = []
    for i, table in enumerate(card_data):
        _provenance(table, f"card[{i}]", source)
        names = table.get("colours")
        ok = (
            isinstance(names, list)
            and len(names) in (1, 2)
            and all(n in colours for n in names)
            and len(set(names)) == len(names)
        )
        if not ok:
            raise _fail(source, f"card[{i}].colours must be one or two distinct colours")
        cards.append(tuple(colours.index(n) for n in names))
    if len({frozenset(card) for card in cards}) != len(cards):
        raise _fail(source, "two cards show the same colours")
    supplies = data["supplies"]
    limits = data["limits"]
    layout = data["layout"]
    single_position = _int(layout, "single_position", "layout", source)
    if single_position >= len(positions):
        raise _fail(source, f"layout.single_position must be a position below {len(positions)}")
    board = Board(
        source=source,
        rows=rows,
        cols=cols,
        water=frozenset(water),
        spaces=spaces,
        positions=tuple(positions),
        lines=tuple(lines),
        neighbours=tuple(neighbours),
        colours=tuple(colours),
        floors=floor_counts,
        cards=tuple(cards),
        roofs=_int(supplies, "roofs", "supplies", source),
        start_money=_int(supplies, "start_money", "supplies", source),
        cards_per_row=_by_players(limits, "cards_per_row", "limits", source),
        card_rows=_by_players(limits, "card_rows", "limits", source),
        single_position=single_position,
        double_rows_four=_int_list(layout, "double_rows_four_colours", "layout", source),
        double_rows_three=_int_list(layout, "double_rows_three_colours", "layout", source),
        max_same_colour=_int(data["layout_rule"], "max_same_colour", "layout_rule", source, 1),
        provenance=provenance,
    )
    for players in PLAYER_COUNTS:
        _check_players(board, players)
    return board


def colours_in_play(players: int) -> tuple[int, ...]:
    """The colours in a game of ``players``: all four, except the fourth with three."""
    return (0, 1, 2) if players == 3 else (0, 1, 2, 3)


def _check_players(board: Board, players: int) -> None:
    """Refuse a board on which a game of ``players`` could not start or could stall: the
    start rows must hold the double cards in play and end with a lone card, fit the card
    row limits and admit a lay-out within the colour limit; and every lay-out the limits
    allow must leave some card a legal relocation (see docs/games/kilt-castle.md, KC-6)."""
    source = board.source
    in_play = colours_in_play(players)
    cards = [c for c in board.cards if all(colour in in_play for colour in c)]
    singles = [c for c in cards if len(c) == 1]
    doubles = [c for c in cards if len(c) == 2]
    four = len(in_play) == 4
    rows = board.double_rows_four if four else board.double_rows_three
    key = "layout.double_rows_" + ("four" if four else "three") + "_colours"
    max_row = board.cards_per_row[players]
    max_rows = board.card_rows[players]
    where = f"with {players} players"
    if sum(rows) != len(doubles) or rows[-1] != 1:
        raise _fail(
            source,
            f"{key}: {where} the start rows {list(rows)} must hold the {len(doubles)} double"
            " cards in play and end with a lone card",
        )
    if len(rows) + 1 > min(max_rows, board.num_positions):
        raise _fail(
            source,
            f"{key}: {where} the start lay-out has {len(rows) + 1} card rows, more than the"
            f" {min(max_rows, board.num_positions)} allowed",
        )
    if max(len(singles), *rows) > max_row:
        raise _fail(source, f"{key}: {where} a start card row holds more than {max_row} cards")
    if not _layout_exists(doubles, rows, board.max_same_colour):
        raise _fail(
            source,
            f"layout_rule.max_same_colour: {where} the board admits no start lay-out that shows"
            f" each colour at most {board.max_same_colour} times per card row",
        )
    # Every lay-out within the limits must leave some card a relocation (KC-6). With rows
    # of two or more cards play stalls only when one row is all there may be, or when every
    # row the limits allow is full (no row to join, none to start); with rows of one card
    # every card is alone and, while a position is free, one lies just ahead of some card,
    # where any other card may start a row (the card behind stays: this holds under both
    # readings of rule I, "behind" and "either"). The start rows above already rule the full
    # case out; the check keeps the rule explicit.
    total = len(cards)
    room = min(max_rows, board.num_positions)
    if max_row >= 2:
        stalls = max_rows < 2 or total >= room * max_row
    else:
        stalls = total >= board.num_positions
    if total < 2 or stalls:
        raise _fail(
            source,
            f"limits: {where} the {total} cards in play could be left without a legal"
            f" relocation (cards_per_row {max_row}, card_rows {max_rows},"
            f" {board.num_positions} positions)",
        )


def _layout_exists(doubles: Sequence[tuple[int, ...]], rows: tuple[int, ...], limit: int) -> bool:
    """True if the double cards can be split into rows of the given sizes with no colour
    shown more than ``limit`` times in a row (a tiny search: a handful of cards)."""
    if not rows:
        return not doubles
    size, rest = rows[0], rows[1:]
    for chosen in itertools.combinations(range(len(doubles)), size):
        shown = Counter(colour for i in chosen for colour in doubles[i])
        if max(shown.values(), default=0) <= limit:
            left = [card for i, card in enumerate(doubles) if i not in chosen]
            if _layout_exists(left, rest, limit):
                return True
    return False


def load_board(path: str | None = None) -> Board:
    """The bundled board (``path`` None) or a user's TOML file."""
    return load_data(__package__, "board.toml", path, parse_board, "board")

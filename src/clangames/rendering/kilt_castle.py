"""Kilt Castle in the terminal: the castle grid with its towers and roofs, the ring of card
positions around it with the building cards lying there, and below it each colour's ducats
and floors, the roofs, the bank and how far the turn has got.

Everything is drawn from one :class:`KiltCastleObservation` and the game's board data (used
by ``clangames play`` and ``clangames replay``; this module imports ``rich``, so only the
command line imports it).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from clangames.engine.game import Game
from clangames.kilt_castle.board import CREST_KINDS, letter_floor
from clangames.kilt_castle.game import KiltCastleGame
from clangames.kilt_castle.observation import KiltCastleObservation
from clangames.rendering.text import Renderer, who

KNOWN_STYLES = {
    "red": "bold red",
    "orange": "bold dark_orange",
    "light grey": "bold grey82",
    "dark grey": "bold grey50",
}
"""Terminal styles for the bundled board's colours (a board file's own names use PALETTE)."""
PALETTE = ("bold red", "bold dark_orange", "bold bright_white", "bold grey50")
"""Styles by colour index for colour names KNOWN_STYLES does not list."""
ARROWS = {"north": "v", "south": "^", "west": ">", "east": "<"}
"""The way a card at a position on each side builds into the grid."""
GRID_WIDTH = 11
"""Least width of a grid column (a ``row.col`` label and a height, or a few floors)."""
RING_WIDTH = 5
"""Least width of the east and west columns of the ring (two cards a line)."""
PER_LINE = 2
"""Cards drawn per text line at an east or west position (those columns stay narrow)."""
LEGEND = (
    "Cards: the capital letter is the colour facing the castle (it builds first), the small one"
    " faces away; * marks the card moved this turn. Each position builds along its row or"
    " column in the direction of its arrow. Towers: height, then the floors from the top down"
    " (a digit counts a floor's crests); ^ a roof, ~ water, . an empty space."
)
"""The key printed under the castle."""
COMPACT_LEGEND = (
    "Cards: the capital letter is the colour facing the castle, * the card moved this turn;"
    " each position builds along its row or column. Spaces: the top floor (colour and"
    " crests) / the height; ^ a roof, ~ water, . empty."
)
"""The key printed under the castle drawn one line a row (a screen too narrow for the grid)."""
COLUMNS = (
    "built: its floors on the castle; towers: the towers it tops (a roofed one belongs to all);"
    " plain, 1 crest, 2 crests: its floors left in the supply"
)
"""The key printed under the colours table."""


def colour_letters(names: tuple[str, ...]) -> tuple[str, ...]:
    """One short capital tag per colour, all different: the first letters (``R``, ``O``,
    ``L``, ``D`` for the bundled board), else the initials of the words, else ``C1``..."""
    for tags in (
        tuple(name.strip()[0].upper() for name in names),
        tuple("".join(word[0] for word in name.split()).upper() for name in names),
    ):
        if len(set(tags)) == len(tags):
            return tags
    return tuple(f"C{i + 1}" for i in range(len(names)))


LINE_WIDTH = 96
"""Longest line of a key, however wide the screen (long lines are hard to read)."""


class key:
    """A key in dim lines of at most LINE_WIDTH characters, or the screen's width if that
    is less (so the key never wraps a second time into ragged lines)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        width = min(LINE_WIDTH, options.max_width)
        yield Text("\n".join(textwrap.wrap(self.text, width)), style="dim")


class Fitted:
    """``wide`` when it fits the width it is drawn at, else ``narrow`` (the castle grid
    needs about 90 columns; on an 80-column screen the one-line-a-row grid stands in)."""

    def __init__(
        self, wide: RenderableType, narrow: RenderableType, probe: RenderableType | None = None
    ) -> None:
        self.wide = wide
        self.narrow = narrow
        self.probe = wide if probe is None else probe
        """What must fit for ``wide`` to be drawn (a part of it, say)."""

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        need = Measurement.get(console, options.update(width=10_000), self.probe).maximum
        yield self.wide if need <= options.max_width else self.narrow


class KiltCastleRenderer(Renderer):
    """The castle inside its card ring, then the colours, supplies, roofs, bank and turn."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        if not isinstance(game, KiltCastleGame):
            raise TypeError(f"KiltCastleRenderer draws Kilt Castle, not {game.name}")
        self.kc = game
        board = game.board
        self.letters = colour_letters(board.colours)
        self.styles = tuple(
            KNOWN_STYLES.get(name, PALETTE[i % len(PALETTE)])
            for i, name in enumerate(board.colours)
        )
        cells: dict[tuple[int, int], list[int]] = {}
        for position, (side, index) in enumerate(board.positions):
            cells.setdefault(self._ring_cell(side, index), []).append(position)
        self.ring: dict[tuple[int, int], tuple[int, ...]] = {
            cell: tuple(positions) for cell, positions in cells.items()
        }
        """The card positions drawn in each (row, column) cell of the picture around the
        grid (the grid's own cells are (1..rows, 1..cols))."""

    def _ring_cell(self, side: str, index: int) -> tuple[int, int]:
        """Where a position on ``side`` beside line ``index`` sits in the picture."""
        board = self.kc.board
        if side == "north":
            return (0, index + 1)
        if side == "south":
            return (board.rows + 1, index + 1)
        if side == "west":
            return (index + 1, 0)
        return (index + 1, board.cols + 1)

    # -- pieces ----------------------------------------------------------------------------
    def colour(self, colour: int, long: bool = False) -> Text:
        """A colour as its tag (``R``) or tag and name (``R red``), in its style."""
        name = self.kc.board.colours[colour]
        text = f"{self.letters[colour]} {name}" if long else self.letters[colour]
        return Text(text, style=self.styles[colour])

    def line_name(self, position: int) -> str:
        """``"column 1 from the north"``: the line a card at ``position`` builds in."""
        side, index = self.kc.board.positions[position]
        line = "column" if side in ("north", "south") else "row"
        return f"{line} {index} from the {side}"

    def card(self, obs: KiltCastleObservation, slot: int) -> Text:
        """A card as its colour tags: the colour facing the castle first, in capitals, then
        the other in small letters (``Dr``); ``*`` when it is the card moved this turn."""
        colours = self.kc.board.cards[self.kc.cards[slot]]
        inner = obs.inner[slot]
        text = Text()
        text.append(self.letters[inner], style=self.styles[inner])
        for c in colours:
            if c != inner:
                text.append(self.letters[c].lower(), style=self.styles[c].replace("bold ", ""))
        if slot == obs.card and obs.phase in ("build", "roof"):
            text.append("*", style="bold")
            text.stylize("underline")
        return text

    def floors(self, tower: str) -> Text:
        """A tower's floors from the top down, each its colour tag plus its crests if any."""
        text = Text()
        for i, letter in enumerate(reversed(tower)):
            kind = letter_floor(letter)
            colour, crests = divmod(kind, CREST_KINDS)
            if i:
                text.append(" ")
            text.append(self.letters[colour] + (str(crests) if crests else ""), self.styles[colour])
        return text

    def space(self, obs: KiltCastleObservation, space: int, active: frozenset[int]) -> Text:
        """One grid cell: its ``row.col`` label and height, then the roof and floors."""
        board = self.kc.board
        if space in board.water:
            return Text("~~~~\n~~~~", style="blue")
        label_style = "bold yellow" if space in active else "dim"
        text = Text(board.label(space), style=label_style)
        tower = obs.towers[space]
        if not tower:
            text.append("\n.", style="dim")
            return text
        text.append(f"  {len(tower)} high")
        text.append("\n")
        if obs.roofed >> space & 1:
            text.append("^ ", style="bold")
        text.append_text(self.floors(tower))
        return text

    def positions_cell(self, obs: KiltCastleObservation, positions: tuple[int, ...]) -> Text:
        """The card positions of one cell of the ring: each number with its arrow, then the
        cards lying there (side by side north and south, two a line east and west)."""
        board = self.kc.board
        text = Text()
        for n, position in enumerate(positions):
            side = board.positions[position][0]
            if n:
                text.append("\n")
            number = (
                f"{position} {ARROWS[side]}" if side != "east" else f"{ARROWS[side]} {position}"
            )
            text.append(number, style="dim")
            cards = [self.card(obs, slot) for slot, p in enumerate(obs.positions) if p == position]
            per_line = PER_LINE if side in ("east", "west") else len(cards)
            for i, card in enumerate(cards):
                text.append("\n" if i % max(per_line, 1) == 0 else " ")
                text.append_text(card)
        return text

    def castle(self, obs: KiltCastleObservation) -> Table:
        """The grid of towers inside the ring of card positions."""
        board = self.kc.board
        active: frozenset[int] = frozenset()
        if obs.phase in ("build", "roof") and obs.card >= 0 and obs.positions[obs.card] >= 0:
            active = frozenset(board.lines[obs.positions[obs.card]])
        table = Table(box=box.SQUARE, show_header=False, show_lines=True, pad_edge=True)
        for c in range(board.cols + 2):
            inside = 1 <= c <= board.cols
            table.add_column(vertical="middle", min_width=GRID_WIDTH if inside else RING_WIDTH)
        for r in range(board.rows + 2):
            row: list[RenderableType] = []
            for c in range(board.cols + 2):
                if 1 <= r <= board.rows and 1 <= c <= board.cols:
                    row.append(self.space(obs, board.space(r - 1, c - 1), active))
                else:
                    row.append(self.positions_cell(obs, self.ring.get((r, c), ())))
            table.add_row(*row)
        return table

    def turn_lines(self, obs: KiltCastleObservation) -> list[Text]:
        """Sentences on the phase: who acts, the card being built with and who still
        builds, a ducat day due, the last turn."""
        game = self.kc
        board = game.board
        lines: list[Text] = []
        if obs.phase == "layout":
            waiting = [game.card_names[i] for i, p in enumerate(obs.positions) if p < 0]
            lines.append(
                Text(f"Laying out the start: still to lay out {', '.join(waiting) or 'nothing'}")
            )
        elif obs.phase == "over":
            lines.append(Text(f"The game is over after {obs.turns} turns.", style="bold"))
        else:
            lines.append(Text(f"Turn {obs.turns}: {self.seat(obs.actor)}'s turn.", style="bold"))
        if obs.phase == "relocate":
            lines.append(Text(f"{self.seat(obs.actor)} moves a building card clockwise."))
        if obs.phase in ("build", "roof") and obs.card >= 0:
            position = obs.positions[obs.card]
            moved = Text("The card ")
            moved.append_text(self.card(obs, obs.card))
            moved.append(
                f" ({game.card_names[obs.card]}) now lies at position {position}: it builds"
                f" in {self.line_name(position)}."
            )
            lines.append(moved)
        if obs.phase == "build" and obs.builders:
            building = Text("Building now: ")
            building.append_text(self.colour(obs.builders[0], long=True))
            building.append(f" ({who(game.owner[obs.builders[0]])})")
            for c in obs.builders[1:]:
                building.append("; then ")
                building.append_text(self.colour(c, long=True))
                building.append(f" ({who(game.owner[c])})")
            building.append(".")
            lines.append(building)
        if obs.phase == "roof":
            lines.append(
                Text(
                    f"{self.seat(obs.to_move[0])} chooses which placed roof moves onto"
                    f" {board.label(obs.first_space)}."
                )
            )
        elif obs.phase == "build" and obs.first_space >= 0:
            lines.append(
                Text(
                    f"This turn's first floor went on {board.label(obs.first_space)}:"
                    " a second floor there gets a roof."
                )
            )
        if obs.ducat_day:
            lines.append(
                Text(
                    "Ducat day: this turn's move emptied a card row; the bank pays after the"
                    " building.",
                    style="bold",
                )
            )
        if obs.ending and obs.phase == "over":
            lines.append(Text("It ended when a colour built its last floor."))
        elif obs.phase == "over" and obs.idle >= game.stall_turns:
            lines.append(Text(f"It ended after {obs.idle} turns in a row without a new floor."))
        elif obs.ending:
            lines.append(
                Text(
                    "A colour has built its last floor: this is the last turn, then the final"
                    " pay-out.",
                    style="bold",
                )
            )
        if obs.idle and obs.phase != "over":
            lines.append(
                Text(
                    f"Turns in a row without a new floor: {obs.idle} (the game stops at"
                    f" {game.stall_turns})."
                )
            )
        return lines

    def seat(self, seat: int) -> str:
        """``"player 1 (orange)"``: a seat with its colours."""
        names = self.kc.board.colours
        return f"{who(seat)} ({'/'.join(names[c] for c in self.kc.seat_colours[seat])})"

    def table_lines(self, obs: KiltCastleObservation) -> list[Text]:
        """The roofs and the bank."""
        board = self.kc.board
        roofed = [board.label(s) for s in range(len(obs.towers)) if obs.roofed >> s & 1]
        roofs = f"Roofs: {obs.roofs_unused} of {board.roofs} unused"
        if roofed:
            roofs += f"; on {', '.join(roofed)}"
        return [
            Text(roofs + "."),
            Text(f"Bank: {obs.from_bank} ducats paid out so far (it never runs out)."),
        ]

    def colours_table(self, obs: KiltCastleObservation) -> Table:
        """One row per colour in play: its seat, the seat's ducats, floors built, towers
        it owns (top floor, no roof), floors left by crests, and markers."""
        game = self.kc
        # one space between columns and no header wider than its numbers need: at 80
        # columns the seat ("player 0") and its marks ("to move, you") were cut in two
        table = Table(box=None, pad_edge=False, show_header=True, padding=(0, 1, 0, 0))
        table.add_column("colour", no_wrap=True)
        table.add_column("seat", no_wrap=True)
        table.add_column("ducats", justify="right", no_wrap=True)
        table.add_column("built", justify="right", no_wrap=True)
        table.add_column("towers", justify="right", no_wrap=True)
        table.add_column("plain", justify="right", no_wrap=True)
        table.add_column("1 crest", justify="right", no_wrap=True)
        table.add_column("2 crests", justify="right", no_wrap=True)
        table.add_column("", no_wrap=True)
        built = [0] * len(game.board.colours)
        owned = [0] * len(game.board.colours)
        for space, tower in enumerate(obs.towers):
            for letter in tower:
                built[letter_floor(letter) // CREST_KINDS] += 1
            if tower and not obs.roofed >> space & 1:
                owned[letter_floor(tower[-1]) // CREST_KINDS] += 1
        for seat, colours in enumerate(game.seat_colours):
            for n, c in enumerate(colours):
                marks = []
                if n == 0:
                    if seat == obs.actor and obs.phase != "over" and seat not in obs.to_move:
                        marks.append("turn")
                    if seat in obs.to_move:
                        marks.append("to move")
                    if seat == obs.viewer:
                        marks.append("you")
                left = obs.supply[c * CREST_KINDS : (c + 1) * CREST_KINDS]
                table.add_row(
                    self.colour(c, long=True),
                    who(seat) if n == 0 else "",
                    str(obs.money[seat]) if n == 0 else "",
                    str(built[c]),
                    str(owned[c]),
                    *(str(k) for k in left),
                    ", ".join(marks),
                )
        return table

    # -- the Renderer interface -------------------------------------------------------------
    def board(self, obs: Any) -> RenderableType:
        """The castle and ring, a legend, the turn, roofs and bank, and the colours."""
        if not isinstance(obs, KiltCastleObservation):
            return super().board(obs)
        title = Text(self.kc.info.title, style="bold underline")
        castle = self.castle(obs)
        return Group(
            title,
            Fitted(
                Group(castle, key(LEGEND)),
                Group(self.compact_castle(obs), key(COMPACT_LEGEND)),
                probe=castle,
            ),
            *self.turn_lines(obs),
            *self.table_lines(obs),
            self.colours_table(obs),
            key(COLUMNS),
        )

    def compact_space(self, obs: KiltCastleObservation, space: int) -> Text:
        """One grid cell in one line: ``~`` water, ``.`` empty, else an optional roof ``^``,
        the top floor's tag and crests, and the height (``^O2/3``)."""
        board = self.kc.board
        if space in board.water:
            return Text("~", style="blue")
        tower = obs.towers[space]
        if not tower:
            return Text(".", style="dim")
        text = Text("^" if obs.roofed >> space & 1 else "", style="bold")
        colour, crests = divmod(letter_floor(tower[-1]), CREST_KINDS)
        text.append(self.letters[colour] + (str(crests) if crests else ""), self.styles[colour])
        text.append(f"/{len(tower)}")
        return text

    def compact_ring(self, obs: KiltCastleObservation, positions: tuple[int, ...]) -> Text:
        """A ring cell in one line: each position number and the cards lying there."""
        text = Text()
        for n, position in enumerate(positions):
            if n:
                text.append(" ")
            text.append(str(position), style="dim")
            for slot, p in enumerate(obs.positions):
                if p == position:
                    text.append(" ")
                    text.append_text(self.card(obs, slot))
        return text

    def compact_castle(self, obs: KiltCastleObservation) -> Table:
        """The castle one line per grid row (cells as ``compact_space``, the ring's
        positions with their cards around it)."""
        board = self.kc.board
        grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
        for _ in range(board.cols + 2):
            grid.add_column(no_wrap=True)
        for r in range(board.rows + 2):
            cells: list[RenderableType] = []
            for c in range(board.cols + 2):
                if 1 <= r <= board.rows and 1 <= c <= board.cols:
                    cells.append(self.compact_space(obs, board.space(r - 1, c - 1)))
                else:
                    cells.append(self.compact_ring(obs, self.ring.get((r, c), ())))
            grid.add_row(*cells)
        return grid

    def summary(self, obs: Any) -> RenderableType:
        """The castle one line per grid row (cells as ``compact_space``), the turn, and
        one line per colour (ducats and floors left)."""
        if not isinstance(obs, KiltCastleObservation):
            return super().summary(obs)
        grid = self.compact_castle(obs)
        colours = []
        for seat, owned in enumerate(self.kc.seat_colours):
            marks = [
                m for m, on in (("you", seat == obs.viewer), ("to move", seat in obs.to_move)) if on
            ]
            said = f" ({', '.join(marks)})" if marks else ""
            line = Text(f"{who(seat)}{said}: {obs.money[seat]} ducats; floors left: ")
            for n, c in enumerate(owned):
                if n:
                    line.append(", ")
                line.append_text(self.colour(c, long=True))
                left = obs.supply[c * CREST_KINDS : (c + 1) * CREST_KINDS]
                line.append(f" {sum(left)}")
            colours.append(line)
        # the whole legend: "." and "~" were left unexplained
        title = Text(
            self.kc.info.title + " (spaces: top floor/height; ^ roof, ~ water, . empty)",
            style="bold",
        )
        turn = Text(" ").join(self.turn_lines(obs))  # one paragraph: fewer, fuller lines
        return Group(title, grid, turn, *colours)

    def secrets(self, obs: Any) -> list[str]:
        """Nothing: Kilt Castle has no hidden information."""
        return []


def make_renderer(game: Game) -> Renderer:
    """The Kilt Castle renderer for ``game`` (what the command line looks up)."""
    return KiltCastleRenderer(game)

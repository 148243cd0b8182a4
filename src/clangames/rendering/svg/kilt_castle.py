"""Kilt Castle as SVG: the castle grid with towers (floors in their colours, crests as dots,
roofs as a gable), water, and the ring of card positions with the building cards lying
there; then each colour's ducats and supply. Every seat sees the whole table."""

from __future__ import annotations

from clangames.kilt_castle.board import CREST_KINDS, letter_floor
from clangames.kilt_castle.game import KiltCastleGame
from clangames.kilt_castle.observation import KiltCastleObservation
from clangames.kilt_castle.phases import phase_words
from clangames.rendering.svg.canvas import Canvas, player_colour

CELL = 96
"""The side of a grid cell and of a ring cell."""
FLOOR_H = 11
KNOWN_FILLS = {
    "red": "#c0392b",
    "orange": "#e67e22",
    "light grey": "#dcdcdc",
    "dark grey": "#6d6d6d",
}
PALETTE = ("#c0392b", "#e67e22", "#dcdcdc", "#6d6d6d", "#2980b9", "#27ae60")


DRAWN = frozenset(
    [
        "viewer",
        "phase",
        "to_move",
        "positions",
        "inner",
        "towers",
        "roofed",
        "roofs_unused",
        "supply",
        "money",
        "from_bank",
        "card",
        "turns",
        "ending",
    ]
)
"""The observation's fields this picture shows."""
LEFT_OUT = frozenset(["actor", "builders", "first_space", "ducat_day", "idle"])
"""Fields it leaves out on purpose: the turn's bookkeeping, which the prompt tells."""


def colour_fill(game: KiltCastleGame, colour: int) -> str:
    """The fill of a castle colour: the bundled board's four by name, others by index."""
    name = game.board.colours[colour]
    return KNOWN_FILLS.get(name, PALETTE[colour % len(PALETTE)])


def _ring_cell(game: KiltCastleGame, side: str, index: int) -> tuple[int, int]:
    board = game.board
    if side == "north":
        return (0, index + 1)
    if side == "south":
        return (board.rows + 1, index + 1)
    if side == "west":
        return (index + 1, 0)
    return (index + 1, board.cols + 1)


def draw(obs: KiltCastleObservation, game: KiltCastleGame) -> str:
    """The picture of ``obs``: spaces carry ``data-space`` and ring positions
    ``data-position`` so a page can make them clickable."""
    board = game.board
    grid_w = (board.cols + 2) * CELL
    seats = game.num_players
    width = max(grid_w + 40, 640)
    height = 60 + (board.rows + 2) * CELL + 60 + seats * 40
    who = "public view" if obs.viewer < 0 else f"as player {obs.viewer} sees it"
    c = Canvas(width, height, f"{game.info.title}: {who}")
    c.heading(f"{game.info.title} - {phase_words(obs.phase)}", who)
    ox, oy = 20, 44
    for space in range(board.rows * board.cols):
        r, col = divmod(space, board.cols)
        x, y = ox + (col + 1) * CELL, oy + (r + 1) * CELL
        c.open_group(data_space=board.label(space), data_label=board.label(space))
        if space in board.water:
            c.rect(x, y, CELL, CELL, fill="#7fb3d5", stroke="#555")
            c.close_group()
            continue
        c.rect(x, y, CELL, CELL, fill="#efe6d2", stroke="#555")
        c.text(x + 4, y + 12, board.label(space), 9, fill="#555")
        tower = obs.towers[space]
        base = y + CELL - 6
        for i, letter in enumerate(tower):
            colour, crests = divmod(letter_floor(letter), CREST_KINDS)
            fy = base - (i + 1) * FLOOR_H
            c.rect(
                x + 22, fy, CELL - 44, FLOOR_H - 1, fill=colour_fill(game, colour), stroke="#333"
            )
            for k in range(crests):
                c.circle(x + CELL / 2 - 6 + 12 * k, fy + FLOOR_H / 2, 2.5, fill="#f1c40f")
        if obs.roofed >> space & 1:
            ry = base - len(tower) * FLOOR_H
            c.polygon(
                [(x + 18, ry), (x + CELL - 18, ry), (x + CELL / 2, ry - 16)],
                fill="#5d4037",
                stroke="#222",
            )
        c.close_group()
    cells: dict[tuple[int, int], list[int]] = {}
    for position, (side, index) in enumerate(board.positions):
        cells.setdefault(_ring_cell(game, side, index), []).append(position)
    for (r, col), positions in cells.items():
        x, y = ox + col * CELL, oy + r * CELL
        share = CELL / len(positions)
        for n, position in enumerate(positions):
            px = x + n * share
            c.open_group(data_position=str(position))
            c.rect(
                px + 2,
                y + 2,
                share - 4,
                CELL - 4,
                rx=6,
                fill="none",
                stroke="#999",
                stroke_dasharray="3",
            )
            c.text(px + 6, y + 14, f"{position} {board.positions[position][0][0].upper()}", 9)
            slots = [slot for slot, p in enumerate(obs.positions) if p == position]
            for k, slot in enumerate(slots):
                _card(c, game, obs, slot, px + 6, y + 20 + k * 22, share - 12)
            c.close_group()
    y = oy + (board.rows + 2) * CELL + 20
    c.text(
        16,
        y,
        f"Roofs unused: {obs.roofs_unused} of {board.roofs}; bank paid out"
        f" {obs.from_bank} ducats; turn {obs.turns}" + ("; the last round" if obs.ending else ""),
        12,
    )
    for seat, colours in enumerate(game.seat_colours):
        y += 36
        c.circle(24, y - 4, 7, fill=player_colour(seat))
        mark = " (you)" if seat == obs.viewer else ""
        mark += " - to move" if seat in obs.to_move else ""
        c.text(36, y, f"player {seat}{mark}: {obs.money[seat]} ducats", 12)
        for n, colour in enumerate(colours):
            left = obs.supply[colour * CREST_KINDS : (colour + 1) * CREST_KINDS]
            bx = 260 + n * 200
            c.rect(bx, y - 14, 18, 18, fill=colour_fill(game, colour), stroke="#333")
            c.text(bx + 24, y, f"{board.colours[colour]}: left {'/'.join(map(str, left))}", 11)
    return c.svg()


def _card(
    c: Canvas,
    game: KiltCastleGame,
    obs: KiltCastleObservation,
    slot: int,
    x: float,
    y: float,
    w: float,
) -> None:
    """A building card: the colour facing the castle fills the left, the other the right."""
    colours = game.board.cards[game.cards[slot]]
    inner = obs.inner[slot]
    outer = next((k for k in colours if k != inner), inner)
    moved = slot == obs.card and obs.phase in ("build", "roof")
    c.rect(
        x,
        y,
        w / 2,
        18,
        fill=colour_fill(game, inner),
        stroke="#000" if moved else "#444",
        stroke_width=3 if moved else 1,
    )
    c.rect(x + w / 2, y, w / 2, 18, fill=colour_fill(game, outer), stroke="#444")
    c.text(x + w / 2, y + 13, game.card_names[slot], 8, text_anchor="middle")

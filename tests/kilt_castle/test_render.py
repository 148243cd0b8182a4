"""The Kilt Castle terminal renderer: the castle grid, the card ring and the table below it,
drawn as plain text and read back cell by cell."""

from __future__ import annotations

import io

import pytest
from rich.console import Console, RenderableType

import clangames
from clangames.engine.phases import CHANCE
from clangames.kilt_castle import Build, KiltCastleObservation, KiltCastleState, MoveRoof
from clangames.rendering.kilt_castle import (
    LINE_WIDTH,
    KiltCastleRenderer,
    colour_letters,
    make_renderer,
)
from clangames.rendering.text import GenericRenderer, narrate, renderer_for, seat_view

from .kc_helpers import DARK, FOUR_ROWS, LIGHT, ORANGE, RED, floor, load, move, table

TAGS = "ROLD"
"""The bundled board's colour tags, by colour index."""

LABELS = {"north": "{} v", "south": "{} ^", "west": "{} >", "east": "< {}"}
"""A ring position's label on each side: its number and the way it builds."""

INNER = {
    "red/orange": "orange",
    "light grey/dark grey": "light grey",
    "orange/light grey": "light grey",
    "red/light grey": "red",
    "orange/dark grey": "dark grey",
    "red/dark grey": "dark grey",
}


def text_of(renderable: RenderableType, width: int = 120) -> str:
    """What a colourless terminal of ``width`` columns shows."""
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def grid_cells(text: str) -> list[list[str]]:
    """The castle picture as rows of cells, each cell's lines stripped and joined by
    newlines (row 0 and the last row are the north and south card positions)."""
    rows: list[list[str]] = []
    current: list[list[str]] | None = None
    for line in text.splitlines():
        if line.startswith(("┌", "├", "└")):
            if current is not None:
                rows.append(["\n".join(part for part in cell if part) for cell in current])
            current = None if line.startswith("└") else []
        elif line.startswith("│") and current is not None:
            parts = [part.strip() for part in line.split("│")[1:-1]]
            if not current:
                current.extend([] for _ in parts)
            for cell, part in zip(current, parts, strict=True):
                cell.append(part)
    return rows


def squeezed(lines: list[str]) -> list[str]:
    """Table rows with their runs of spaces collapsed to one."""
    return [" ".join(line.split()) for line in lines]


def board_text(state: clangames.State, viewer: int = 0, width: int = 120) -> str:
    """The board as ``viewer`` sees it."""
    renderer = make_renderer(state.game)
    return text_of(renderer.board(state.observation(viewer)), width)


def known_table(**overrides: object) -> KiltCastleState:
    """A 4-player table with towers on 0.0, 2.2 and a roofed 3.4, orange to move."""
    params: dict[str, object] = {
        "rows": FOUR_ROWS,
        "inner": INNER,
        "towers": {
            (0, 0): [floor(RED), floor(DARK, 2), floor(ORANGE, 1)],
            (2, 2): [floor(LIGHT)],
            (3, 4): [floor(RED, 1), floor(ORANGE)],
        },
        "roofs": [(3, 4)],
        "money": (12, 9, 10, 15),
        "actor": 1,
    }
    params.update(overrides)
    return table(**params)  # type: ignore[arg-type]


def test_the_command_line_finds_this_renderer() -> None:
    game = load(4)
    assert isinstance(renderer_for(game), KiltCastleRenderer)
    assert isinstance(make_renderer(game), KiltCastleRenderer)
    with pytest.raises(TypeError, match="KiltCastleRenderer draws Kilt Castle, not kings_kilt"):
        make_renderer(clangames.load("kings_kilt", players=2))


def test_colour_tags_are_short_and_distinct() -> None:
    assert colour_letters(("red", "orange", "light grey", "dark grey")) == ("R", "O", "L", "D")
    assert colour_letters(("light grey", "lilac", "dark grey")) == ("LG", "L", "DG")
    assert colour_letters(("red", "rose", "ruby")) == ("C1", "C2", "C3")


def test_a_known_table_cell_by_cell() -> None:
    state = known_table()
    text = board_text(state, viewer=2)
    cells = grid_cells(text)
    assert len(cells) == 7 and all(len(row) == 7 for row in cells)
    # the north ring: the four single cards at 0, three double cards at 1, two at 2, one at 3
    assert cells[0] == ["", "0 v\nR O L D", "1 v\nOr Lo Ld", "2 v\nRl Do", "3 v\nDr", "4 v", ""]
    assert cells[6] == ["", "14 ^", "13 ^", "12 ^", "11 ^", "10 ^", ""]
    assert [row[0] for row in cells[1:6]] == ["19 >", "18 >", "17 >", "16 >", "15 >"]
    assert [row[6] for row in cells[1:6]] == ["< 5", "< 6", "< 7", "< 8", "< 9"]
    # towers from the top down with their crests; the roof first; water; empty spaces
    assert cells[1][1:6] == ["0.0  3 high\nO1 D2 R", "0.1\n.", "0.2\n.", "0.3\n.", "~~~~\n~~~~"]
    assert cells[3][3] == "2.2  1 high\nL"
    assert cells[4][5] == "3.4  2 high\n^ O R1"
    assert cells[5][1] == "~~~~\n~~~~" and cells[5][5] == "~~~~\n~~~~"
    lines = text.splitlines()
    assert "Turn 1: player 1 (orange)'s turn." in lines
    assert "player 1 (orange) moves a building card clockwise." in lines
    assert "Roofs: 1 of 2 unused; on 3.4." in lines
    assert "Bank: 6 ducats paid out so far (it never runs out)." in lines
    start = next(i for i, line in enumerate(lines) if line.startswith("colour"))
    assert squeezed(lines[start : start + 5]) == [
        "colour seat ducats built towers plain 1 crest 2 crests",
        "R red player 0 12 2 0 10 2 2",
        "O orange player 1 9 2 1 10 2 2 to move",
        "L light grey player 2 10 1 1 10 3 2 you",
        "D dark grey player 3 15 1 0 11 3 1",
    ]
    # the key under the castle, in short lines
    first = lines.index(next(line for line in lines if line.startswith("Cards:")))
    key = lines[first : first + 4]
    assert key[0].startswith("Cards: the capital letter is the colour facing the castle")
    assert key[3].endswith("^ a roof, ~ water, . an empty space.")
    assert max(len(line) for line in key) <= LINE_WIDTH


def test_building_a_moved_card_then_a_roof() -> None:
    # red/dark grey leaves position 3 empty (a ducat day) for position 2 and turns over:
    # red now faces the castle and builds first in column 2, then dark grey
    state: clangames.State = move(known_table(roofs=[(3, 4), (2, 2)]), "red/dark grey", 2)
    text = board_text(state, viewer=0)
    cells = grid_cells(text)
    assert cells[0][3] == "2 v\nRl Rd* Do"
    assert cells[0][4] == "3 v"
    assert cells[3][3] == "2.2  1 high\n^ L"
    lines = text.splitlines()
    assert (
        "The card Rd* (red/dark grey) now lies at position 2: it builds in column 2 from the"
        " north." in lines
    )
    assert "Building now: R red (player 0); then D dark grey (player 3)." in lines
    assert (
        "Ducat day: this turn's move emptied a card row; the bank pays after the building." in lines
    )
    assert "Roofs: 0 of 2 unused; on 2.2, 3.4." in lines
    state = state.apply(Build(0, 2, 0), 0)
    lines = board_text(state).splitlines()
    assert "Building now: D dark grey (player 3)." in lines
    assert "This turn's first floor went on 0.2: a second floor there gets a roof." in lines
    state = state.apply(Build(0, 2, 2), 3)
    assert state.phase.name == "roof"
    text = board_text(state)
    assert grid_cells(text)[1][3] == "0.2  2 high\nD2 R"
    assert "player 3 (dark grey) chooses which placed roof moves onto 0.2." in text.splitlines()
    state = state.apply(MoveRoof(2, 2), 3)
    text = board_text(state)
    cells = grid_cells(text)
    assert cells[1][3] == "0.2  2 high\n^ D2 R"
    assert cells[3][3] == "2.2  1 high\nL"
    assert cells[0][3] == "2 v\nRl Rd Do"  # a new turn: no card marked
    assert "Roofs: 0 of 2 unused; on 0.2, 3.4." in text.splitlines()
    assert "Turn 2: player 2 (light grey)'s turn." in text.splitlines()


def test_two_players_show_both_colours_of_a_seat() -> None:
    state = table(players=2, rows=FOUR_ROWS, inner=INNER, money=(14, 7), actor=1)
    lines = board_text(state, viewer=1).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("colour"))
    assert squeezed(lines[start + 1 : start + 5]) == [
        "R red player 0 14 0 0 11 3 2",
        "L light grey 0 0 11 3 2",
        "O orange player 1 7 0 0 11 3 2 to move, you",
        "D dark grey 0 0 11 3 2",
    ]
    assert "Turn 1: player 1 (orange/dark grey)'s turn." in lines


def test_the_lay_out_and_the_end_of_a_seeded_game() -> None:
    game = load(3)
    state = game.initial_state()
    text = board_text(state)
    assert grid_cells(text)[0][1] == "0 v\nR O L"
    assert (
        "Laying out the start: still to lay out red/orange, red/light grey, orange/light grey"
        in text.splitlines()
    )
    state = _random_state(3, 11, None)
    assert state.is_terminal
    assert state.ending and state.turns == 23 and state.money == (73, 29, 41)
    lines = board_text(state).splitlines()
    assert "The game is over after 23 turns." in lines
    assert "It ended when a colour built its last floor." in lines
    start = next(i for i, line in enumerate(lines) if line.startswith("colour"))
    assert squeezed(lines[start + 1 : start + 4]) == [
        "R red player 0 73 16 8 0 0 0 you",
        "O orange player 1 29 6 3 8 1 1",
        "L light grey player 2 41 12 5 4 0 0",
    ]
    assert not any("to move" in line or "turn," in line for line in lines)


def _random_state(players: int, seed: int, steps: int | None) -> KiltCastleState:
    """Seeded random play from the start: ``steps`` steps (None: to the end)."""
    state: clangames.State = load(players).initial_state()
    rng = clangames.Rng(seed)
    done = 0
    while not state.is_terminal and done != steps:
        if state.is_chance:
            action, rng = clangames.sample_chance(state, rng)
            state = state.apply(action)
        else:
            player = state.to_move[0]
            legal = state.legal_actions(player)
            j, rng = rng.below(len(legal))
            state = state.apply(legal[j], player)
        done += 1
    assert isinstance(state, KiltCastleState)
    return state


def _expected_space(obs: KiltCastleObservation, space: int) -> str:
    row, col = divmod(space, 5)
    if space in (4, 20, 24):
        return "~~~~\n~~~~"
    tower = obs.towers[space]
    if not tower:
        return f"{row}.{col}\n."
    floors = []
    for letter in reversed(tower):
        colour, crests = divmod(ord(letter) - ord("a"), 3)
        floors.append(TAGS[colour] + (str(crests) if crests else ""))
    roof = "^ " if obs.roofed >> space & 1 else ""
    return f"{row}.{col}  {len(tower)} high\n{roof}{' '.join(floors)}"


@pytest.mark.parametrize(("players", "seed", "steps"), [(2, 3, 40), (3, 4, 45), (4, 5, 50)])
def test_a_seeded_mid_game_grid_matches_the_observation(
    players: int, seed: int, steps: int
) -> None:
    state = _random_state(players, seed, steps)
    assert not state.is_terminal
    obs = state.observation(0)
    cells = grid_cells(board_text(state))
    built = 0
    for space in range(25):
        row, col = divmod(space, 5)
        assert cells[row + 1][col + 1] == _expected_space(obs, space), space
        built += len(obs.towers[space])
    assert built >= 10  # a real mid-game table
    # every card lies in the ring cell of its position, capital side towards the castle
    game = state.game
    for position, (side, index) in enumerate(game.board.positions):
        r, c = {
            "north": (0, index + 1),
            "south": (6, index + 1),
            "west": (index + 1, 0),
            "east": (index + 1, 6),
        }[side]
        lines = cells[r][c].split("\n")
        assert lines[0] == LABELS[side].format(position)
        tokens = " ".join(lines[1:]).replace("*", "").split()
        expected = []
        for slot, p in enumerate(obs.positions):
            if p == position:
                colours = game.board.cards[game.cards[slot]]
                inner = obs.inner[slot]
                expected.append(
                    TAGS[inner] + "".join(TAGS[x].lower() for x in colours if x != inner)
                )
        assert tokens == expected, position


def test_secrets_and_hidden_steps() -> None:
    state = known_table()
    renderer = make_renderer(state.game)
    for seat in range(4):
        assert renderer.secrets(state.observation(seat)) == []
    assert renderer.secrets(state.public_observation()) == []
    obs = state.observation(0)
    assert renderer.hidden_step(obs, obs, CHANCE) == "a chance outcome you cannot see"
    assert renderer.hidden_step(obs, obs, 2) == "player 2 makes a choice you cannot see"
    # perfect information: every lay-out step is narrated in full to every seat
    before = load(4).initial_state()
    action = before.chance_weights()[0][0]
    after = before.apply(action)
    sentence = before.describe(action)
    assert sentence.startswith("the card red/orange is laid out at position 1 with")
    for viewer in range(4):
        assert narrate(renderer, before, action, CHANCE, after, viewer) == sentence
    # the seat view adds no "Your ..." lines
    view = text_of(seat_view(renderer, state, 1))
    assert "Your" not in view
    assert text_of(seat_view(renderer, state, None)).count("you") == 0


def test_anything_but_an_observation_is_drawn_generically() -> None:
    renderer = make_renderer(load(4))
    assert text_of(renderer.board(("not", "an", "observation"))) == text_of(
        GenericRenderer(load(4)).board(("not", "an", "observation"))
    )


def test_the_board_fits_the_play_screen() -> None:
    state = _random_state(4, 5, 50)
    text = board_text(state, width=100)
    assert max(len(line) for line in text.splitlines()) <= 100
    assert len(grid_cells(text)) == 7

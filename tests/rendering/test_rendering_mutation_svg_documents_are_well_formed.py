"""The SVG writer's documents are well-formed whatever a name holds, and say what they mean:
attributes are escaped, spelled with hyphens and left out when None; shapes land where
they are asked; groups nest; the size is the asked one; a seat keeps its colour and "no
seat" is grey; a picture that cannot be drawn says which games can."""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames.rendering.svg import PictureError, picture
from clangames.rendering.svg import clan_feud as feud_svg
from clangames.rendering.svg.canvas import PLAYER_COLOURS, Canvas, player_colour
from test_svg import SVG, parse

AWKWARD = 'Clan "Mac" <Donald> & Sons'


def test_a_seat_keeps_its_colour_and_no_seat_is_grey() -> None:
    assert [player_colour(s) for s in range(5)] == list(PLAYER_COLOURS)
    assert player_colour(5) == player_colour(0)
    assert player_colour(-1) == "#bbbbbb"


def test_names_in_attributes_titles_and_texts_survive_intact() -> None:
    canvas = Canvas(30, 20, AWKWARD)
    canvas.open_group(data_label=AWKWARD, data_space="1.2", stroke=None)
    canvas.rect(1, 2, 3, 4, fill="#fff", stroke_dasharray="4", stroke=None)
    canvas.text(5, 6, AWKWARD, 9, text_anchor="end")
    canvas.text(5, 6, "serif", font_family="serif")
    canvas.close_group()
    canvas.circle(7, 8, 2)
    root = parse(canvas.svg())
    assert root.attrib["width"] == "30" and root.attrib["height"] == "20"
    assert root.attrib["viewBox"] == "0 0 30 20"
    assert root.find(SVG + "title").text == AWKWARD  # type: ignore[union-attr]
    (group,) = root.findall(SVG + "g")
    assert group.attrib == {"data-label": AWKWARD, "data-space": "1.2"}
    rect = group.find(SVG + "rect")
    assert rect is not None
    assert rect.attrib == {
        "x": "1",
        "y": "2",
        "width": "3",
        "height": "4",
        "fill": "#fff",
        "stroke-dasharray": "4",
    }
    first, second = group.findall(SVG + "text")
    assert first.text == AWKWARD
    assert first.attrib == {
        "x": "5",
        "y": "6",
        "font-size": "9",
        "text-anchor": "end",
        "font-family": "sans-serif",
    }
    assert second.attrib["font-family"] == "serif"
    circle = root.find(SVG + "circle")  # after the group, not inside it
    assert circle is not None and circle.attrib == {"cx": "7", "cy": "8", "r": "2"}


def test_lines_and_polygons_go_through_their_points() -> None:
    canvas = Canvas(10, 10, "t")
    canvas.line(1, 2, 3.5, 4)
    canvas.polygon([(0, 1), (2, 3), (4.25, 5)], fill="#000")
    root = parse(canvas.svg())
    line = root.find(SVG + "line")
    assert line is not None
    assert line.attrib == {"x1": "1", "y1": "2", "x2": "3.5", "y2": "4"}
    polygon = root.find(SVG + "polygon")
    assert polygon is not None and polygon.attrib["points"] == "0,1 2,3 4.25,5"


def test_a_picture_that_cannot_be_drawn_names_the_games_that_can() -> None:
    with pytest.raises(PictureError, match=r"no SVG picture for str; expected an observation") as e:
        picture("board")
    for name in ("clan_feud", "kilt_castle", "kings_kilt", "koa_kingmaker"):
        assert name in str(e.value)


def test_a_map_layout_kept_for_another_board_is_not_reused() -> None:
    game: Any = clangames.load("clan_feud", players=2)
    board = game.board
    right = feud_svg.layout(board)
    stale = (object(), tuple((0.0, 0.0) for _ in right))  # a freed board's id, reused
    feud_svg._layouts[id(board)] = stale  # type: ignore[assignment]
    try:
        assert feud_svg.layout(board) == right
    finally:
        feud_svg._layouts[id(board)] = (board, right)

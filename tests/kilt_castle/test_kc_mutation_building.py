"""Building rules pinned by the mutation audit (docs/games/kilt-castle.md, "Mutation
audit"): the floor kinds on offer, the overbuild price at the edge of what a builder can
pay, a free overbuild of one's own top floor with no ducats, the end triggered only by a
colour's very last floor, the roof choice belonging to the second builder (not the player
on turn), the only roof of a one-roof board moving, and no roof at all on a roofless board."""

from __future__ import annotations

from pathlib import Path

from clangames.engine.phases import Phase
from clangames.kilt_castle import Build, MoveRoof

from .kc_helpers import DARK, FOUR_ROWS, LIGHT, ORANGE, RED, floor, load, move, table

BUNDLED = Path(__file__).parents[2] / "src" / "clangames" / "kilt_castle" / "board.toml"


def test_an_overbuild_costing_exactly_the_builders_ducats_is_offered() -> None:
    # KC-10: only an overbuild costing MORE than the builder has is refused.
    s = table(towers={(2, 2): [floor(RED)] * 4}, money=(10, 4, 10, 10))
    s = move(s, "orange", 2)  # column 2 from the north: (0,2) free, (2,2) costs 4
    assert {(a.row, a.col) for a in s.legal_actions(1)} == {(0, 2), (2, 2)}
    s = s.apply(Build(2, 2, 0), 1)
    assert s.money == (14, 0, 10, 10)
    assert s.tower(2, 2)[-1] == floor(ORANGE)


def test_overbuilding_your_own_top_floor_needs_no_ducats() -> None:
    # KC-9: overbuilding one's own top floor is free, so a builder with nothing may do it.
    s = table(towers={(2, 2): [floor(RED)] * 4 + [floor(ORANGE)]}, money=(10, 0, 10, 10))
    s = move(s, "orange", 2)
    assert {(a.row, a.col) for a in s.legal_actions(1)} == {(0, 2), (2, 2)}
    s = s.apply(Build(2, 2, 1), 1)
    assert s.money == (10, 0, 10, 10)
    assert len(s.tower(2, 2)) == 6


def test_a_floor_kind_used_up_is_no_longer_offered() -> None:
    # KC-9: the builder picks among the floor kinds left; red's two 2-crest floors are built.
    s = table(rows=FOUR_ROWS, towers={(4, 1): [floor(RED, 2)] * 2})
    s = move(s, "red", 2)
    assert s.legal_actions(0) == (Build(0, 2, 0), Build(0, 2, 1))


def test_the_game_goes_on_while_a_colour_still_has_two_crest_floors() -> None:
    # KC-15: the end comes with a colour's LAST floor, of any kind; building the last plain
    # floor while 2-crest floors are left ends nothing.
    red = [floor(RED)] * 10 + [floor(RED, 1)] * 3
    s = table(rows=FOUR_ROWS, towers={(2, 2): red})
    assert s.supply.counts[RED * 3 : RED * 3 + 3] == (1, 0, 2)
    s = move(s, "red", 2)  # joins the row at 2: no ducat day
    assert Build(0, 2, 0) in s.legal_actions(0)
    s = s.apply(Build(0, 2, 0), 0)
    assert s.supply.counts[RED * 3 : RED * 3 + 3] == (0, 0, 2)
    assert not s.ending and not s.is_terminal
    assert s.phase == Phase.turn("relocate", 1)


def test_the_second_builder_chooses_the_roof_even_when_another_player_moved_the_card() -> None:
    # KC-11: "the second player" puts the roof, so the roof choice is theirs; the turn then
    # passes on from the player who moved the card.
    towers = {(4, 1): [floor(DARK)], (3, 3): [floor(LIGHT)]}
    s = table(
        rows=FOUR_ROWS,
        inner={"red/orange": "red"},
        towers=towers,
        roofs=[(4, 1), (3, 3)],
        actor=2,
    )
    s = move(s, "red/orange", 2)  # player 2 moves it: orange builds first, then red
    assert s.builders == (ORANGE, RED)
    s = s.apply(Build(0, 2, 0), 1)
    s = s.apply(Build(0, 2, 0), 0)  # red on the same space: a roof, both are placed
    assert s.phase == Phase.turn("roof", 0) and s.to_move == (0,)
    s = s.apply(MoveRoof(3, 3), 0)
    assert s.has_roof(0, 2) and s.has_roof(4, 1) and not s.has_roof(3, 3)
    assert s.phase == Phase.turn("relocate", 3)


def test_on_a_one_roof_board_the_only_roof_moves_without_asking(tmp_path: Path) -> None:
    # KC-11 with a board file of one roof: once it is placed, a second build on the first
    # build's space takes it over (it leaves its old tower; no roof is added).
    text = BUNDLED.read_text("utf-8")
    assert "roofs = 2" in text
    path = tmp_path / "board.toml"
    path.write_text(text.replace("roofs = 2", "roofs = 1", 1), "utf-8")
    game = load(4, board=str(path))
    s = table(
        game=game,
        rows=FOUR_ROWS,
        inner={"red/orange": "red"},
        towers={(4, 1): [floor(DARK)]},
        roofs=[(4, 1)],
    )
    s = move(s, "red/orange", 2)
    s = s.apply(Build(0, 2, 0), 1)
    s = s.apply(Build(0, 2, 0), 0)
    assert s.has_roof(0, 2) and not s.has_roof(4, 1)
    assert s.phase == Phase.turn("relocate", 1)


def test_on_a_roofless_board_a_second_build_on_the_same_space_just_stands(
    tmp_path: Path,
) -> None:
    # A board file may have no roofs: then there is nothing to put on the tower.
    path = tmp_path / "board.toml"
    path.write_text(BUNDLED.read_text("utf-8").replace("roofs = 2", "roofs = 0", 1), "utf-8")
    s = table(game=load(4, board=str(path)), rows=FOUR_ROWS, inner={"red/orange": "red"})
    s = move(s, "red/orange", 2)
    s = s.apply(Build(0, 2, 0), 1)
    s = s.apply(Build(0, 2, 0), 0)
    assert s.tower(0, 2) == (floor(ORANGE), floor(RED)) and s.roofed == 0
    assert s.phase == Phase.turn("relocate", 1)

"""Ducat-day and pay-out rules pinned by the mutation audit (docs/games/kilt-castle.md,
"Mutation audit"): a roof hides the crests under it even from their own colour (KC-14),
roofs pay a colour that has no top floor at all (KC-13), a building area never continues
from one row's east end into the next row's west end, a U-shaped area is one area, and
the observation counts the unused roofs."""

from __future__ import annotations

from clangames.kilt_castle import Build, area_values, best_area, ducat_day, final_payout

from .kc_helpers import DARK, FOUR_ROWS, LIGHT, ORANGE, RED, floor, move, table


def test_a_roof_hides_the_crests_of_its_own_colours_floor() -> None:
    # Red: a plain tower at 2.3 joined to two roofed red towers with 1 and 2 crests. The
    # roofed spaces count 1 each, their crests nothing: 1 + 1 + 1.
    towers = {(2, 2): [floor(RED, 2)], (1, 2): [floor(RED, 1)], (2, 3): [floor(RED)]}
    s = table(towers=towers, roofs=[(2, 2), (1, 2)])
    assert area_values(s.game, s.towers, s.roofed, RED) == [3]
    # The two joined roofs are an area of every other colour too: 2 each.
    assert ducat_day(s.game, s.towers, s.roofed) == (3, 2, 2, 2)
    # At the end the roofed towers pay everyone 1 and their crests nobody (KC-16).
    assert final_payout(s.game, s.towers, s.roofed) == (3, 2, 2, 2)


def test_a_roofed_one_crest_floor_alone() -> None:
    s = table(towers={(3, 1): [floor(ORANGE), floor(RED, 1)]}, roofs=[(3, 1)])
    assert ducat_day(s.game, s.towers, s.roofed) == (1, 1, 1, 1)


def test_a_colour_without_a_top_floor_is_paid_for_a_roof_on_a_ducat_day() -> None:
    # Orange tops no tower (light grey covers its floor at 0.1), but the roof there is
    # every colour's: orange is paid 1 for it.
    towers = {(0, 0): [floor(RED)], (0, 1): [floor(ORANGE), floor(LIGHT)]}
    s = table(rows=FOUR_ROWS, inner={"red/dark grey": "dark grey"}, towers=towers, roofs=[(0, 1)])
    s = move(s, "red/dark grey", 2)  # the lone card leaves 3: a ducat day follows
    assert s.ducat_day and s.builders == (RED, DARK)
    s = s.apply(Build(0, 2, 0), 0)  # red builds at 0.2, next to the roof
    s = s.apply(Build(1, 2, 0), 3)  # dark grey at 1.2, below red's new tower
    # red: 0.0 + roof 0.1 + 0.2 = 3; orange, light grey: the roof = 1; dark grey: its tower
    # at 1.2 alone (0.2 above it is red) = 1, or the roof = 1
    assert s.money == (13, 11, 11, 11)


def test_a_building_area_does_not_wrap_from_a_rows_end_to_the_next_row() -> None:
    # 1.4 is the east end of row 1 and 2.0 the west end of row 2: space numbers 9 and 10.
    s = table(towers={(1, 4): [floor(RED, 2)], (2, 0): [floor(RED, 1)]})
    assert area_values(s.game, s.towers, s.roofed, RED) == [3, 2]
    assert ducat_day(s.game, s.towers, s.roofed) == (3, 0, 0, 0)
    assert best_area(s.game, s.towers, s.roofed, RED) == 3  # the larger area, not the last
    s = table(towers={(2, 4): [floor(ORANGE)], (3, 0): [floor(ORANGE, 2)]})
    assert area_values(s.game, s.towers, s.roofed, ORANGE) == [3, 1]
    assert ducat_day(s.game, s.towers, s.roofed) == (0, 3, 0, 0)


def test_a_u_shaped_area_is_one_area() -> None:
    # 0.0 and 0.2 are joined only through the row below: 0.0-1.0-1.1-1.2-0.2. Five towers
    # and a crest make one area of 6 (not two overlapping parts of 4 or 5).
    towers = {(0, 0): [floor(RED)], (1, 0): [floor(RED)], (1, 1): [floor(RED)]}
    towers |= {(1, 2): [floor(RED)], (0, 2): [floor(RED, 1)]}
    s = table(towers=towers)
    assert area_values(s.game, s.towers, s.roofed, RED) == [6]
    assert ducat_day(s.game, s.towers, s.roofed) == (6, 0, 0, 0)


def test_the_observation_counts_the_roofs_left_unused() -> None:
    s = table(towers={(3, 1): [floor(RED)]}, roofs=[(3, 1)])
    assert s.public_observation().roofs_unused == 1
    s = table(towers={(3, 1): [floor(RED)], (0, 0): [floor(DARK)]}, roofs=[(3, 1), (0, 0)])
    assert s.public_observation().roofs_unused == 0

"""Kilt Castle rules, one test per rule or rulebook figure (see docs/games/kilt-castle.md)."""

from __future__ import annotations

import attrs
import pytest

from clangames import IllegalActionError
from clangames.engine.phases import Phase
from clangames.kilt_castle import Build, MoveRoof, area_values, ducat_day, final_payout
from clangames.kilt_castle.turn import build_options

from .kc_helpers import (
    DARK,
    FOUR_ROWS,
    LIGHT,
    ORANGE,
    RED,
    THREE_ROWS,
    floor,
    load,
    move,
    reloc,
    table,
)


def rows_with(**moves: int) -> dict[int, list[str]]:
    """FOUR_ROWS with some cards moved: name (underscores for spaces/slashes) -> position."""
    rows = {p: list(names) for p, names in FOUR_ROWS.items()}
    for key, position in moves.items():
        name = key.replace("__", "/").replace("_", " ")
        for names in rows.values():
            if name in names:
                names.remove(name)
        rows.setdefault(position, []).append(name)
    return {p: names for p, names in rows.items() if names}


# -- overbuilding (rulebook figure: 3 floors overbuilt pay 3 to the old top's owner) --------
def test_overbuilding_three_floors_pays_three_to_the_old_top_owner() -> None:
    s = table(towers={(2, 2): [floor(DARK), floor(ORANGE), floor(RED)]})
    s = move(s, "orange", 2)  # column 2, seen from the north
    assert s.to_move == (1,) and s.phase.name == "build"
    assert Build(2, 2, 0) in s.legal_actions(1)
    s = s.apply(Build(2, 2, 0), 1)
    assert s.money == (13, 7, 10, 10)
    assert s.tower(2, 2) == (floor(DARK), floor(ORANGE), floor(RED), floor(ORANGE))
    assert s.phase == Phase.turn("relocate", 1)


def test_overbuilding_your_own_top_floor_is_free() -> None:
    s = table(towers={(2, 2): [floor(DARK), floor(ORANGE), floor(RED)]})
    s = move(s, "red", 2)
    s = s.apply(Build(2, 2, 1), 0)
    assert s.money == (10, 10, 10, 10)
    assert s.tower(2, 2)[-1] == floor(RED, 1)


def test_two_players_overbuilding_your_other_colour_is_free() -> None:
    s = table(players=2, towers={(2, 2): [floor(ORANGE), floor(RED)]}, rows=FOUR_ROWS)
    s = move(s, "light grey", 2)
    assert s.to_move == (0,)
    s = s.apply(Build(2, 2, 0), 0)
    assert s.money == (10, 10)


def test_an_overbuild_the_builder_cannot_pay_is_not_offered() -> None:
    s = table(towers={(2, 2): [floor(RED)] * 4}, money=(10, 3, 10, 10))
    s = move(s, "orange", 2)
    spaces = {(a.row, a.col) for a in s.legal_actions(1)}
    assert spaces == {(0, 2)}
    with pytest.raises(IllegalActionError, match="costs 4 ducats; player 1 has 3"):
        s.apply(Build(2, 2, 0), 1)


def test_free_build_only_on_the_first_empty_space_from_the_cards_side() -> None:
    s = table(towers={(0, 2): [floor(DARK)], (2, 2): [floor(DARK)]})
    s = move(s, "orange", 2)  # from the north: (0,2) built, (1,2) is the first empty
    free = {(a.row, a.col) for a in s.legal_actions(1) if not s.tower(a.row, a.col)}
    assert free == {(1, 2)}
    with pytest.raises(IllegalActionError, match="first empty space"):
        s.apply(Build(3, 2, 0), 1)


def test_free_build_from_the_south_and_the_east_skips_water() -> None:
    game = load(4)
    board = game.board
    assert [board.label(s) for s in board.lines[5]] == ["0.3", "0.2", "0.1", "0.0"]
    assert [board.label(s) for s in board.lines[10]] == ["3.4", "2.4", "1.4"]
    assert [board.label(s) for s in board.lines[14]] == ["3.0", "2.0", "1.0", "0.0"]
    assert [board.label(s) for s in board.lines[15]] == ["4.1", "4.2", "4.3"]
    s = table(rows=rows_with(red__dark_grey=9))  # behind 10, so a card may land there
    s = move(s, "orange", 10)  # the south side of column 4: (4,4) is water
    s = s.apply(Build(3, 4, 0), 1)
    assert s.tower(3, 4) == (floor(ORANGE),)


def test_every_floor_kind_left_is_offered() -> None:
    s = table()
    s = move(s, "orange", 2)
    assert s.legal_actions(1) == (Build(0, 2, 0), Build(0, 2, 1), Build(0, 2, 2))


# -- obligation and exemption --------------------------------------------------------------------
def test_a_builder_without_an_affordable_site_is_skipped() -> None:
    towers = {(1, 4): [floor(RED)] * 2, (2, 4): [floor(RED)] * 2, (3, 4): [floor(RED)] * 2}
    s = table(towers=towers, money=(10, 0, 10, 10))
    s = move(s, "orange", 4)  # column 4: three spaces, all red towers, orange has 0
    assert s.phase == Phase.turn("relocate", 1)
    assert s.towers == table(towers=towers).towers


def test_a_single_option_is_built_at_once() -> None:
    # Orange has only plain floors left and one site: no question is asked.
    crests = {(0, 0): [floor(ORANGE, 1)], (0, 1): [floor(ORANGE, 1)], (0, 2): [floor(ORANGE, 1)]}
    crests |= {(1, 0): [floor(ORANGE, 2)], (1, 1): [floor(ORANGE, 2)]}
    towers = {(1, 4): [floor(RED)] * 2, (2, 4): [floor(RED)] * 2, **crests}
    s = table(towers=towers, money=(10, 0, 10, 10))
    s = move(s, "orange", 4)
    assert s.tower(3, 4) == (floor(ORANGE),)
    assert s.phase == Phase.turn("relocate", 1)


# -- relocation limits ---------------------------------------------------------------------------
def test_no_fifth_card_in_a_row() -> None:
    s = table(rows=FOUR_ROWS)
    action = reloc(s, "red/dark grey", 0)
    assert action not in s.legal_actions(0)
    with pytest.raises(IllegalActionError, match="already has 4 cards"):
        s.apply(action, 0)


def test_no_sixth_card_row() -> None:
    rows = {0: FOUR_ROWS[0], 1: ["red/orange", "light grey/dark grey"], 2: ["orange/light grey"]}
    rows |= {3: ["red/light grey", "orange/dark grey"], 4: ["red/dark grey"]}
    assert table(rows=rows).legal_actions(0)
    s = table(rows=rows)
    opens_a_row = reloc(s, "red/orange", 5)
    assert opens_a_row not in s.legal_actions(0)
    with pytest.raises(IllegalActionError, match="more than 5 card rows"):
        s.apply(opens_a_row, 0)
    # A lone card may still move on to an empty position: the row count stays 5.
    assert reloc(s, "orange/light grey", 5) in s.legal_actions(0)
    # ...but not where it would be left without a neighbour.
    assert reloc(s, "red/dark grey", 5) not in s.legal_actions(0)


def test_a_lone_card_needs_the_card_behind_it() -> None:
    s = table(rows=FOUR_ROWS)
    legal = s.legal_actions(0)
    # red/dark grey lies alone at 3: at 4 nothing would be behind it once it has left 3.
    assert reloc(s, "red/dark grey", 4) not in legal
    with pytest.raises(IllegalActionError, match=r"needs a card on the position behind it \(3"):
        s.apply(reloc(s, "red/dark grey", 4), 0)
    assert reloc(s, "red/orange", 4) in legal  # 3 is still occupied
    assert reloc(s, "red/orange", 10) not in legal  # nothing near 10
    assert reloc(s, "red/orange", 19) not in legal  # 0 is ahead of 19, not behind it
    # The first reading (ruling KC-6's parameter) accepts a card on either side.
    either = table(rows=FOUR_ROWS, relocation_neighbour="either")
    assert reloc(either, "red/orange", 19) in either.legal_actions(0)


def test_a_card_must_move_and_moves_clockwise_round_the_ring() -> None:
    s = table(rows=FOUR_ROWS)
    targets = {a.to for a in s.legal_actions(0) if a.card == 9}  # light grey/dark grey at 1
    assert targets == {2, 3, 4}  # 0 is full; 19 has nothing behind it
    # A card at 2 reaches 1 by going on round the ring, past 19 and 0.
    assert reloc(s, "red/light grey", 1) in s.legal_actions(0)
    with pytest.raises(IllegalActionError, match="at least one position"):
        s.apply(reloc(s, "light grey/dark grey", 1), 0)


def test_three_player_limits() -> None:
    s = table(players=3, rows=THREE_ROWS)
    legal = s.legal_actions(0)
    assert reloc(s, "red/orange", 0) not in legal  # row 0 already holds 3 cards
    four = {0: ["red", "orange"], 1: ["red/orange", "light grey"], 2: ["orange/light grey"]}
    four |= {3: ["red/light grey"]}
    s = table(players=3, rows=four)
    assert reloc(s, "red/orange", 4) not in s.legal_actions(0)  # a 5th row
    with pytest.raises(IllegalActionError, match="more than 4 card rows"):
        s.apply(reloc(s, "red/orange", 4), 0)
    four_player = table(rows=FOUR_ROWS)  # 4 rows: a 5th is allowed with 4 players
    assert reloc(four_player, "red/orange", 4) in four_player.legal_actions(0)


# -- double cards ----------------------------------------------------------------------------------
def test_a_double_card_turns_over_and_sets_the_build_order() -> None:
    s = table(rows=FOUR_ROWS, inner={"red/orange": "red"})
    s = move(s, "red/orange", 2)
    slot = s.game.card_names.index("red/orange")
    assert s.inner[slot] == ORANGE  # red faced the board before: now orange does
    assert s.builders == (ORANGE, RED)
    assert s.to_move == (1,)
    s = s.apply(Build(0, 2, 0), 1)
    assert s.to_move == (0,)
    assert {(a.row, a.col) for a in s.legal_actions(0)} == {(0, 2), (1, 2)}


def test_turning_back_reverses_the_order() -> None:
    s = table(rows=FOUR_ROWS, inner={"red/orange": "orange"})
    s = move(s, "red/orange", 2)
    assert s.builders == (RED, ORANGE) and s.to_move == (0,)


def test_two_players_a_card_with_both_your_colours_builds_twice() -> None:
    s = table(players=2, rows=FOUR_ROWS, inner={"red/light grey": "light grey"})
    s = move(s, "red/light grey", 3)  # column 3 from the north; red now faces the board
    assert s.builders == (RED, LIGHT) and s.to_move == (0,)
    s = s.apply(Build(0, 3, 1), 0)
    assert s.to_move == (0,) and s.builders == (LIGHT,)
    s = s.apply(Build(0, 3, 2), 0)  # the same space: free (own floor), and a roof
    assert s.tower(0, 3) == (floor(RED, 1), floor(LIGHT, 2))
    assert s.has_roof(0, 3)
    assert s.money == (10, 10)
    assert s.phase == Phase.turn("relocate", 1)


# -- roofs -------------------------------------------------------------------------------------
def test_second_builder_on_the_same_space_gets_an_unused_roof() -> None:
    s = table(rows=FOUR_ROWS, inner={"red/orange": "red"})
    s = move(s, "red/orange", 2)
    s = s.apply(Build(0, 2, 0), 1)  # orange, first empty space
    s = s.apply(Build(0, 2, 0), 0)  # red overbuilds it: pays 1 to orange, roofs it
    assert s.money == (9, 11, 10, 10)
    assert s.has_roof(0, 2) and s.roofed.bit_count() == 1
    # A roofed tower is never overbuilt.
    s = move(s, "orange", 2)  # player 1's turn
    assert all((a.row, a.col) != (0, 2) for a in s.legal_actions(1))
    with pytest.raises(IllegalActionError, match="roof cannot be overbuilt"):
        s.apply(Build(0, 2, 0), 1)


def test_both_roofs_placed_the_second_builder_moves_one() -> None:
    towers = {(4, 1): [floor(DARK)], (3, 3): [floor(LIGHT)]}
    s = table(rows=FOUR_ROWS, inner={"red/orange": "red"}, towers=towers, roofs=[(4, 1), (3, 3)])
    s = move(s, "red/orange", 2)
    s = s.apply(Build(0, 2, 0), 1)
    s = s.apply(Build(0, 2, 0), 0)
    assert s.phase.name == "roof" and s.to_move == (0,)
    assert s.legal_actions(0) == (MoveRoof(3, 3), MoveRoof(4, 1))
    s = s.apply(MoveRoof(4, 1), 0)
    assert s.has_roof(0, 2) and s.has_roof(3, 3) and not s.has_roof(4, 1)
    assert s.phase == Phase.turn("relocate", 1)
    # (4,1) lost its roof: dark grey owns it again, and it can be overbuilt.
    game = s.game
    options = build_options(game, s.towers, s.roofed, s.supply.counts, s.money, 15, ORANGE)
    assert Build(4, 1, 0) in options  # row 4 seen from the west
    options = build_options(game, s.towers, s.roofed, s.supply.counts, s.money, 11, ORANGE)
    assert Build(3, 3, 0) not in options  # column 3 seen from the south: (3,3) has a roof


def test_no_roof_when_the_builds_land_on_different_spaces() -> None:
    s = table(rows=FOUR_ROWS, inner={"red/orange": "red"})
    s = move(s, "red/orange", 2)
    s = s.apply(Build(0, 2, 0), 1)
    s = s.apply(Build(1, 2, 0), 0)
    assert s.roofed == 0 and s.money == (10, 10, 10, 10)


# -- ducat days (rulebook illustration 8) ---------------------------------------------------------
ILLUSTRATION = {
    # light grey: 4 towers (one with a crest) and both roofs connected to them
    (0, 0): [floor(LIGHT)],
    (0, 1): [floor(LIGHT)],
    (1, 0): [floor(LIGHT, 1)],
    (1, 1): [floor(LIGHT)],
    (0, 2): [floor(ORANGE)],  # roofed
    (2, 0): [floor(ORANGE)],  # roofed
    # dark grey: area A, 2 towers with 3 crests; area B, a lone tower
    (3, 2): [floor(DARK, 2)],
    (3, 3): [floor(DARK, 1)],
    (1, 4): [floor(DARK)],
    # red: a lone tower
    (4, 2): [floor(RED)],
}


def test_ducat_day_illustration_values() -> None:
    s = table(towers=ILLUSTRATION, roofs=[(0, 2), (2, 0)])
    game = s.game
    assert area_values(game, s.towers, s.roofed, DARK) == [5, 1, 1, 1]  # A, B, two roofs
    assert area_values(game, s.towers, s.roofed, LIGHT) == [7]
    assert area_values(game, s.towers, s.roofed, ORANGE) == [1, 1]  # a lone roof each
    assert area_values(game, s.towers, s.roofed, RED) == [1, 1, 1]  # a lone tower or roof
    assert ducat_day(game, s.towers, s.roofed) == (1, 1, 7, 5)


def test_nothing_without_a_top_floor_or_a_roof() -> None:
    s = table(towers={(2, 2): [floor(RED)]})
    assert ducat_day(s.game, s.towers, s.roofed) == (1, 0, 0, 0)


def test_two_players_are_paid_for_each_colour() -> None:
    s = table(players=2, rows=FOUR_ROWS, towers=ILLUSTRATION, roofs=[(0, 2), (2, 0)])
    assert ducat_day(s.game, s.towers, s.roofed) == (1 + 7, 1 + 5)


def test_adjacent_roofs_connect_areas() -> None:
    towers = {(0, 0): [floor(RED, 2)], (0, 1): [floor(DARK)], (0, 2): [floor(DARK)]}
    towers |= {(0, 3): [floor(RED)]}
    s = table(towers=towers, roofs=[(0, 1), (0, 2)])
    assert area_values(s.game, s.towers, s.roofed, RED) == [6]  # 2 towers + 2 crests + 2 roofs
    assert area_values(s.game, s.towers, s.roofed, ORANGE) == [2]


def test_emptying_a_card_row_brings_a_ducat_day_after_the_building() -> None:
    towers = {(2, 2): [floor(RED, 2)], (3, 2): [floor(DARK)]}
    s = table(rows=FOUR_ROWS, inner={"red/dark grey": "dark grey"}, towers=towers)
    s = move(s, "red/dark grey", 2)  # the lone card at 3 leaves: its row is empty
    assert s.ducat_day and s.builders == (RED, DARK)
    s = s.apply(Build(0, 2, 0), 0)  # red: a new lone tower
    s = s.apply(Build(3, 2, 0), 3)  # dark grey overbuilds its own tower
    # red: best area 3 (2-crest tower); dark grey 1; orange, light grey nothing
    assert s.money == (13, 10, 10, 11)
    assert s.from_bank == 4 and not s.ducat_day


def test_no_ducat_day_while_the_row_keeps_a_card() -> None:
    s = table(rows=FOUR_ROWS, towers={(2, 2): [floor(RED, 2)]})
    s = move(s, "red", 2)
    assert not s.ducat_day
    s = s.apply(Build(2, 2, 0), 0)
    assert s.money == (10, 10, 10, 10)


# -- the end ---------------------------------------------------------------------------------------
LAST_RED = [floor(RED)] * 11 + [floor(RED, 1)] * 3 + [floor(RED, 2)]


def test_the_last_floor_ends_the_game_after_the_turn_completes() -> None:
    rows = {0: FOUR_ROWS[0], 1: ["red/dark grey", "light grey/dark grey", "orange/light grey"]}
    rows |= {2: ["red/light grey", "orange/dark grey"], 3: ["red/orange"]}
    s = table(rows=rows, inner={"red/orange": "orange"}, towers={(2, 2): LAST_RED})
    s = move(s, "red/orange", 2)  # 19 steps round; row 3 empties: a ducat day is due
    assert s.builders == (RED, ORANGE) and s.ducat_day
    assert s.legal_actions(0) == (Build(0, 2, 2), Build(2, 2, 2))  # only a 2-crest left
    s = s.apply(Build(0, 2, 2), 0)
    assert s.ending and not s.is_terminal and s.to_move == (1,)  # orange still builds
    s = s.apply(Build(1, 2, 0), 1)
    assert s.is_terminal
    # ducat day: red 3 (one 2-crest tower), orange 1; final: red 3 + 3, orange 1
    assert s.money == (19, 12, 10, 10)
    assert s.winners() == (0,) and s.returns() == (1.0, 0.0, 0.0, 0.0)


def test_final_payout_counts_top_floors_crests_and_shared_roofs() -> None:
    s = table(towers=ILLUSTRATION, roofs=[(0, 2), (2, 0)])
    # red 1; orange 0 (its floors are under roofs); light grey 4 + 1 crest; dark grey 3 + 3
    assert final_payout(s.game, s.towers, s.roofed) == (1 + 2, 0 + 2, 5 + 2, 6 + 2)


def test_ties_go_to_most_floors_built_then_are_shared() -> None:
    s = table(towers={(0, 0): [floor(RED)] * 3, (0, 1): [floor(ORANGE)] * 2})
    over = attrs.evolve(s, phase=Phase.over(), money=(12, 12, 8, 8), from_bank=0)
    assert over.winners() == (0,)
    s = table(towers={(0, 0): [floor(RED)] * 2, (0, 1): [floor(ORANGE)] * 2})
    over = attrs.evolve(s, phase=Phase.over(), money=(12, 12, 8, 8), from_bank=0)
    assert over.winners() == (0, 1) and over.returns() == (0.5, 0.5, 0.0, 0.0)


def test_a_stalled_game_ends_after_the_set_rounds_without_a_floor() -> None:
    game = load(4, stall_rounds=1)
    spaces = [s for s in game.board.spaces]
    towers = {divmod(sp, 5): [floor(RED if i < 15 else LIGHT)] for i, sp in enumerate(spaces)}
    s = table(game=game, rows=FOUR_ROWS, towers=towers, money=(10, 0, 0, 0))
    for seat, (card, to) in enumerate(
        [("orange", 1), ("dark grey", 2), ("orange/dark grey", 3), ("orange", 2)]
    ):
        assert s.to_move == (seat,) and s.idle == seat
        s = move(s, card, to)
    assert s.is_terminal
    assert s.money == (25, 0, 7, 0)  # the final pay-out: 15 red towers, 7 light grey


def test_the_colour_limit_binds_only_the_start_layout() -> None:
    s = table(rows=FOUR_ROWS)  # row 1 already shows orange twice
    s = move(s, "orange", 1)
    assert s.card_row(1) == ("orange", "red/orange", "orange/light grey", "light grey/dark grey")


def test_words_for_people() -> None:
    s = table(towers={(2, 2): [floor(DARK), floor(ORANGE), floor(RED)]})
    assert s.prompt() == "player 0 (red): move a building card clockwise"
    assert s.describe(reloc(s, "orange", 2)) == (
        "player 0 (red) moves the orange card from position 0 to 2"
    )
    s = move(s, "orange", 2)
    assert s.prompt() == "player 1 (orange): build one orange floor in column 2 (from the north)"
    assert s.describe(Build(2, 2, 1)) == (
        "player 1 (orange) overbuilds the 3-floor tower at 2.2 with a 1-crest orange floor,"
        " paying 3 ducats to player 0"
    )
    assert s.game.action_text(Build(2, 2, 1)) == "build 1-crest at 2.2"
    assert s.describe(Build(0, 2, 0)) == (
        "player 1 (orange) builds a plain orange floor on the empty space 0.2"
    )
    mine = move(table(towers={(2, 2): [floor(RED)]}), "red", 2)
    assert mine.describe(Build(2, 2, 0)).endswith("free: the top floor is their own")
    assert s.game.parse_action("move red/orange to 7") == reloc(s, "red/orange", 7)

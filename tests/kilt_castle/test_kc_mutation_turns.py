"""Turn and end-of-game rules pinned by the mutation audit (docs/games/kilt-castle.md,
"Mutation audit"): a floor built on space 0.0 counts for the stall safeguard like any
other (KC-18); with 2 players the last floor of one colour ends the game while the seat's
other colour still has floors (KC-15), and the tie-break counts both colours (KC-17)."""

from __future__ import annotations

import attrs

from clangames.engine.phases import Phase
from clangames.kilt_castle import Build

from .kc_helpers import FOUR_ROWS, LIGHT, ORANGE, RED, floor, move, table

ROWS = {
    0: ["red", "orange", "light grey"],
    1: ["red/orange", "light grey/dark grey", "orange/light grey"],
    2: ["red/light grey", "orange/dark grey"],
    3: ["red/dark grey", "dark grey"],
}


def test_a_floor_on_the_corner_space_resets_the_stall_count() -> None:
    s = attrs.evolve(table(rows=ROWS), idle=3)
    s = move(s, "dark grey", 0)  # round the ring to column 0: its first space is 0.0
    s = s.apply(Build(0, 0, 0), 3)
    assert s.tower(0, 0) == (floor(3),)
    assert s.phase == Phase.turn("relocate", 1) and s.idle == 0


def test_two_players_tie_break_counts_the_floors_of_both_colours() -> None:
    # Seat 0: 1 red + 3 light grey floors = 4; seat 1: 3 orange = 3. Ducats tied.
    towers = {(0, 0): [floor(RED)], (0, 1): [floor(LIGHT)] * 3, (0, 2): [floor(ORANGE)] * 3}
    s = table(players=2, towers=towers)
    over = attrs.evolve(s, phase=Phase.over(), money=(10, 10), from_bank=0)
    assert (over.floors_built(0), over.floors_built(1)) == (4, 3)
    assert over.winners() == (0,)


def test_two_players_one_colours_last_floor_ends_the_game() -> None:
    # Seat 0 plays red and light grey: red's last floor ends the game although every
    # light grey floor is still in the supply (the rulings count per colour).
    last_red = [floor(RED)] * 11 + [floor(RED, 1)] * 3 + [floor(RED, 2)]
    s = table(players=2, rows=FOUR_ROWS, towers={(2, 2): last_red})
    assert sum(s.supply.counts[LIGHT * 3 : LIGHT * 3 + 3]) == 16
    s = move(s, "red", 2)  # joins the row at 2: no ducat day
    s = s.apply(Build(0, 2, 2), 0)
    assert s.is_terminal and s.ending
    # final pay-out: red tops 0.2 and 2.2, each a 2-crest floor: 3 + 3
    assert s.money == (16, 10) and s.winners() == (0,)

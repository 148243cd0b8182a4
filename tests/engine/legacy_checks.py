"""Consistency checks as they were before the last speed-ups of issue 11, frozen: the
oracle the current checks must agree with (the same verdict and the same message for
every state). Only the functions the speed-ups rewrote are copied; the helpers they call
(unchanged) come from the game's module."""

from __future__ import annotations

from operator import add, contains
from typing import Any

from clangames.kilt_castle import observation as kc

PHASES = kc.PHASES


def kilt_castle_check_consistency(s: Any) -> None:
    """Kilt Castle's ``check_consistency`` before issue 11's last changes."""
    game = s.game
    board = game.board
    n = game.num_players
    ncards = len(game.cards)
    kinds = len(board.colours) * 3

    fail = kc._fail

    if s.phase.name not in PHASES:
        fail("phase.name", f"expected one of {PHASES}, got {s.phase.name!r}")
    for p in s.phase.to_move:
        if not -1 <= p < n:
            fail("phase.to_move", f"expected seats 0..{n - 1} or -1, got {p}")
    for field, seq in (("positions", s.positions), ("inner", s.inner)):
        if len(seq) != ncards:
            fail(field, f"expected one entry per card in play ({ncards}), got {len(seq)}")
    positions = s.positions
    if not (
        min(positions, default=0) >= 0
        and max(positions, default=-1) < board.num_positions
        and all(map(contains, game.card_colours, s.inner))
    ):
        kc._check_cards(s)
    if len(s.towers) != board.rows * board.cols:
        fail("towers", f"expected {board.rows * board.cols} spaces, got {len(s.towers)}")
    towers = s.towers
    floors = "".join(towers)
    if set(floors) <= game.letters_in_play and not any(map(towers.__getitem__, board.water)):
        built = list(map(floors.count, game.letter))
    else:
        built = kc._count_floors(s)
    counts = s.supply.counts
    if len(counts) != kinds:
        fail("supply", f"expected {kinds} counts, got {len(counts)}")
    if min(counts) < 0 or list(map(add, counts, built)) != game.floors_in_all:
        for f in range(kinds):
            in_play = game.floor_owner[f] >= 0
            expected = board.floors[f % 3] if in_play else 0
            if counts[f] < 0 or counts[f] + built[f] != expected:
                fail(
                    "supply",
                    f"floor kind {f}: {counts[f]} left and {built[f]} built,"
                    f" expected {expected} in all",
                )
    if not 0 <= s.roofed < 1 << len(towers) or s.roofed.bit_count() > board.roofs:
        fail("roofed", f"at most {board.roofs} roofs on spaces of the grid, got {s.roofed:#x}")
    roofs = s.roofed
    while roofs:  # the roofed spaces in increasing order
        space = (roofs & -roofs).bit_length() - 1
        if not towers[space]:
            fail("roofed", f"a roof on the empty space {board.label(space)}")
        roofs &= roofs - 1
    if len(s.money) != n or min(s.money) < 0:
        fail("money", f"expected {n} non-negative amounts, got {list(s.money)}")
    if s.from_bank < 0 or sum(s.money) != board.start_money * n + s.from_bank:
        fail("from_bank", "the players' ducats do not add up to the start money plus the bank's")
    if not -1 <= s.actor < n:
        fail("actor", f"expected a seat or -1, got {s.actor}")
    if not -1 <= s.card < ncards:
        fail("card", f"expected a card index or -1, got {s.card}")
    for i, c in enumerate(s.builders):
        if c not in game.colours:
            fail(f"builders[{i}]", f"expected a colour in play, got {c}")
    if not -1 <= s.first_space < len(towers):
        fail("first_space", f"expected a space or -1, got {s.first_space}")
    if s.turns < 0 or s.idle < 0:
        fail("turns", "turn counters must not be negative")
    name = s.phase.name
    to_move = s.phase.to_move
    if name in ("build", "roof") and (s.card < 0 or (not s.builders and name == "build")):
        fail("builders", f"the {name} step needs a relocated card and a builder")
    if name == "build" and to_move != (game.owner[s.builders[0]],):
        fail("phase.to_move", "the build step belongs to the owner of the building colour")
    if name == "layout" and to_move != (-1,):
        fail("phase.to_move", "the lay-out is a chance node")
    if name == "over" and to_move != ():
        fail("phase.to_move", "nobody moves once the game is over")
    if name == "roof" and (s.first_space < 0 or s.roofed.bit_count() < 2):
        fail("roofed", "the roof step needs two placed roofs and a built space")
    if name == "relocate" and to_move != (s.actor,):
        fail("phase.to_move", "the relocation belongs to the actor")
    if name == "layout":
        kc._check_layout(s)
        return
    # Out of the lay-out every card lies in a row (checked above): count the rows.
    rows = set(positions)
    if max(map(positions.count, rows), default=0) > game.max_row:
        fail("positions", f"a card row holds more than {game.max_row} cards")
    if len(rows) > game.max_rows:
        fail("positions", f"more than {game.max_rows} card rows")
    _kilt_castle_check_turn(s)


def _kilt_castle_check_turn(s: Any) -> None:
    """What the steps of a turn require of the card, the builders and the roofs."""
    game = s.game
    board = game.board
    name = s.phase.name

    fail = kc._fail

    if s.actor < 0 or s.turns < 1:
        fail("actor", f"the {name} step comes after the lay-out: a seat is on turn")
    if name != "over" and s.idle >= game.stall_turns:
        fail("idle", f"the game ends after {game.stall_turns} turns in a row without a floor")
    if s.first_space >= 0 and not s.towers[s.first_space]:
        fail("first_space", "the first floor of this turn stands on that space")
    if name == "relocate":
        if s.card != -1 or s.builders or s.first_space != -1 or s.ducat_day or s.ending:
            fail("card", "a turn begins with nothing relocated, built or pending")
        for colour in game.colours:
            if not any(s.supply.counts[colour * 3 : colour * 3 + 3]):
                fail(
                    "supply", f"{board.colours[colour]} has built its last floor: the game is over"
                )
        return
    if name == "over":
        if s.builders:
            fail("builders", "nobody builds once the game is over")
        return
    colours = board.cards[game.cards[s.card]]
    inner = s.inner[s.card]
    order: tuple[int, ...] = (
        colours if len(colours) == 1 else (inner, colours[0] + colours[1] - inner)
    )
    if s.builders != order[len(order) - len(s.builders) :]:
        fail("builders", f"the card's colours build in the order {order}, got {s.builders}")
    if len(s.builders) == len(order) and s.first_space != -1:
        fail("first_space", "nothing is built before the first colour builds")
    if name == "roof":
        if len(colours) != 2 or s.phase.to_move != (game.owner[order[1]],):
            fail("phase.to_move", "the roof belongs to the second colour's player")
        if s.roofed >> s.first_space & 1 or s.roofed.bit_count() != board.roofs:
            fail("roofed", "a roof moves only when every roof is placed, onto an unroofed tower")

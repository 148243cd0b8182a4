"""The Kilt Castle game object: parameters, seats and colours, declared facts, action
tables, registration."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress
from typing import Any

from clangames.engine.actions import ActionTable
from clangames.engine.bits import bits_of
from clangames.engine.errors import InvalidParameterError
from clangames.engine.game import Game, GameInfo, GameSpec, Parameter
from clangames.engine.phases import Phase
from clangames.engine.position import Notation
from clangames.engine.registry import register
from clangames.engine.statistics import GameStatistics
from clangames.kilt_castle.actions import (
    Build,
    KiltCastleAction,
    Lay,
    MoveRoof,
    Relocate,
    build_action_table,
    card_name,
)
from clangames.kilt_castle.board import Board, floor_letter, load_board
from clangames.kilt_castle.setup import LayoutCounter, initial_state
from clangames.kilt_castle.state import KiltCastleState

_ZERO_ONE = bytes.maketrans(b"01", b"\x00\x01")
"""Turns the digits of ``bin(mask)`` into 0/1 bytes, selectors for ``itertools.compress``."""

CACHE_LIMIT = 1 << 14
"""Target sets kept in a card's relocation memo before it is emptied."""

RELOCATION_NEIGHBOUR = ("behind", "either")
"""Readings of relocation rule I (ruling KC-6): a card landing on an empty position needs a
card on the position directly counter-clockwise of it (``"behind"``, the published game), or
on either neighbouring position (``"either"``, the product's first reading)."""


class RelocationMemo(dict[int, tuple[KiltCastleAction, ...]]):
    """One card's relocations to each set of target positions met, keyed by the set's
    bitmask. A missing set is listed and kept by the look-up itself (``__missing__``), so
    the rules can read every card's actions in one C-level ``map``; the memo is emptied
    once it holds CACHE_LIMIT sets, so a board with many cards cannot make it grow without
    bound."""

    __slots__ = ("row",)

    def __init__(self, row: tuple[KiltCastleAction, ...]) -> None:
        super().__init__()
        self.row = row
        """The card's relocation to each position, by position."""

    def __missing__(self, mask: int) -> tuple[KiltCastleAction, ...]:
        if len(self) >= CACHE_LIMIT:
            self.clear()
        # The mask's bits, lowest first, as 0/1 bytes: compress picks the targets in C (a
        # random playout meets new target sets all the time, so misses must be cheap too).
        selected = bin(mask)[:1:-1].encode("ascii").translate(_ZERO_ONE)
        actions = self[mask] = tuple(compress(self.row, selected))
        return actions


def seat_colours(players: int) -> tuple[tuple[int, ...], ...]:
    """The colours each seat plays: one each with 3 or 4 players (with 3 the fourth colour
    is out); with 2 players seat 0 plays colours 0 and 2, seat 1 colours 1 and 3."""
    if players == 2:
        return ((0, 2), (1, 3))
    return tuple((seat,) for seat in range(players))


class KiltCastleGame(Game):
    """Kilt Castle for 2 to 4 players. Load it with ``clangames.load("kilt_castle", ...)``."""

    def __init__(self, spec: GameSpec, params: Mapping[str, Any]) -> None:
        super().__init__(spec, params)
        self.board: Board = load_board(params["board"])
        board = self.board
        n = self.num_players
        self.seat_colours = seat_colours(n)
        self.colours: tuple[int, ...] = tuple(sorted(c for cs in self.seat_colours for c in cs))
        owner = [-1] * len(board.colours)
        for seat, colours in enumerate(self.seat_colours):
            for c in colours:
                owner[c] = seat
        self.owner: tuple[int, ...] = tuple(owner)
        """The seat playing each colour, -1 for a colour out of the game."""
        self.floor_owner: tuple[int, ...] = tuple(owner[f // 3] for f in range(3 * len(owner)))
        """The seat owning each floor kind ``colour * 3 + crests``."""
        self.letter: tuple[str, ...] = tuple(floor_letter(f) for f in range(3 * len(owner)))
        """Each floor kind's letter in a tower string."""
        self.letter_floor: dict[str, tuple[int, int]] = {
            floor_letter(f): divmod(f, 3) for f in range(3 * len(owner))
        }
        """The colour and crests of the floor a tower letter stands for."""
        self.letter_kind: dict[str, int] = {floor_letter(f): f for f in range(3 * len(owner))}
        """The floor kind ``colour * 3 + crests`` a tower letter stands for."""
        self.letter_owner: dict[str, int] = {
            floor_letter(f): seat for f, seat in enumerate(self.floor_owner)
        }
        """The seat owning the floor a tower letter stands for."""
        self.letters_in_play = frozenset(
            letter for letter, seat in self.letter_owner.items() if seat >= 0
        )
        """The tower letters of the floors of the colours in play (checking saved states)."""
        self.floors_in_all: list[int] = [
            board.floors[f % 3] if seat >= 0 else 0 for f, seat in enumerate(self.floor_owner)
        ]
        """Each floor kind's floors in the game, built and in the supply together."""
        self.cards: tuple[int, ...] = tuple(
            i for i, cs in enumerate(board.cards) if all(owner[c] >= 0 for c in cs)
        )
        """The board cards in play; the state indexes cards by their place in this tuple."""
        self.card_slot: dict[int, int] = {card: i for i, card in enumerate(self.cards)}
        self.card_names: tuple[str, ...] = tuple(card_name(board, c) for c in self.cards)
        self.card_colours: tuple[tuple[int, ...], ...] = tuple(board.cards[c] for c in self.cards)
        """Each card's colours, by its slot."""
        self.turn_over: tuple[dict[int, tuple[int, int]] | None, ...] = tuple(
            {c0: (c1, c0), c1: (c0, c1)} if len(cs) == 2 else None
            for cs in self.card_colours
            for c0, c1 in [(cs[0], cs[-1])]
        )
        """For each double card, its colour facing the board -> its (inner, outer) colours
        once turned over (None for a single card)."""
        self.singles = tuple(i for i, c in enumerate(self.cards) if len(board.cards[c]) == 1)
        self.doubles = tuple(i for i, c in enumerate(self.cards) if len(board.cards[c]) == 2)
        rows = board.double_rows_four if len(self.colours) == 4 else board.double_rows_three
        total = board.num_positions
        self.layout_slots: tuple[int, ...] = tuple(
            (board.single_position + 1 + j) % total
            for j, size in enumerate(rows)
            for _ in range(size)
        )
        self.max_row: int = board.cards_per_row[n]
        self.max_rows: int = board.card_rows[n]
        self._validate_layout(rows)
        self.layout_counter = LayoutCounter(self)
        if not self.layout_counter.count((1 << len(self.doubles)) - 1, 0, ()):
            raise InvalidParameterError(
                f"kilt_castle: board {board.source} admits no start lay-out that shows each"
                f" colour at most {board.max_same_colour} times per card row"
            )
        self.stall_turns: int = int(params["stall_rounds"]) * n
        self.relocation_either: bool = params["relocation_neighbour"] == "either"
        """Relocation rule I's reading: a card landing alone may have its neighbour on
        either side (True) or needs it behind, counter-clockwise (False, the default)."""
        # The phases of a turn, made once: a move only picks one.
        self.relocate_phase = tuple(Phase.turn("relocate", seat) for seat in range(n))
        self.roof_phase = tuple(Phase.turn("roof", seat) for seat in range(n))
        self.build_phase = tuple(Phase.turn("build", max(seat, 0)) for seat in owner)
        """Indexed by colour: the seat playing it builds (colours out of play never do)."""
        self._actions = build_action_table(board, self.cards)
        table = self._actions
        self.lay_actions: tuple[tuple[KiltCastleAction, ...], ...] = tuple(
            tuple(table.intern(Lay(c, colour)) for colour in sorted(board.cards[c]))
            if len(board.cards[c]) == 2
            else ()
            for c in self.cards
        )
        self.relocate_actions: tuple[tuple[KiltCastleAction, ...], ...] = tuple(
            tuple(table.intern(Relocate(c, to)) for to in range(total)) for c in self.cards
        )
        spaces = set(board.spaces)
        self.build_actions: tuple[tuple[tuple[KiltCastleAction, ...], ...], ...] = tuple(
            tuple(
                tuple(table.intern(Build(*divmod(s, board.cols), k)) for k in bits_of(kinds))
                for kinds in range(8)
            )
            if s in spaces
            else ()
            for s in range(board.rows * board.cols)
        )
        """The builds on each space for each set of floor kinds left (a 3-bit mask: plain,
        one crest, two crests), in id order."""
        self.roof_actions: dict[int, KiltCastleAction] = {
            s: table.intern(MoveRoof(*divmod(s, board.cols))) for s in board.spaces
        }
        self.roof_memo: dict[int, tuple[KiltCastleAction, ...]] = {}
        """The roof moves open for each set of roofed spaces, keyed by its bitmask (see
        :func:`clangames.kilt_castle.turn.roof_options`)."""
        self.next_seat: tuple[int, ...] = tuple((seat + 1) % n for seat in range(n))
        """The seat whose turn follows each seat's."""
        first_column = sum(1 << (r * board.cols) for r in range(board.rows))
        self.inner_columns: tuple[int, int] = (
            ~(first_column << (board.cols - 1)),
            ~first_column,
        )
        """Masks of the spaces not in the grid's last column and not in its first: a space
        there has a neighbour to its right (left)."""
        self.all_positions = (1 << total) - 1
        self.cols: int = board.cols
        """The grid's width (a space is ``row * cols + col``)."""
        self.position_bits: tuple[int, ...] = tuple(1 << p for p in range(total))
        """Each card position's bit in a bitmask of positions."""
        self.other_positions: tuple[int, ...] = tuple(
            self.all_positions & ~(1 << p) for p in range(total)
        )
        """Each card position's complement in the circle (a mask leaving that position out)."""
        self.last_position = total - 1
        self.relocation_memo: tuple[RelocationMemo, ...] = tuple(
            RelocationMemo(row) for row in self.relocate_actions
        )
        """Each card's relocations to a set of target positions, keyed by that bitmask
        (a miss lists them: see :class:`RelocationMemo`)."""
        width = len(self.cards).bit_length()
        self.position_units: tuple[int, ...] = tuple(1 << (width * p) for p in range(total))
        """Each card position's unit in a count of the cards at every position: a field of
        bits per position, wide enough for every card in play, so that summing the units
        of the cards' positions never carries into the next field."""
        self.target_memo: dict[int, tuple[int, ...]] = {}
        """Each card position's target mask, keyed by the count of the cards at every
        position (see :func:`clangames.kilt_castle.turn.relocations`)."""
        self.area_memo: dict[int, tuple[int, ...]] = {}
        """The connected groups of each set of spaces met on a ducat day, keyed by its
        bitmask (see :func:`clangames.kilt_castle.scoring.ducat_day`)."""
        self.layout_memo: dict[tuple[int, ...], tuple[tuple[Any, int], ...]] = {}
        """The chance weights of each partial start lay-out, keyed by the cards' positions
        (see :func:`clangames.kilt_castle.setup.chance_weights`)."""
        self.build_lines: tuple[tuple[tuple[int, ...], bool, int], ...] = tuple(
            (line, len(line) > 1 and line[0] > line[1], sum(1 << s for s in line))
            for line in board.lines
        )
        """Each position's line from the card's side, whether that runs against space
        order (a line is a straight row or column: its spaces ascend or descend), and its
        spaces as a bitmask."""
        self.space_bits: tuple[int, ...] = tuple(1 << s for s in range(board.rows * board.cols))
        """Each space's bit in a bitmask of spaces."""
        # Length bound (docs/games/kilt-castle.md): the game ends once a colour has built
        # all its floors, so at most `builds` floors go up (the last turn may add one more
        # after the ending floor); between two builds at most `stall_turns - 1` turns pass
        # without one; a turn has one relocation and each build at most one roof choice.
        builds = len(self.colours) * (board.floors_per_colour - 1) + 2
        turns = (builds + 1) * self.stall_turns
        self._max_length = len(self.doubles) + turns + 2 * builds
        self._info = GameInfo(
            name=spec.name,
            title=spec.title,
            num_players=n,
            min_players=spec.min_players,
            max_players=spec.max_players,
            has_chance=True,
            has_simultaneous_moves=False,
            has_hidden_information=False,
            max_game_length=self._max_length,
            num_distinct_actions=len(self._actions),
        )

    def _validate_layout(self, rows: tuple[int, ...]) -> None:
        """Check that the start rows hold the double cards and fit the row limits."""
        board = self.board
        source = board.source
        if sum(rows) != len(self.doubles) or rows[-1] != 1:
            raise InvalidParameterError(
                f"kilt_castle: board {source}: the start rows {list(rows)} must hold the"
                f" {len(self.doubles)} double cards in play and end with a lone card"
            )
        if len(rows) + 1 > min(self.max_rows, board.num_positions):
            raise InvalidParameterError(
                f"kilt_castle: board {source}: the start lay-out has more card rows than the"
                f" {self.max_rows} allowed"
            )
        if max(len(self.singles), *rows) > self.max_row:
            raise InvalidParameterError(
                f"kilt_castle: board {source}: a start card row holds more than {self.max_row}"
                " cards"
            )

    @property
    def info(self) -> GameInfo:
        """Players, chance, perfect information, sizes and the length bound, as data."""
        return self._info

    @property
    def actions(self) -> ActionTable[KiltCastleAction]:
        """Every distinct action: lay-outs, relocations, builds, roof moves."""
        return self._actions

    @property
    def state_type(self) -> type[KiltCastleState]:
        """The state class, for decoding saved states."""
        return KiltCastleState

    def make_notation(self) -> Notation:
        """Positions with colours, cards, spaces and floor letters (kilt_castle/position.py)."""
        from clangames.kilt_castle.position import notation

        return notation(self)

    def statistics(self) -> GameStatistics:
        """Kilt Castle's balance statistics (kilt_castle/statistics.py)."""
        from clangames.kilt_castle.statistics import statistics

        return statistics(self)

    def initial_state(self) -> KiltCastleState:
        """The single cards laid out; a chance node lays out the double cards."""
        return initial_state(self)

    @property
    def start_position(self) -> int:
        """The card position of the lone start card (its outer colour opens the game)."""
        return self.layout_slots[-1]

    def relocations_for(self, slot: int, mask: int) -> tuple[KiltCastleAction, ...]:
        """The relocations of card ``slot`` to the positions in ``mask``, from the card's
        memo (listed and kept there on a miss)."""
        return self.relocation_memo[slot][mask]


def _factory(params: Mapping[str, Any]) -> Game:
    """Build the game from checked parameters (the registry calls this)."""
    return KiltCastleGame(SPEC, params)


SPEC = register(
    GameSpec(
        name="kilt_castle",
        title="Kilt Castle",
        summary="Relocate building cards, build towers of your colour, earn on ducat days.",
        min_players=2,
        max_players=4,
        parameters=(
            Parameter("players", 4, "number of players", int, minimum=2, maximum=4),
            Parameter("board", None, "path of a board TOML file; None for the bundled one", str),
            Parameter(
                "stall_rounds",
                10,
                "the game also ends after this many rounds in a row without a floor built"
                " (a safeguard the rulebook lacks; see the rulings)",
                int,
                minimum=1,
                maximum=1000,
            ),
            Parameter(
                "relocation_neighbour",
                "behind",
                "a card moved to an empty position needs a card on the position behind it"
                " (counter-clockwise; 'behind', the published game) or on either neighbouring"
                " position ('either'); see ruling KC-6",
                str,
                choices=RELOCATION_NEIGHBOUR,
            ),
        ),
        factory=_factory,
    )
)

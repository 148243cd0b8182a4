"""Tensors patched run by run (``Layout.changes``, ``ObservationSpec.changes``,
``TensorWriter``) equal the tensors written whole, for every layout and every game."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clangames
from clangames.engine.encoding import (
    Bits,
    Chars,
    Fields,
    Flag,
    Int,
    Maybe,
    ObservationEncodingError,
    ObservationSpec,
    OneOf,
    Patch,
    TensorWriter,
    Tuple,
    Upto,
)


@attrs.frozen
class Piece:
    kind: str
    count: int
    marks: tuple[int, ...]


@attrs.frozen
class Board:
    turn: int
    flag: bool
    seats: int
    phase: str
    name: str
    queue: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    masks: tuple[int, ...]
    pieces: tuple[Piece, ...]
    pair: tuple[Piece, ...]
    battle: Piece | None


PIECE = Fields(Piece, {"kind": Chars(4, "xyz"), "count": Int(0, 9), "marks": Upto(3, Int(-1, 5))})

SPEC = ObservationSpec(
    Fields(
        Board,
        {
            "turn": Int(0, 99),
            "flag": Flag(),
            "seats": Bits(5),
            "phase": OneOf(("a", "b", "c")),
            "name": Chars(6, "abc"),
            "queue": Upto(5, Int(0, 9)),
            "rows": Tuple(2, Tuple(3, Int(0, 9))),
            "masks": Tuple(2, Bits(12)),
            "pieces": Upto(4, PIECE),
            "pair": Tuple(2, PIECE),
            "battle": Maybe(PIECE),
        },
    ),
    public=("turn",),
)

pieces = st.builds(
    Piece,
    kind=st.text("xyz", max_size=4),
    count=st.integers(0, 9),
    marks=st.lists(st.integers(-1, 5), max_size=3).map(tuple),
)
FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "turn": st.integers(0, 99),
    "flag": st.booleans(),
    "seats": st.integers(0, 31),
    "phase": st.sampled_from("abc"),
    "name": st.text("abc", max_size=6),
    "queue": st.lists(st.integers(0, 9), max_size=5).map(tuple),
    "rows": st.tuples(*[st.tuples(*[st.integers(0, 9)] * 3)] * 2),
    "masks": st.tuples(st.integers(0, 4095), st.integers(0, 4095)),
    "pieces": st.lists(pieces, max_size=4).map(tuple),
    "pair": st.tuples(pieces, pieces),
    "battle": st.none() | pieces,
}
boards = st.builds(Board, **FIELDS)


@st.composite
def histories(draw: st.DrawFn) -> list[Board]:
    """Boards that change a few fields at a time, as a game's observations do: the
    fields left alone are the very same objects (the identity shortcut), the changed
    ones new values (often equal to the old: the equality shortcut)."""
    board = draw(boards)
    out = [board]
    for _ in range(draw(st.integers(1, 6))):
        names = draw(st.lists(st.sampled_from(sorted(FIELDS)), min_size=1, max_size=3))
        board = attrs.evolve(board, **{n: draw(FIELDS[n]) for n in names})
        if draw(st.booleans()) and board.pieces:  # change one piece of the stack only
            i = draw(st.integers(0, len(board.pieces) - 1))
            piece = attrs.evolve(board.pieces[i], count=draw(st.integers(0, 9)))
            board = attrs.evolve(board, pieces=(*board.pieces[:i], piece, *board.pieces[i + 1 :]))
        out.append(board)
    return out


def patched(tensor: Sequence[float], patches: list[Patch]) -> list[float]:
    out = list(tensor)
    for start, floats in patches:
        assert len(out[start : start + len(floats)]) == len(floats)  # inside the tensor
        out[start : start + len(floats)] = floats
    return out


@settings(max_examples=150, deadline=None)
@given(histories(), boards)
def test_changes_turn_one_tensor_into_the_next(history: list[Board], other: Board) -> None:
    for old, new in [*pairwise(history), (history[-1], other)]:
        patches = SPEC.changes(old, new)
        assert patched(SPEC.encode(old), patches) == SPEC.encode(new)
        if old == new:
            assert patches == []
    assert SPEC.changes(other, other) == []


@settings(max_examples=100, deadline=None)
@given(histories())
def test_a_writer_keeps_its_buffer_equal_to_the_whole_tensor(history: list[Board]) -> None:
    buffer = array("f", [0.0] * SPEC.size)
    writer = TensorWriter(SPEC, buffer)
    for board in history:
        writer.write(board)
        assert buffer.tolist() == SPEC.encode(board)


def test_a_value_that_does_not_fit_is_refused_and_the_writer_recovers() -> None:
    good = Board(
        1,
        True,
        3,
        "a",
        "ab",
        (1,),
        ((1, 2, 3), (4, 5, 6)),
        (1, 2),
        (),
        (
            Piece("x", 1, ()),
            Piece("y", 2, (1,)),
        ),
        None,
    )
    buffer = array("f", [0.0] * SPEC.size)
    writer = TensorWriter(SPEC, buffer)
    writer.write(good)
    too_long = attrs.evolve(good, queue=(1, 2, 3, 4, 5, 6))
    with pytest.raises(ObservationEncodingError, match="do not fit"):
        writer.write(too_long)
    with pytest.raises(ObservationEncodingError, match="do not fit"):
        SPEC.changes(good, attrs.evolve(good, pieces=(Piece("x", 1, ()),) * 5))
    with pytest.raises(ObservationEncodingError, match="expected 2 items"):
        SPEC.changes(good, attrs.evolve(good, rows=((1, 2, 3),)))
    later = attrs.evolve(good, turn=7, name="cab")
    writer.write(later)
    assert buffer.tolist() == SPEC.encode(later)
    # A writer rewrites everything after forget(), whatever was written into its buffer.
    buffer[0] = 42.0
    writer.forget()
    writer.write(later)
    assert buffer.tolist() == SPEC.encode(later)


def test_a_writer_needs_a_writable_buffer_of_the_right_size() -> None:
    with pytest.raises(ObservationEncodingError, match="buffer of float32s, got list"):
        TensorWriter(SPEC, [0.0] * SPEC.size)  # type: ignore[arg-type]
    with pytest.raises(
        ObservationEncodingError, match=f"{SPEC.size} writable.*got {SPEC.size - 1}"
    ):
        TensorWriter(SPEC, array("f", [0.0] * (SPEC.size - 1)))
    with pytest.raises(ObservationEncodingError, match="format 'd'"):  # doubles, not floats
        TensorWriter(SPEC, array("d", [0.0] * (SPEC.size // 2)))
    with pytest.raises(ObservationEncodingError, match="read-only"):
        TensorWriter(SPEC, memoryview(bytes(4 * SPEC.size)).cast("f"))


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker", "kilt_castle", "clan_feud"])
def test_every_game_patches_its_tensors_exactly(name: str) -> None:
    # One random game at the most seats (at most 250 steps): every seat's view and the
    # public one, through one writer (views of different seats follow each other).
    players = clangames.game_spec(name).max_players
    game = clangames.load(name, players=players)
    spec = game.observation_spec()
    buffer = array("f", [0.0] * spec.size)
    writer = TensorWriter(spec, buffer)
    state = game.initial_state()
    _, _, moves = clangames.rollout_moves(state, clangames.Rng(11), 250, first_mover=True)
    patches_seen = 0
    for player, action in moves:
        views = [state.public_observation(), *map(state.observation, range(players))]
        for view in views:
            whole = spec.encode(view)
            writer.write(view)
            assert buffer.tolist() == array("f", whole).tolist()
        patches_seen += len(spec.changes(views[1], views[-1]))
        state = state.apply(action, player)
    assert patches_seen > 0  # the seats' views did differ somewhere

"""``replace_at``: a copy of a tuple with one item swapped, the original untouched."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from clangames.engine.data import replace_at


@settings(max_examples=200, deadline=None)
@given(data=st.data(), items=st.lists(st.integers() | st.text(max_size=3), min_size=1))
def test_replace_at_swaps_exactly_one_item(data: st.DataObject, items: list[object]) -> None:
    seq = tuple(items)
    index = data.draw(st.integers(0, len(seq) - 1))
    out = replace_at(seq, index, "new")
    assert type(out) is tuple
    assert out == (*seq[:index], "new", *seq[index + 1 :])
    assert seq == tuple(items)  # the original is unchanged


def test_replace_at_keeps_the_length_at_both_ends() -> None:
    assert replace_at((1, 2, 3), 0, 9) == (9, 2, 3)
    assert replace_at((1, 2, 3), 2, 9) == (1, 2, 9)
    assert replace_at((1,), 0, 9) == (9,)

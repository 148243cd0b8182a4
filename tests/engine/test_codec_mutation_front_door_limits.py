"""The JSON front door's limits hold at their exact boundaries and its refusals name the
right place (pinned by the kernel's mutation audit: an off-by-one in a limit or a report
of another item than the first bad one passed every earlier test).

``parse_json`` promises one limit for text and for Python data: nesting of ``MAX_DEPTH``
levels is accepted, one more is refused, naming the position (text) or the path (data) of
the first place that goes too deep; the first bad item in document order is the one named.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from clangames import StateDecodeError
from clangames.engine.codec import MAX_DEPTH, parse_json


def levels(depth: int) -> list[Any]:
    """A list nested exactly ``depth`` levels deep (``[]`` is one level)."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def refusal(data: Any) -> str:
    with pytest.raises(StateDecodeError) as info:
        parse_json(data, "state")
    return str(info.value)


def test_text_nested_exactly_max_depth_is_accepted_even_with_many_brackets() -> None:
    # More than MAX_DEPTH brackets in all (so the depth is measured), none deeper.
    text = "[" + json.dumps(levels(MAX_DEPTH - 1)) + ", [], {}, [[]]]"
    assert text.count("[") + text.count("{") > MAX_DEPTH
    assert parse_json(text, "state") == json.loads(text)


def test_text_one_level_too_deep_is_refused_at_the_bracket_that_goes_past() -> None:
    text = "  " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert refusal(text) == (
        f"state: not valid JSON (nested more than {MAX_DEPTH} deep at position {2 + MAX_DEPTH})"
    )
    # Brackets inside strings do not count, and the position is in the whole text.
    text = '{"a": "[[[[", "b": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"
    start = text.index("[", text.index('"b"'))
    assert refusal(text).endswith(f"deep at position {start + MAX_DEPTH - 1})")


def test_python_data_has_the_same_depth_limit_as_text() -> None:
    deepest = levels(MAX_DEPTH)
    assert parse_json(deepest, "state") is deepest
    assert parse_json(json.dumps(deepest), "state") == deepest
    message = refusal(levels(MAX_DEPTH + 1))
    assert (
        message
        == f"state: nested more than {MAX_DEPTH} deep at "
        + ("state" + "[0]" * MAX_DEPTH)[:77]
        + "..."
    )
    assert refusal(json.dumps(levels(MAX_DEPTH + 1))).startswith(
        f"state: not valid JSON (nested more than {MAX_DEPTH} deep"
    )
    assert refusal({"k": levels(MAX_DEPTH)}) == (
        f"state: nested more than {MAX_DEPTH} deep at "
        + ("state.k" + "[0]" * (MAX_DEPTH - 1))[:77]
        + "..."
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"a": [math.nan, {1: 2}]}, "state.a[0]: expected a finite number, got nan"),
        ({"a": [[], {1: 2}, math.nan]}, "state.a[1]: expected string keys, got the key 1"),
        ({"b": 2**2000, "a": math.inf}, "state.b: expected a number of at most 2000 bits"),
        ([1, (2,), {3: 4}], "state[1]: expected JSON data"),
    ],
)
def test_the_first_bad_item_in_document_order_is_named(data: Any, message: str) -> None:
    assert refusal(data).startswith(message)

"""The generic encoder (values met outside an annotated field: a game's parameters, a
list or dict given to ``encode``) writes exactly what the previous codec wrote (pinned by
the kernel's mutation audit: an encoder that left frozensets in their iteration order
passed, because small ints iterate in sorted order).

Frozensets are written sorted by the ``repr`` of their items (so ``10`` comes before
``2``), the same order wherever they are met; any mapping's keys are written as text.
"""

from __future__ import annotations

import json
from types import MappingProxyType
from typing import Any

import attrs
import pytest

from clangames.engine.codec import encode

from . import legacy_codec as legacy


@attrs.frozen
class Tagged:
    """An attrs value with a frozenset field (the generated encoder)."""

    tags: frozenset[int]


@pytest.mark.parametrize(
    "value",
    [
        frozenset({2, 10}),
        frozenset({-1, 3, 20, 100}),
        [frozenset({"b", "a", "ab", "B"})],
        {"k": frozenset({9, 10, 11})},
        (frozenset({(2, 1), (10, 0)}),),
        [Tagged(frozenset({2, 10}))],
        MappingProxyType({1: (2, 3), "k": frozenset({2, 10})}),
        [MappingProxyType({(1, 2): None})],
    ],
)
def test_generic_encoding_is_the_previous_codecs_byte_for_byte(value: Any) -> None:
    new, old = encode(value), legacy.encode(value)
    assert new == old
    assert json.dumps(new) == json.dumps(old)


def test_frozensets_are_sorted_by_repr_wherever_they_are_met() -> None:
    assert encode(frozenset({2, 10})) == [10, 2]
    assert encode([frozenset({2, 10})]) == [[10, 2]]
    assert encode(Tagged(frozenset({2, 10}))) == {"tags": [10, 2]}


def test_any_mappings_keys_are_written_as_text() -> None:
    assert encode(MappingProxyType({1: 2, None: 3})) == {"1": 2, "None": 3}

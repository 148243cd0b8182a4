"""The registry lists its games by name whatever the order they were registered in, and
a parameter value that cannot key the cache still loads (pinned by the kernel's mutation
audit: the registry's insertion order happened to be sorted, and no parameter value was
ever unhashable).
"""

from __future__ import annotations

from clangames import Parameter
from clangames.engine.registry import games, load, register, unregister
from testing import toys
from testing.toys import counting_spec


def test_games_are_listed_by_name_not_by_registration() -> None:
    calls: list[object] = []
    register(counting_spec("zz_toy_last", calls))
    register(counting_spec("aa_toy_first", calls))
    try:
        names = [spec.name for spec in games()]
        assert names == sorted(names)
        assert names[0] == "aa_toy_first" and names[-1] == "zz_toy_last"
    finally:
        unregister("zz_toy_last")
        unregister("aa_toy_first")


def test_an_unhashable_parameter_value_builds_a_game_every_time() -> None:
    calls: list[object] = []
    register(counting_spec("toy_unhashable", calls, Parameter("layout", None, "any value", object)))
    try:
        first = load("toy_unhashable", layout=[1, 2])
        again = load("toy_unhashable", layout=[1, 2])
        assert isinstance(first, toys.ToyGame) and again is not first
        assert len(calls) == 2
    finally:
        unregister("toy_unhashable")

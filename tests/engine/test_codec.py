"""The JSON codec: round trips of nested attrs values, and errors that name the field."""

from __future__ import annotations

import enum
import json
from fractions import Fraction
from typing import Any

import attrs
import pytest

from clangames import Commitments, Multiset, Phase, StateDecodeError
from clangames.engine.codec import decode, encode, json_fields, require


class Colour(enum.Enum):
    """A string-valued enum."""

    RED = "red"
    BLUE = "blue"


class Size(enum.IntEnum):
    """An int-valued enum."""

    SMALL = 1
    LARGE = 2


@attrs.frozen
class Inner:
    """A nested value."""

    x: int
    tags: frozenset[str]


@attrs.frozen
class Positive:
    """A value whose constructor checks its field."""

    n: int = attrs.field(validator=attrs.validators.gt(0))


@attrs.frozen
class Outer:
    """Every kind of field the codec knows."""

    name: str
    flag: bool
    inner: Inner
    items: tuple[int, ...]
    pair: tuple[int, str]
    colour: Colour
    size: Size
    maybe: int | None
    ratio: Fraction
    weight: float
    nested: tuple[Inner, ...]
    phase: Phase
    pile: Multiset
    sealed: Commitments
    hidden: int = attrs.field(default=0, metadata={"json": False})
    derived: int = attrs.field(init=False, default=7)


@attrs.frozen
class WithList:
    """A field type the codec does not support."""

    values: list[int]


def sample() -> Outer:
    """A value with something in every field."""
    return Outer(
        name="duel",
        flag=True,
        inner=Inner(3, frozenset({"b", "a"})),
        items=(1, 2, 3),
        pair=(4, "four"),
        colour=Colour.BLUE,
        size=Size.LARGE,
        maybe=None,
        ratio=Fraction(2, 3),
        weight=0.5,
        nested=(Inner(1, frozenset()), Inner(2, frozenset({"z"}))),
        phase=Phase.together("bid", (1, 0)),
        pile=Multiset((2, 0, 1)),
        sealed=Commitments((-1, 4)),
        hidden=9,
    )


def sample_data() -> Any:
    """``encode(sample())`` through real JSON text."""
    return json.loads(json.dumps(encode(sample())))


def test_encode_gives_plain_json() -> None:
    assert sample_data() == {
        "name": "duel",
        "flag": True,
        "inner": {"x": 3, "tags": ["a", "b"]},
        "items": [1, 2, 3],
        "pair": [4, "four"],
        "colour": "blue",
        "size": 2,
        "maybe": None,
        "ratio": "2/3",
        "weight": 0.5,
        "nested": [{"x": 1, "tags": []}, {"x": 2, "tags": ["z"]}],
        "phase": {"name": "bid", "to_move": [0, 1], "simultaneous": True},
        "pile": {"counts": [2, 0, 1]},
        "sealed": {"ids": [-1, 4]},
    }


def test_round_trip_restores_an_equal_value() -> None:
    back = decode(Outer, sample_data(), "outer", {"hidden": 9})
    assert back == sample()
    assert type(back.items) is tuple and type(back.inner.tags) is frozenset
    assert back.colour is Colour.BLUE and back.size is Size.LARGE
    assert back.derived == 7


def test_fields_left_out_of_json() -> None:
    names = [name for name, _ in json_fields(Outer)]
    assert "hidden" not in names and "derived" not in names
    assert names[:3] == ["name", "flag", "inner"]
    assert decode(Outer, sample_data(), "outer").hidden == 0  # default without ``extra``


def test_optional_field_with_a_value() -> None:
    data = sample_data()
    data["maybe"] = 12
    assert decode(Outer, data, "outer").maybe == 12


def test_float_field_accepts_integers() -> None:
    data = sample_data()
    data["weight"] = 2
    value = decode(Outer, data, "outer").weight
    assert value == 2.0 and isinstance(value, float)


def corrupt(path: tuple[str | int, ...], value: Any) -> Any:
    """Sample data with the item at ``path`` replaced (or deleted if ``value`` is DELETE)."""
    data = sample_data()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("inner", "x"), "x", "outer.inner.x: expected an integer, got 'x'"),
        (("inner", "x"), True, "outer.inner.x: expected an integer, got True"),
        (("flag",), 1, "outer.flag: expected true or false, got 1"),
        (("name",), 5, "outer.name: expected a string, got 5"),
        (("weight",), "heavy", "outer.weight: expected a number, got 'heavy'"),
        (("items",), "123", "outer.items: expected a list, got '123'"),
        (("items", 2), 2.5, "outer.items[2]: expected an integer, got 2.5"),
        (("nested", 1, "x"), None, "outer.nested[1].x: expected an integer, got None"),
        (("inner", "tags", 1), 3, "outer.inner.tags[1]: expected a string, got 3"),
        (("inner", "tags"), {"a": 1}, "outer.inner.tags: expected a list, got {'a': 1}"),
        (("inner", "x"), DELETE, "outer.inner: missing field(s) 'x'"),
        (("phase", "name"), DELETE, "outer.phase: missing field(s) 'name'"),
        (("pair",), [4], "outer.pair: expected a list of 2 items, got 1 items"),
        (("pair",), [4, "a", 5], "outer.pair: expected a list of 2 items, got 3 items"),
        (("pair", 1), 4, "outer.pair[1]: expected a string, got 4"),
        (("colour",), "purple", "outer.colour: expected one of 'red', 'blue', got 'purple'"),
        (("colour",), ["red"], "outer.colour: expected one of 'red', 'blue', got ['red']"),
        (("size",), 3, "outer.size: expected one of 1, 2, got 3"),
        (("maybe",), "x", "outer.maybe: matches none of the allowed forms"),
        (("ratio",), "2/0", "outer.ratio: expected a fraction like '1/3', got '2/0'"),
        (("ratio",), "two thirds", "outer.ratio: expected a fraction like '1/3'"),
        (("inner",), [3], "outer.inner: expected an object, got [3]"),
        (("pile", "counts", 0), "2", "outer.pile.counts[0]: expected an integer, got '2'"),
        (("sealed", "ids"), None, "outer.sealed.ids: expected a list, got None"),
    ],
)
def test_errors_name_the_field(path: tuple[str | int, ...], value: Any, message: str) -> None:
    with pytest.raises(StateDecodeError) as info:
        decode(Outer, corrupt(path, value), "outer")
    assert str(info.value).startswith(message)


def test_unknown_fields_are_named_with_the_expected_ones() -> None:
    data = sample_data()
    data["inner"]["y"] = 1
    data["inner"]["a"] = 2
    with pytest.raises(StateDecodeError) as info:
        decode(Outer, data, "outer")
    assert str(info.value) == "outer.inner: unknown field(s) 'a', 'y'; expected ['tags', 'x']"


def test_json_false_field_in_the_data_is_unknown() -> None:
    data = sample_data()
    data["hidden"] = 1
    with pytest.raises(StateDecodeError, match="outer: unknown field\\(s\\) 'hidden'"):
        decode(Outer, data, "outer")


def test_constructor_errors_become_decode_errors() -> None:
    assert decode(Positive, {"n": 2}, "p") == Positive(2)
    with pytest.raises(StateDecodeError, match=r"^p: 'n' must be > 0: 0$"):
        decode(Positive, {"n": 0}, "p")


def test_long_values_are_shortened_in_messages() -> None:
    with pytest.raises(StateDecodeError) as info:
        decode(int, "x" * 200, "v")
    text = str(info.value)
    assert text.startswith("v: expected an integer, got 'xxx") and text.endswith("...")
    assert len(text) < 100


def test_none_hint() -> None:
    assert decode(type(None), None, "v") is None
    with pytest.raises(StateDecodeError, match="v: expected null, got 0"):
        decode(type(None), 0, "v")


def test_unsupported_annotations_are_programming_errors() -> None:
    with pytest.raises(TypeError, match=r"w.values: codec has no rule"):
        decode(WithList, {"values": [1]}, "w")


def test_encode_of_other_values() -> None:
    assert encode({1: (2, 3), "k": frozenset({3, 1, 2})}) == {"1": [2, 3], "k": [1, 2, 3]}
    assert encode([Colour.RED, None, 1.5]) == ["red", None, 1.5]
    with pytest.raises(TypeError, match="cannot encode object value"):
        encode(object())
    with pytest.raises(TypeError, match="cannot encode set value"):
        encode({1, 2})


def test_require() -> None:
    data = {"a": 3, "b": "x"}
    assert require(data, "a", "top", lambda v: isinstance(v, int), "an int") == 3
    with pytest.raises(StateDecodeError, match=r"^top.b: expected an int, got 'x'$"):
        require(data, "b", "top", lambda v: isinstance(v, int), "an int")
    with pytest.raises(StateDecodeError, match=r"^top: missing field 'c'$"):
        require(data, "c", "top", lambda v: True, "anything")
    with pytest.raises(StateDecodeError, match=r"^top: expected an object, got \[1\]$"):
        require([1], "a", "top", lambda v: True, "anything")

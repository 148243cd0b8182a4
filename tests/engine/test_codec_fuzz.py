"""Decoders refuse, never crash: any bytes, text, JSON, nesting or Python object given to
``Game.state_from_json`` (every game) or ``GameRecord.from_json`` gives a valid result or a
ClanGamesError, never another exception. Also the data-file reader's refusals."""

from __future__ import annotations

import decimal
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clangames
from clangames import ClanGamesError, GameRecord, InvalidParameterError, StateDecodeError
from clangames.engine.codec import MAX_DEPTH, decode, describe, encode, parse_json
from clangames.engine.data import load_data

from . import legacy_codec as legacy
from .codec_samples import GAMES, loaded, sample_states

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def state_or_refusal(game: clangames.Game, data: Any) -> None:
    """``game.state_from_json(data)`` is a state that round-trips, or a ClanGamesError."""
    try:
        state = game.state_from_json(data)
    except ClanGamesError as exc:
        assert str(exc)
        return
    again = game.state_from_json(json.dumps(state.to_json()))
    assert again == state and hash(again) == hash(state)


def record_or_refusal(data: Any) -> None:
    """``GameRecord.from_json(data)`` is a record that round-trips, or a ClanGamesError."""
    try:
        record = GameRecord.from_json(data)
    except ClanGamesError as exc:
        assert str(exc)
        return
    assert GameRecord.from_json(record.dumps()) == record


def every_decoder(data: Any) -> None:
    for name in GAMES:
        state_or_refusal(loaded(name, 3), data)
    record_or_refusal(data)


class Odd:
    """An object of a class of its own, with a long repr."""

    def __repr__(self) -> str:
        return "Odd(" + "x" * 200 + ")"


class BadRepr:
    """An object whose repr fails."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


odd_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**1990, max_value=2**2100),
    st.builds(lambda k: 10 ** (4400 + k), st.integers(0, 3)),  # beyond int-to-text limits
    st.floats(),  # NaN and infinities included
    st.text(max_size=10),
    st.binary(max_size=10),
    st.complex_numbers(),
    st.fractions(),
    st.decimals(),
    st.sampled_from([object(), Odd(), math.inf, decimal.Decimal("nan"), ...]),
    st.builds(BadRepr),
    st.frozensets(st.integers(), max_size=3),
)
odd_values = st.recursive(
    odd_leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.sets(st.integers(), max_size=3),
        st.dictionaries(
            st.one_of(st.text(max_size=5), st.integers(), st.none(), st.tuples(st.integers())),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=15,
)
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=10)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes(data: bytes) -> None:
    every_decoder(data)


@FUZZ
@given(st.text(max_size=300))
def test_any_text(text: str) -> None:
    every_decoder(text)


@FUZZ
@given(json_values)
def test_any_json_as_text_and_as_data(value: Any) -> None:
    every_decoder(json.dumps(value))  # NaN and Infinity written as such: refused as text
    every_decoder(value)


@FUZZ
@given(odd_values)
def test_any_python_object(value: Any) -> None:
    every_decoder(value)
    for name in GAMES:
        game = loaded(name, 3)
        state_or_refusal(game, {"game": name, "params": dict(game.params), "state": value})


@st.composite
def states_with_an_odd_field(draw: st.DrawFn) -> tuple[clangames.Game, dict[str, Any]]:
    """A real state's JSON with one field (or one item of a list field) set to anything."""
    state = draw(st.sampled_from(sample_states()))
    data = state.to_json()
    fields = data["state"]
    name = draw(st.sampled_from(sorted(fields)))
    value = draw(odd_values)
    if isinstance(fields[name], list) and fields[name] and draw(st.booleans()):
        i = draw(st.integers(0, len(fields[name]) - 1))
        fields[name] = [*fields[name][:i], value, *fields[name][i + 1 :]]
    else:
        fields[name] = value
    return state.game, data


@FUZZ
@given(states_with_an_odd_field())
def test_real_states_with_any_object_in_a_field(
    case: tuple[clangames.Game, dict[str, Any]],
) -> None:
    game, data = case
    state_or_refusal(game, data)
    record_or_refusal({"game": game.name, "params": data["params"], "moves": [data["state"]]})


def nested_list(depth: int) -> list[Any]:
    outer: list[Any] = []
    inner = outer
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return outer


def nested_dict(depth: int) -> dict[str, Any]:
    outer: dict[str, Any] = {}
    inner = outer
    for _ in range(depth):
        inner["a"] = {}
        inner = inner["a"]
    return outer


DEEP_CASES = [
    "[" * 100000 + "]" * 100000,
    '{"a":' * 100000 + "1" + "}" * 100000,
    b"[" * 100000 + b"]" * 100000,
    "[" * 100000,
    '["' + "[" * 200 + '"]',  # brackets inside a string are not nesting
    nested_list(5000),
    nested_dict(5000),
    {"game": nested_list(5000), "params": nested_dict(5000), "moves": nested_list(5000)},
]


@pytest.mark.parametrize("data", DEEP_CASES, ids=range(len(DEEP_CASES)))
def test_deep_nesting_is_refused_or_harmless(data: Any) -> None:
    every_decoder(data)


def test_deep_nesting_in_a_real_state() -> None:
    state = sample_states()[5]
    data = state.to_json()
    for deep in (nested_list(5000), nested_dict(5000)):
        for name in data["state"]:
            bad = {**data, "state": {**data["state"], name: deep}}
            with pytest.raises(StateDecodeError, match=rf"^state\.{name}"):
                state.game.state_from_json(bad)
        with pytest.raises(StateDecodeError, match=r"^state\.game: this is"):
            state.game.state_from_json({**data, "game": deep})
        with pytest.raises(StateDecodeError, match=r"^state\.params: the data has"):
            state.game.state_from_json({**data, "params": deep})


# -- the front door: parse_json --------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff{}", "state: not UTF-8 text (byte 0xff at position 0)"),
        (b'{"a": "\xc3"}', "state: not UTF-8 text (byte 0xc3 at position 7)"),
        ("[" * 101 + "]" * 101, f"state: not valid JSON (nested more than {MAX_DEPTH} deep at"),
        ('{"a": NaN}', "state: not valid JSON (NaN is not a JSON number)"),
        ("[-Infinity]", "state: not valid JSON (-Infinity is not a JSON number)"),
        ("[1e999]", "state: not valid JSON (1e999 is too large for a number)"),
        ("9" * 5000, "state: not valid JSON (Exceeds the limit"),
        ("{oops", "state: not valid JSON (Expecting property name"),
        ([nested_list(MAX_DEPTH)], f"state: nested more than {MAX_DEPTH} deep at state[0][0]"),
        ({"a": {1: 2}}, "state.a: expected string keys, got the key 1"),
        ({"a": [1, math.nan]}, "state.a[1]: expected a finite number, got nan"),
        ({"a": [2**2000]}, "state.a[0]: expected a number of at most 2000 bits"),
        ({"a": (1,)}, "state.a: expected JSON data (an object, list, string, number, true,"),
    ],
)
def test_parse_json_refusals_name_the_place(data: Any, message: str) -> None:
    with pytest.raises(StateDecodeError) as info:
        parse_json(data, "state")
    assert str(info.value).startswith(message), str(info.value)


def test_parse_json_accepts_json() -> None:
    text = json.dumps({"a": [1, 2.5, None, True, "x"], "b": {"c": []}})
    assert parse_json(text, "x") == json.loads(text)
    assert parse_json(text.encode(), "x") == json.loads(text)
    assert parse_json(b"\xef\xbb\xbf" + text.encode(), "x") == json.loads(text)  # a BOM
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x") == json.loads(
        "[" * MAX_DEPTH + "]" * MAX_DEPTH
    )
    data = {"a": [1, 2], "b": "[[[[" * 100}
    assert parse_json(data, "x") is data
    assert parse_json(json.dumps(data), "x") == data


def test_record_front_door_messages_are_unchanged() -> None:
    with pytest.raises(StateDecodeError, match=r"^record: not valid JSON"):
        GameRecord.from_json("{oops")
    with pytest.raises(StateDecodeError, match=r"^record: expected an object, got list$"):
        GameRecord.from_json("[1]")
    with pytest.raises(StateDecodeError, match=r"^record: expected an object, got float$"):
        GameRecord.from_json(math.nan)
    with pytest.raises(StateDecodeError, match=r"^record: not UTF-8 text"):
        GameRecord.from_json(b"\x80")


# -- bounded descriptions --------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_describe_is_the_old_shortened_repr(value: Any) -> None:
    assert describe(value) == legacy._describe(value)


def test_describe_is_bounded_for_anything() -> None:
    assert describe(nested_list(5000)) == "[" * 57 + "..."
    assert describe(nested_dict(5000)).startswith("{'a': {'a': ")
    assert describe(10**5000).startswith("<an integer of 16610 bits>")
    assert describe("x" * 10**6) == "'" + "x" * 56 + "..."
    assert describe(BadRepr()) == "<BadRepr object>"
    assert describe((1,)) == "(1,)" and describe(frozenset()) == "frozenset()"
    assert describe({1: Fraction(1, 2)}) == "{1: Fraction(1, 2)}"
    for value in (nested_list(5000), Odd(), 10**5000, {"k": nested_dict(3000)}):
        assert len(describe(value)) <= 60
        assert len(describe(value, 200)) <= 200


def test_generic_decoder_messages_are_bounded() -> None:
    with pytest.raises(StateDecodeError) as info:
        decode(int, nested_list(5000), "v")
    assert str(info.value) == "v: expected an integer, got " + "[" * 57 + "..."
    with pytest.raises(StateDecodeError, match=r"^v: expected an integer of at most 2000 bits"):
        decode(int, 2**2000, "v")
    with pytest.raises(StateDecodeError, match=r"^v: expected a finite number, got nan"):
        decode(float, math.nan, "v")
    assert encode(decode(tuple[int, ...], [2**1999, -(2**1999) + 1], "v")) == [
        2**1999,
        -(2**1999) + 1,
    ]


# -- component data files --------------------------------------------------------------------

DATA_PARAMS = {"kings_kilt": "components", "koa_kingmaker": "cards", "kilt_castle": "board"}


@pytest.mark.parametrize("name", GAMES)
def test_a_data_file_that_is_not_utf8_is_refused_naming_it(name: str, tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b'title = "ok"\n\xff\xfe\x00')
    with pytest.raises(InvalidParameterError) as info:
        clangames.load(name, **{DATA_PARAMS[name]: str(path)})
    assert str(info.value).startswith(
        f"{DATA_PARAMS[name]} file {str(path)!r} is not UTF-8 text (byte 0xff at position 13)"
    )


@pytest.mark.parametrize("name", GAMES)
def test_unreadable_data_files_are_refused_naming_them(name: str, tmp_path: Path) -> None:
    param = DATA_PARAMS[name]
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100000 + "]" * 100000)
    cases = {
        "/bin/ls": "is not UTF-8 text",
        str(tmp_path): "cannot be read",
        str(tmp_path / "missing.toml"): "cannot be read",
        "bad\x00name": "cannot be read",
        str(deep): "nests arrays or tables too deeply",
    }
    for path, message in cases.items():
        if not Path("/bin/ls").exists() and path == "/bin/ls":
            continue
        with pytest.raises(InvalidParameterError) as info:
            clangames.load(name, **{param: path})
        assert str(info.value).startswith(f"{param} file {path!r} {message}"), str(info.value)


def test_a_parser_crash_on_a_user_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("cards = []\n")

    def parse(data: dict[str, Any], source: str) -> int:
        return int(data["cards"][0])

    with pytest.raises(InvalidParameterError, match=r"^deck file '.*x\.toml' cannot be used: "):
        load_data("clangames.kings_kilt", "components.toml", str(path), parse, "deck")

"""Command-line parameters and seeds mean exactly what they say: each declared type's
spellings, a value taken verbatim where it is text, every refusal quoting what was typed and
saying what was expected, and the seed range's two ends."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

import pytest

import clangames
from clangames.cli.params import convert, describe_parameter, parse_params, seed_type
from cli_helpers import autosave_in_tmp_fixture, run_main  # noqa: F401 - autouse

FLAG = clangames.Parameter("fast", False, "go fast", bool)
PATH = clangames.Parameter("path", None, "a file", str)
NAME = clangames.Parameter("name", "x", "a label", str, choices=("x", "y z"))
COUNT = clangames.Parameter("players", 2, "players", int, minimum=2, maximum=4)
FLOOR = clangames.Parameter("depth", 3, "a depth", int, minimum=1)


def _spec() -> clangames.GameSpec:
    def factory(_: Mapping[str, Any]) -> clangames.Game:
        raise AssertionError("never loaded here")

    return clangames.GameSpec("toy", "Toy", "a toy", 2, 4, (COUNT, FLAG, PATH, NAME), factory)


SPEC = _spec()


@pytest.mark.parametrize(("text", "value"), [("1", True), ("0", False), (" No ", False)])
def test_every_boolean_spelling_converts(text: str, value: bool) -> None:
    assert convert(SPEC, FLAG, text) is value


def test_none_and_null_mean_none_only_where_none_is_the_default() -> None:
    assert convert(SPEC, PATH, "null") is None
    assert convert(SPEC, PATH, " NONE ") is None
    with pytest.raises(clangames.InvalidParameterError, match="'players' must be int, got 'none'"):
        convert(SPEC, COUNT, "none")


def test_a_text_parameter_is_taken_verbatim() -> None:
    assert convert(SPEC, PATH, " a b.toml ") == " a b.toml "


@pytest.mark.parametrize(
    ("param", "text", "message"),
    [
        (FLAG, "maybe", "toy: parameter 'fast' must be true or false, got 'maybe'"),
        (COUNT, "2.5", "toy: parameter 'players' must be int, got '2.5'"),
    ],
)
def test_a_refused_value_is_quoted_with_what_was_expected(
    param: clangames.Parameter, text: str, message: str
) -> None:
    with pytest.raises(clangames.InvalidParameterError) as caught:
        convert(SPEC, param, text)
    assert str(caught.value) == message


def test_spaces_around_a_key_are_ignored() -> None:
    assert parse_params(SPEC, [" players = 3", "fast =yes"])["players"] == 3
    assert parse_params(SPEC, [" players = 3", "fast =yes"])["fast"] is True


@pytest.mark.parametrize("item", ["=3", "  =3", "players"])
def test_a_word_without_a_key_or_an_equals_sign_is_refused_as_such(item: str) -> None:
    with pytest.raises(clangames.InvalidParameterError) as caught:
        parse_params(SPEC, [item])
    assert str(caught.value) == f"--param expects key=value, got {item!r}"


def test_a_parameter_line_names_its_choices_limits_and_quoted_default() -> None:
    assert describe_parameter(NAME) == "name=STR (default 'x'; one of 'x', 'y z'): a label"
    assert describe_parameter(FLOOR) == "depth=INT (default 3; >= 1): a depth"


@pytest.mark.parametrize("text", ["0", str((1 << 64) - 1)])
def test_both_ends_of_the_seed_range_are_accepted(text: str) -> None:
    assert seed_type(text) == int(text)


def test_a_seed_past_the_top_is_refused_quoting_it() -> None:
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        seed_type(str(1 << 64))
    assert str(caught.value) == f"a seed must be in 0..2**64-1, got {1 << 64}"


def test_the_largest_seed_plays_a_whole_demo() -> None:
    code, out, err = run_main(["demo", "kilt-castle", "--seed", str((1 << 64) - 1), "--quiet"])
    assert (code, err) == (0, "")
    assert out.splitlines()[0].endswith(f" players, seed {(1 << 64) - 1}")
    assert "Game over after " in out

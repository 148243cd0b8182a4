"""Mutated component files are refused at load or give games that play to the end (issue 10).

Each game's bundled TOML is parsed, mutated (a value changed to another plausible value or
out of range, a key dropped, added or retyped, an entry of a list of tables duplicated or
removed), written to a temporary file and loaded through ``clangames.load(game,
<param>=path, players=n)`` for every allowed player count. The file must either be refused
with an InvalidParameterError for every player count (a file is validated whole, at load)
or load for every player count and give games that play to the end by random legal moves
without any exception.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clangames
from clangames.engine.errors import InvalidParameterError
from clangames.engine.rng import Rng
from fuzz_helpers import SCALE, get, paths, random_playout

CASES = [
    ("kings_kilt", "components", "components.toml", 150),
    ("koa_kingmaker", "cards", "cards.toml", 100),
    ("kilt_castle", "board", "board.toml", 150),
]
"""(game, parameter, bundled file, Hypothesis examples)."""

Draw = Callable[[st.SearchStrategy[Any]], Any]


# -- a small TOML writer for the shapes the component files use ----------------------------------
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE.match(key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {value!r} as TOML")


def to_toml(data: dict[str, Any]) -> str:
    """TOML text for ``data``: top-level scalars first, then tables, then lists of tables."""
    lines = []
    tables = []
    for key, value in data.items():
        is_table_list = (
            isinstance(value, list) and value and all(isinstance(v, dict) for v in value)
        )
        if isinstance(value, dict) or is_table_list:
            tables.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in tables:
        for table in value if isinstance(value, list) else [value]:
            lines.append(f"[[{_key(key)}]]" if isinstance(value, list) else f"[{_key(key)}]")
            lines += [f"{_key(k)} = {_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


# -- mutations -----------------------------------------------------------------------------------
OTHER_VALUES: list[Any] = ["x", "", 1.5, True, [], {}, [1, 2], {"a": 1}, -1, 0, 2**40]


def mutate(data: dict[str, Any], draw: Draw) -> str:
    """One mutation of the parsed file, in place; says what it did."""
    op = draw(st.sampled_from(["int", "int", "int", "drop", "add", "retype", "entries", "str"]))
    every = [p for p in paths(data) if p]
    if op == "int":
        ints = [p for p in every if type(get(data, p)) is int]
        where = draw(st.sampled_from(ints))
        old = get(data, where)
        new = draw(
            st.one_of(
                st.integers(-1, 12),  # plausible
                st.sampled_from([old + 1, old - 1, 0, old * 3, 10**6, -(10**6)]),
            )
        )
        get(data, where[:-1])[where[-1]] = new
        return f"{where}: {old} -> {new}"
    if op == "str":
        strs = [p for p in every if isinstance(get(data, p), str)]
        where = draw(st.sampled_from(strs))
        others = [get(data, p) for p in strs]
        new = draw(st.sampled_from([*others, "", " x", "a/b", "RED", "Bruce", "north", "west"]))
        get(data, where[:-1])[where[-1]] = new
        return f"{where} -> {new!r}"
    if op == "drop":
        holders = [p for p in paths(data) if isinstance(get(data, p), (dict, list))]
        holders = [p for p in holders if get(data, p)]
        where = draw(st.sampled_from(holders))
        holder = get(data, where)
        key = draw(
            st.sampled_from(sorted(holder) if isinstance(holder, dict) else range(len(holder)))
        )
        del holder[key]
        return f"drop {(*where, key)}"
    if op == "add":
        holders = [p for p in paths(data) if isinstance(get(data, p), dict)]
        where = draw(st.sampled_from(holders))
        key = draw(st.sampled_from(["extra", "5", "1", "name", "rows", "court"]))
        get(data, where)[key] = copy.deepcopy(draw(st.sampled_from([*OTHER_VALUES, 3])))
        return f"add {(*where, key)}"
    if op == "retype":
        where = draw(st.sampled_from(every))
        value = copy.deepcopy(draw(st.sampled_from(OTHER_VALUES)))
        get(data, where[:-1])[where[-1]] = value
        return f"retype {where} to {value!r}"
    lists = [p for p in paths(data) if isinstance(get(data, p), list) and get(data, p)]
    if not lists:
        return "no list to change"
    where = draw(st.sampled_from(lists))
    items = get(data, where)
    i = draw(st.integers(0, len(items) - 1))
    if draw(st.booleans()):
        items.insert(i, copy.deepcopy(items[i]))
        return f"duplicate {(*where, i)}"
    del items[i]
    return f"remove {(*where, i)}"


@pytest.mark.parametrize(("name", "param", "filename", "examples"), CASES)
def test_mutated_component_files_are_refused_or_playable(
    tmp_path: Path, name: str, param: str, filename: str, examples: int
) -> None:
    package = f"clangames.{name}"
    bundled = tomllib.loads(resources.files(package).joinpath(filename).read_text("utf-8"))
    spec = clangames.game_spec(name)
    players = range(spec.min_players, spec.max_players + 1)
    outcomes = {"refused": 0, "played": 0}
    # The writer must reproduce the bundled file exactly, or the test would test nothing.
    assert tomllib.loads(to_toml(bundled)) == bundled

    @settings(
        max_examples=examples * SCALE,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(data=st.data(), seed=st.integers(0, 2**32))
    def check(data: st.DataObject, seed: int) -> None:
        mutated = copy.deepcopy(bundled)
        done = [mutate(mutated, data.draw) for _ in range(data.draw(st.integers(1, 2)))]
        path = tmp_path / "mutated.toml"
        path.write_text(to_toml(mutated), "utf-8")
        refused = []
        for n in players:
            try:
                game = clangames.load(name, players=n, **{param: str(path)})
            except InvalidParameterError as exc:
                assert str(path) in str(exc), exc  # the message names the file
                refused.append(n)
                continue
            end = random_playout(game, game.initial_state(), seed)
            assert end.is_terminal and len(end.scores()) == n, done
        assert refused in ([], list(players)), (done, refused)
        outcomes["refused" if refused else "played"] += 1

    check()
    assert outcomes["refused"] > 0 and outcomes["played"] > 0, outcomes


@pytest.mark.parametrize(
    ("name", "param", "filename", "old", "new", "message"),
    [
        # Both loaded before and failed mid-game (issue 10).
        (
            "kings_kilt",
            "components",
            "components.toml",
            "2 = 5",
            "2 = 0",
            r"setup\.influence\.2 must be in 1\.\.100, got 0",
        ),
        (
            "kings_kilt",
            "components",
            "components.toml",
            "4 = 4",
            "4 = 4\n5 = 4",
            r"setup\.influence must give a hand size for each player count",
        ),
        (
            "kings_kilt",
            "components",
            "components.toml",
            "base_width = 6",
            "base_width = 3",
            r"setup\.base_width must be in 4\.\.12, got 3",
        ),
        (
            "kings_kilt",
            "components",
            "components.toml",
            'name = "Stewart"',
            'name = "bruce "',
            r"clan\[7\]\.name must be a name without surrounding spaces",
        ),
        (
            "kings_kilt",
            "components",
            "components.toml",
            'name = "Stewart"',
            'name = "BRUCE"',
            r"clan\[7\]\.name 'BRUCE' repeats clan\[3\]'s name",
        ),
        (
            "koa_kingmaker",
            "cards",
            "cards.toml",
            "court = 2",
            "court = 2\nbonus = 1",
            r"unknown key\(s\) bonus in \[jester\]",
        ),
        (
            "kilt_castle",
            "board",
            "board.toml",
            '["west", 1], ["west", 0]',
            '["west", 1], ["west", 1]',
            r"positions\.order\[19\] repeats the position \['west', 1\]",
        ),
        (
            "kilt_castle",
            "board",
            "board.toml",
            "card_rows = { 2 = 5, 3 = 4, 4 = 5 }",
            "card_rows = { 2 = 5, 3 = 2, 4 = 5 }",
            r"with 3 players the start lay-out has 3 card rows, more than the 2 allowed",
        ),
        (
            "kilt_castle",
            "board",
            "board.toml",
            'colours = ["red", "light grey"]',
            'colours = ["orange", "red"]',
            r"two cards show the same colours",
        ),
    ],
)
def test_component_files_that_would_stall_are_refused_for_every_player_count(
    tmp_path: Path, name: str, param: str, filename: str, old: str, new: str, message: str
) -> None:
    text = resources.files(f"clangames.{name}").joinpath(filename).read_text("utf-8")
    assert old in text
    path = tmp_path / filename
    path.write_text(text.replace(old, new, 1), "utf-8")
    spec = clangames.game_spec(name)
    for n in range(spec.min_players, spec.max_players + 1):
        with pytest.raises(InvalidParameterError, match=message):
            clangames.load(name, players=n, **{param: str(path)})


def test_a_family_mostly_from_the_members_deals_and_plays(tmp_path: Path) -> None:
    # family_from_deck = 1 leaves two cards of each family to the third-card deal, which
    # used to read the family of seat `dealt` instead of `dealt % players` (IndexError).
    text = resources.files("clangames.kings_kilt").joinpath("components.toml").read_text("utf-8")
    path = tmp_path / "one-from-deck.toml"
    path.write_text(text.replace("family_from_deck = 2", "family_from_deck = 1"), "utf-8")
    for n in (2, 3, 4):
        game = clangames.load("kings_kilt", players=n, components=str(path))
        dealt, _ = clangames.play_chance(game.initial_state(), Rng(n))
        assert isinstance(dealt, clangames.kings_kilt.KingsKiltState)
        assert [f.bit_count() for f in dealt.families] == [3] * n
        assert [d.bit_count() for d in dealt.from_deck] == [1] * n
        assert random_playout(game, game.initial_state(), n).is_terminal

"""Mutated copies of the bundled data files: each parser either accepts the file or refuses
it with a clear InvalidParameterError; no other exception ever escapes."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clangames import InvalidParameterError
from clangames.clan_feud import parse_actions, parse_board, parse_england, parse_events

from .cf_helpers import bundled_text

PARSERS: dict[str, Callable[[dict[str, Any], str], object]] = {
    "board.toml": parse_board,
    "events.toml": parse_events,
    "actions.toml": parse_actions,
    "england.toml": parse_england,
}
BUNDLED = {name: tomllib.loads(bundled_text(name)) for name in PARSERS}

# Values a mutation may put anywhere: wrong types, near-miss names, other entries' values.
SCALARS = st.one_of(
    st.integers(-20, 60),
    st.booleans(),
    st.floats(allow_nan=True),
    st.sampled_from(
        [
            "", "ayr", "orkney", "shetland", "edinburgh_castle", "I", "XI", "city", "castle",
            "plain", "reconstructed", "rulebook", "P2.assign(column=build)", "P3.upkeep",
            "gain_vp(1)", "pay_money(3) OR england_track(+1)", "cs+1", "cancel", "skulls-9",
            "if most(castles) then gain_vp(4)", "gain_vp(-1*feud)", "EV01", "AC01", "V",
        ]
    ),
    st.text(max_size=12),
)  # fmt: skip
VALUES = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=4),
    st.dictionaries(st.sampled_from(["a", "b", "id", "provenance", "x"]), SCALARS, max_size=3),
)


def _containers(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every table and list in the data, the root first."""
    out = [path]
    children = node.items() if isinstance(node, dict) else enumerate(node)
    for key, child in children:
        if isinstance(child, dict | list):
            out.extend(_containers(child, (*path, key)))
    return out


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(sorted(PARSERS)))
    data = copy.deepcopy(BUNDLED[name])
    for _ in range(draw(st.integers(1, 3))):
        target = _at(data, draw(st.sampled_from(_containers(data))))
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        action = draw(st.sampled_from(["replace", "delete", "copy", "add", "edit"]))
        if not keys or action == "add":
            if isinstance(target, dict):
                target[draw(st.sampled_from(["id", "extra", "provenance", "2", "kind"]))] = draw(
                    VALUES
                )
            else:
                target.append(draw(VALUES))
            continue
        key = draw(st.sampled_from(keys))
        if action == "replace":
            target[key] = draw(VALUES)
        elif action == "delete":
            del target[key]
        elif action == "copy":
            other = draw(st.sampled_from(keys))
            target[key] = copy.deepcopy(target[other])
        elif isinstance(target[key], str) and target[key]:
            text = target[key]
            cut = draw(st.integers(0, len(text)))
            insert = draw(st.sampled_from(["", "(", ")", "[", ";", " OR ", "x", ",", "1", "+"]))
            target[key] = text[:cut] + insert + text[cut + draw(st.integers(0, 2)) :]
        else:
            target[key] = draw(VALUES)
    return name, data


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated())
def test_mutated_files_are_valid_or_refused_clearly(case: tuple[str, dict[str, Any]]) -> None:
    name, data = case
    try:
        PARSERS[name](data, "mutant.toml")
    except InvalidParameterError as error:
        assert "mutant.toml" in str(error)  # names the file


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_unmutated_files_parse(name: str) -> None:
    PARSERS[name](copy.deepcopy(BUNDLED[name]), "copy.toml")

"""The generated decoders accept exactly what the generic decoder accepts, value by value
at the edges of each check (pinned by the kernel's mutation audit: a generated check that
let a boolean stand for 0, or an integer of 2000 bits through, passed the random
corruptions of the earlier tests).

Every leaf of one real state per game, and every field of a value of every kind, is
replaced in turn by each edge value below; ``decode`` (generated first) and the one-call
decoder ``Game.state_from_json`` keeps must give the same state or the same error as the
generic walk alone (which words every error).
"""

from __future__ import annotations

import copy
from typing import Any

import attrs
import pytest

from clangames import State, StateDecodeError
from clangames.engine.codec import MAX_INT_BITS, _decode_checked, decode, decoder, encode

from .codec_samples import GAMES, playout_states
from .test_codec_generated import Counts, everything, nodes

BOUND = 1 << MAX_INT_BITS
EDGES: tuple[Any, ...] = (
    0,
    1,
    -1,
    True,
    False,
    BOUND,
    -BOUND,
    BOUND - 1,
    -BOUND + 1,
    0.0,
    1.0,
    "",
    "0",
    None,
    [],
    [True],
    [BOUND],
    [0, BOUND],
    {},
    # The generated decoders bound ints by summing them as floats (which raises from
    # 2 ** 1024): an int between that and the bound takes the generic walk, with the same
    # result; two just below it overflow the float sum to inf without raising.
    1 << 1024,
    -(1 << 1024),
    (1 << 1024) - 1,
    [1 << 1024],
    [1 << 1023, 1 << 1023, -(1 << 1023)],
)


def outcome(read: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "ok", read(*args)
    except StateDecodeError as exc:
        return "error", str(exc)


def leaf_paths(data: Any) -> list[tuple[Any, ...]]:
    """Every node's path, a long list's items only at its ends (they share one check)."""
    keep = []
    for path in nodes(data)[1:]:
        if any(isinstance(k, int) and 0 < k < 40 for k in path[-1:]):
            continue
        keep.append(path)
    return keep


def replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    copied = copy.deepcopy(data)
    parent = copied
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = copy.deepcopy(value)
    return copied


def mid_game(name: str) -> State:
    states = playout_states(name, 3, 1)
    return states[len(states) // 2]


@pytest.mark.parametrize("name", GAMES)
def test_edge_values_in_every_field_of_a_state_decode_as_the_generic_walk_does(
    name: str,
) -> None:
    state = mid_game(name)
    cls, game = state.game.state_type, state.game
    data = encode(state)
    read_one = decoder(cls, "state", ("game",))
    for path in leaf_paths(data):
        for value in EDGES:
            bad = replaced(data, path, value)
            generic = outcome(_decode_checked, cls, bad, "state", {"game": game})
            new = outcome(decode, cls, bad, "state", {"game": game})
            one = outcome(read_one, bad, game)
            assert new == generic, (path, value)
            assert one == generic, (path, value)


@pytest.mark.parametrize("cls, value", [(type(everything()), everything()), (Counts, None)])
def test_edge_values_in_every_kind_of_field_decode_as_the_generic_walk_does(
    cls: type, value: Any
) -> None:
    if value is None:
        value = Counts((1, 2), "x", (), (-3, 4))
    data = encode(value)
    for path in leaf_paths(data):
        for edge in EDGES:
            bad = replaced(data, path, edge)
            generic = outcome(_decode_checked, cls, bad, "v")
            new = outcome(decode, cls, bad, "v")
            assert new == generic, (path, edge)
            assert outcome(decoder(cls, "v"), bad) == generic, (path, edge)


def test_a_boolean_field_refuses_zero_and_an_int_field_refuses_the_bound() -> None:
    state = mid_game("kilt_castle")
    data = encode(state)
    flags = [k for k, v in data.items() if isinstance(v, bool)]
    numbers = [k for k, v in data.items() if type(v) is int]
    assert flags and len(numbers) > 1  # the joint checks are the ones written
    for key in flags:
        with pytest.raises(StateDecodeError, match=rf"^state\.{key}: expected true or false"):
            decode(type(state), {**data, key: 0}, "state", {"game": state.game})
    for key in numbers:
        with pytest.raises(StateDecodeError, match=rf"^state\.{key}: expected an integer of"):
            decode(type(state), {**data, key: BOUND}, "state", {"game": state.game})


@attrs.frozen(slots=False, cache_hash=True)
class Unslotted:
    """A dict-based class that caches its hash (the cache lives in its ``__dict__``)."""

    n: int
    tags: tuple[str, ...]


@attrs.frozen
class Private:
    """A field whose constructor argument is not its name (``_n`` is passed as ``n``)."""

    _n: int
    label: str


@pytest.mark.parametrize(
    "value", [Unslotted(3, ("a",)), Private(4, "x")], ids=["unslotted", "private"]
)
def test_classes_built_through_their_constructor_decode_as_the_generic_walk_does(
    value: Any,
) -> None:
    cls = type(value)
    data = encode(value)
    generic = outcome(_decode_checked, cls, data, "v")
    assert outcome(decode, cls, data, "v") == generic
    assert outcome(decoder(cls, "v"), data) == generic
    if generic[0] == "ok":
        assert generic[1] == value and hash(generic[1]) == hash(value)
        decoded = decode(cls, data, "v")
        assert hash(decoded) == hash(value) and decoded == value


def test_a_private_field_is_passed_to_the_constructor_by_its_alias() -> None:
    """attrs takes a private field ``_n`` as ``n``; the JSON keeps the field's name."""
    value = Private(4, "x")
    data = encode(value)
    assert data == {"_n": 4, "label": "x"}
    assert decode(Private, data, "v") == value
    assert decoder(Private, "v")(data) == value
    assert _decode_checked(Private, data, "v") == value

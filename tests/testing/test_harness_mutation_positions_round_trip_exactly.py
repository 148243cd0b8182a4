"""The harness's position check (``testing/positions.py``) names each way a notation can
fail to round-trip (the harness's mutation audit): a text it cannot read back (with the
reader's reason), a field that reads back as another value (by name), and a notation that
writes the read-back state as other text."""

from __future__ import annotations

import itertools

from clangames.engine.position import Flag, Int, Node, Notation
from clangames.engine.state import State
from clangames.testing.positions import position_failure
from testing import toys


def staked() -> State:
    """A toy state with stake 2 (what a flag cannot hold)."""
    state: State = toys.toy().initial_state()
    for text in ("draw mid", "draw low", "stake 2"):
        state = state.apply_text(text)
    return state


class _Lossy(Flag):
    """Writes the stake as a flag: 2 reads back as 1."""

    def read(self, node: Node, path: str) -> object:
        return 1 if super().read(node, path) else 0


class _Unreadable(Int):
    """Writes the stake as s<n>, which Int does not read."""

    def show(self, value: object) -> Node:
        return f"s{value}"


class _Restless(Int):
    """Writes every other number with a leading zero (both read back the same)."""

    def __init__(self) -> None:
        self.calls = itertools.count()

    def show(self, value: object) -> Node:
        return f"0{value}" if next(self.calls) % 2 else str(value)


class Noted(toys.ToyGame):
    """A toy whose notation writes the stake with the format ``FORMAT``."""

    FORMAT: Int | Flag = Int()

    def make_notation(self) -> Notation:
        return Notation(self, {"stake": self.FORMAT})


def noted(fmt: Int | Flag) -> State:
    game = type("NotedToy", (Noted,), {"FORMAT": fmt})(toys.SPEC, toys.SPEC.resolve({}))
    state = staked()
    return game.state_from_json(state.to_json())


def test_a_field_that_reads_back_as_another_value_is_named() -> None:
    failure = position_failure(noted(_Lossy()))
    assert failure is not None
    check, message = failure
    assert check == "position-roundtrip"
    assert "differs in ['stake']" in message


def test_a_text_the_notation_cannot_read_is_named_with_the_reason() -> None:
    failure = position_failure(noted(_Unreadable()))
    assert failure is not None
    check, message = failure
    assert check == "position-roundtrip"
    assert "state_from_position rejected" in message
    assert "stake=s2" in message and "expected a whole number" in message


def test_a_notation_that_writes_an_equal_state_otherwise_is_named() -> None:
    failure = position_failure(noted(_Restless()))
    assert failure is not None
    assert failure == (
        "position-roundtrip",
        f"the position of the read-back state differs: {noted(Int()).to_position()!r}",
    )


def test_a_faithful_notation_passes() -> None:
    assert position_failure(noted(Int())) is None
    assert position_failure(staked()) is None

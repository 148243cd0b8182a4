"""Position text is refused with a PositionError that names the token and what was
expected, at the exact limits the notation declares (pinned by the kernel's mutation
audit: these refusals passed the earlier tests when dropped or moved by one).

- lists nest at most 20 deep, for the scanner and for the fast reader alike;
- a whole number is written without a sign other than ``-``;
- a name that holds ``*`` cannot be a notation word (``Name*count`` would misread it);
- a field the game's checks refuse is named with its position text;
- an action's text that does not parse is a PositionError, not the game's own error;
- the scenario builder's phase must be text;
- a seat in a phase is at most three digits (no text of any length reaches ``int``);
- an optional value is None only as ``~`` (``-`` stays the inner format's "nothing").
"""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames.engine.position import (
    ActionId,
    Int,
    Name,
    Optional,
    PositionError,
    notation_of,
    parse_node,
    read_phase,
)
from testing import toys


def nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


def message_of(read: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(PositionError) as info:
        read(*args, **kwargs)
    return str(info.value)


def test_lists_nest_at_most_twenty_deep_when_scanned() -> None:
    node: Any = parse_node(nested(20))
    for _ in range(20):
        assert isinstance(node, list) and len(node) == 1
        node = node[0]
    assert node == "1"
    assert message_of(parse_node, nested(21)).endswith("expected at most 20 nested lists")


def test_a_field_nests_at_most_twenty_deep_in_the_fast_reader_too() -> None:
    notation = notation_of(toys.toy())
    good = toys.toy().initial_state().to_position()
    parts = notation.parse(good.replace("stake=0", f"stake={nested(20)}"))
    assert parts["stake"] == parse_node(nested(20))
    bad = good.replace("stake=0", f"stake={nested(21)}")
    assert message_of(notation.parse, bad).endswith("expected at most 20 nested lists")


@pytest.mark.parametrize("text", ["+5", "5+", "+-5", "- 5", "0x5", "1_000"])
def test_a_whole_number_is_digits_with_an_optional_minus(text: str) -> None:
    assert message_of(Int().read, text, "f") == f"f: token {text!r}: expected a whole number"
    assert Int().read("-5", "f") == -5 and Int().read("0", "f") == 0


def test_a_name_with_a_star_cannot_be_a_notation_word() -> None:
    with pytest.raises(TypeError, match=r"^card name 'Ace\*2' cannot be a notation word$"):
        Name(("King", "Ace*2"), "card")


def test_a_field_the_game_refuses_is_named_with_its_position_text() -> None:
    game = clangames.load("kings_kilt", players=2)
    text = game.position(phase="turn@0").to_position()
    assert " dealt=0" in text
    message = message_of(game.state_from_position, text.replace(" dealt=0", " dealt=7"))
    assert message.startswith("position: state.dealt: ")
    assert message.endswith(" (position field dealt=7)")


def test_an_action_that_does_not_parse_is_a_position_error() -> None:
    game = clangames.load("clan_feud", players=2)
    fmt = ActionId(game)
    assert fmt.read("-", "f") == -1
    message = message_of(fmt.read, "fly to the moon", "f")
    assert message.startswith("f: token 'fly to the moon': expected an action: ")


@pytest.mark.parametrize("phase", [3, None, ["turn@0"]])
def test_the_builders_phase_must_be_text(phase: object) -> None:
    game = clangames.load("kings_kilt", players=2)
    assert message_of(game.position, phase=phase) == (
        f"phase: expected text name@who, got {phase!r}"
    )


def test_only_a_tilde_is_none_in_an_optional_value() -> None:
    seat = Optional(Name(("North", "South"), "seat"))
    for value in (None, -1, 1):
        node = seat.show(value)
        assert seat.read(node, "f") == value
    assert seat.show(-1) == "-" and seat.show(None) == "~"
    number = Optional(Int())
    assert number.read("~", "f") is None
    assert message_of(number.read, "-", "f") == "f: token '-': expected a whole number"


@pytest.mark.parametrize("who", ["0000", "9" * 5000, "1+0001", "together:0+0010"])
def test_a_phase_seat_is_at_most_three_digits(who: str) -> None:
    message = message_of(read_phase, f"turn@{who}", 3)
    assert message.startswith("phase: token ") and message.endswith("(seats 0..2)")
    assert read_phase("turn@002", 3) == {"name": "turn", "to_move": [2], "simultaneous": False}

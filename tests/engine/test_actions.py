"""ActionTable: ids, text forms, parsing, masks, interning and duplicate detection."""

from __future__ import annotations

import attrs
import pytest

from clangames import InvalidActionError
from clangames.engine import ActionTable
from clangames.engine.actions import normalize_text


@attrs.frozen(slots=True, cache_hash=True)
class Move:
    """A test action."""

    to: int


@attrs.frozen(slots=True, cache_hash=True)
class Pass:
    """Another test action."""


def text(action: Move | Pass) -> str:
    """Text forms with capitals and double spaces, to test normalisation."""
    return "Pass" if isinstance(action, Pass) else f"Move  To {action.to}"


def table() -> ActionTable[Move | Pass]:
    """Three moves and a pass."""
    return ActionTable([Move(0), Move(1), Move(2), Pass()], text)


def test_ids_follow_the_listing_order() -> None:
    t = table()
    assert len(t) == 4
    assert [t.id(a) for a in (Move(0), Move(1), Move(2), Pass())] == [0, 1, 2, 3]
    assert [t.get(i) for i in range(4)] == [Move(0), Move(1), Move(2), Pass()]
    assert t.actions == (Move(0), Move(1), Move(2), Pass())


def test_texts_are_kept_as_given() -> None:
    t = table()
    assert t.text(Move(2)) == "Move  To 2"
    assert t.text(Pass()) == "Pass"


@pytest.mark.parametrize("typed", ["move to 1", "MOVE TO 1", "  move   to\t1 ", "Move  To 1"])
def test_parse_ignores_case_and_spacing(typed: str) -> None:
    assert table().parse(typed) == Move(1)


def test_normalize_text() -> None:
    assert normalize_text("  Draw\tHIGH  card ") == "draw high card"


def test_parse_errors() -> None:
    t = table()
    with pytest.raises(InvalidActionError, match=r"^'move to 9' is not an action of this game"):
        t.parse("move to 9")
    with pytest.raises(InvalidActionError, match=r"e.g. 'Move  To 0'"):
        t.parse("")
    with pytest.raises(InvalidActionError, match="action text must be a string, got 3"):
        t.parse(3)  # type: ignore[arg-type]


def test_id_errors() -> None:
    t = table()
    with pytest.raises(InvalidActionError, match=r"^Move\(to=7\) is not an action of this game$"):
        t.id(Move(7))
    with pytest.raises(InvalidActionError, match="is not an action"):
        t.id(["unhashable"])  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError, match="is not an action"):
        t.text("Pass")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (4, "action id 4 is out of range; expected 0..3"),
        (-1, "action id -1 is out of range; expected 0..3"),
        (True, "action id must be an int, got True"),
        ("1", "action id must be an int, got '1'"),
    ],
)
def test_get_errors(bad: object, message: str) -> None:
    with pytest.raises(InvalidActionError, match=f"^{message}$"):
        table().get(bad)  # type: ignore[arg-type]


def test_intern_returns_the_shared_instance() -> None:
    t = table()
    listed = t.get(1)
    fresh = Move(1)
    assert fresh is not listed
    assert t.intern(fresh) is listed
    with pytest.raises(InvalidActionError):
        t.intern(Move(5))


def test_mask() -> None:
    t = table()
    assert t.mask([Move(2), Pass()]) == (False, False, True, True)
    assert t.mask([]) == (False,) * 4


def test_duplicate_actions_are_refused() -> None:
    with pytest.raises(ValueError, match=r"action Move\(to=1\) listed twice"):
        ActionTable([Move(1), Move(2), Move(1)], text)


def test_duplicate_texts_are_refused() -> None:
    with pytest.raises(ValueError, match="text 'MOVE' names two actions"):
        ActionTable([Move(1), Move(2)], lambda a: "move" if a.to == 1 else "MOVE")
    with pytest.raises(ValueError, match="names two actions"):
        ActionTable([Move(1), Move(2)], lambda a: "a  b" if a.to == 1 else " a b")

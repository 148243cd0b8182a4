"""Every corrupt value the generic decoder meets is refused with a StateDecodeError that
names the field, never another exception, and the message keeps what a reader needs
(pinned by the kernel's mutation audit: these refusals had no test of their own).

- a class whose validator or hook raises anything (not only TypeError or ValueError);
- a fraction given as overlong text, as a float NaN or infinity;
- more than ten unknown fields: ten named, then how many more.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import attrs
import pytest

from clangames import StateDecodeError
from clangames.engine.codec import decode, encode


def _odd_check(instance: Any, attribute: Any, value: int) -> None:
    if value == 13:
        raise KeyError("unlucky")
    if value == 14:
        raise ArithmeticError("too even")


@attrs.frozen
class Checked:
    """A value whose validator refuses in its own way."""

    n: int = attrs.field(validator=_odd_check)


@attrs.frozen
class Hooked:
    """A value whose post-init hook refuses with a lookup error."""

    n: int

    def __attrs_post_init__(self) -> None:
        if self.n < 0:
            raise LookupError(f"no seat {self.n}")


@attrs.frozen
class Holder:
    """Nests both, so the path names the inner field."""

    checked: Checked
    hooked: Hooked
    ratio: Fraction


def holder_data(**changes: Any) -> Any:
    data = encode(Holder(Checked(1), Hooked(2), Fraction(1, 3)))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (holder_data(checked={"n": 13}), "h.checked: KeyError: 'unlucky'"),
        (holder_data(checked={"n": 14}), "h.checked: ArithmeticError: too even"),
        (holder_data(hooked={"n": -2}), "h.hooked: LookupError: no seat -2"),
    ],
)
def test_a_constructor_raising_anything_is_a_decode_error_naming_the_path(
    data: Any, message: str
) -> None:
    with pytest.raises(StateDecodeError) as info:
        decode(Holder, data, "h")
    assert str(info.value) == message
    assert decode(Holder, holder_data(), "h") == Holder(Checked(1), Hooked(2), Fraction(1, 3))


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_fraction_refuses_non_finite_floats(value: float) -> None:
    with pytest.raises(StateDecodeError) as info:
        decode(Holder, holder_data(ratio=value), "h")
    assert str(info.value) == f"h.ratio: expected a fraction like '1/3', got {value!r}"


def test_a_fraction_given_as_text_is_at_most_a_thousand_characters() -> None:
    assert decode(Fraction, "1" * 1000, "r") == Fraction(int("1" * 1000))
    assert decode(Fraction, "0.25", "r") == Fraction(1, 4)
    assert decode(Fraction, 0.5, "r") == Fraction(1, 2)
    with pytest.raises(StateDecodeError, match=r"^r: expected a fraction like '1/3', got '111"):
        decode(Fraction, "1" * 1001, "r")
    with pytest.raises(StateDecodeError, match=r"^r: expected a fraction like '1/3', got '1e9'"):
        decode(Fraction, "1e9", "r")


def test_many_unknown_fields_name_ten_and_count_the_rest() -> None:
    data = {**holder_data(), **{f"x{i:02}": i for i in range(13)}}
    with pytest.raises(StateDecodeError) as info:
        decode(Holder, data, "h")
    named = ", ".join(repr(f"x{i:02}") for i in range(10))
    assert str(info.value) == (
        f"h: unknown field(s) {named} and 3 more; expected ['checked', 'hooked', 'ratio']"
    )

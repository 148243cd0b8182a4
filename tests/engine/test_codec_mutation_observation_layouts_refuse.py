"""Observation layouts refuse what does not fit, both ways, with an ObservationEncodingError
that names the place (pinned by the kernel's mutation audit: most of these refusals had no
test, so a decoder that read a fraction, a non-bit or a length out of range as some value,
or an encoder that wrote a value beyond its declared size, passed).

Encoding: a value outside what its layout declares is refused, never silently cut or
widened. Decoding (``ObservationSpec.decode``, which the harness uses to prove that a
tensor holds exactly the observation): a tensor that no observation encodes to is
refused, never read as some other observation.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from clangames.engine.encoding import (
    Bits,
    Chars,
    Fields,
    Flag,
    Int,
    Maybe,
    ObservationEncodingError,
    ObservationSpec,
    OneOf,
    Tuple,
    Upto,
)


@attrs.frozen
class View:
    n: int
    seen: int
    kind: str
    pair: tuple[int, ...]
    queue: tuple[int, ...]
    steps: tuple[tuple[int, int], ...]
    word: str
    maybe: tuple[int, ...] | None
    flag: bool


SPEC = ObservationSpec(
    Fields(
        View,
        {
            "n": Int(2, 2),
            "seen": Bits(10),
            "kind": OneOf(("a", "b")),
            "pair": Tuple(2, Int(0, 9)),
            "queue": Upto(2, Int(0, 9)),
            "steps": Upto(2, Tuple(2, Int(0, 3))),
            "word": Chars(3, "xy"),
            "maybe": Maybe(Tuple(2, Int(0, 3))),
            "flag": Flag(),
        },
    ),
    public=("n",),
)
VIEW = View(2, 0b1000000101, "b", (3, 4), (5,), ((1, 2),), "yx", (1, 0), True)


def refused(read: Any, message: str) -> None:
    with pytest.raises(ObservationEncodingError) as info:
        read()
    assert str(info.value) == message


def start(name: str) -> int:
    return next(p.start for p in SPEC.parts if p.name == name)


def with_floats(at: int, *floats: float) -> list[float]:
    tensor = SPEC.encode(VIEW)
    tensor[at : at + len(floats)] = floats
    return tensor


def test_the_sample_round_trips() -> None:
    tensor = SPEC.encode(VIEW)
    assert SPEC.decode(tensor) == VIEW and SPEC.out_of_bounds(tensor) == []


def test_an_int_layout_may_hold_a_single_value_but_never_an_empty_range() -> None:
    assert Int(2, 2).bounds() == [(2, 2)]
    with pytest.raises(ValueError, match=r"^Int: low 3 is above high 2$"):
        Int(3, 2)


@pytest.mark.parametrize("mask", [1 << 10, (1 << 11) - 1, -1])
def test_a_bitmask_wider_than_declared_is_refused(mask: int) -> None:
    refused(
        lambda: SPEC.encode(attrs.evolve(VIEW, seen=mask)),
        f"bitmask {mask} does not fit the declared 10 bits",
    )
    refused(lambda: Bits(3).write(mask, []), f"bitmask {mask} does not fit the declared 3 bits")


def test_a_word_longer_than_declared_is_refused() -> None:
    refused(
        lambda: SPEC.encode(attrs.evolve(VIEW, word="xyxy")), "'xyxy' is longer than the declared 3"
    )


def test_every_layout_refuses_a_tuple_of_the_wrong_length() -> None:
    refused(lambda: Tuple(2, Int(0, 9)).write((1, 2, 3), []), "expected 2 items, got 3")
    refused(lambda: Tuple(2, Flag()).write((True,), []), "expected 2 items, got 1")
    refused(lambda: SPEC.encode(attrs.evolve(VIEW, steps=((1, 2, 3),))), "expected 2 items, got 3")
    refused(
        lambda: Upto(2, Int(0, 9)).write((1, 2, 3), []),
        "3 items do not fit the declared maximum of 2: (1, 2, 3)",
    )
    assert Upto(2, Int(0, 9)).size == 3
    out: list[float] = []
    Upto(2, Int(0, 9)).write((1, 2), out)
    assert out == [2, 1, 2]


def test_a_spec_refuses_a_layout_that_writes_a_different_size() -> None:
    class Short(Int):
        """An item layout that writes one float fewer than it declares."""

        def __init__(self) -> None:
            super().__init__(0, 9)
            self.size = 2

    @attrs.frozen
    class One:
        v: int

    spec = ObservationSpec(Fields(One, {"v": Short()}), public=())
    refused(lambda: spec.encode(One(1)), "One encoded to 1 floats, declared 2")
    refused(lambda: Short().rewrite(0, 1, 0, []), "int encoded to 1 floats, declared 2")
    queue = Upto(2, Short())
    refused(lambda: queue.changes((), (5,), 0, []), "items (5,) encoded to 1 floats, declared 2")


@pytest.mark.parametrize(
    ("at", "floats", "message"),
    [
        (start("n"), (2.5,), f"tensor[{start('n')}] = 2.5 is not a whole number"),
        (start("flag"), (0.5,), f"tensor[{start('flag')}] = 0.5 is not a whole number"),
        (start("seen") + 1, (2.0,), f"tensor[{start('seen') + 1}] = 2 is not a bit"),
        (
            start("seen") + 9,
            (0.5,),
            f"tensor[{start('seen')}:{start('seen') + 10}] holds a fraction",
        ),
        (start("kind"), (1.0, 0.5), f"tensor[{start('kind')}:{start('kind') + 2}] is not one-hot"),
        (start("kind"), (1.0, 1.0), f"tensor[{start('kind')}:{start('kind') + 2}] is not one-hot"),
        (
            start("pair"),
            (1.0, 0.25),
            f"tensor[{start('pair')}:{start('pair') + 2}] holds a fraction",
        ),
        (start("queue"), (3.0,), f"tensor[{start('queue')}] = 3 is not a length 0..2"),
        (start("queue"), (-1.0,), f"tensor[{start('queue')}] = -1 is not a length 0..2"),
        (start("steps"), (3.0,), f"tensor[{start('steps')}] = 3 is not a length 0..2"),
        (start("word"), (4.0,), f"tensor[{start('word')}] = 4 is not a length 0..3"),
        (start("word") + 1, (2.0,), f"tensor[{start('word') + 1}] = 2 is no character"),
        (start("word") + 1, (-1.0,), f"tensor[{start('word') + 1}] = -1 is no character"),
        # A flag and a value's presence are bits too (they read 2 as False, and as present).
        (start("flag"), (2.0,), f"tensor[{start('flag')}] = 2 is not a bit"),
        (start("flag"), (-1.0,), f"tensor[{start('flag')}] = -1 is not a bit"),
        (start("maybe"), (2.0,), f"tensor[{start('maybe')}] = 2 is not a bit"),
    ],
)
def test_a_tensor_no_observation_encodes_to_is_refused(
    at: int, floats: tuple[float, ...], message: str
) -> None:
    refused(lambda: SPEC.decode(with_floats(at, *floats)), message)


def test_a_tensor_of_another_size_is_refused() -> None:
    tensor = SPEC.encode(VIEW)
    refused(lambda: SPEC.decode(tensor[:-1]), f"expected {SPEC.size} floats, got {SPEC.size - 1}")
    refused(
        lambda: SPEC.decode([*tensor, 0.0]), f"expected {SPEC.size} floats, got {SPEC.size + 1}"
    )


def test_a_short_queue_reads_its_items_and_skips_its_padding() -> None:
    view = attrs.evolve(VIEW, queue=(), steps=())
    assert SPEC.decode(SPEC.encode(view)) == view
    layout = Upto(3, Int(0, 9))
    assert layout.read([1.0, 7.0, 0.0, 0.0, 5.0], 0) == ((7,), 4)


def test_out_of_bounds_lists_exactly_the_positions_outside() -> None:
    tensor = SPEC.encode(VIEW)
    high = start("pair")
    tensor[high] = 9.0  # at the high bound: inside
    assert SPEC.out_of_bounds(tensor) == []
    tensor[high + 1] = 10.0
    tensor[start("n")] = 1.0
    assert SPEC.out_of_bounds(tensor) == [start("n"), high + 1]


def test_a_layout_for_an_unknown_field_or_an_unknown_public_part_is_refused() -> None:
    with pytest.raises(ObservationEncodingError) as info:
        Fields(View, {**SPEC.layout.layouts, "extra": Flag()})
    assert str(info.value) == (
        "the encoding of View must lay out exactly its fields: missing [], unknown ['extra']"
    )
    with pytest.raises(ObservationEncodingError) as info:
        ObservationSpec(SPEC.layout, public=("n", "secret"))
    assert str(info.value) == "public parts ['secret'] are not fields of View"


def test_a_changed_value_outside_its_choices_is_refused_by_the_differ_too() -> None:
    refused(
        lambda: SPEC.changes(VIEW, attrs.evolve(VIEW, kind="c")),
        "'c' is not one of the declared values ['a', 'b']",
    )
    assert SPEC.changes(VIEW, attrs.evolve(VIEW, kind="a")) == [(start("kind"), (1.0, 0.0))]


def test_part_of_gives_exactly_a_parts_floats() -> None:
    tensor = SPEC.encode(VIEW)
    assert SPEC.part_of(tensor, "pair") == [3.0, 4.0]
    assert SPEC.part_of(tensor, "n") == [2.0]
    assert SPEC.part_of(tensor, "flag") == [1.0]
    with pytest.raises(KeyError):
        SPEC.part_of(tensor, "secret")

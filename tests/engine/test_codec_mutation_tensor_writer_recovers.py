"""A TensorWriter whose write failed half-way rewrites its whole buffer next time (pinned
by the kernel's mutation audit: a writer that kept its last observation after a failed
write passed, since the earlier test failed before any float was packed).

A value too large for a float32 is found while packing, after the runs before it were
written into the buffer: the buffer then holds neither observation, and the next write
must not diff against the last one that succeeded.
"""

from __future__ import annotations

from array import array

import attrs
import pytest

from clangames.engine.encoding import (
    Fields,
    Int,
    ObservationEncodingError,
    ObservationSpec,
    TensorWriter,
)


@attrs.frozen
class Pair:
    first: int
    second: int


SPEC = ObservationSpec(Fields(Pair, {"first": Int(0, 9), "second": Int(0, 9)}), public=())


def test_a_write_that_fails_while_packing_leaves_the_next_write_whole() -> None:
    buffer = array("f", [0.0, 0.0])
    writer = TensorWriter(SPEC, buffer)
    good = Pair(1, 2)
    writer.write(good)
    assert buffer.tolist() == [1.0, 2.0]
    with pytest.raises(ObservationEncodingError, match=r"^a value does not fit a float32: "):
        writer.write(Pair(7, 10**40))  # the first run is packed, the second cannot be
    assert buffer.tolist() != SPEC.encode(good)  # half written: neither observation
    writer.write(good)
    assert buffer.tolist() == SPEC.encode(good)
    writer.write(Pair(3, 2))
    assert buffer.tolist() == [3.0, 2.0]

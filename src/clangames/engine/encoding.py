"""Fixed-size numeric encodings of observations, declared per game as data.

A game describes how each field of its observation class is laid out as floats (a
:class:`Layout` per field, nested for nested values) and which fields are public. From
that one declaration the kernel derives everything a learning framework needs: the
tensor's size, each part's shape and bounds (:class:`ObservationSpec`, :class:`Part`),
the encoder that is on the hot path (:meth:`ObservationSpec.encode`) and its inverse
(:meth:`ObservationSpec.decode`), which the conformance harness uses to prove that the
tensor holds exactly the observation: decoding gives back an equal observation, so
nothing is left out, and the tensor is unchanged under ``resample`` from the viewer, so
nothing more is in it.

Layouts never check bounds while encoding (the hot path); the harness checks every
element against its declared bounds. A variable-length value longer than its declared
maximum cannot fit and raises :class:`ObservationEncodingError`.

Successive observations differ in a few places (a move changes a few fields of a large
state), so every layout also lists the runs of floats that turn one value's encoding into
another's (:meth:`Layout.changes`, :meth:`ObservationSpec.changes`): an unchanged field,
task or seat costs one identity or equality test instead of its floats. Equal values
encode alike, so an equal part is skipped. :class:`TensorWriter` keeps a caller's buffer
(a NumPy array in the framework adapters) up to date that way, so that only the changed
floats cross into it: converting a whole list of floats costs several times its encoding.
"""

from __future__ import annotations

import abc
import struct
import sys
from collections.abc import Callable, Mapping, Sequence
from operator import le
from typing import TYPE_CHECKING, Any

import attrs

from clangames.engine.errors import ClanGamesError

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

_PACKERS: dict[int, Callable[..., None]] = {}
"""``pack_into`` of n native float32s, by n (struct's own cache is small and is emptied
whole when it fills)."""


_NATIVE_FLOAT32 = {"f", "@f", "=f", "<f" if sys.byteorder == "little" else ">f"}
"""The buffer formats of native float32s (what the packers write)."""


def _packer(n: int) -> Callable[..., None]:
    pack = _PACKERS[n] = struct.Struct(f"={n}f").pack_into
    return pack


class ObservationEncodingError(ClanGamesError):
    """An observation does not fit its game's declared encoding (a bug in the game's
    declaration, which the conformance harness reports), or a tensor does not decode."""


Patch = tuple[int, Sequence[float]]
"""A run of floats to write into a tensor: its start and the floats."""


class Layout(abc.ABC):
    """How one value is laid out as a run of floats: ``size`` of them, each within the
    bounds that :meth:`bounds` lists."""

    __slots__ = ("size",)

    size: int

    @abc.abstractmethod
    def write(self, value: Any, out: list[float]) -> None:
        """Append ``value``'s ``size`` floats to ``out``."""

    @abc.abstractmethod
    def read(self, data: Sequence[float], pos: int) -> tuple[Any, int]:
        """The value whose floats start at ``data[pos]``, and the position after them."""

    @abc.abstractmethod
    def bounds(self) -> list[tuple[float, float]]:
        """The (low, high) bounds of each of the ``size`` floats."""

    def changes(self, old: Any, new: Any, pos: int, out: list[Patch]) -> None:
        """Append to ``out`` the runs ``(start, floats)`` that turn ``old``'s floats,
        written at ``pos``, into ``new``'s (nothing when they are equal). This default
        rewrites the whole value; layouts of several items compare item by item."""
        if old is not new and old != new:
            self.rewrite(old, new, pos, out)

    def rewrite(self, old: Any, new: Any, pos: int, out: list[Patch]) -> None:
        """Append the run of all ``new``'s floats at ``pos`` to ``out`` (whatever ``old``
        was: the signature of :meth:`changes`, for the differs that call either)."""
        floats: list[float] = []
        self.write(new, floats)
        if len(floats) != self.size:  # an item of the wrong length somewhere inside
            raise ObservationEncodingError(
                f"{type(new).__name__} encoded to {len(floats)} floats, declared {self.size}"
            )
        out.append((pos, floats))


def _differ(layout: Layout) -> tuple[bool, Callable[[Any, Any, int, list[Patch]], None]]:
    """How a differ handles two values of ``layout`` that are not the same object:
    whether to test them for equality first, and what to call then. Values made of
    ints and strings compare at C speed, so an equal pair is skipped at once; a value
    holding attrs values does not (their ``==`` is a Python call that looks at every
    field, which the finer diff does anyway). A layout without a finer diff (a scalar,
    a string, a tuple of ints) is rewritten whole."""
    if isinstance(layout, Fields):
        return False, layout._changes  # the two are not the same object (checked)
    if type(layout).changes is Layout.changes or getattr(layout, "_ints", False):
        return True, layout.rewrite
    return _plain(layout), layout.changes


def _plain(layout: Layout) -> bool:
    """Whether ``layout``'s values hold no attrs value (so ``==`` runs at C speed)."""
    if isinstance(layout, Fields):
        return False
    if isinstance(layout, (Tuple, Upto, Maybe)):
        return _plain(layout.item)
    return True


def _ints_at(data: Sequence[float], pos: int, n: int) -> tuple[int, ...]:
    chunk = list(data[pos : pos + n])
    ints = tuple(map(int, chunk))
    if list(ints) != chunk:
        raise ObservationEncodingError(f"tensor[{pos}:{pos + n}] holds a fraction")
    return ints


def _int_at(data: Sequence[float], pos: int) -> int:
    x = data[pos]
    i = int(x)
    if i != x:
        raise ObservationEncodingError(f"tensor[{pos}] = {x!r} is not a whole number")
    return i


def _bit_at(data: Sequence[float], pos: int) -> bool:
    """The bit at ``pos``, refusing anything but 0 and 1 (a flag, or a value's presence)."""
    i = _int_at(data, pos)
    if i not in (0, 1):
        raise ObservationEncodingError(f"tensor[{pos}] = {i} is not a bit")
    return i == 1


class Int(Layout):
    """An integer in ``low..high``, as itself."""

    __slots__ = ("high", "low")

    def __init__(self, low: int, high: int) -> None:
        if low > high:
            raise ValueError(f"Int: low {low} is above high {high}")
        self.low, self.high, self.size = low, high, 1

    def write(self, value: Any, out: list[float]) -> None:
        out.append(value)

    def read(self, data: Sequence[float], pos: int) -> tuple[Any, int]:
        return _int_at(data, pos), pos + 1

    def bounds(self) -> list[tuple[float, float]]:
        return [(self.low, self.high)]


class Flag(Layout):
    """A bool, as 0 or 1."""

    __slots__ = ()

    def __init__(self) -> None:
        self.size = 1

    def write(self, value: Any, out: list[float]) -> None:
        out.append(1.0 if value else 0.0)

    def read(self, data: Sequence[float], pos: int) -> tuple[Any, int]:
        return _bit_at(data, pos), pos + 1

    def bounds(self) -> list[tuple[float, float]]:
        return [(0, 1)]


_PARTIAL = tuple(
    tuple(tuple(float(m >> i & 1) for i in range(bits)) for m in range(1 << bits))
    for bits in range(9)
)
"""``_PARTIAL[b][m]``: the low ``b`` bits of the byte ``m`` as floats (``b`` = 8: a byte)."""


class Bits(Layout):
    """A bitmask of ``n`` bits (a set of seats, clans or cards), one 0/1 float per bit:
    learners see set membership directly. Written a byte at a time from shared tables."""

    __slots__ = ("_chunks", "_inverse")

    def __init__(self, n: int) -> None:
        self.size = n
        self._chunks = tuple((shift, _PARTIAL[min(8, n - shift)]) for shift in range(0, n, 8))
        self._inverse = {bits: m for m, bits in enumerate(_PARTIAL[n])} if n <= 8 else {}

    def write(self, value: Any, out: list[float]) -> None:
        if value < 0 or value >> self.size:
            raise ObservationEncodingError(
                f"bitmask {value} does not fit the declared {self.size} bits"
            )
        extend = out.extend
        for shift, table in self._chunks:
            extend(table[value >> shift & 255])

    def read(self, data: Sequence[float], pos: int) -> tuple[Any, int]:
        end = pos + self.size
        found = self._inverse.get(tuple(data[pos:end]))
        if found is not None:
            return found, end
        value = 0
        for i, bit in enumerate(_ints_at(data, pos, self.size)):
            if bit not in (0, 1):
                raise ObservationEncodingError(f"tensor[{pos + i}] = {bit} is not a bit")
            value |= bit << i
        return value, end

    def bounds(self) -> list[tuple[float, float]]:
        return [(0, 1)] * self.size


class OneOf(Layout):
    """One of a fixed list of values (phase names, say), one-hot."""

    __slots__ = ("_hot", "options")

    def __init__(self, options: Sequence[Any]) -> None:
        self.options = tuple(options)
        self.size = len(self.options)
        self._hot = {
            o: tuple(float(i == j) for j in range(self.size)) for i, o in enumerate(self.options)
        }

    def write(self, value: Any, out: list[float]) -> None:
        try:
            out.extend(self._hot[value])
        except KeyError:
            raise ObservationEncodingError(
                f"{value!r} is not one of the declared values {list(self.options)}"
            ) from None

    def rewrite(self, old: Any, new: Any, pos: int, out: list[Patch]) -> None:
        hot = self._hot.get(new)
        if hot is None:
            Layout.rewrite(self, old, new, pos, out)  # the error
        else:
            out.append((pos, hot))

    def read(self, data: Sequence[float], pos: int) -> tuple[Any, int]:
        hot = [i for i in range(self.size) if data[pos + i] == 1]
        if len(hot) != 1 or sum(data[pos : pos + self.size]) != 1:
            raise ObservationEncodingError(f"tensor[{pos}:{pos + self.size}] is not one-hot")
        return self.options[hot[0]], pos + self.size

    def bounds(self) -> list[tuple[float, float]]:
        return [(0, 1)] * self.size


class Tuple(Layout):
    """A tuple of exactly ``n`` items laid out alike."""

    __slots__ = ("_ints", "_item_differ", "item", "n")

    def __init__(self, n: int, item: Layout) -> None:
        self.n, self.item, self.size = n, item, n * item.size
        self._ints = type(item) is Int
        self._item_differ = _differ(item)

    def write(self, value: Any, out: list[float]) -> None:
        if len(value) != self.n:
            raise ObservationEncodingError(f"expected {self.n} items, got {len(value)}")
        if self._ints:
            out.extend(value)
        else:
            write = self.item.write
            for v in value:
                write(v, out)

    def read(self, data: Sequence[float], pos: int) -> tuple[Any, int]:
        if self._ints:
            return _ints_at(data, pos, self.n), pos + self.n
        items = []
        for _ in range(self.n):
            v, pos = self.item.read(data, pos)
            items.append(v)
        return tuple(items), pos

    def bounds(self) -> list[tuple[float, float]]:
        return self.item.bounds() * self.n

    def changes(self, old: Any, new: Any, pos: int, out: list[Patch]) -> None:
        if self._ints or len(old) != self.n or len(new) != self.n:
            Layout.changes(self, old, new, pos, out)  # one run (or the length error)
            return
        size = self.item.size
        compare, item = self._item_differ
        for a, b in zip(old, new, strict=True):
            if a is not b and (not compare or a != b):
                item(a, b, pos, out)
            pos += size


class Upto(Layout):
    """A tuple of at most ``n`` items: its length, then the items, then padding (each
    padding float at its element's lower bound)."""

    __slots__ = ("_ints", "_item_differ", "_pad", "item", "n")

    def __init__(self, n: int, item: Layout) -> None:
        self.n, self.item, self.size = n, item, 1 + n * item.size
        pad = [low for low, _ in item.bounds()]
        self._pad = tuple(tuple(pad * (n - k)) for k in range(n + 1))  # by length
        self._ints = type(item) is Int
        self._item_differ = _differ(item)

    def write(self, value: Any, out: list[float]) -> None:
        k = len(value)
        if k > self.n:
            raise ObservationEncodingError(
                f"{k} items do not fit the declared maximum of {self.n}: {tuple(value)!r}"
            )
        out.append(k)
        if self._ints:
            out.extend(value)
        else:
            write = self.item.write
            for v in value:
                write(v, out)
        out.extend(self._pad[k])

    def read(self, data: Sequence[float], pos: int) -> tuple[Any, int]:
        k = _int_at(data, pos)
        if not 0 <= k <= self.n:
            raise ObservationEncodingError(f"tensor[{pos}] = {k} is not a length 0..{self.n}")
        pos += 1
        if self._ints:
            return _ints_at(data, pos, k), pos + self.n
        items = []
        for _ in range(k):
            v, pos = self.item.read(data, pos)
            items.append(v)
        return tuple(items), pos + (self.n - k) * self.item.size

    def bounds(self) -> list[tuple[float, float]]:
        return [(0, self.n), *self.item.bounds() * self.n]

    def changes(self, old: Any, new: Any, pos: int, out: list[Patch]) -> None:
        if old is new:
            return
        k, j = len(new), len(old)
        if self._ints or k > self.n or j > self.n:
            Layout.changes(self, old, new, pos, out)  # one run (or the length error)
            return
        size = self.item.size
        if k != j:
            out.append((pos, [k]))
        at = pos + 1
        compare, item = self._item_differ
        for a, b in zip(old, new, strict=False):  # the items both have
            if a is not b and (not compare or a != b):
                item(a, b, at, out)
            at += size
        if k > j:  # items added: written after the common ones
            floats: list[float] = []
            write = self.item.write
            for v in new[j:]:
                write(v, floats)
            if len(floats) != (k - j) * size:
                raise ObservationEncodingError(
                    f"items {tuple(new[j:])!r} encoded to {len(floats)} floats,"
                    f" declared {(k - j) * size}"
                )
            out.append((at, floats))
        elif k < j:  # items removed: padding where they were
            out.append((at, self._pad[self.n - (j - k)]))


class Chars(Layout):
    """A string of at most ``n`` characters from ``alphabet``: its length, then each
    character's index in the alphabet (padding 0)."""

    __slots__ = ("_index", "_known", "alphabet", "n")

    _KEEP = 1 << 14  # strings whose floats are remembered (names and towers repeat)

    def __init__(self, n: int, alphabet: str) -> None:
        self.n, self.alphabet, self.size = n, alphabet, 1 + n
        self._index = {c: float(i) for i, c in enumerate(alphabet)}
        self._known: dict[str, tuple[float, ...]] = {}

    def write(self, value: Any, out: list[float]) -> None:
        known = self._known.get(value)
        if known is not None:
            out.extend(known)
            return
        start = len(out)
        self._write(value, out)
        if len(self._known) < self._KEEP:
            self._known[value] = tuple(out[start:])

    def rewrite(self, old: Any, new: Any, pos: int, out: list[Patch]) -> None:
        known = self._known.get(new)
        if known is None:
            Layout.rewrite(self, old, new, pos, out)
        else:
            out.append((pos, known))

    def _write(self, value: Any, out: list[float]) -> None:
        k = len(value)
        if k > self.n:
            raise ObservationEncodingError(f"{value!r} is longer than the declared {self.n}")
        out.append(k)
        try:
            out.extend([self._index[c] for c in value])
        except KeyError:
            raise ObservationEncodingError(
                f"{value!r} has a character outside {self.alphabet!r}"
            ) from None
        out.extend([0.0] * (self.n - k))

    def read(self, data: Sequence[float], pos: int) -> tuple[Any, int]:
        k = _int_at(data, pos)
        if not 0 <= k <= self.n:
            raise ObservationEncodingError(f"tensor[{pos}] = {k} is not a length 0..{self.n}")
        chars = []
        for i in range(k):
            j = _int_at(data, pos + 1 + i)
            if not 0 <= j < len(self.alphabet):
                raise ObservationEncodingError(f"tensor[{pos + 1 + i}] = {j} is no character")
            chars.append(self.alphabet[j])
        return "".join(chars), pos + 1 + self.n

    def bounds(self) -> list[tuple[float, float]]:
        return [(0, self.n), *[(0, len(self.alphabet) - 1)] * self.n]


class Maybe(Layout):
    """A value or None: a presence flag, then the value (all padding when absent)."""

    __slots__ = ("_pad", "item")

    def __init__(self, item: Layout) -> None:
        self.item, self.size = item, 1 + item.size
        self._pad = [low for low, _ in item.bounds()]

    def write(self, value: Any, out: list[float]) -> None:
        if value is None:
            out.append(0.0)
            out.extend(self._pad)
        else:
            out.append(1.0)
            self.item.write(value, out)

    def read(self, data: Sequence[float], pos: int) -> tuple[Any, int]:
        if not _bit_at(data, pos):
            return None, pos + self.size
        return self.item.read(data, pos + 1)

    def bounds(self) -> list[tuple[float, float]]:
        return [(0, 1), *self.item.bounds()]

    def changes(self, old: Any, new: Any, pos: int, out: list[Patch]) -> None:
        if old is new:
            return
        if old is None or new is None:
            self.rewrite(old, new, pos, out)
        else:
            self.item.changes(old, new, pos + 1, out)


def _wrong_length(value: Any, n: int) -> None:
    raise ObservationEncodingError(f"expected {n} items, got {len(value)}")


def _compile_writer(items: tuple[tuple[str, Layout], ...]) -> Any:
    """A writer for an attrs value laid out field by field, generated once per layout:
    one line per field, the common layouts (an int, a flag, a tuple of ints) inlined, the
    others calling their layout. The encoder is on a learner's hot path."""
    lines = ["def write(value, out):", "    a = out.append", "    e = out.extend"]
    env: dict[str, Any] = {"_wrong_length": _wrong_length}
    for k, (name, layout) in enumerate(items):
        get = f"value.{name}"
        if type(layout) is Int:
            lines.append(f"    a({get})")
        elif type(layout) is Flag:
            lines.append(f"    a(1.0 if {get} else 0.0)")
        elif type(layout) is Tuple and type(layout.item) is Int:
            lines.append(f"    x = {get}")
            lines.append(f"    e(x) if len(x) == {layout.n} else _wrong_length(x, {layout.n})")
        else:
            env[f"w{k}"] = layout.write
            lines.append(f"    w{k}({get}, out)")
    if not items:
        lines.append("    pass")
    exec("\n".join(lines), env)  # the source is built above from field names only
    return env["write"]


def _compile_differ(items: tuple[tuple[str, Layout], ...]) -> Any:
    """The :meth:`Layout.changes` of an attrs value laid out field by field, generated
    once per layout like its writer: one identity-or-equality test per field, the
    changed field's floats found by its layout (an int, a flag, a tuple of ints inline)."""
    lines = ["def changes(old, new, pos, out):", "    a = out.append"]
    env: dict[str, Any] = {"_wrong_length": _wrong_length}
    offset = 0
    for k, (name, layout) in enumerate(items):
        compare, differ = _differ(layout)
        lines.append(f"    x = old.{name}")
        lines.append(f"    y = new.{name}")
        lines.append("    if x is not y and x != y:" if compare else "    if x is not y:")
        at = f"pos + {offset}"
        if type(layout) is Int:
            lines.append(f"        a(({at}, [y]))")
        elif type(layout) is Flag:
            lines.append(f"        a(({at}, [1.0 if y else 0.0]))")
        elif type(layout) is Tuple and type(layout.item) is Int:
            n = layout.n
            lines.append(f"        a(({at}, y)) if len(y) == {n} else _wrong_length(y, {n})")
        else:
            env[f"c{k}"] = differ
            lines.append(f"        c{k}(x, y, {at}, out)")
        offset += layout.size
    if not items:
        lines.append("    pass")
    exec("\n".join(lines), env)  # the source is built above from field names only
    return env["changes"]


class Fields(Layout):
    """An attrs value, field by field in declaration order. Every field must have a
    layout and every layout a field (checked here), so a field added to the class
    later cannot be silently left out of the encoding."""

    __slots__ = ("_changes", "_items", "_write", "cls", "layouts")

    def __init__(self, cls: type, layouts: Mapping[str, Layout]) -> None:
        names = [f.name for f in attrs.fields(cls)]
        missing = [n for n in names if n not in layouts]
        extra = [n for n in layouts if n not in names]
        if missing or extra:
            raise ObservationEncodingError(
                f"the encoding of {cls.__name__} must lay out exactly its fields:"
                f" missing {missing}, unknown {extra}"
            )
        self.cls = cls
        self.layouts = {n: layouts[n] for n in names}
        self._items = tuple(self.layouts.items())
        self.size = sum(layout.size for layout in self.layouts.values())
        self._write = _compile_writer(self._items)
        self._changes = _compile_differ(self._items)

    def write(self, value: Any, out: list[float]) -> None:
        self._write(value, out)

    def changes(self, old: Any, new: Any, pos: int, out: list[Patch]) -> None:
        if old is not new:
            self._changes(old, new, pos, out)

    def read(self, data: Sequence[float], pos: int) -> tuple[Any, int]:
        values = {}
        for name, layout in self._items:
            values[name], pos = layout.read(data, pos)
        return self.cls(**values), pos

    def bounds(self) -> list[tuple[float, float]]:
        return [b for layout in self.layouts.values() for b in layout.bounds()]


@attrs.frozen(slots=True)
class Part:
    """One named part of an observation tensor: the floats ``start:start + size`` (shape
    ``(size,)``, dtype float32), each within ``low..high``; ``public`` if everyone sees
    the same values (they equal the public observation's)."""

    name: str
    start: int
    size: int
    low: float
    high: float
    public: bool

    @property
    def shape(self) -> tuple[int, ...]:
        """The part's shape (flat)."""
        return (self.size,)


class ObservationSpec:
    """A game's declared observation encoding: the observation class laid out field by
    field (``layout``), and which fields are ``public`` (the rest are private: they may
    differ between viewers)."""

    dtype = "float32"

    def __init__(self, layout: Fields, public: Sequence[str]) -> None:
        unknown = [name for name in public if name not in layout.layouts]
        if unknown:
            raise ObservationEncodingError(
                f"public parts {unknown} are not fields of {layout.cls.__name__}"
            )
        self.layout = layout
        self.size = layout.size
        bounds = layout.bounds()
        self.low: tuple[float, ...] = tuple(low for low, _ in bounds)
        self.high: tuple[float, ...] = tuple(high for _, high in bounds)
        parts = []
        start = 0
        for name, item in layout.layouts.items():
            mine = bounds[start : start + item.size]
            parts.append(
                Part(
                    name=name,
                    start=start,
                    size=item.size,
                    low=min((lo for lo, _ in mine), default=0.0),
                    high=max((hi for _, hi in mine), default=0.0),
                    public=name in public,
                )
            )
            start += item.size
        self.parts: tuple[Part, ...] = tuple(parts)

    @property
    def shape(self) -> tuple[int, ...]:
        """The whole tensor's shape (flat)."""
        return (self.size,)

    @property
    def private_parts(self) -> tuple[Part, ...]:
        """The parts that may differ between viewers."""
        return tuple(p for p in self.parts if not p.public)

    @property
    def public_parts(self) -> tuple[Part, ...]:
        """The parts everyone sees alike."""
        return tuple(p for p in self.parts if p.public)

    def encode(self, observation: Any) -> list[float]:
        """The observation's floats (``size`` of them)."""
        out: list[float] = []
        self.layout.write(observation, out)
        if len(out) != self.size:  # a layout wrote a tuple of the wrong length
            raise ObservationEncodingError(
                f"{type(observation).__name__} encoded to {len(out)} floats, declared {self.size}"
            )
        return out

    def changes(self, old: Any, new: Any) -> list[Patch]:
        """The runs ``(start, floats)`` that turn ``encode(old)`` into ``encode(new)``
        (``old`` an observation that fits the encoding): each unchanged field, item or
        seat costs one identity or equality test."""
        out: list[Patch] = []
        self.layout.changes(old, new, 0, out)
        return out

    def decode(self, data: Sequence[float]) -> Any:
        """The observation that :meth:`encode` turned into ``data``."""
        if len(data) != self.size:
            raise ObservationEncodingError(f"expected {self.size} floats, got {len(data)}")
        value, _ = self.layout.read(data, 0)
        return value

    def out_of_bounds(self, data: Sequence[float]) -> list[int]:
        """The positions of ``data`` outside their declared bounds."""
        low, high = self.low, self.high
        if all(map(le, low, data)) and all(map(le, data, high)):  # at C speed
            return []
        return [i for i, x in enumerate(data) if not low[i] <= x <= high[i]]

    def part_of(self, data: Sequence[float], name: str) -> list[float]:
        """The floats of the part called ``name``."""
        for part in self.parts:
            if part.name == name:
                return list(data[part.start : part.start + part.size])
        raise KeyError(name)


class TensorWriter:
    """Keeps ``buffer`` holding the float32 tensor of the last observation written to it:
    the next observation rewrites only the runs that differ (:meth:`ObservationSpec.changes`),
    packed straight into the buffer's memory. ``buffer`` is any writable buffer of
    ``spec.size`` float32s in native byte order (a NumPy ``float32`` array, an
    ``array("f")``); the framework adapters keep a NumPy array this way, so that only the
    changed floats are converted. The buffer is the writer's: anything else that writes
    into it must call :meth:`forget`."""

    __slots__ = ("_buffer", "_last", "_spec")

    def __init__(self, spec: ObservationSpec, buffer: WriteableBuffer) -> None:
        try:
            view = memoryview(buffer)
        except TypeError:
            raise ObservationEncodingError(
                f"a tensor buffer must be a buffer of float32s, got {type(buffer).__name__}"
            ) from None
        if (
            view.readonly
            or view.format not in _NATIVE_FLOAT32
            or view.nbytes != 4 * spec.size
            or not view.c_contiguous
        ):
            raise ObservationEncodingError(
                f"a tensor buffer must be {spec.size} writable, contiguous float32s in native"
                f" byte order, got {view.nbytes // max(1, view.itemsize)} of format"
                f" {view.format!r}" + (", read-only" if view.readonly else "")
            )
        self._spec = spec
        self._buffer = buffer
        self._last: Any = None

    def write(self, observation: Any) -> None:
        """Make the buffer hold ``observation``'s tensor (it raises
        ObservationEncodingError if the observation does not fit, and the buffer is then
        rewritten whole next time)."""
        last = self._last
        self._last = None  # until the buffer is whole again
        if last is None or type(last) is not type(observation):
            patches: list[Patch] = [(0, self._spec.encode(observation))]
        else:
            patches = []
            self._spec.layout.changes(last, observation, 0, patches)
        buffer = self._buffer
        packers = _PACKERS
        try:
            for start, floats in patches:
                n = len(floats)
                (packers.get(n) or _packer(n))(buffer, 4 * start, *floats)
        except (struct.error, OverflowError) as exc:
            raise ObservationEncodingError(f"a value does not fit a float32: {exc}") from None
        self._last = observation

    def forget(self) -> None:
        """Rewrite the whole buffer next time (its contents are no longer known)."""
        self._last = None

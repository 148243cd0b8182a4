"""JSON codec for frozen attrs values, driven by their type annotations.

States, observations and phases are attrs classes whose fields are ints, strs, bools,
tuples, frozensets, enums and other attrs classes. ``encode`` turns such a value into
plain JSON data; ``decode`` reads it back and checks every field's shape against the
annotation, so a corrupt file fails with an error that names the field (``state.hands[2]:
expected int, got 'x'``) instead of producing a broken state.

A field can opt out of the JSON form with ``metadata={"json": False}`` (e.g. the ``game``
back-reference, which ``Game.state_from_json`` supplies itself).

Speed: the first time a class is encoded or decoded, the codec writes a Python function
for it from its ``json_fields`` (straight-line code, one line per field) and keeps it, so
a state costs a few function calls instead of a recursive walk guided by ``typing``. A
generated decoder only *checks* cheaply; anything it does not accept at once (bad data,
an int subclass, a validator that refuses) is handed to the generic decoder below, which
gives the exact error naming the field. So both decoders agree on every input, and the
generated one never formats a path on the way.

Safety: :func:`parse_json` is the one front door for JSON text (and for JSON-like Python
data given instead of text): bytes must be UTF-8, nesting is limited to ``MAX_DEPTH``,
NaN and infinities are refused, and every error is a StateDecodeError naming the place.
The decoders only ever descend as deep as the annotations go, and error messages show a
bounded rendering of the bad value, so no input can make them recurse without limit.
"""

from __future__ import annotations

import enum
import json
import math
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping
from fractions import Fraction
from itertools import accumulate, repeat
from operator import sub
from typing import Any

import attrs

from clangames.engine.errors import StateDecodeError

JSON = Any  # what json.dumps accepts: dict, list, str, int, float, bool, None

MAX_DEPTH = 100
"""The deepest nesting of lists and objects the codec accepts (a state nests about 6)."""

MAX_INT_BITS = 2000
"""Integers of more bits are refused: their decimal text (about 600 digits) stays under the
interpreter's smallest int-to-text limit (640 digits), so an accepted value can be printed
and saved again."""

_INT_BOUND = 1 << MAX_INT_BITS

_FIELDS: dict[type, tuple[tuple[str, Any], ...]] = {}


def json_fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """The (name, annotation) pairs of an attrs class that take part in its JSON form.

    Annotations are resolved one field at a time, so a field left out of the JSON form
    (like a ``game`` back-reference imported only for type checking) need not resolve.
    """
    found = _FIELDS.get(cls)
    if found is None:
        pairs = []
        for f in attrs.fields(cls):
            if not f.metadata.get("json", True) or not f.init:
                continue
            pairs.append((f.name, _resolve(cls, f.name, f.type)))
        found = tuple(pairs)
        _FIELDS[cls] = found
    return found


_ALIASES: dict[type, dict[str, str]] = {}


def _init_aliases(cls: type) -> dict[str, str]:
    """An attrs class's JSON field names that its constructor takes under another name
    (a private field ``_n`` is passed as ``n``), with that name."""
    found = _ALIASES.get(cls)
    if found is None:
        found = _ALIASES[cls] = {
            f.name: f.alias
            for f in attrs.fields(cls)
            if f.init and getattr(f, "alias", f.name) != f.name
        }
    return found


def _resolve(cls: type, name: str, annotation: Any) -> Any:
    if not isinstance(annotation, str):
        return annotation
    for klass in cls.__mro__:
        if name in getattr(klass, "__annotations__", {}):
            namespace = vars(sys.modules[klass.__module__])
            return eval(annotation, namespace)  # annotations are our own source code
    raise TypeError(f"cannot resolve the annotation of {cls.__name__}.{name}")


# -- JSON text and JSON-like data: the front door ----------------------------------------------

_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEPS = bytes.maketrans(b"[]{}", b"\x02\x00\x02\x00")
"""Opening brackets step the depth by +1, closing ones by -1 (after subtracting 1)."""


def _deepest(text: str) -> int:
    """The deepest nesting of brackets outside string literals (C-speed passes only)."""
    brackets = _NOT_BRACKET.sub("", _STRING_LITERAL.sub("", text)).encode("ascii")
    steps = brackets.translate(_BRACKET_STEPS)
    return max(accumulate(map(sub, steps, repeat(1))), default=0)


def _too_deep_at(text: str) -> int:
    """The position in ``text`` where the nesting first goes past MAX_DEPTH."""
    depth = 0
    for match in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', text, re.DOTALL):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return match.start()
        elif char in "]}":
            depth -= 1
    return len(text)  # pragma: no cover - only called when the nesting is too deep


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large for a number")
    return value


_JSON_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)
"""One decoder, made once: ``json.loads`` with hooks would build a new one per call."""


def parse_json(data: object, what: str) -> JSON:
    """Plain JSON data from JSON text (``str``, or ``bytes`` in UTF-8) or from JSON-like
    Python data, checked to be safe for any decoder: StateDecodeError otherwise, naming
    ``what`` (e.g. ``"state"``) and the position or path.

    Text must be valid JSON (no NaN or Infinity, numbers within the interpreter's
    int-to-text limit) nesting at most ``MAX_DEPTH`` deep. The lists and dicts of Python
    data must hold only dicts with string keys, lists, strings, finite floats, integers of
    at most ``MAX_INT_BITS`` bits, booleans and None, under the same depth limit; the data
    is returned as it is (a bare value of another type is left to the caller's check).
    """
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise StateDecodeError(
                f"{what}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at position"
                f" {exc.start})"
            ) from None
    if not isinstance(data, str):
        check_json_data(data, what)
        return data
    text = str.__str__(data)
    if text.count("[") + text.count("{") > MAX_DEPTH and _deepest(text) > MAX_DEPTH:
        raise StateDecodeError(
            f"{what}: not valid JSON (nested more than {MAX_DEPTH} deep at position"
            f" {_too_deep_at(text)})"
        )
    try:
        parsed = _JSON_DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise StateDecodeError(f"{what}: not valid JSON ({exc})") from None
    except (ValueError, RecursionError) as exc:  # number limits; a stack already deep
        raise StateDecodeError(f"{what}: not valid JSON ({exc})") from None
    return parsed


_JSON_LEAVES = (str, bool, type(None))


def check_json_data(data: object, what: str) -> None:
    """StateDecodeError naming the path unless the lists and dicts in ``data`` hold only
    JSON-like Python data (see :func:`parse_json`); walks the data without recursion. A
    bare value that is not a list or dict is left to the caller's own check."""
    if not isinstance(data, (dict, list)):
        return
    stack: list[tuple[object, str, int]] = [(data, what, 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, _JSON_LEAVES):
            continue
        if isinstance(value, int):
            if not -_INT_BOUND < value < _INT_BOUND:
                raise StateDecodeError(
                    f"{path}: expected a number of at most {MAX_INT_BITS} bits, got"
                    f" {describe(value)}"
                )
            continue
        if isinstance(value, float):
            if not math.isfinite(value):
                raise StateDecodeError(f"{path}: expected a finite number, got {value!r}")
            continue
        if isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                shown = path if len(path) <= 80 else path[:77] + "..."
                raise StateDecodeError(f"{what}: nested more than {MAX_DEPTH} deep at {shown}")
            if isinstance(value, list):
                items = [(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value)]
            else:
                items = []
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise StateDecodeError(
                            f"{path}: expected string keys, got the key {describe(key)}"
                        )
                    items.append((item, f"{path}.{key}", depth + 1))
            stack.extend(reversed(items))  # the first bad item is the one reported
            continue
        raise StateDecodeError(
            f"{path}: expected JSON data (an object, list, string, number, true, false or"
            f" null), got {describe(value)}"
        )


# -- bounded descriptions for error messages -------------------------------------------------

_DESCRIBE_LIMIT = 60


class _Enough(Exception):
    """The description is long enough: stop rendering."""


def describe(data: object, limit: int = _DESCRIBE_LIMIT) -> str:
    """``repr(data)`` shortened to ``limit`` characters (with "..."), computed without
    rendering more than needed: safe for any object, however deep, large or odd."""
    parts: list[str] = []
    size = [0]

    def emit(text: str) -> None:
        parts.append(text)
        size[0] += len(text)
        if size[0] > limit:
            raise _Enough

    def render(value: Any) -> None:
        kind = type(value)
        if kind is list or kind is tuple:
            emit("[" if kind is list else "(")
            for i, item in enumerate(value):
                if i:
                    emit(", ")
                render(item)
            emit("]" if kind is list else ("," if len(value) == 1 else "") + ")")
        elif kind is dict:
            emit("{")
            for i, (key, item) in enumerate(value.items()):
                if i:
                    emit(", ")
                render(key)
                emit(": ")
                render(item)
            emit("}")
        elif (kind is set or kind is frozenset) and value:
            emit("{" if kind is set else "frozenset({")
            for i, item in enumerate(value):
                if i:
                    emit(", ")
                render(item)
            emit("}" if kind is set else "})")
        elif kind is int and value.bit_length() > MAX_INT_BITS:  # repr may refuse it
            emit(f"<an integer of {value.bit_length()} bits>")
        elif kind is str and len(value) > 4 * limit:  # no need to copy all of it
            emit(repr(value[: 2 * limit]))
        else:
            try:
                text = repr(value)
            except Exception:  # an odd object's repr: the message must not fail
                text = f"<{kind.__name__} object>"
            emit(text)

    try:
        render(data)
    except _Enough:
        pass
    except RecursionError:  # pragma: no cover - nesting needs one part per level
        pass
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- encoding ------------------------------------------------------------------------------------

_PASS_THROUGH = (int, str, bool, float, type(None))
_ENCODERS: dict[type, Callable[[Any], JSON]] = {}


def encode(value: object) -> JSON:
    """Plain JSON data for an attrs value (recursively); tuples become lists."""
    encoder = _ENCODERS.get(type(value))
    if encoder is None:
        encoder = _ENCODERS[type(value)] = _encoder_for(type(value))
    return encoder(value)


def _encode_any(value: object) -> JSON:
    """The generic encoder: dispatches on the value's type at every level."""
    if value is None or isinstance(value, (bool, int, str, float)):
        return value
    if isinstance(value, enum.Enum):
        return encode(value.value)
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, frozenset):
        return sorted((encode(v) for v in value), key=repr)
    if isinstance(value, Fraction):
        return str(value)
    if attrs.has(type(value)):
        return _encoder_for(type(value))(value)
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    raise TypeError(f"cannot encode {type(value).__name__} value {value!r} as JSON")


_SPECIAL = (int, str, float, bool, enum.Enum, tuple, list, frozenset, Fraction)
"""Types the generic encoder handles before looking at attrs fields."""


def _encoder_for(cls: type) -> Callable[[Any], JSON]:
    if cls in _PASS_THROUGH:
        return _identity
    if not attrs.has(cls) or issubclass(cls, _SPECIAL):
        return _encode_any
    found = _ENCODERS.get(cls)
    if found is None:
        found = _ENCODERS[cls] = _EncoderWriter().function(cls)
    return found


def _identity(value: JSON) -> JSON:
    return value


def _encode_dict(value: dict[Any, Any]) -> JSON:
    """What the generic encoder gives for a plain dict (e.g. a game's parameters)."""
    return {
        k if type(k) is str else str(k): v if type(v) in _PASS_THROUGH else encode(v)
        for k, v in value.items()
    }


def _encode_sequence(value: list[Any] | tuple[Any, ...]) -> JSON:
    """What the generic encoder gives for a plain list or tuple."""
    return [v if type(v) in _PASS_THROUGH else encode(v) for v in value]


_ENCODERS.update({dict: _encode_dict, list: _encode_sequence, tuple: _encode_sequence})


class _EncoderWriter:
    """Writes the source of one attrs class's encoder: a dict display whose values are
    expressions that follow each field's annotation (nested attrs classes inlined)."""

    def __init__(self) -> None:
        self.names = 0
        self.namespace: dict[str, Any] = {"_encode": encode}
        self.inlining: set[type] = set()

    def fresh(self, stem: str) -> str:
        self.names += 1
        return f"{stem}{self.names}"

    def constant(self, value: object) -> str:
        name = self.fresh("_k")
        self.namespace[name] = value
        return name

    def function(self, cls: type) -> Callable[[Any], JSON]:
        source = f"def encode_{cls.__name__}(v):\n    return {self.attrs_value(cls, 'v')}\n"
        code = compile(source, f"<codec encoder of {cls.__qualname__}>", "exec")
        exec(code, self.namespace)
        encoder: Callable[[Any], JSON] = self.namespace[f"encode_{cls.__name__}"]
        return encoder

    def attrs_value(self, cls: type, var: str) -> str:
        self.inlining.add(cls)
        items = ", ".join(
            f"{name!r}: {self.value(hint, f'{var}.{name}')}" for name, hint in json_fields(cls)
        )
        self.inlining.discard(cls)
        return "{" + items + "}"

    def value(self, hint: Any, var: str) -> str:
        """An expression encoding ``var`` (evaluated once) as the generic encoder would."""
        if hint in _PASS_THROUGH:
            return var
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            item = self.fresh("_i")
            inner = self.value(args[0], item)
            # ``[*x]`` builds the list in the frame, without calling ``list``.
            return f"[*{var}]" if inner == item else f"[{inner} for {item} in {var}]"
        if origin is tuple and args and all(a in _PASS_THROUGH for a in args):
            return f"[*{var}]"  # a fixed-length tuple of plain values
        if origin is frozenset and len(args) == 1:
            item = self.fresh("_i")
            return f"sorted([{self.value(args[0], item)} for {item} in {var}], key=repr)"
        if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
            (option,) = (a for a in args if a is not type(None))
            name = self.fresh("_u")
            inner = self.value(option, name)
            return f"(None if ({name} := {var}) is None else {inner})"
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            if issubclass(hint, (int, str, float)):
                return var  # the generic encoder keeps such members as they are
            if all(type(m.value) in (int, str) for m in hint):
                return f"{var}.value"
            return f"_encode({var})"
        if (
            isinstance(hint, type)
            and attrs.has(hint)
            and not issubclass(hint, _SPECIAL)
            and hint not in self.inlining
        ):
            # A subclass could add fields: inline only for exactly the annotated class.
            name = self.fresh("_a")
            cls = self.constant(hint)
            return (
                f"({self.attrs_value(hint, name)} if ({name} := {var}).__class__ is {cls}"
                f" else _encode({name}))"
            )
        return f"_encode({var})"


# -- decoding: the generic decoder, which words every error --------------------------------------


def decode(hint: Any, data: JSON, path: str, extra: Mapping[str, object] | None = None) -> Any:
    """Read ``data`` as a value of type ``hint``; ``path`` names it in error messages.

    ``extra`` gives constructor arguments that are not in the JSON form (top level only).
    """
    try:
        decoder = _DECODERS.get(hint)
    except TypeError:  # an unhashable annotation: no generated decoder for it
        return _decode_checked(hint, data, path, extra)
    if decoder is None:
        decoder = _DECODERS[hint] = _DecoderWriter().entry(hint)
    return decoder(data, path, extra)


_READERS: dict[tuple[type, str, tuple[str, ...]], Callable[..., Any]] = {}


def decoder(cls: type, path: str, given: tuple[str, ...] = ()) -> Callable[..., Any]:
    """A function ``(data, *values)`` reading ``data`` exactly as ``decode(cls, data,
    path, dict(zip(given, values)))`` does (same values, same errors), written once per
    attrs class, path and names: a caller that decodes one class many times (like
    ``Game.state_from_json``) keeps it and saves the dispatch and the ``extra`` mapping."""
    key = (cls, path, given)
    found = _READERS.get(key)
    if found is None:
        found = _READERS[key] = _DecoderWriter().reader(cls, path, given)
    return found


def _decode_checked(
    hint: Any, data: JSON, path: str, extra: Mapping[str, object] | None = None, depth: int = 0
) -> Any:
    """The generic decoder: checks ``data`` against ``hint`` step by step and words the
    first problem. Recursion follows the annotation (whose nesting ``depth`` counts, in
    case a class contains itself), never the data alone."""
    if depth > MAX_DEPTH:
        shown = path if len(path) <= 80 else path[:77] + "..."
        raise StateDecodeError(f"{shown}: nested more than {MAX_DEPTH} deep")
    origin = typing.get_origin(hint)
    if hint is int:
        if isinstance(data, int) and not isinstance(data, bool):
            if -_INT_BOUND < data < _INT_BOUND:
                return data
            raise StateDecodeError(
                f"{path}: expected an integer of at most {MAX_INT_BITS} bits, got {describe(data)}"
            )
        raise StateDecodeError(f"{path}: expected an integer, got {describe(data)}")
    if hint is bool:
        if isinstance(data, bool):
            return data
        raise StateDecodeError(f"{path}: expected true or false, got {describe(data)}")
    if hint is str:
        if isinstance(data, str):
            return data
        raise StateDecodeError(f"{path}: expected a string, got {describe(data)}")
    if hint is float:
        if isinstance(data, (int, float)) and not isinstance(data, bool):
            try:
                number = float(data)
            except OverflowError:
                number = math.inf
            if math.isfinite(number):
                return number
            raise StateDecodeError(f"{path}: expected a finite number, got {describe(data)}")
        raise StateDecodeError(f"{path}: expected a number, got {describe(data)}")
    if hint is type(None):
        if data is None:
            return None
        raise StateDecodeError(f"{path}: expected null, got {describe(data)}")
    if hint is Fraction:
        return _decode_fraction(data, path)
    if origin in (types.UnionType, typing.Union):
        options = typing.get_args(hint)
        errors = []
        for option in options:
            try:
                return _decode_checked(option, data, path, None, depth + 1)
            except StateDecodeError as exc:
                errors.append(str(exc))
        raise StateDecodeError(f"{path}: matches none of the allowed forms ({'; '.join(errors)})")
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(data, list):
            raise StateDecodeError(f"{path}: expected a list, got {describe(data)}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(
                _decode_checked(args[0], item, f"{path}[{i}]", None, depth + 1)
                for i, item in enumerate(data)
            )
        if len(data) != len(args):
            raise StateDecodeError(
                f"{path}: expected a list of {len(args)} items, got {len(data)} items"
            )
        return tuple(
            _decode_checked(a, item, f"{path}[{i}]", None, depth + 1)
            for i, (a, item) in enumerate(zip(args, data, strict=True))
        )
    if origin is frozenset:
        (arg,) = typing.get_args(hint)
        if not isinstance(data, list):
            raise StateDecodeError(f"{path}: expected a list, got {describe(data)}")
        return frozenset(
            _decode_checked(arg, item, f"{path}[{i}]", None, depth + 1)
            for i, item in enumerate(data)
        )
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(data)
        except (ValueError, TypeError):
            allowed = ", ".join(repr(m.value) for m in hint)
            raise StateDecodeError(
                f"{path}: expected one of {allowed}, got {describe(data)}"
            ) from None
    if isinstance(hint, type) and attrs.has(hint):
        return _decode_attrs(hint, data, path, extra, depth)
    raise TypeError(f"{path}: codec has no rule for annotation {hint!r}")


_FRACTION_TEXT = re.compile(r"\s*[-+]?[0-9_]*(\.[0-9_]*)?(\s*/\s*[0-9_]+)?\s*")


def _decode_fraction(data: JSON, path: str) -> Fraction:
    # Text with an exponent ("1e999999999") would build a number of any size: refused.
    ok = (type(data) is str and len(data) <= 1000 and _FRACTION_TEXT.fullmatch(data)) or (
        type(data) is int and -_INT_BOUND < data < _INT_BOUND
    )
    if ok:
        try:
            return Fraction(data)
        except (ValueError, ZeroDivisionError):
            pass
    elif type(data) is float and math.isfinite(data):
        return Fraction(str(data))
    raise StateDecodeError(f"{path}: expected a fraction like '1/3', got {describe(data)}")


def _sorted_keys(keys: set[Any]) -> list[str]:
    """Keys in order for a message: strings sorted, then any others, each described."""
    texts = [describe(k) for k in sorted(k for k in keys if isinstance(k, str))]
    texts += sorted(describe(k) for k in keys if not isinstance(k, str))
    return texts


def _decode_attrs(
    cls: type, data: JSON, path: str, extra: Mapping[str, object] | None, depth: int
) -> Any:
    if not isinstance(data, dict):
        raise StateDecodeError(f"{path}: expected an object, got {describe(data)}")
    fields = json_fields(cls)
    names = {name for name, _ in fields}
    unknown = set(data) - names
    if unknown:
        listed = _sorted_keys(unknown)
        more = f" and {len(listed) - 10} more" if len(listed) > 10 else ""
        raise StateDecodeError(
            f"{path}: unknown field(s) {', '.join(listed[:10])}{more}; expected {sorted(names)}"
        )
    missing = sorted(names - set(data))
    if missing:
        raise StateDecodeError(f"{path}: missing field(s) {', '.join(map(repr, missing))}")
    kwargs: dict[str, object] = dict(extra or {})
    aliases = _init_aliases(cls)
    for name, hint in fields:
        value = _decode_checked(hint, data[name], f"{path}.{name}", None, depth + 1)
        kwargs[aliases.get(name, name)] = value
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise StateDecodeError(f"{path}: {exc}") from None
    except Exception as exc:  # a validator or hook refusing in its own way
        raise StateDecodeError(f"{path}: {type(exc).__name__}: {exc}") from None


def require(data: JSON, key: str, path: str, check: Callable[[object], bool], expected: str) -> Any:
    """``data[key]`` when present and passing ``check``; otherwise a StateDecodeError."""
    if not isinstance(data, dict):
        raise StateDecodeError(f"{path}: expected an object, got {describe(data)}")
    if key not in data:
        raise StateDecodeError(f"{path}: missing field {key!r}")
    value = data[key]
    if not check(value):
        raise StateDecodeError(f"{path}.{key}: expected {expected}, got {describe(value)}")
    return value


# -- decoding: generated decoders ----------------------------------------------------------------

Decoder = Callable[[Any, str, Any], Any]
_DECODERS: dict[Any, Decoder] = {}


class _Retry(Exception):
    """Raised by a generated decoder for anything it does not accept at once."""


def _retry() -> Any:
    raise _Retry


def _plain_init(cls: type) -> bool:
    """True if building ``cls`` needs nothing but setting its fields: a slotted class with
    attrs' own ``__init__``, no validators, converters or hooks, JSON fields passed by
    their own names, and constant or plain-factory defaults. Such classes are built
    without ``__init__``."""
    if "__slots__" not in vars(cls):  # a dict class: its hash cache lives elsewhere
        return False
    if "__attrs_init__" in vars(cls) or hasattr(cls, "__attrs_post_init__"):
        return False
    if hasattr(cls, "__attrs_pre_init__"):
        return False
    json_names = {name for name, _ in json_fields(cls)}
    if not json_names.isdisjoint(_init_aliases(cls)):
        return False  # built through its constructor, which takes the alias
    for f in attrs.fields(cls):
        if f.validator is not None or f.converter is not None:
            return False
        if isinstance(f.default, attrs.Factory) and f.default.takes_self:  # type: ignore[arg-type]
            return False
    return True


_BUILDERS: dict[type, type] = {}


def _builder_class(cls: type) -> type:
    """A subclass of ``cls`` with plain attribute assignment and no slots of its own: a
    decoder fills an object of it and then switches the object's class to ``cls``
    (as ``clangames.engine.draft`` does), which costs far less than a frozen ``__init__``."""
    twin = _BUILDERS.get(cls)
    if twin is None:
        twin = _BUILDERS[cls] = type(
            f"{cls.__name__}Decoding",
            (cls,),
            {
                "__slots__": (),
                "__setattr__": object.__setattr__,
                "__delattr__": object.__delattr__,
                "__module__": cls.__module__,
            },
        )
    return twin


def _all_slots(cls: type) -> set[str]:
    return {name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())}


Extra = bool | tuple[str, ...]
"""How a generated decoder gets the constructor arguments that are not in the JSON form:
none (False), a mapping in its argument ``extra`` (True), or these names, each in its
argument ``x_<name>``."""


@attrs.define
class _Pending:
    """What an outermost class's decoder checks after reading all fields (its own and
    those of the classes inlined into it): the variables holding JSON lists of ints, ints,
    lists of strs, strs and bools, and the lines that build the inlined objects and then
    itself."""

    int_lists: list[str] = attrs.Factory(list)
    ints: list[str] = attrs.Factory(list)
    str_lists: list[str] = attrs.Factory(list)
    strs: list[str] = attrs.Factory(list)
    bools: list[str] = attrs.Factory(list)
    builds: list[str] = attrs.Factory(list)


class _DecoderWriter:
    """Writes the source of generated decoders. A decoder for an attrs class reads every
    field, converts it with an expression that follows the annotation and raises _Retry
    (or anything) on the first surprise, then builds the object."""

    def __init__(self) -> None:
        self.names = 0
        self.inlining: set[type] = set()
        self.writing: set[type] = set()
        self.recursive = False
        self.pending: _Pending | None = None
        self.namespace: dict[str, Any] = {
            "_retry": _retry,
            "_Retry": _Retry,
            "_B": _INT_BOUND,
            "_int": int,
            "_str": str,
            "_list": list,
            "_type": type,
            "_map": map,
            "_len": len,
            "_sum": sum,
            "_tuple": tuple,
            "_frozenset": frozenset,
            "_dict": dict,
            "_new": object.__new__,
            # Every item's type exactly int (or str): no bool, no subclass.
            "_ints": frozenset((int,)),
            "_strs": frozenset((str,)),
        }

    def fresh(self, stem: str) -> str:
        self.names += 1
        return f"{stem}{self.names}"

    def constant(self, value: object) -> str:
        name = self.fresh("_k")
        self.namespace[name] = value
        return name

    def entry(self, hint: Any) -> Decoder:
        """The decoder for ``hint``: the generated one, then the generic one (which gives
        the error, or accepts what the generated one left to it)."""
        fast: Callable[[JSON, Mapping[str, object] | None], Any] | None
        try:
            fast = self.fast_function(hint)
        except Exception:  # an annotation the generator has no rule for
            fast = None
        if self.recursive:
            fast = None

        def run(data: JSON, path: str, extra: Mapping[str, object] | None = None) -> Any:
            if fast is not None:
                try:
                    return fast(data, extra)
                except Exception:  # the generic decoder words the error
                    pass
            return _decode_checked(hint, data, path, extra)

        return run

    def fast_function(self, hint: Any) -> Callable[[JSON, Mapping[str, object] | None], Any]:
        if isinstance(hint, type) and attrs.has(hint):
            name = self.attrs_function(hint)
        else:
            name = self.fresh("_d")
            source = f"def {name}(v, extra=None):\n    return {self.value(hint, 'v')}\n"
            self.run(source, hint)
        function: Callable[[JSON, Mapping[str, object] | None], Any] = self.namespace[name]
        return function

    def run(self, source: str, hint: Any) -> None:
        exec(compile(source, f"<codec decoder of {hint!r}>", "exec"), self.namespace)

    def attrs_function(self, cls: type) -> str:
        """Write the decoder of an attrs class (once per writer); its name."""
        known: dict[type, str] = self.namespace.setdefault("_written", {})
        if cls in known:
            if cls in self.writing:
                # A class that contains itself: data could nest it without limit, which
                # only the generic decoder counts (see ``entry``).
                self.recursive = True
            return known[cls]
        name = known[cls] = self.fresh(f"_decode_{cls.__name__}_")
        self.writing.add(cls)
        outside, self.pending = self.pending, None  # a function of its own
        lines = [f"def {name}(d, extra=None):"]
        lines += self.attrs_lines(cls, "d", "o", "    ", extra=True)
        lines.append("    return o")
        self.pending = outside
        self.writing.discard(cls)
        self.run("\n".join(lines) + "\n", cls)
        return name

    def reader(self, cls: type, path: str, given: tuple[str, ...]) -> Callable[..., Any]:
        """A function ``(data, *values)`` that reads ``data`` as ``decode(cls, data, path,
        dict(zip(given, values)))`` does, in one call: the generated code, and on any
        surprise the generic decoder (which words the error)."""
        arguments = ", ".join(f"x_{alias}" for alias in given)
        extra = "{" + ", ".join(f"{alias!r}: x_{alias}" for alias in given) + "}"
        name = self.fresh(f"_read_{cls.__name__}_")
        generic = [
            f"    return {self.constant(_decode_checked)}({self.constant(cls)}, d,"
            f" {path!r}, {extra})"
        ]
        try:
            self.writing.add(cls)
            body = self.attrs_lines(cls, "d", "o", "        ", extra=given)
        except Exception:  # an annotation the generator has no rule for
            body = []
            self.pending = None
        self.writing.discard(cls)
        if self.recursive:
            body = []
        lines = [f"def {name}(d, {arguments}):"]
        if body:
            lines += ["    try:", *body, "        return o", "    except Exception:"]
            lines += ["        pass"]
        self.run("\n".join(lines + generic) + "\n", cls)
        function: Callable[..., Any] = self.namespace[name]
        return function

    def inlinable(self, hint: Any) -> bool:
        """True for a nested attrs class whose decoding can be written into its parent's
        (built without ``__init__`` and needing nothing from ``extra``)."""
        if not (isinstance(hint, type) and attrs.has(hint)) or hint in self.inlining:
            return False
        if len(self.inlining) >= 3 or not _plain_init(hint):
            return False
        json_names = {name for name, _ in json_fields(hint)}
        return all(
            f.default is not attrs.NOTHING
            for f in attrs.fields(hint)
            if f.init and f.name not in json_names
        )

    def attrs_lines(self, cls: type, src: str, dst: str, indent: str, extra: Extra) -> list[str]:
        """Lines that read the JSON object ``src`` as a ``cls`` into ``dst``.

        The int, str and bool fields of the class and of the classes inlined into it (and
        its lists of ints or strs) are only collected while reading; the outermost call
        checks them all in one test (:meth:`checks`), then builds the inlined objects and
        ``dst``."""
        outer = self.pending is None
        pending = self.pending = self.pending or _Pending()
        self.inlining.add(cls)
        fields = json_fields(cls)
        lines = [
            f"{indent}if _type({src}) is not _dict or _len({src}) != {len(fields)}:",
            f"{indent}    raise _Retry",
        ]
        values = []
        for field, hint in fields:
            var = self.fresh("f")
            lines.append(f"{indent}{var} = {src}[{field!r}]")
            if hint == tuple[int, ...]:
                pending.int_lists.append(var)
            elif hint is int:
                pending.ints.append(var)
            elif hint == tuple[str, ...]:
                pending.str_lists.append(var)
            elif hint is str:
                pending.strs.append(var)
            elif hint is bool:
                pending.bools.append(var)
            elif self.inlinable(hint):
                built = self.fresh("o")
                lines += self.attrs_lines(hint, var, built, indent, extra=False)
                var = built
            else:
                converted = self.value(hint, var)
                if converted != var:
                    lines.append(f"{indent}{var} = {converted}")
            values.append((field, var))
        self.inlining.discard(cls)
        pending.builds += self.build(cls, values, dst, indent, extra)
        if not outer:
            return lines
        self.pending = None
        return lines + self.checks(pending, indent) + pending.builds

    def checks(self, pending: _Pending, indent: str) -> list[str]:
        """Lines that check the collected values as :meth:`check` and :meth:`items` would
        check each, in one test: all the ints and the items of the int lists gathered in
        one list (a state has up to a dozen of each: one ``issuperset`` and one bounding
        ``sum`` over them all cost less than a test each), the str lists' items likewise;
        then make the lists tuples."""
        tests: list[str | None] = []  # None never comes: every kind here is primitive
        ints = pending.ints
        if len(ints) == 1 and not pending.int_lists:  # one int alone: its own test
            tests.append(self.check(int, ints[0]))
            ints = []
        kinds: tuple[tuple[list[str], list[str], str, bool], ...] = (
            (pending.int_lists, ints, "_ints", True),
            (pending.str_lists, [], "_strs", False),
        )
        for lists, singles, kind, bounded in kinds:
            if not lists and not singles:
                continue
            if lists:
                tests.append(" is ".join(f"_type({name})" for name in lists) + " is _list")
            if len(lists) == 1 and not singles:
                items = first = lists[0]
            else:  # the items together in one list (copied in C, no iterator per item)
                items = self.fresh("_all")
                parts = [f"*{name}" for name in lists] + singles
                first = f"({items} := [{', '.join(parts)}])"
            tests.append(f"{kind}.issuperset(_map(_type, {first}))")
            if bounded:
                tests.append(self.bounded(items))
        tests += [self.check(str, name) for name in pending.strs]
        tests += [self.check(bool, name) for name in pending.bools]
        if not tests:
            return []
        lines = [f"{indent}if not ({' and '.join(t for t in tests if t)}):"]
        lines.append(f"{indent}    raise _Retry")
        lines += [f"{indent}{name} = _tuple({name})" for name in pending.int_lists]
        lines += [f"{indent}{name} = _tuple({name})" for name in pending.str_lists]
        return lines

    def build(
        self, cls: type, values: list[tuple[str, str]], dst: str, indent: str, extra: Extra
    ) -> list[str]:
        """Lines that build ``dst`` from the converted field values and the constructor
        arguments that are not in the JSON form: none (``extra`` False), the mapping in the
        variable ``extra`` (True), or the named ones, each in its variable ``x_<name>`` (a
        tuple of names, known when the code is written)."""
        json_names = {field for field, _ in values}
        others = [f for f in attrs.fields(cls) if f.name not in json_names]
        klass = self.constant(cls)
        aliases = _init_aliases(cls)
        args = ", ".join(f"{aliases.get(field, field)!r}: {var}" for field, var in values)
        if not _plain_init(cls):
            if extra is True:
                given = "_dict(extra) if extra is not None else {}"
            else:
                given = "{" + ", ".join(f"{alias!r}: x_{alias}" for alias in extra or ()) + "}"
            return [
                f"{indent}kwargs = {given}",
                f"{indent}kwargs.update({{{args}}})",
                f"{indent}{dst} = {klass}(**kwargs)",
            ]
        lines = [f"{indent}{dst} = _new({self.constant(_builder_class(cls))})"]
        lines += [f"{indent}{dst}.{field} = {var}" for field, var in values]
        from_extra = [getattr(f, "alias", f.name) for f in others if f.init]
        if extra is True:
            present = " + ".join(f"({alias!r} in extra)" for alias in from_extra) or "0"
            lines.append(f"{indent}if extra is not None and {present} != _len(extra):")
            lines.append(f"{indent}    raise _Retry  # names the constructor does not take")
        elif extra and not set(extra) <= set(from_extra):
            # The constructor would refuse these names: only the generic decoder says so.
            raise TypeError(f"{cls.__name__} takes none of {sorted(set(extra) - set(from_extra))}")
        for f in others:
            alias = getattr(f, "alias", f.name)
            default = self.default(f)
            if not f.init:
                if default is not None:
                    lines.append(f"{indent}{dst}.{f.name} = {default}")
            elif extra is True:
                if default is None:  # required: extra must give it
                    lines.append(f"{indent}if extra is None:")
                    lines.append(f"{indent}    raise _Retry")
                    lines.append(f"{indent}{dst}.{f.name} = extra[{alias!r}]")
                else:
                    lines.append(
                        f"{indent}{dst}.{f.name} = {default} if extra is None or {alias!r} not"
                        f" in extra else extra[{alias!r}]"
                    )
            elif extra and alias in extra:
                lines.append(f"{indent}{dst}.{f.name} = x_{alias}")
            elif default is None:
                raise TypeError(f"{cls.__name__}.{f.name} has no default to decode with")
            else:
                lines.append(f"{indent}{dst}.{f.name} = {default}")
        if "_attrs_cached_hash" in _all_slots(cls):
            lines.append(f"{indent}{dst}._attrs_cached_hash = None")
        lines.append(f"{indent}{dst}.__class__ = {klass}")
        return lines

    def default(self, field: Any) -> str | None:
        """An expression for the field's default, None if it has none."""
        default = field.default
        if default is attrs.NOTHING:
            return None
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            return f"{self.constant(default.factory)}()"
        return self.constant(default)

    def check(self, hint: Any, var: str) -> str | None:
        """A test that ``var`` is already a value of the primitive type ``hint`` (None if
        ``hint`` is not primitive)."""
        if hint is int:
            return f"_type({var}) is _int and -_B < {var} < _B"
        if hint is str:
            return f"_type({var}) is _str"
        if hint is bool:
            return f"({var} is True or {var} is False)"
        if hint is type(None):
            return f"{var} is None"
        return None

    def value(self, hint: Any, var: str) -> str:
        """An expression converting ``var`` (a name or a cheap index, free to evaluate
        more than once) to a value of type ``hint``, or raising."""
        check = self.check(hint, var)
        if check is not None:
            return f"({var} if {check} else _retry())"
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return f"_tuple({self.items(args[0], var)})"
        if origin is tuple and args and Ellipsis not in args:
            checks = [self.check(a, f"{var}[{i}]") for i, a in enumerate(args)]
            if all(checks):  # primitive items: check them in place, copy the list once
                tests = " and ".join([f"_type({var}) is _list", f"_len({var}) == {len(args)}"])
                tests += "".join(f" and {c}" for c in checks)
                return f"(_tuple({var}) if {tests} else _retry())"
            inner = self.fresh("_t")
            self.namespace[inner] = self.helper_fixed(args)
            return f"{inner}({var})"
        if origin is frozenset and len(args) == 1:
            return f"_frozenset({self.items(args[0], var)})"
        if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
            (option,) = (a for a in args if a is not type(None))
            name = self.fresh("_u")
            self.namespace[name] = self.helper(option)
            return f"(None if {var} is None else {name}({var}))"
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            table = {m.value: m for m in hint}
            if len(table) != len(hint.__members__) or not all(type(v) in (int, str) for v in table):
                return self.generic(hint, var)
            lookup = self.constant(table)
            return f"{self.constant(_enum_member)}({lookup}, {var})"
        if isinstance(hint, type) and attrs.has(hint):
            return f"{self.attrs_function(hint)}({var})"
        return self.generic(hint, var)

    @staticmethod
    def bounded(items: str) -> str:
        """A test, for a list of ints, that each is inside the bound (``-_B < x < _B``),
        or it raises: their sum as a float. ``sum`` adds ints to a float in C, and one
        too large for a float (from ``2 ** 1024``, far inside the bound) raises
        OverflowError, so the generic decoder then takes the list. This costs a third of
        summing their absolute values (one call to ``abs`` per item)."""
        return f"_sum({items}, 0.0) is not None"

    def items(self, hint: Any, var: str) -> str:
        """A list expression: the items of the JSON list ``var`` converted to ``hint``."""
        if hint is int:
            # Exactly ints (no bools), each well inside the bound (see ``bounded``).
            return (
                f"({var} if _type({var}) is _list and _ints.issuperset(_map(_type, {var}))"
                f" and {self.bounded(var)} else _retry())"
            )
        if hint is str:
            return (
                f"({var} if _type({var}) is _list and _strs.issuperset(_map(_type, {var}))"
                " else _retry())"
            )
        item = self.fresh("_i")
        return (
            f"([{self.value(hint, item)} for {item} in {var}] if _type({var}) is _list"
            f" else _retry())"
        )

    def helper(self, hint: Any) -> Callable[[Any], Any]:
        """A one-argument generated converter for ``hint`` (for nested non-name values)."""
        name = self.fresh("_h")
        self.run(f"def {name}(v):\n    return {self.value(hint, 'v')}\n", hint)
        function: Callable[[Any], Any] = self.namespace[name]
        return function

    def helper_fixed(self, args: tuple[Any, ...]) -> Callable[[Any], Any]:
        """A converter for a fixed-length tuple with non-primitive items."""
        name = self.fresh("_h")
        items = [self.value(a, f"w{i}") for i, a in enumerate(args)]
        unpack = ", ".join(f"w{i}" for i in range(len(args)))
        source = (
            f"def {name}(v):\n"
            f"    if _type(v) is not _list or _len(v) != {len(args)}:\n"
            f"        raise _Retry\n"
            f"    {unpack}, = v\n"
            f"    return ({', '.join(items)},)\n"
        )
        self.run(source, args)
        function: Callable[[Any], Any] = self.namespace[name]
        return function

    def generic(self, hint: Any, var: str) -> str:
        """Fall back to the generic decoder (its errors only make the caller retry)."""
        checked = self.constant(_decode_checked)
        return f"{checked}({self.constant(hint)}, {var}, '')"


def _enum_member(table: dict[Any, Any], value: Any) -> Any:
    member = table.get(value, _MISSING_MEMBER)
    if member is _MISSING_MEMBER:
        raise _Retry
    return member


_MISSING_MEMBER = object()

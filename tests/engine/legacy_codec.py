"""The codec as it was before per-class generated encoders and decoders (issue 11).

Kept only for the tests: the new codec must write the same JSON, byte for byte, and give the
same errors, and the speed test compares the two in one run. Not part of the library.
"""

from __future__ import annotations

import enum
import sys
import types
import typing
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs

from clangames.engine.errors import StateDecodeError

JSON = Any  # what json.dumps accepts: dict, list, str, int, float, bool, None

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


def _resolve(cls: type, name: str, annotation: Any) -> Any:
    if not isinstance(annotation, str):
        return annotation
    for klass in cls.__mro__:
        if name in getattr(klass, "__annotations__", {}):
            namespace = vars(sys.modules[klass.__module__])
            return eval(annotation, namespace)  # annotations are our own source code
    raise TypeError(f"cannot resolve the annotation of {cls.__name__}.{name}")


def encode(value: object) -> JSON:
    """Plain JSON data for an attrs value (recursively); tuples become lists."""
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
        return {name: encode(getattr(value, name)) for name, _ in json_fields(type(value))}
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    raise TypeError(f"cannot encode {type(value).__name__} value {value!r} as JSON")


def _describe(data: object) -> str:
    text = repr(data)
    return text if len(text) <= 60 else text[:57] + "..."


def decode(hint: Any, data: JSON, path: str, extra: Mapping[str, object] | None = None) -> Any:
    """Read ``data`` as a value of type ``hint``; ``path`` names it in error messages.

    ``extra`` gives constructor arguments that are not in the JSON form (top level only).
    """
    origin = typing.get_origin(hint)
    if hint is int:
        if isinstance(data, int) and not isinstance(data, bool):
            return data
        raise StateDecodeError(f"{path}: expected an integer, got {_describe(data)}")
    if hint is bool:
        if isinstance(data, bool):
            return data
        raise StateDecodeError(f"{path}: expected true or false, got {_describe(data)}")
    if hint is str:
        if isinstance(data, str):
            return data
        raise StateDecodeError(f"{path}: expected a string, got {_describe(data)}")
    if hint is float:
        if isinstance(data, (int, float)) and not isinstance(data, bool):
            return float(data)
        raise StateDecodeError(f"{path}: expected a number, got {_describe(data)}")
    if hint is type(None):
        if data is None:
            return None
        raise StateDecodeError(f"{path}: expected null, got {_describe(data)}")
    if hint is Fraction:
        try:
            return Fraction(str(data))
        except (ValueError, ZeroDivisionError):
            raise StateDecodeError(
                f"{path}: expected a fraction like '1/3', got {_describe(data)}"
            ) from None
    if origin in (types.UnionType, typing.Union):
        options = typing.get_args(hint)
        errors = []
        for option in options:
            try:
                return decode(option, data, path)
            except StateDecodeError as exc:
                errors.append(str(exc))
        raise StateDecodeError(f"{path}: matches none of the allowed forms ({'; '.join(errors)})")
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(data, list):
            raise StateDecodeError(f"{path}: expected a list, got {_describe(data)}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], item, f"{path}[{i}]") for i, item in enumerate(data))
        if len(data) != len(args):
            raise StateDecodeError(
                f"{path}: expected a list of {len(args)} items, got {len(data)} items"
            )
        return tuple(
            decode(a, item, f"{path}[{i}]")
            for i, (a, item) in enumerate(zip(args, data, strict=True))
        )
    if origin is frozenset:
        (arg,) = typing.get_args(hint)
        if not isinstance(data, list):
            raise StateDecodeError(f"{path}: expected a list, got {_describe(data)}")
        return frozenset(decode(arg, item, f"{path}[{i}]") for i, item in enumerate(data))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(data)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in hint)
            raise StateDecodeError(
                f"{path}: expected one of {allowed}, got {_describe(data)}"
            ) from None
    if isinstance(hint, type) and attrs.has(hint):
        return _decode_attrs(hint, data, path, extra)
    raise TypeError(f"{path}: codec has no rule for annotation {hint!r}")


def _decode_attrs(cls: type, data: JSON, path: str, extra: Mapping[str, object] | None) -> Any:
    if not isinstance(data, dict):
        raise StateDecodeError(f"{path}: expected an object, got {_describe(data)}")
    fields = json_fields(cls)
    names = {name for name, _ in fields}
    unknown = sorted(set(data) - names)
    if unknown:
        raise StateDecodeError(
            f"{path}: unknown field(s) {', '.join(map(repr, unknown))}; expected {sorted(names)}"
        )
    missing = sorted(names - set(data))
    if missing:
        raise StateDecodeError(f"{path}: missing field(s) {', '.join(map(repr, missing))}")
    kwargs: dict[str, object] = dict(extra or {})
    for name, hint in fields:
        kwargs[name] = decode(hint, data[name], f"{path}.{name}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise StateDecodeError(f"{path}: {exc}") from None


def legacy_state_from_json(game: Any, data: Any) -> Any:
    """``Game.state_from_json`` as it was, on the legacy decoder (for the speed test)."""
    import json

    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise StateDecodeError(f"state: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise StateDecodeError(f"state: expected an object, got {type(data).__name__}")
    for key in ("game", "params", "state"):
        if key not in data:
            raise StateDecodeError(f"state: missing field {key!r}")
    if data["game"] != game.name:
        raise StateDecodeError(
            f"state.game: this is {game.name!r}, the data is for {data['game']!r}"
        )
    if data["params"] != encode(dict(game.params)):
        raise StateDecodeError(
            f"state.params: the data has {data['params']!r}, this game has"
            f" {encode(dict(game.params))!r}"
        )
    state = decode(game.state_type, data["state"], "state", {"game": game})
    state.check_consistency()
    return state


def legacy_to_json(state: Any) -> dict[str, Any]:
    """``State.to_json`` as it was, on the legacy encoder."""
    return {
        "game": state.game.name,
        "params": encode(dict(state.game.params)),
        "state": encode(state),
    }

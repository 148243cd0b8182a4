"""Turning command-line ``key=value`` words into checked game parameters."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from clangames.engine.errors import InvalidParameterError
from clangames.engine.game import GameSpec, Parameter

_MAX_SEED = (1 << 64) - 1
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def convert(spec: GameSpec, param: Parameter, text: str) -> object:
    """The value of ``param`` written as ``text`` on the command line, converted to the
    parameter's declared type (InvalidParameterError naming the parameter if it cannot be).

    ``none`` gives None for a parameter whose default is None.
    """
    if param.default is None and text.strip().lower() in ("none", "null"):
        return None
    kind = param.kind
    if kind is str:
        return text
    if kind is bool:
        word = text.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise InvalidParameterError(
            f"{spec.name}: parameter {param.name!r} must be true or false, got {text!r}"
        )
    try:
        return kind(text.strip())
    except (TypeError, ValueError):
        raise InvalidParameterError(
            f"{spec.name}: parameter {param.name!r} must be {kind.__name__}, got {text!r}"
        ) from None


def parse_params(
    spec: GameSpec, items: Sequence[str], players: int | None = None
) -> dict[str, object]:
    """The parameters given as ``key=value`` words (plus ``--players``), converted by the
    declared types and checked by the game's own rules (InvalidParameterError if not)."""
    params: dict[str, object] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InvalidParameterError(f"--param expects key=value, got {item!r}")
        param = spec.parameter(key)
        if param.name in params:
            raise InvalidParameterError(f"{spec.name}: parameter {key!r} is given twice")
        params[param.name] = convert(spec, param, value)
    if players is not None:
        given = params.get("players")
        if given is not None and given != players:
            raise InvalidParameterError(
                f"{spec.name}: --players {players} contradicts --param players={given}"
            )
        params["players"] = players
    return spec.resolve(params)


def describe_parameter(param: Parameter) -> str:
    """One line for people: ``name=TYPE (default ...; allowed ...): doc``."""
    limits = []
    if param.choices is not None:
        limits.append("one of " + ", ".join(repr(c) for c in param.choices))
    if param.minimum is not None and param.maximum is not None:
        limits.append(f"{param.minimum}..{param.maximum}")
    elif param.minimum is not None:
        limits.append(f">= {param.minimum}")
    elif param.maximum is not None:
        limits.append(f"<= {param.maximum}")
    facts = "; ".join([f"default {param.default!r}", *limits])
    return f"{param.name}={param.kind.__name__.upper()} ({facts}): {param.doc}"


def seed_type(text: str) -> int:
    """argparse type for a seed: an int in [0, 2**64)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed must be an integer, got {text!r}") from None
    if not 0 <= value <= _MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed must be in 0..2**64-1, got {value}")
    return value

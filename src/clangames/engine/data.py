"""Component data files: each game's bundled TOML, or a user's own file, read once.

Every game keeps its cards, boards and values in a TOML file inside its package, and lets
a user who owns the physical game load a file of their own through a parameter. This is
the one reader for both; the game supplies the parser that checks the fields.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from clangames.engine.errors import InvalidParameterError

T = TypeVar("T")

_BUNDLED: dict[tuple[str, str], Any] = {}


def load_data(
    package: str,
    filename: str,
    path: str | None,
    parse: Callable[[dict[str, Any], str], T],
    what: str,
) -> T:
    """``parse`` applied to the bundled ``package/filename`` (``path`` None, read once and
    kept) or to the user's file at ``path``; an unreadable or malformed file raises
    InvalidParameterError naming it (``what`` says which kind of file, e.g. "board")."""
    if path is None:
        key = (package, filename)
        if key not in _BUNDLED:
            text = resources.files(package).joinpath(filename).read_text("utf-8")
            _BUNDLED[key] = parse(tomllib.loads(text), f"{filename} (bundled)")
        found: T = _BUNDLED[key]
        return found
    try:
        data = tomllib.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise InvalidParameterError(f"{what} file {path!r} cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InvalidParameterError(f"{what} file {path!r} is not valid TOML: {exc}") from None
    return parse(data, repr(path))


def replace_at(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """A copy of a tuple with item ``i`` replaced (states hold tuples, drafts swap items)."""
    return (*seq[:i], value, *seq[i + 1 :])

"""Component data files: each game's bundled TOML, or a user's own file, read once.

Every game keeps its cards, boards and values in a TOML file inside its package, and lets
a user who owns the physical game load a file of their own through a parameter. This is
the one reader for both; the game supplies the parser that checks the fields.
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from clangames.engine.errors import ClanGamesError, InvalidParameterError

T = TypeVar("T")

_BUNDLED: dict[tuple[str, str], Any] = {}

MAX_FILE_BYTES = 1 << 24
"""A user's data file larger than this (16 MiB) is refused unread (``/dev/zero`` too)."""

_UNREADABLE_KINDS = {stat.S_IFIFO: "a named pipe (FIFO)", stat.S_IFSOCK: "a socket"}
"""File kinds a data file is never read from, with their names for the message."""


def load_data(
    package: str,
    filename: str,
    path: str | None,
    parse: Callable[[dict[str, Any], str], T],
    what: str,
) -> T:
    """``parse`` applied to the bundled ``package/filename`` (``path`` None, read once and
    kept) or to the user's file at ``path``; an unreadable, non-UTF-8 or malformed file
    raises InvalidParameterError naming it (``what`` says which kind of file, e.g.
    "board")."""
    if path is None:
        key = (package, filename)
        if key not in _BUNDLED:
            text = resources.files(package).joinpath(filename).read_text("utf-8")
            _BUNDLED[key] = parse(tomllib.loads(text), f"{filename} (bundled)")
        found: T = _BUNDLED[key]
        return found
    try:
        # A named pipe would be waited on until something writes to it (forever, as a
        # rule), a socket cannot be opened: refused by kind before opening. A device such
        # as /dev/zero is read, within the size bound below.
        kind = _UNREADABLE_KINDS.get(stat.S_IFMT(os.stat(path).st_mode))
        raw = b""
        if kind is None:
            with Path(path).open("rb") as file:
                raw = file.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a path with a NUL character
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InvalidParameterError(f"{what} file {path!r} cannot be read: {reason}") from None
    if kind is not None:
        raise InvalidParameterError(
            f"{what} file {path!r} is {kind}, not a regular file; expected a TOML file"
        )
    if len(raw) > MAX_FILE_BYTES:
        raise InvalidParameterError(
            f"{what} file {path!r} is larger than {MAX_FILE_BYTES} bytes; expected a small"
            " TOML file"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidParameterError(
            f"{what} file {path!r} is not UTF-8 text (byte {raw[exc.start]:#04x} at"
            f" position {exc.start}); expected a TOML file"
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidParameterError(f"{what} file {path!r} is not valid TOML: {exc}") from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively
        raise InvalidParameterError(
            f"{what} file {path!r} nests arrays or tables too deeply to read"
        ) from None
    try:
        return parse(data, repr(path))
    except ClanGamesError:
        raise
    except Exception as exc:  # a parser that missed a check: still the file's fault
        raise InvalidParameterError(
            f"{what} file {path!r} cannot be used: {type(exc).__name__}: {exc}"
        ) from exc


def replace_at(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """A copy of a tuple with item ``i`` replaced (states hold tuples, drafts swap items).

    ``i`` must index ``seq`` (0 <= i < len(seq)); every caller passes a seat, a card or a
    space. One list copy is cheaper than two slices unpacked into a new tuple."""
    items = list(seq)
    items[i] = value
    return tuple(items)


def plus(values: Sequence[int], i: int, delta: int) -> tuple[int, ...]:
    """A copy of a tuple of counts with ``delta`` added at ``i`` (a pile's count of a card
    kind, a row of troops): :func:`replace_at` for a change by an amount."""
    out = list(values)
    out[i] += delta
    return tuple(out)

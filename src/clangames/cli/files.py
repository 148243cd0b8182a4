"""Files the command reads and writes: checked before work starts, read safely, written
atomically."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from clangames.cli.errors import CommandFailure, UsageError

MAX_READ = 64 * 1024 * 1024
"""The largest file the command reads (bytes): a record of any real game is far smaller,
and a bound keeps ``replay /dev/zero`` from reading forever."""


def check_writable(path: str, option: str) -> None:
    """UsageError unless a file can be written at ``path`` (``option`` names the flag in the
    message). Nothing is left behind: an existing file is opened for appending and closed
    unchanged, a new one is created and removed again."""
    if path == "":
        raise UsageError(f"{option}: expected a file name, got an empty one")
    try:
        _try_write(Path(path), path, option)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"{option}: cannot write {path!r}: {reason}") from None


def _try_write(target: Path, path: str, option: str) -> None:
    if target.is_dir():
        raise UsageError(f"{option}: {path!r} is a directory, expected a file name")
    parent = target.parent
    if not parent.is_dir():
        raise UsageError(
            f"{option}: cannot write {path!r}: the directory {str(parent)!r} does not exist"
        )
    if target.exists():
        with open(target, "ab"):
            pass
    else:
        with open(target, "xb"):
            pass
        target.unlink()


def check_directory_writable(directory: Path, option: str) -> None:
    """UsageError unless files can be created in ``directory`` (made if missing)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".clangames-check-"):
            pass
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"{option}: cannot write in {str(directory)!r}: {reason}") from None


def read_text(path: str, what: str) -> str:
    """The UTF-8 text of the file ``path`` (``what`` it is, for messages); CommandFailure
    naming the problem if it cannot be read, is too large or is not UTF-8."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_READ + 1)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise CommandFailure(f"cannot read the {what} {path!r}: {reason}") from None
    if len(data) > MAX_READ:
        raise CommandFailure(
            f"the {what} {path!r} is larger than {MAX_READ // (1024 * 1024)} MiB; not a record"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandFailure(
            f"the {what} {path!r} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset"
            f" {exc.start}); expected a JSON record"
        ) from None


def atomic_write(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that at every moment the file holds either its old
    content or the whole new one: written to a temporary file beside it, then renamed over
    it (OSError if that fails; the temporary file is removed)."""
    target = Path(path)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def input_stream(inp: TextIO | None) -> TextIO:
    """Where typed lines come from: ``inp``, else standard input decoding any bytes (an
    undecodable byte becomes U+FFFD, so no typed line can break the reader)."""
    if inp is not None:
        return inp
    stdin = sys.stdin
    if stdin is None:
        raise UsageError("this command reads typed lines from standard input, which is closed")
    if isinstance(stdin, io.TextIOWrapper):
        stdin.reconfigure(errors="replace")
    return stdin

"""Files the command reads and writes: checked before work starts, read safely, written
atomically."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import secrets
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TextIO

from clangames.cli.errors import CommandFailure, UsageError

MAX_READ = 64 * 1024 * 1024
"""The largest file the command reads (bytes): a record of any real game is far smaller,
and a bound keeps ``replay /dev/zero`` from reading forever."""


def check_writable(path: str, option: str) -> None:
    """UsageError unless a file can be written at ``path`` (``option`` names the flag in the
    message). Nothing is left behind: an existing file is opened for appending and closed
    unchanged (and, as it will be replaced whole, a temporary file is made and removed
    beside it), a new one is created and removed again."""
    if path == "":
        raise UsageError(f"{option}: expected a file name, got an empty one")
    try:
        _try_write(Path(path), path, option)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"{option}: cannot write {path!r}: {reason}") from None


def _try_write(target: Path, path: str, option: str) -> None:
    if os.path.islink(os.path.realpath(target)):
        # realpath stops at a link it cannot resolve, a loop: say so (creating the file
        # would fail with "File exists", which names no cause)
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP))
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
        if target.is_file():
            # The file is replaced whole (atomic_write): a new file must be possible beside
            # it (beside a link's target), or the work done would be lost at the end.
            real = Path(os.path.realpath(target))
            with tempfile.NamedTemporaryFile(dir=real.parent, prefix=f".{real.name}.check-"):
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


def atomic_write(path: str | Path, text: str, *, sync: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that at every moment the file holds either its
    old content or the whole new one (see :func:`atomic_write_with`)."""
    data = text.encode("utf-8")
    atomic_write_with(path, lambda fh: fh.write(data), sync=sync)


def atomic_write_with(
    path: str | Path, write: Callable[[BinaryIO], object], *, sync: bool = False
) -> None:
    """Have ``write`` fill the file ``path`` so that at every moment it holds either its
    old content or the whole new one: ``write`` gets a temporary file beside it, which is
    then renamed over it (OSError if that fails; the temporary file is removed, and the
    old file is untouched). A crash or a full disk midway leaves the old file whole.

    The new file keeps an existing file's permissions (a new one gets the usual ones, the
    umask applied), and a symbolic link is written through, not replaced. A path that is
    not a regular file (``/dev/stdout``, a named pipe) is written in place: it holds no
    old content to keep, and it must not be replaced by a file. With ``sync``, the data
    reach the disk before the rename (for a file a later run relies on)."""
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "wb") as fh:
            write(fh)
        return
    target = Path(os.path.realpath(path))  # a link's target is replaced, not the link
    fd, temp = _create_beside(target)
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None:
                os.chmod(temp, stat.S_IMODE(mode))
            write(fh)
            if sync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _create_beside(target: Path) -> tuple[int, Path]:
    """A new, empty temporary file in ``target``'s directory, open for writing. Created
    with the mode a plain ``open`` would give (``tempfile.mkstemp`` makes it private:
    the file renamed into place would be readable by its owner only)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temp = target.parent / f".{target.name}.{secrets.token_hex(6)}.tmp"
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:  # another writer's temporary file: draw another name
            continue


def file_kind(mode: int) -> str:
    """What a file of ``mode`` (``st_mode``) is, for messages: "a regular file", "a
    directory", "a named pipe (FIFO)", ..."""
    for test, kind in (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "a special file"


class NotARegularFile(Exception):
    """A file to read that is not a regular file (``kind`` says what it is)."""

    def __init__(self, path: str | Path, kind: str) -> None:
        super().__init__(f"{str(path)!r} is {kind}, expected a regular file")
        self.path = path
        self.kind = kind


def open_regular(path: str | Path) -> BinaryIO:
    """``path`` opened for reading (binary) if it is a regular file, else NotARegularFile
    (OSError if it cannot be opened). The file is opened without waiting: opening a named
    pipe for reading would wait for a writer forever, and a device such as ``/dev/zero``
    never ends, so neither is read at all."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(path, file_kind(mode))
        return os.fdopen(fd, "rb")  # O_NONBLOCK changes nothing for a regular file
    except BaseException:
        os.close(fd)
        raise


def os_reason(exc: OSError) -> str:
    """What went wrong, for a message: the system's words ("No space left on device")
    without the file name an OSError may carry, which for a file written whole is the
    temporary file's, new at every try and no use to the reader."""
    return exc.strerror if exc.strerror else str(exc)


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
